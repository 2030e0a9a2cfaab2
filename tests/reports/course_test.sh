#!/usr/bin/env bash
# Course tools (issue 17): `judge SLUG FILE --gradescope F --junit F` and `judge batch --junit`. Each
# results.json passes tests/reports/check_gradescope.py (Gradescope's documented fields, the tests' scores
# adding up to the score) and each JUnit file validates against tests/reports/junit.xsd with xmllint
# (libxml2-utils, a test package of tools/install-deps.sh), for an AC, a WA and a CE, a submission printing
# control characters, invalid UTF-8 and markup, a hostile file name, and a batch of hostile participant names.
# tools/gradescope/run_autograder runs in a stand-in /autograder.
#   course_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
xsd=$here/junit.xsd gs=$here/check_gradescope.py
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
command -v xmllint >/dev/null || { echo "FAIL: xmllint is missing (apt-get install libxml2-utils; tools/install-deps.sh --test)"; exit 1; }
# The judge on a copy of problems/: its local reports stay out of the repository's .hpcjudge/.
cp -r "$repo/problems" "$tmp/problems" && ln -s "$repo/tests" "$tmp/tests"
export HPCJUDGE_ROOT=$tmp
passes=0 fails=0
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fails=$((fails + 1)); fi
}
# junit_counts FILE: "tests failures errors skipped" of the document.
junit_counts() { python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(*(r.get(k) for k in ("tests", "failures", "errors", "skipped")))' "$1"; }
grade() {  # NAME FILE: judge it into $tmp/NAME.{json,gs.json,xml}
  "$judge" softmax-cpu "$2" --no-bench --json "$tmp/$1.json" --gradescope "$tmp/$1.gs.json" --junit "$tmp/$1.xml" >"$tmp/$1.out" 2>&1
}
field() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); [d := d[k] for k in sys.argv[2:]]; print(d)' "$@"; }

sol=$repo/problems/softmax-cpu/solutions
grade ac "$sol/baseline.cpp"
ntests=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["tests"]))' "$tmp/ac.json")
ncases=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["tests"]) - int(sys.argv[2]))' "$tmp/ac.gs.json" "$ntests")
check "AC: results.json passes, its score is the report's (40), every test passed" \
  python3 "$gs" "$tmp/ac.gs.json" --score "$(field "$tmp/ac.json" score total)" --verdict AC --status-passed "$ntests"
check "AC: a test entry per functional test and per performance case" bash -c "test $ncases -ge 1 && grep -q '\"name\": \"performance ' '$tmp/ac.gs.json' && grep -q 'not timed: graded with --no-bench' '$tmp/ac.gs.json'"
check "AC: JUnit validates" xmllint --noout --schema "$xsd" "$tmp/ac.xml"
check "AC: JUnit counts: compile + tests pass, performance cases skipped" test "$(junit_counts "$tmp/ac.xml")" = "$((1 + ntests + ncases)) 0 0 $ncases"

grade wa "$repo/problems/softmax-cpu/submissions/WA/float-accumulator.cpp"
check "WA: results.json passes, score 0" python3 "$gs" "$tmp/wa.gs.json" --score 0 --verdict WA
check "WA: the wrong test's output says why" bash -c "grep -q 'passed, but the correctness points come only with AC on every test' '$tmp/wa.gs.json' && python3 -c 'import json, sys; t = [t for t in json.load(open(sys.argv[1]))[\"tests\"] if t[\"status\"] == \"failed\" and t[\"name\"].startswith(\"test \")]; assert t and \"elements of output wrong\" in t[0][\"output\"], t[:1]' '$tmp/wa.gs.json'"
check "WA: JUnit validates, with failures of type WA" bash -c "xmllint --noout --schema '$xsd' '$tmp/wa.xml' && grep -q '<failure type=\"WA\" message=\"' '$tmp/wa.xml' && test \$(python3 -c 'import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().get(\"failures\"))' '$tmp/wa.xml') -ge 1"

printf 'extern "C" void solve(const float* input, float* output, int N) { this does not compile }\n' >"$tmp/ce.cpp"
grade ce "$tmp/ce.cpp"
check "CE: results.json passes, score 0, the compile log in the output" bash -c "python3 '$gs' '$tmp/ce.gs.json' --score 0 --verdict CE --status-passed 0 && grep -q 'compile log' '$tmp/ce.gs.json' && grep -q 'not run: the file does not compile' '$tmp/ce.gs.json'"
check "CE: JUnit validates: compile is an error, the rest skipped" bash -c "xmllint --noout --schema '$xsd' '$tmp/ce.xml' && grep -q '<error type=\"CE\"' '$tmp/ce.xml' && test \"\$(python3 -c 'import sys, xml.etree.ElementTree as E; r = E.parse(sys.argv[1]).getroot(); print(r.get(\"errors\"), int(r.get(\"skipped\")) == int(r.get(\"tests\")) - 1)' '$tmp/ce.xml')\" = '1 True'"

# A submission that prints control characters, an escape sequence, invalid UTF-8, a CDATA end and markup.
{ cat "$sol/baseline.cpp"; printf '%s\n' '#include <cstdio>' \
  'static int hostile = (std::fputs("\x01\x1b[31m<b>&amp;]]></system-out>\"\x27\xff\xfe \xe7\x8e\x8b\x07\n", stderr), 0);'; } >"$tmp/noisy.cpp"
grade noisy "$tmp/noisy.cpp"
check "noisy output: AC, and what it printed is in the report" bash -c "grep -q '\"verdict\": \"AC\"' '$tmp/noisy.json' && grep -q '</system-out>' '$tmp/noisy.json'"
check "noisy output: results.json is valid UTF-8 and passes" python3 "$gs" "$tmp/noisy.gs.json" --verdict AC
check "noisy output: JUnit validates, the output escaped in system-out" bash -c "xmllint --noout --schema '$xsd' '$tmp/noisy.xml' && grep -q '&lt;b&gt;&amp;amp;]]&gt;&lt;/system-out&gt;' '$tmp/noisy.xml' && test \$(grep -c '<system-out>' '$tmp/noisy.xml') -eq 1"

