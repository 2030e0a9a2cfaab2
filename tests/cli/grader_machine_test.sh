#!/usr/bin/env bash
# The grader's machine is out of a submission's reach (issue 56, classes 1, 3 and 5): the cheats of
# problems/softmax-cpu/submissions/cheat/ that type into the terminal, write to it, change the judge's limits, signal
# it, hold memory in /dev/shm, /tmp or $TMPDIR, and leave a note for the next submission, graded one by one as root
# and as an ordinary user the test creates, with and without --sandbox (where bubblewrap can start), then in
# judge batch (root with and without the sandbox; the ordinary user with it, which its batch requires). After every
# grade: the verdict, the judge ended by itself (exit 0 or 1: no signal, no abort), and nothing left behind in
# /dev/shm or /tmp (no note, no filler, no /tmp/hpcjudge-proof-*, no new file of a runner's uid).
#   grader_machine_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cheats=$(cd "$here/../../problems/softmax-cpu/submissions/cheat" && pwd)
tmp=$(mktemp -d /var/tmp/hpcjudge-grader-XXXXXX)
source "$here/checks.sh"
user=hpcjudge-grader-$$
created=
litter_names=(-name hpcjudge-note-for-the-next-runner -o -name 'hpcjudge-fill-*' -o -name 'hpcjudge-proof-*')
cleanup() {
  find /dev/shm /tmp -maxdepth 3 \( "${litter_names[@]}" \) -delete 2>/dev/null
  [ -n "$created" ] && userdel "$user" 2>/dev/null
  [ -n "${HPCJUDGE_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"
mkdir -p "$tmp/me/cache"
as_me() { env HOME="$tmp/me" HPCJUDGE_CACHE="$tmp/me/cache" "$@"; }

# litter OWNER: what a grade left in /dev/shm and /tmp: a file of the cheats' names, or one made since the grade
# began by a uid no user has (a runner's, where the judge is root) or by OWNER (the runner's user, where the judge is
# not root). In /tmp, files at its top only: other judges at work beside this test keep their folders there.
litter() {
  find /dev/shm /tmp -maxdepth 3 \( "${litter_names[@]}" \) -print 2>/dev/null
  local whose=(-nouser)
  [ "$1" = root ] || whose=(-nouser -o -user "$1")
  find /dev/shm -maxdepth 3 -newer "$tmp/began" \( "${whose[@]}" \) -print 2>/dev/null
  find /tmp -maxdepth 1 -newer "$tmp/began" ! -type d \( "${whose[@]}" \) -print 2>/dev/null
}

# after_grade LABEL RC OWNER [KEEP]: the judge ended by itself and left nothing behind (what it left is removed
# after, unless KEEP: a note left for the next grade to find).
after_grade() {
  local label=$1 rc=$2 owner=$3 keep=${4:-}
  check "$label: the judge ended by itself (exit $rc)" test "$rc" -eq 0 -o "$rc" -eq 1
  litter "$owner" >"$tmp/litter"
  check "$label: nothing left in /dev/shm or /tmp" bash -c "! test -s '$tmp/litter' || { cat '$tmp/litter'; false; }"
  [ -n "$keep" ] || find /dev/shm /tmp -maxdepth 3 \( "${litter_names[@]}" \) -delete 2>/dev/null
}

# grade MODE RUN OWNER SANDBOX FILE VERDICT: one file graded (--no-bench), its verdict and what it left.
grade() {
  local mode=$1 run=$2 owner=$3 sandbox=$4 f=$5 want=$6
  local r=$tmp/$mode/$f
  touch "$tmp/began" && sleep 0.01
  $run env $(cap_of "$f") timeout -k 10 240 "$judge" softmax-cpu "$tmp/$mode/$f.cpp" --no-bench $sandbox \
    --json "$r.json" >"$r.out" 2>&1
  local rc=$?
  local got
  got=$(field "$r.json" 'j["verdict"]' 2>&1 | tail -1)
  echo "$mode $f: exit $rc, $got: $(field "$r.json" 'j["message"][:160]' 2>&1 | tail -1)"
  if [ "$want" = RE ]; then
    check "$mode: $f is RE, a system call no submission may make" \
      bash -c "test '$got' = RE && grep -q 'a system call no submission may make' '$r.json'"
  elif [ "$f" = fills-dev-shm ] && [ "$want" = AC ]; then
    local none
    none=$(field "$r.json" '"\n0 bytes written" in "\n" + j["output"]["text"]' 2>&1 | tail -1)
    check "$mode: $f is AC, refused /dev/shm (no mount of its own can be made)" test "$got $none" = "AC True"
  else
    check "$mode: $f is $want" test "$got" = "$want"
  fi
  [ -z "$(cap_of "$f")" ] ||
    check "$mode: $f: the report records the memory cap" \
      test "$(field "$r.json" 'j["settings"]["HPCJUDGE_MEMORY_LIMIT"]' 2>&1 | tail -1)" = "$cap_mib"
  after_grade "$mode: $f" "$rc" "$owner" "$([ "$f" = leaves-a-note ] && echo keep)"
}

# The memory fillers are graded under a cap of the runners' memory (HPCJUDGE_MEMORY_LIMIT, in MiB): to pass the
# problem's own limit (its largest performance case twice over plus 4 GiB) they must write more than 5 GiB, which
# took past a call's time limit on a 2-core machine whose fresh memory is slow (TLE); past 1 GiB they test the same.
cap_mib=1024
cap_of() { case "$1" in fills-*) echo "HPCJUDGE_MEMORY_LIMIT=$cap_mib" ;; esac; }

single_files=(types-into-the-terminal:RE pastes-into-the-console:RE writes-to-the-terminal:AC limits-the-judge:RE
              signals-the-judge:RE leaves-a-note:AC finds-a-note:AC)
# verdict_of FILE VERDICT SANDBOXED: the verdict FILE must get, VERDICT unless SANDBOXED (yes) changes it: there
# signals-the-judge's signal to its parent goes to the sandbox's first process (the judge is outside its pid
# namespace), which ignores it: AC.
verdict_of() {
  if [ "$1" = signals-the-judge ] && [ "$3" = yes ]; then echo AC; else echo "$2"; fi
}

# filler_verdict RUN SANDBOX FILLER: MLE where the runner's /dev/shm and TMPDIR are mounts of its own (as root, under
# the sandbox, or where RUN's user may make a user namespace); else fills-dev-shm is refused /dev/shm (AC, nothing
# written) and fills-tmpdir's TMPDIR is the judge's folder on disk, counted by walking it (MLE).
filler_verdict() {
  if [ "$3" = fills-dev-shm ] && [ "$2" != --sandbox ] && [ "$(id -u)" != 0 -o "$1" != as_me ] &&
     ! $1 unshare -Um true 2>/dev/null; then echo AC; else echo MLE; fi
}

# singles MODE RUN OWNER SANDBOX FILLER: the single grades of a mode, with one of the memory fillers (the cheaper
# fills-tmpdir where the other is graded in a mode of the same user).
singles() {
  local mode=$1 run=$2 owner=$3 sandbox=$4 filler=$5
  mkdir -p "$tmp/$mode"
  for s in "${single_files[@]}" "$filler:MLE"; do cp "$cheats/${s%%:*}.cpp" "$tmp/$mode/"; done
  [ "$owner" = root ] || chown -R "$owner" "$tmp/$mode"
  for s in "${single_files[@]}" "$filler:$(filler_verdict "$run" "$sandbox" "$filler")"; do
    grade "$mode" "$run" "$owner" "$sandbox" "${s%%:*}" \
      "$(verdict_of "${s%%:*}" "${s#*:}" "$([ "$sandbox" = --sandbox ] && echo yes)")"
  done
}

# batch MODE RUN OWNER SANDBOX: a class of one cheat each (leaves-a-note graded before finds-a-note), its leaderboard.
batch() {
  local mode=$1 run=$2 owner=$3 sandbox=$4
  local class=$tmp/$mode/class results=$tmp/$mode/results
  local members=(1-types:types-into-the-terminal:RE 2-writes:writes-to-the-terminal:AC 3-limits:limits-the-judge:RE
                 4-signals:signals-the-judge:RE 5-fills:fills-tmpdir:MLE 6-leaves:leaves-a-note:AC
                 7-finds:finds-a-note:AC)
  for m in "${members[@]}"; do
    IFS=: read -r who f _ <<<"$m"
    mkdir -p "$class/$who" && cp "$cheats/$f.cpp" "$class/$who/softmax-cpu.cpp"
  done
  [ "$owner" = root ] || chown -R "$owner" "$tmp/$mode"
  touch "$tmp/began" && sleep 0.01
  $run env "$(cap_of fills-)" timeout -k 10 600 "$judge" batch "$class" --out "$results" --no-bench $sandbox \
    >"$tmp/$mode/batch.out" 2>&1
  local rc=$?
  echo "$mode: exit $rc"
  for m in "${members[@]}"; do
    IFS=: read -r who f want <<<"$m"
    want=$(verdict_of "$f" "$want" "$([ "$sandbox" != --no-sandbox ] && echo yes)")
    local got
    got=$(field "$results/leaderboard.json" \
      '[p["results"]["softmax-cpu"]["verdict"] for p in j["participants"] if p["name"] == sys.argv[3]][0]' "$who" \
      2>&1 | tail -1)
    echo "$mode: $who ($f): $got"
    check "$mode: $f is $want on the leaderboard" test "$got" = "$want"
  done
  after_grade "$mode" "$rc" "$owner"
}

# bwrap_starts RUN: whether bubblewrap can start for RUN's user.
bwrap_starts() { $1 bwrap --ro-bind / / --unshare-pid --new-session true 2>/dev/null; }

start=$(date +%s)
me=$(id -un)
# A cap below what the graded cases need is the grader's mistake: refused before grading (exit 2), never MLE.
cp "$here/../../problems/softmax-cpu/solutions/fast.cpp" "$tmp/fast.cpp"
as_me env HPCJUDGE_MEMORY_LIMIT=64 "$judge" softmax-cpu "$tmp/fast.cpp" --no-bench >"$tmp/low-cap.out" 2>&1
low_cap_rc=$?
check "a cap of 64 MiB is refused before grading (exit 2, what the tests need)" \
  bash -c "test $low_cap_rc -eq 2 && grep -q 'below what softmax-cpu.s tests need' '$tmp/low-cap.out'"
singles "$me" as_me "$me" "" fills-dev-shm
# Without the sandbox a batch grades as root only (an ordinary user's is refused).
[ "$(id -u)" = 0 ] && batch "$me-batch-no-sandbox" as_me "$me" --no-sandbox
if bwrap_starts as_me; then
  singles "$me-sandbox" as_me "$me" --sandbox fills-tmpdir
  batch "$me-batch" as_me "$me" ""
else
  echo "skip $me's sandbox: bubblewrap cannot start here"
fi
if second_user "$judge" "$tmp/user"; then
  singles user as_user "$user" "" fills-dev-shm
  if bwrap_starts as_user; then
    singles user-sandbox as_user "$user" --sandbox fills-tmpdir
    batch user-batch as_user "$user" ""
  else
    echo "skip the ordinary user's sandbox and batch: bubblewrap cannot start for $user"
  fi
fi
echo "took $(($(date +%s) - start)) s"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
