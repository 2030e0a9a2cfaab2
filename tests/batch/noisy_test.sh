#!/usr/bin/env bash
# What a batch says beside its grades (issue 57): a noisy grade (the machine was busy while it was timed) is graded
# again by --regrade-noisy (a batch names the noisy reports it keeps), the leaderboard marks it until then; a
# misnamed file is asked whether it meant a problem's file; a participant with nothing graded is "no submission".
#   noisy_test.sh JUDGE
set -u
judge=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
sol=$repo/problems
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
source "$repo/tests/cli/checks.sh"
class=$tmp/class results=$tmp/results
mkdir -p "$class"/{alice,p4,grace}
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/alice/softmax-cpu.cpp"
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/p4/softmax.cpp"          # softmax-cpu.cpp meant
cp "$sol/matmul-cpu/solutions/baseline.cpp" "$class/p4/matmul_cpu.cpp"        # matmul-cpu.cpp meant
iso=()
if ! command -v bwrap >/dev/null && [ "$(id -u)" != 0 ]; then iso=(--unsafe-no-isolation); fi
batch() {  # OUT_FILE ARGS...
  local out=$1; shift
  "$judge" batch "$class" --out "$results" --no-bench "${iso[@]}" "$@" >"$tmp/$out" 2>"$tmp/$out.err"
}

batch run1.out
check "first batch exits 0" test $? -eq 0
check "did you mean: said on the terminal" bash -c "grep -q 'p4/softmax.cpp: named after no problem; did you mean softmax-cpu.cpp?' '$tmp/run1.out.err' && grep -q 'p4/matmul_cpu.cpp: named after no problem; did you mean matmul-cpu.cpp?' '$tmp/run1.out.err'"
check "did you mean: in every leaderboard format's not-graded list" bash -c "grep -qx 'not graded,p4,softmax.cpp,named after no problem; did you mean softmax-cpu.cpp?' '$results/leaderboard.csv' && grep -q 'p4: softmax.cpp — named after no problem; did you mean softmax-cpu.cpp?' '$results/leaderboard.md' && grep -q '<td>softmax.cpp</td><td>named after no problem; did you mean softmax-cpu.cpp?</td>' '$results/leaderboard.html'"
check "nothing graded: 'no submission', no rank, after the ranked, and why" bash -c "grep -q '^1,alice,' '$results/leaderboard.csv' && grep -q '^no submission,grace,' '$results/leaderboard.csv' && grep -q '^no submission,p4,.*,2 file(s) not graded (listed under Not graded)\$' '$results/leaderboard.csv' && grep -q '| no submission | grace |' '$results/leaderboard.md'"

# alice's grade made noisy, as a grade on a busy machine reports it (score.noise, score.plus_minus).
python3 - "$results/alice/softmax-cpu.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["score"]["noise"] = "load average 4.30 on 2 cores"
r["score"]["plus_minus"] = 12.4
json.dump(r, open(sys.argv[1], "w"), indent=2)
PY
"$judge" leaderboard "$results" >/dev/null 2>&1
check "a noisy grade: its ± and the noisy mark in every format" bash -c "grep -q '^1,alice,40.0,100.0,AC,40.0,[^,]*,12.4,noisy (load average 4.30 on 2 cores)' '$results/leaderboard.csv' && grep -q 'AC 40.0 ± 12.4 (noisy)' '$results/leaderboard.md' && grep -q '40 ± 12.4 <span class=\"mark mark-noisy\"' '$results/leaderboard.html' && grep -q '\"noisy\": true' '$results/leaderboard.json'"
batch run2.out
check "a batch keeps a noisy report of an earlier batch and says so" bash -c "grep -q '^kept 1 noisy report(s) of an earlier batch .*--regrade-noisy grades them again' '$tmp/run2.out' && grep -q '\"noise\": \"load average 4.30' '$results/alice/softmax-cpu.json'"
batch run3.out --regrade-noisy
check "--regrade-noisy grades it again and says none is noisy now" bash -c "grep -q '^grade 1 noisy grade(s) again' '$tmp/run3.out' && grep -q '^alice  *softmax-cpu  *AC' '$tmp/run3.out' && grep -qx 'no grade is noisy now' '$tmp/run3.out'"
check "the regrade replaced it: no noisy mark left" bash -c "grep -q '\"noise\": \"\"' '$results/alice/softmax-cpu.json' && ! grep -q 'noisy (' '$results/leaderboard.csv' && ! grep -q '(noisy)' '$results/leaderboard.md'"
batch run4.out
check "and it is current: the next batch keeps it" bash -c "grep -q '^kept 1 current report' '$tmp/run4.out' && ! grep -q 'noisy' '$tmp/run4.out'"

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
