#!/usr/bin/env bash
# judge profile: a CPU problem's performance case under perf stat (where perf is
# installed) ends in a summary with the problem's speed-of-light line and keeps perf's
# counts under .hpcjudge/profiles/; a GPU problem under CPU emulation prints the emulated figures; a case
# that does not exist is one line and exit status 2. Runs on a copy of problems/.
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

# Without a GPU, a GPU problem's profile is the emulator's: the estimate's figures per kernel and the worst lines
# (judge/estimate/); with --emulate the same on a GPU machine. A file whose loads waste sectors has its line named.
"$judge" profile vector-add "$src/problems/vector-add/submissions/AC/float4-grid-stride.cu" --emulate >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 0 ] || fail "an emulated GPU profile: exit $rc, $(tail -5 "$work/out" "$work/err")"
grep -q "^profiling vector-add under CPU emulation" "$work/out" || fail "no emulated heading: $(head -3 "$work/out")"
grep -q "^emulated profile (counts from test n[0-9]*, scaled to n100M; " "$work/out" || fail "no emulated profile: $(tail -8 "$work/out")"
grep -q "^estimated score (no GPU; modelled H100 SXM): [0-9]* ± [0-9]*$" "$work/out" || fail "no estimated score: $(tail -8 "$work/out")"
grep -q "^  kernel [a-z_0-9]*: [0-9.]* [mu]*s (.*-bound), coalescing [0-9]*%, [0-9.]* sectors/request" "$work/out" ||
  fail "no kernel figures: $(tail -8 "$work/out")"
grep -q "^  top lines by bytes moved but not asked for:" "$work/out" || fail "no worst lines: $(tail -8 "$work/out")"
grep -q "^  top lines by shared-memory bank conflicts: none$" "$work/out" || fail "conflicts in vector-add: $(tail -8 "$work/out")"

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
