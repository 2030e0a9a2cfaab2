#!/usr/bin/env bash
# `judge worker` grading over judge serve's API (issue 59), the server with no local worker: a queued file graded by
# `judge worker --once` gets the local judge's verdict, its report naming the remote worker; the claim refuses a
# bad token (401) and a participant's (403); a worker that claims and goes silent loses the job when its lease runs
# out (--worker-lease 3), and its late result is refused (409); a worker grading longer than the lease keeps its
# job by its heartbeat; a worker stopped by SIGTERM mid-grade gives its job back. softmax-cpu under --no-bench.
#   worker_remote_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
tmp=$(mktemp -d)
source "$here/serve_lib.sh"
data=$tmp/data
# The background worker (below) killed at exit too, before serve_lib.sh's own clean-up.
wpid=
prev=$(trap -p EXIT) prev=${prev#trap -- \'} prev=${prev%\' EXIT}
trap "[ -n \"\$wpid\" ] && kill -KILL \"\$wpid\" 2>/dev/null; $prev" EXIT

"$judge" serve --data "$data" --add-participant ann >"$tmp/ann.out" 2>&1
ann=$(token_of "$tmp/ann.out")
"$judge" serve --data "$data" --add-worker w1 >"$tmp/w1.out" 2>&1
(umask 077 && token_of "$tmp/w1.out" >"$tmp/w1.token")
w1=$(cat "$tmp/w1.token")
start_server "$data" --problems softmax-cpu --no-bench --workers 0 --in-flight 10 --worker-lease 3 || exit 1

submit() {  # FILE -> the new submission's id
  api POST /api/submissions "$ann" -F problem=softmax-cpu -F "file=@$1" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'
}
state_of() { api GET "/api/submissions/$1" "$ann" | python3 -c 'import json,sys; print(json.load(sys.stdin)["state"])'; }
worker() { "$judge" worker --server "$url" --worker-token-file "$tmp/w1.token" --name box "$@"; }
wait_state() {  # ID STATE SECONDS
  local deadline=$((SECONDS + $3))
  while [ "$(state_of "$1")" != "$2" ]; do [ $SECONDS -lt $deadline ] || return 1; sleep 0.2; done
}

# Graded by `judge worker --once`.
ac=$(submit "$problem/submissions/AC/openmp.cpp")
sleep 1
check "no local worker: submission $ac still queued" test "$(state_of "$ac")" = queued
worker --once >"$tmp/once.out" 2>&1
check "judge worker --once: exit 0, job $ac graded" bash -c "grep -q 'job $ac (softmax-cpu): AC' '$tmp/once.out'"
api GET "/api/submissions/$ac" "$ann" >"$tmp/ac.json"
"$judge" softmax-cpu "$problem/submissions/AC/openmp.cpp" --no-bench --json "$tmp/local.json" >/dev/null 2>&1
echo "served: $(field "$tmp/ac.json" 'j["verdict"], j["score"]["total"], j["server"]["worker"]'); local:" \
  "$(field "$tmp/local.json" 'j["verdict"], j["score"]["total"]')"
check "the remote grade is the local judge's verdict and score" bash -c \
  "[ '$(field "$tmp/ac.json" 'j["verdict"], j["score"]["total"]')' = '$(field "$tmp/local.json" 'j["verdict"], j["score"]["total"]')' ]"
check "its report names the remote worker" test "$(field "$tmp/ac.json" 'j["server"]["worker"]')" = remote:w1/box
worker --once >"$tmp/empty.out" 2>&1
rc=$?
check "judge worker --once on an empty queue: exit 0, nothing graded" bash -c "[ $rc = 0 ] && ! grep -q 'job ' '$tmp/empty.out'"

# Who may claim.
api POST /api/worker/claim hj_not-a-token -d '{}' >/dev/null
check "a claim with a bad token: 401" test "$status" = 401
api POST /api/worker/claim "$ann" -d '{}' >/dev/null
check "a claim with a participant's token: 403" test "$status" = 403

# A worker that claims and goes silent: its lease runs out, the job is queued again; its late result is refused.
ghost=$(submit "$problem/submissions/AC/openmp.cpp")
api POST /api/worker/claim "$w1" -d '{"worker": "ghost"}' >"$tmp/claim.json"
check "a claim: 200, job $ghost with its source" bash -c \
  "[ '$status' = 200 ] && [ \"\$(field '$tmp/claim.json' 'j[\"id\"]')\" = $ghost ] && field '$tmp/claim.json' '__import__(\"base64\").b64decode(j[\"source_base64\"]).decode()' | cmp -s - <(cat '$problem/submissions/AC/openmp.cpp'; echo)"
check "the silent worker's job queued again once its 3 s lease ran out" wait_state "$ghost" queued 15
api POST "/api/worker/$ghost/result" "$w1" -d '{"report": {"verdict": "AC"}, "text": "forged"}' >/dev/null
check "the silent worker's late result: 409" test "$status" = 409
worker --once >/dev/null 2>&1
api GET "/api/submissions/$ghost" "$ann" >"$tmp/ghost.json"
check "the job graded by the next worker" test "$(field "$tmp/ghost.json" 'j["verdict"]')" = AC

# A grade longer than the lease (slow-on-every-test: about 30 s) keeps its job by the heartbeat.
slow=$(submit "$problem/submissions/TLE/slow-on-every-test.cpp")
worker --once >"$tmp/slow.out" 2>&1
check "a 30 s grade under a 3 s lease: kept by the heartbeat, the student's verdict (TLE)" bash -c \
  "grep -q 'job $slow (softmax-cpu): TLE' '$tmp/slow.out' && ! grep -q 'box posted nothing' '$data.log'"

# SIGTERM mid-grade: the worker gives its job back and exits.
stopped=$(submit "$problem/submissions/TLE/endless-loop.cpp")
"$judge" worker --server "$url" --worker-token-file "$tmp/w1.token" --name box >"$tmp/term.out" 2>&1 &
wpid=$!  # the judge's own pid (a function in the background would be a subshell's)
wait_state "$stopped" testing 60
kill -TERM "$wpid"
wait "$wpid"
rc=$? wpid= state=$(state_of "$stopped")
check "a worker stopped mid-grade (SIGTERM): exit 0 (was $rc), its job queued again (is $state)" bash -c \
  "[ $rc = 0 ] && [ $state = queued ] && grep -q 'given back: the grader was stopped' '$tmp/term.out'"

stop_server
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
