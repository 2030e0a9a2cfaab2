#!/usr/bin/env bash
# judge serve's local workers when a grade's child judge dies (issue 59): killed once, the job is graded again and
# gets the student's own verdict; killed twice, it is a judge error (JE), never a student's verdict. softmax-cpu
# under --no-bench, a temporary data folder; each child judge found by its command line (the submission's path in
# this test's data folder) and killed by its pid.
#   worker_lost_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
tmp=$(mktemp -d)
source "$here/serve_lib.sh"
data=$tmp/data

"$judge" serve --data "$data" --add-participant ann >"$tmp/ann.out" 2>&1
ann=$(token_of "$tmp/ann.out")
start_server "$data" --problems softmax-cpu --no-bench --workers 2 --in-flight 10 || exit 1

submit() {  # FILE -> the new submission's id
  api POST /api/submissions "$ann" -F problem=softmax-cpu -F "file=@$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}
state_of() { api GET "/api/submissions/$1" "$ann" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }
# The pid of the child judge grading submission ID (its file is DATA/submissions/ID/...), once it is running.
child_of() {
  local id=$1 deadline=$((SECONDS + 60)) not=${2:-} pid
  while [ $SECONDS -lt $deadline ]; do
    for cmd in /proc/[0-9]*/cmdline; do
      pid=${cmd#/proc/}; pid=${pid%/cmdline}
      [ "$pid" = "$not" ] && continue
      if { tr '\0' ' ' <"$cmd"; } 2>/dev/null | grep -q -- "$data/submissions/$id/softmax-cpu.cpp .*--progress"; then
        echo "$pid"; return 0
      fi
    done
    sleep 0.2
  done
  return 1
}
# Kills the child judge grading ID (not pid NOT) once its functional tests run; prints the pid.
kill_child() {
  local pid; pid=$(child_of "$1" "${2:-}") || return 1
  for _ in $(seq 100); do [ "$(state_of "$1")" = testing ] && break; sleep 0.1; done
  kill -KILL "$pid" && echo "$pid"
}

# Killed once: graded again, the student's verdict (slow-on-every-test is TLE, as the local judge says).
once=$(submit "$problem/submissions/TLE/slow-on-every-test.cpp")
first=$(kill_child "$once")
check "submission $once: its child judge killed mid-grade (pid $first)" test -n "$first"
second=$(child_of "$once" "$first")
check "submission $once: graded again by a new child judge (pid $second)" test -n "$second"
# Killed twice: JE.
twice=$(submit "$problem/submissions/TLE/endless-loop.cpp")
a=$(kill_child "$twice")
b=$(kill_child "$twice" "$a")
check "submission $twice: its child judge killed twice (pids $a, $b)" test -n "$a" -a -n "$b"

wait_s=200 wait_done "$ann" "$once" "$twice"
api GET "/api/submissions/$once" "$ann" >"$tmp/once.json"
api GET "/api/submissions/$twice" "$ann" >"$tmp/twice.json"
echo "once: $(field "$tmp/once.json" 'j["verdict"], j["server"]["worker"]')"
echo "twice: $(field "$tmp/twice.json" 'j["verdict"], j["message"]')"
check "killed once: the student's own verdict (TLE), graded in full the second time" \
  test "$(field "$tmp/once.json" 'j["verdict"]')" = TLE
check "killed twice: JE, the judge's fault, saying it lost the job twice" bash -c \
  "[ '$(field "$tmp/twice.json" 'j["verdict"]')' = JE ] && grep -q 'lost this job twice' '$tmp/twice.json'"
check "the server's log names each loss" bash -c "[ \$(grep -c 'lost: the judge did not finish' '$data.log') -ge 3 ]"
# Every process but this check's own whose command line grades a file of this data folder.
children_left() {
  python3 - "$data/submissions/" <<'PY'
import os, sys
left = []
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        cmd = open(f"/proc/{pid}/cmdline", "rb").read().decode(errors="replace")
    except OSError:
        continue
    if int(pid) != os.getpid() and sys.argv[1] in cmd and "--progress" in cmd:
        left.append(pid + ": " + cmd.replace("\0", " "))
print("\n".join(left))
sys.exit(1 if left else 0)
PY
}
check "no child judge of this server is left" children_left

stop_server
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