# A hostile file name: quotes, markup, '=', a leading dash, wide characters.
odd=$tmp/'-it'"'"'s "<b>" & =王.cpp'
cp "$sol/baseline.cpp" "$odd"
"$judge" softmax-cpu "$odd" --no-bench --gradescope "$tmp/odd.gs.json" --junit "$tmp/odd.xml" >/dev/null 2>&1
check "hostile file name: JUnit validates and names it exactly" bash -c "xmllint --noout --schema '$xsd' '$tmp/odd.xml' && test \"\$(python3 -c 'import sys, xml.etree.ElementTree as E; print(E.parse(sys.argv[1]).getroot().get(\"name\"))' '$tmp/odd.xml')\" = \"hpcjudge: \$(basename \"\$1\")\"" _ "$odd"
check "hostile file name: results.json passes" python3 "$gs" "$tmp/odd.gs.json" --verdict AC

# judge batch --junit: one file per participant, hostile names included.
names=('a"b'"'"'<c>&d' '-leading dash' '=SUM(1)' $'two\nlines' '王小明' 'plain')
for n in "${names[@]}"; do mkdir -p "$tmp/class/$n" && cp "$sol/baseline.cpp" "$tmp/class/$n/softmax-cpu.cpp"; done
cp "$repo/problems/softmax-cpu/submissions/WA/float-accumulator.cpp" "$tmp/class/plain/softmax-cpu.cpp"
iso=()
if ! command -v bwrap >/dev/null && [ "$(id -u)" != 0 ]; then iso=(--unsafe-no-isolation); fi
"$judge" batch "$tmp/class" --out "$tmp/results" --no-bench --junit "${iso[@]}" >"$tmp/batch.out" 2>&1
check "batch --junit: one valid file per participant, naming the participant" python3 - "$tmp/results" "$xsd" "${names[@]}" <<'PY'
import subprocess, sys, xml.etree.ElementTree as E
results, xsd, names = sys.argv[1], sys.argv[2], sys.argv[3:]
for n in names:
    f = f"{results}/{n}/junit.xml"
    subprocess.run(["xmllint", "--noout", "--schema", xsd, f], check=True, capture_output=True)
    root = E.parse(f).getroot()
    assert root.get("name") == "hpcjudge: " + n, (root.get("name"), n)
    (suite,) = root.findall("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert props["participant"] == n, props
    assert props["verdict"] == ("WA" if n == "plain" else "AC"), props
PY
check "batch --junit: the closing lines name the leaderboard's files and the JUnit files" bash -c "grep -q 'leaderboard.json' '$tmp/batch.out' && grep -q '^JUnit: 6 files, $tmp/results/<participant>/junit.xml' '$tmp/batch.out'"
check "batch: the names stay text in every leaderboard format" python3 - "$tmp/results" "${names[@]}" <<'PY'
import csv, json, sys
results, names = sys.argv[1], sys.argv[2:]
m = json.load(open(f"{results}/leaderboard.json"))
assert sorted(r["name"] for r in m["participants"]) == sorted(names)
rows = list(csv.reader(open(f"{results}/leaderboard.csv", newline="")))
board = rows[1:rows.index([])]
got = sorted(r[1][1:] if r[1][:1] == "'" else r[1] for r in board)
assert got == sorted(names), got
assert all(not r[1][:1] in "=+-@" for r in board)
html = open(f"{results}/leaderboard.html").read()
assert '<c>' not in html and "a&quot;b&#39;&lt;c&gt;&amp;d" in html
md = open(f"{results}/leaderboard.md").read()
assert "&lt;c&gt;" in md and "two<br>lines" in md
PY

# Gradescope's run_autograder, in a stand-in /autograder.
ag=$tmp/autograder
mkdir -p "$ag/source" "$ag/submission"
echo softmax-cpu >"$ag/source/problem"
cp "$sol/baseline.cpp" "$ag/submission/my_solution.cpp"
AUTOGRADER=$ag HPCJUDGE_JUDGE=$judge HPCJUDGE_NO_BENCH=1 "$repo/tools/gradescope/run_autograder" >"$tmp/ag.out" 2>&1
check "run_autograder: results.json written, passing, AC (the one .cpp submitted)" python3 "$gs" "$ag/results/results.json" --verdict AC --score 40
# The sandbox where bubblewrap starts as an ordinary user (as run_autograder probes it), else the way to have it.
as=()
[ "$(id -u)" = 0 ] && as=(setpriv --reuid=65534 --regid=65534 --clear-groups)
if command -v bwrap >/dev/null && "${as[@]}" bwrap --ro-bind / / --unshare-pid true 2>/dev/null; then
  check "run_autograder: graded under the sandbox" grep -q '^graded under the sandbox' "$tmp/ag.out"
else
  check "run_autograder: says how to have the sandbox" grep -q 'note: graded without the sandbox: .*unprivileged user namespaces' "$tmp/ag.out"
fi
rm "$ag/submission/my_solution.cpp"
AUTOGRADER=$ag HPCJUDGE_JUDGE=$judge HPCJUDGE_NO_BENCH=1 "$repo/tools/gradescope/run_autograder" >"$tmp/ag2.out" 2>&1
check "run_autograder: no file submitted: results.json says so, score 0" bash -c "python3 '$gs' '$ag/results/results.json' --score 0 && grep -q 'No solution file found' '$ag/results/results.json'"

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
