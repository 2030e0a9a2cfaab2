#!/usr/bin/env bash
# judge profile: a CPU problem's performance case under perf stat (where perf is
# installed) ends in a summary with the problem's speed-of-light line and keeps perf's
# counts under .hpcjudge/profiles/; a GPU problem where there is no GPU, and a case
# that does not exist, are one line and exit status 2. Runs on a copy of problems/.
#   profile.sh JUDGE
set -u
judge=$(realpath "$1")
. "$(dirname "$0")/repo_copy.sh"
export NO_COLOR=1
sub=$src/problems/softmax-cpu/submissions/AC/openmp.cpp

"$judge" profile softmax-cpu "$sub" --case no-such-case >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "no performance case 'no-such-case' in softmax-cpu (its cases: " "$work/err" ||
  fail "a bad --case: exit $rc, $(cat "$work/err")"

if ! ls /dev/nvidia* >/dev/null 2>&1; then
  "$judge" profile vector-add "$src/problems/vector-add/solutions/baseline.cu" >"$work/out" 2>"$work/err"
  rc=$?
  [ $rc = 2 ] && grep -q -e "no NVIDIA GPU or driver on this machine" -e "the judge was built without the CUDA toolkit" "$work/err" || fail "a GPU profile without a GPU: exit $rc, $(cat "$work/err")"
fi

"$judge" profile softmax-cpu "$sub" >"$work/out" 2>"$work/err"
rc=$?
if command -v perf >/dev/null; then
  [ $rc = 0 ] || fail "exit $rc: $(tail -5 "$work/out" "$work/err")"
  grep -q "^profiling softmax-cpu, performance case .*, under .*perf$" "$work/out" || fail "no heading: $(head -3 "$work/out")"
  # The largest case that runs here (n100M wants 16 cores), not the first.
  largest=n16M; [ "$(nproc)" -ge 16 ] && largest=n100M
  grep -q "^profiling softmax-cpu, performance case $largest," "$work/out" || fail "not the largest case: $(head -1 "$work/out")"
  # solve()'s own CPU use on every core: busy, or ready and waiting for a CPU on a busy machine, not "serial".
  grep -q "CPUs busy in solve()  [0-9.]* of $(nproc) thread" "$work/out" || fail "no CPUs busy line: $(tail -6 "$work/out")"
  if [ "$(nproc)" -ge 2 ]; then
    grep -q "about one CPU at a time" "$work/out" && fail "an OpenMP solution called serial: $(grep -A2 'CPUs busy' "$work/out")"
  fi
  grep -q "^profile summary$" "$work/out" || fail "no summary"
  grep -q "speed of light        median .* of this machine's measured copy bandwidth" "$work/out" ||
    fail "no speed-of-light line: $(tail -6 "$work/out")"
  ls "$work/.hpcjudge/profiles/"softmax-cpu-*.perf.csv >/dev/null 2>&1 || fail "perf's counts were not kept"
  # Only the one case: no functional test ran.
  grep -q "^  AC   n1 " "$work/out" && fail "functional tests ran under the profiler"
else
  [ $rc = 2 ] && grep -q "perf is not installed here" "$work/err" || fail "no perf: exit $rc, $(cat "$work/err")"
fi
[ $fails = 0 ] && echo "profile: all checks passed"
[ $fails = 0 ]
