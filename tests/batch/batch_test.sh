#!/usr/bin/env bash
# `judge batch` end to end on the sample class, then resume, `judge leaderboard`,
# a secret seed, `judge pack` round-tripped through a batch, and bad input.
#   batch_test.sh JUDGE CLASS_DIR EXPECTED_ORDER_FILE [BROWSER_TEST]
# (The sample class's names hold no commas or quotes, so its CSV splits on commas.)
set -u
judge=$1 class=$2 expected=$3 browser=${4:-}
# With a GPU (HPCJUDGE_REQUIRE_GPU=1) the GPU submissions earn their points: the ranking file beside it, .gpu.txt.
if [ -n "${HPCJUDGE_REQUIRE_GPU:-}" ]; then expected=${expected%.txt}.gpu.txt; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The sample class's files are links to the reference solutions; a participant's file must be a regular file of
# their own (a link is not graded), so the class is graded as copies.
cp -rL "$class" "$tmp/class" && class=$tmp/class
passes=0 fails=0
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fails=$((fails + 1)); fi
}
# Where bubblewrap is missing (the GPU host) the judge says so once; that line is expected.
no_bwrap_note() { grep -v "bubblewrap is not installed" "$@" || true; }
bad() { "$judge" "$@" >/dev/null 2>"$tmp/bad.err"; local rc=$?; no_bwrap_note "$tmp/bad.err" >"$tmp/bad.msg"; cat "$tmp/bad.msg"; test $rc -eq 2 && test "$(wc -l <"$tmp/bad.msg")" -eq 1; }

results=$tmp/results
start=$(date +%s)
"$judge" batch "$class" --out "$results" --no-bench >"$tmp/batch.out" 2>"$tmp/batch.err"
rc=$?
echo "batch took $(( $(date +%s) - start )) s"
check "batch exits 0" test $rc -eq 0
check "a results folder per participant" bash -c "for d in \"$class\"/*/; do test -d \"$results/\$(basename \"\$d\")\" || { echo missing \$d; exit 1; }; done"
check "a report per problem file" bash -c "test \$(find \"$results\" -mindepth 2 -name '*.json' | wc -l) -eq \$(find \"$class\" -mindepth 2 \\( -name '*.cpp' -o -name '*.cu' \\) ! -name notaproblem.cpp | wc -l)"
check "leaderboard files" test -s "$results/leaderboard.csv" -a -s "$results/leaderboard.md" -a -s "$results/leaderboard.html" -a -s "$results/leaderboard.json"
# The ranking is the CSV's first section: its rows up to the blank line before "not graded".
ranking_rows() { tail -n +2 "$results/leaderboard.csv" | sed '/^$/,$d'; }
ranking_rows | cut -d, -f2 >"$tmp/order.txt"
check "ranking as expected" diff "$expected" "$tmp/order.txt"
check "warns of the empty folder" grep -q "'grace' submitted no problem files" "$tmp/batch.err"
check "warns of a file named after no problem" grep -q "notaproblem.cpp: named after no problem" "$tmp/batch.err"
check "a crash costs one verdict" grep -q '"verdict": "RE"' "$results/carol smith/softmax-cpu.json"
check "a hang costs one verdict" grep -q '"verdict": "TLE"' "$results/dave/softmax-cpu.json"
check "reports name participant and time" grep -q '"graded_at"' "$results/alice/matmul-cpu.json"

# Resume: nothing is regraded without --force.
before=$(stat -c %Y "$results/alice/matmul-cpu.json")
sleep 1
"$judge" batch "$class" --out "$results" --no-bench >"$tmp/again.out" 2>&1
check "resume grades nothing twice" bash -c "grep -q '^kept [0-9]* current report' \"$tmp/again.out\" && ! grep -q '^regrade ' \"$tmp/again.out\" && test $before -eq \$(stat -c %Y \"$results/alice/matmul-cpu.json\")"
check "the stray file is in the leaderboard's not-graded section" bash -c "grep -q '^not graded,heidi,notaproblem.cpp,named after no problem' \"$results/leaderboard.csv\" && grep -q 'notaproblem.cpp' \"$results/leaderboard.md\" && grep -q 'notaproblem.cpp' \"$results/leaderboard.html\""
check "the closing line names every leaderboard file" bash -c "grep -q 'leaderboard.html, .*leaderboard.md, .*leaderboard.csv, .*leaderboard.json' \"$tmp/again.out\""
rm "$results/leaderboard.csv"
check "judge leaderboard rewrites it" bash -c "\"$judge\" leaderboard \"$results\" && test -s \"$results/leaderboard.csv\""

