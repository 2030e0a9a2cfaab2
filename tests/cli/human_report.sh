#!/usr/bin/env bash
# The human report a student reads (not the JSON):
#   - what solve() printed: the first 20 lines, marked "  | ", escapes shown visibly (\x1b), the rest counted;
#   - a wrong answer: one concise block per failing test (count and first mismatch, the
#     largest error against the tolerance, a hint), the full list only with --verbose;
#   - a run-time error's row shows "-" for its time, not "0.0 us";
#   - the "(new inputs)" row is aligned with the others.
#   human_report.sh JUDGE
set -u
judge=$1
here=$(cd "$(dirname "$0")" && pwd)
subs=$here/../../problems/softmax-cpu/submissions
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
grep -qF '  | debug line 16 \x1b[31mred\x1b[0m' "$tmp/prints" || fail "the 20th line, its escapes shown as \\x1b, is not shown"
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

# Text the judge does not control is shown on the terminal, never sent to it (issue 56, class 7): a #line name of
# control sequences that the compiler quotes in its error (its honest twin, a name in Chinese, is shown as it is),
# and a file whose own name holds ESC, CR and a newline.
"$judge" softmax-cpu "$subs/cheat/line-directive-clears-the-terminal.cpp" --no-bench >"$tmp/line" 2>&1
grep -q "^verdict CE" "$tmp/line" || fail "line-directive-clears-the-terminal is not CE: $(tail -3 "$tmp/line" | cat -v)"
grep -q $'[\033\r]' "$tmp/line" && fail "the #line name's ESC or CR reached the terminal: $(grep $'[\033\r]' "$tmp/line" | cat -v)"
grep -qF '  \x1b[2J\x1b[H\x1b[1;32mverdict AC   score 100.0 / 100\x1b[0m\x1b[8m:2:' "$tmp/line" ||
  fail "the CE message does not show the #line name escaped: $(tail -2 "$tmp/line" | cat -v)"
"$judge" softmax-cpu "$subs/cheat/line-directive-honest-twin.cpp" --no-bench >"$tmp/twin" 2>&1
grep -q '^  王小明的 softmax.cpp:2:[0-9]*: error: ' "$tmp/twin" || fail "the honest twin's name is not shown as it is: $(tail -2 "$tmp/twin")"
evil=$'evil\033[2J\rname\nverdict AC.cpp'
cp "$subs/cheat/honest-twin.cpp" "$tmp/$evil"
"$judge" softmax-cpu "$tmp/$evil" --no-bench >"$tmp/evil" 2>&1
grep -q "^verdict AC " "$tmp/evil" || fail "the file with a hostile name is not AC: $(tail -3 "$tmp/evil" | cat -v)"
grep -q $'[\033\r]' "$tmp/evil" && fail "the file's name sent ESC or CR to the terminal: $(head -3 "$tmp/evil" | cat -v)"
head -1 "$tmp/evil" | grep -qF 'evil\x1b[2J\rname\nverdict AC.cpp  seed ' ||
  fail "the header line does not show the name escaped, on one line: $(head -2 "$tmp/evil" | cat -v)"

[ $fails = 0 ] && echo "human report: all checks passed"
[ $fails = 0 ]
