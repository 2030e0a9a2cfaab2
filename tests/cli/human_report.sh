#!/usr/bin/env bash
# The human report a student reads (not the JSON):
#   - what solve() printed: the first 20 lines, marked "  | ", escapes shown as '?', the rest counted;
#   - a wrong answer: one concise block per failing test (count and first mismatch, the
#     largest error against the tolerance, a hint), the full list only with --verbose;
#   - a run-time error's row shows "-" for its time, not "0.0 us";
#   - the "(new inputs)" row is aligned with the others.
#   human_report.sh JUDGE
set -u
judge=$1
here=$(cd "$(dirname "$0")" && pwd)
subs=$here/../submissions/softmax-cpu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
export NO_COLOR=1

"$judge" softmax-cpu "$here/submissions/prints-and-solves.cpp" --no-bench >"$tmp/prints" 2>&1
grep -q "^verdict AC" "$tmp/prints" || fail "prints-and-solves is not AC: $(tail -5 "$tmp/prints")"
grep -q "^the submission's output (its stdout and stderr, [0-9]* bytes):$" "$tmp/prints" || fail "no output header"
[ "$(grep -c '^  | ' "$tmp/prints")" = 21 ] || fail "not 20 lines and a count: $(grep '^  | ' "$tmp/prints")"
grep -q '^  | call 1: N=1$' "$tmp/prints" || fail "the first line is not shown"
grep -q '^  | debug line 16 ?\[31mred?\[0m$' "$tmp/prints" || fail "the 20th line, its escapes as '?', is not shown"
grep -q '^  | ... 43 more lines (the first 64 KiB in the --json report)$' "$tmp/prints" || fail "the rest is not counted"
grep -q $'\033' "$tmp/prints" && fail "a terminal escape reached the terminal"
# The (new inputs) row: its size column starts where every other row's does.
col() { grep -E "^  AC   $1 " "$tmp/prints" | head -1 | grep -bo 'N=' | head -1 | cut -d: -f1; }
[ "$(col 'whole-range \(new inputs\)')" = "$(col n1)" ] || fail "the (new inputs) row is not aligned: $(grep -E 'n1 |new inputs' "$tmp/prints")"

# Where the grade's time went: a line before the verdict, and timing.wall_s in the JSON.
grep -Eq "^judged in [0-9.]+ (s|ms): probe [0-9.]+ (s|ms|µs), compile [0-9.]+ (s|ms|µs), (started beside [0-9.]+ (s|ms|µs|ns), )?runner [0-9.]+ .*, tests [0-9.]+ " "$tmp/prints" ||
  fail "no 'judged in' line: $(grep -B1 '^verdict' "$tmp/prints")"

"$judge" softmax-cpu "$subs/WA/float-accumulator.cpp" --no-bench >"$tmp/wa" 2>&1
grep -q "^verdict WA" "$tmp/wa" || fail "float-accumulator is not WA"
grep -q "relative error .* > 1.0e-04 allowed there" "$tmp/wa" || fail "no tolerance in the WA block: $(grep -A3 '^  WA' "$tmp/wa")"
grep -q "hint: close, but outside the tolerance" "$tmp/wa" || fail "no hint"
[ "$(grep -c '; \.\.\.' "$tmp/wa")" = 0 ] || fail "the full mismatch list without --verbose"
blocks=$(grep -c '^  WA ' "$tmp/wa")
lines=$(sed -n '/^  WA /,/^  AC /p' "$tmp/wa" | grep -c '^       ')
[ "$lines" -le $((3 * blocks)) ] || fail "more than 3 lines per failing test: $(grep -A5 '^  WA' "$tmp/wa")"
grep -q "^  $blocks of 21 tests wrong (the first: " "$tmp/wa" || fail "no count of the tests wrong: $(tail -3 "$tmp/wa")"
"$judge" softmax-cpu "$subs/WA/float-accumulator.cpp" --no-bench --verbose >"$tmp/wav" 2>&1
grep -q "elements of output wrong: output\[" "$tmp/wav" || fail "--verbose does not list the mismatches"

"$judge" softmax-cpu "$subs/RE/abort.cpp" --no-bench >"$tmp/re" 2>&1
grep -qE '^  RE   n1 +N=1 +-$' "$tmp/re" || fail "the RE row does not show '-': $(grep '^  RE' "$tmp/re")"

[ $fails = 0 ] && echo "human report: all checks passed"
[ $fails = 0 ]