# A secret seed never reaches a report.
echo 987654321 >"$tmp/seed"
"$judge" batch "$class" --out "$tmp/secret" --no-bench --seed-file "$tmp/seed" --participant alice >/dev/null 2>&1
check "secret seed not in reports" bash -c "! grep -rq 987654321 \"$tmp/secret\" && grep -q '\"seed\": \"secret\"' \"$tmp/secret/alice/softmax-cpu.json\""

# pack -> unpack -> batch: the layout batch reads (on a copy of problems/, so the repository's .hpcjudge/ is not touched).
mkdir -p "$tmp/root" && cp -r "$(dirname "$0")/../../problems" "$tmp/root/problems"
HPCJUDGE_ROOT=$tmp/root "$judge" pack softmax-cpu="$class/alice/softmax-cpu.cpp" matmul-cpu="$class/alice/matmul-cpu.cpp" -o "$tmp/student.tar.gz" --name "Test Student" >"$tmp/pack.out" 2>&1
mkdir -p "$tmp/packed" && tar -xzf "$tmp/student.tar.gz" -C "$tmp/packed"
check "pack has the solutions and a manifest" test -f "$tmp/packed/Test Student/softmax-cpu.cpp" -a -f "$tmp/packed/Test Student/manifest.json"
"$judge" batch "$tmp/packed" --out "$tmp/packed-results" --no-bench >/dev/null 2>"$tmp/packed.err"
check "batch grades an unpacked pack without warnings" bash -c "test -f \"$tmp/packed-results/Test Student/softmax-cpu.json\" && ! grep -v 'bubblewrap is not installed' \"$tmp/packed.err\" | grep -q warning"

# Bad input: one line on stderr, exit status 2, nothing lost of what was graded.
check "a class folder that does not exist" bad batch "$tmp/no-such-class" --out "$tmp/x"
check "a results folder that is not writable" bad batch "$class" --out /proc/hpcjudge-results
check "Slurm not reachable: exit 2 and a one-line error" bash -c "env PATH=/nonexistent \"$judge\" batch \"$class\" --out \"$results\" --slurm >/dev/null 2>\"$tmp/s.err\"; rc=\$?; cat \"$tmp/s.err\"; test \$rc -eq 2 && test \$(grep -c \"^judge: \" \"$tmp/s.err\") -eq 1"
check "nothing lost after a failed Slurm call" test -f "$results/alice/matmul-cpu.json"
check "judge leaderboard of a missing folder" bad leaderboard "$tmp/none"
check "pack of an unknown problem" bad pack nosuch -o "$tmp/x.tar.gz"

if [ -n "$browser" ]; then
  # Sorted by softmax-cpu score, descending and stable, as the page's column sort must give.
  # (From leaderboard.json: the CSV's reason cells hold commas inside quotes.)
  sorted=$(python3 -c 'import json, sys
rows = json.load(open(sys.argv[1]))["participants"]
score = lambda r: r["results"]["softmax-cpu"]["score"] if "softmax-cpu" in r["results"] else -1
print("|".join(r["name"] for r in sorted(rows, key=lambda r: -score(r))))' "$results/leaderboard.json")
  bash "$browser" "$results/leaderboard.html" "$(paste -sd'|' "$expected")" softmax-cpu "$sorted"
  rc=$?
  if [ $rc -eq 77 ]; then echo "skip browser test: no chromium"; elif [ $rc -eq 0 ]; then passes=$((passes + 1)); else fails=$((fails + 1)); fi
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
