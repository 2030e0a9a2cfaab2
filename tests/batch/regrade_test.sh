#!/usr/bin/env bash
# A result is current or it is regraded (issue 17): a class graded, then one file changed, one deleted, a
# participant gone, a SKIP where this machine can run the problem, the seed changed and --force; each time
# exactly the right files are regraded, the batch says why, and the other reports are not touched. With the
# class's problem list (class.json, then --problems) stray files and unknown names are in every leaderboard
# format's not-graded section, and the maximum is the list's.
#   regrade_test.sh JUDGE
set -u
judge=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
sol=$repo/problems
tmp=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
passes=0 fails=0
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fails=$((fails + 1)); fi
}
class=$tmp/class results=$tmp/results
mkdir -p "$class"/{alice,bob,carol,dave,erin}
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/alice/softmax-cpu.cpp"
cp "$sol/matmul-cpu/solutions/baseline.cpp" "$class/alice/matmul-cpu.cpp"
cp "$repo/problems/softmax-cpu/solution.cpp" "$class/bob/softmax-cpu.cpp"       # the starter: WA
cp "$sol/softmax-cpu/solutions/fast.cpp" "$class/carol/softmax-cpu.cpp"
cp "$sol/matmul-cpu/solutions/baseline.cpp" "$class/dave/matmul-cpu.cpp"
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/erin/softmax-cpu.cpp"
cp "$repo/problems/vector-add/solution.cu" "$class/erin/vector-add.cu"          # SKIP where no GPU runs it
echo "notes" >"$class/carol/notes.txt"                                          # named after no problem
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/dave/prefix-sum.cpp"                 # prefix-sum takes a .cu file
cp "$sol/softmax-cpu/solutions/baseline.cpp" "$class/dave/matmul-gpu.cu"                  # not on the class's list
echo "read me" >"$class/README.txt"                                             # not a participant folder
echo '{"problems": ["softmax-cpu", "matmul-cpu", "vector-add"]}' >"$class/class.json"
# Isolated as the machine allows: the sandbox where bubblewrap is, a user per runner as root; else unsafe, said so.
iso=()
if ! command -v bwrap >/dev/null && [ "$(id -u)" != 0 ]; then iso=(--unsafe-no-isolation); fi
batch() {  # OUT_FILE ARGS...: a batch of the class into $results
  local out=$1; shift
  "$judge" batch "$class" --out "$results" --no-bench "${iso[@]}" "$@" >"$tmp/$out" 2>"$tmp/$out.err"
}
stamps() { find "$results" -name '*.json' ! -name 'leaderboard.json' ! -name batch.json -printf '%P %T@\n' | sort; }
regraded() { grep '^regrade ' "$tmp/$1" | cut -d: -f1 | sort | paste -sd' '; }

batch run1.out
check "first batch exits 0" test $? -eq 0
check "first batch grades 7 new files, regrades none" bash -c "grep -qx 'grade 7 new file(s)' '$tmp/run1.out' && ! grep -q '^regrade' '$tmp/run1.out'"
check "not graded are warned of" bash -c "grep -q 'notes.txt: named after no problem' '$tmp/run1.out.err' && grep -q 'prefix-sum takes a .cu file' '$tmp/run1.out.err' && grep -q 'matmul-gpu.cu: not one of this class' '$tmp/run1.out.err'"
check "reports record what they were graded from" python3 - "$results/alice/softmax-cpu.json" <<'PY'
import json, sys, hashlib
r = json.load(open(sys.argv[1]))
g = r["graded_from"]
src = open(r["source_path"], "rb").read()
assert g["source_sha256"] == hashlib.sha256(src).hexdigest(), g
for k in ("problem_version", "judge_version", "seed_id", "machine"): assert isinstance(g[k], str) and g[k], k
assert len(g["problem_version"]) == 64 and len(g["seed_id"]) == 64
assert g["bench"] is False and isinstance(g["sandbox"], bool) and isinstance(g["isolated"], bool)
assert r["participant"] == "alice" and r["graded_at"]
PY
skip_here=$(grep -o '"verdict": "[A-Z]*"' "$results/erin/vector-add.json" | head -1 | cut -d'"' -f4)

# Not-graded section and the class's maximum, in every format.
check "csv: not-graded section lists stray and unknown files" bash -c "grep -qx 'not graded,carol,notes.txt,named after no problem' '$results/leaderboard.csv' && grep -qx 'not graded,dave,prefix-sum.cpp,prefix-sum takes a .cu file' '$results/leaderboard.csv' && grep -q '^not graded,dave,matmul-gpu.cu,' '$results/leaderboard.csv' && grep -qx 'not graded,,README.txt,not a participant folder' '$results/leaderboard.csv'"
check "md: not-graded section" bash -c "sed -n '/^## Not graded/,\$p' '$results/leaderboard.md' | grep -q 'carol: notes.txt — named after no problem' && sed -n '/^## Not graded/,\$p' '$results/leaderboard.md' | grep -q 'README.txt'"
check "html: not-graded section" bash -c "sed -n '/id=\"not-graded\"/,/<\/section>/p' '$results/leaderboard.html' | grep -q 'prefix-sum.cpp' && sed -n '/id=\"not-graded\"/,/<\/section>/p' '$results/leaderboard.html' | grep -q 'matmul-gpu.cu'"
check "json: not-graded, reasons, and the list's maximum (300)" python3 - "$results/leaderboard.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
ng = {(n["participant"], n["file"]) for n in m["not_graded"]}
assert ng == {("carol", "notes.txt"), ("dave", "prefix-sum.cpp"), ("dave", "matmul-gpu.cu"), ("", "README.txt")}, ng
assert [p["slug"] for p in m["problems"]] == ["softmax-cpu", "matmul-cpu", "vector-add"]
rows = {r["name"]: r for r in m["participants"]}
assert all(r["max"] == 300 for r in rows.values()), [r["max"] for r in rows.values()]
bob = rows["bob"]["results"]["softmax-cpu"]
assert bob["verdict"] == "WA" and bob["reason"].startswith("test "), bob["reason"]
assert "\n" not in bob["reason"]
PY
check "csv: a reason column per problem" bash -c "head -1 '$results/leaderboard.csv' | grep -q 'softmax-cpu reason' && grep -q '^[0-9]*,bob,.*WA,0.0,\"*test ' '$results/leaderboard.csv'"

# Nothing changed: nothing regraded, no report touched.
stamps >"$tmp/stamps1"
sleep 1
batch run2.out
check "unchanged class: all 7 kept, none regraded" bash -c "grep -q '^kept 7 current report' '$tmp/run2.out' && ! grep -q '^regrade' '$tmp/run2.out' && ! grep -q '^grade ' '$tmp/run2.out'"
stamps >"$tmp/stamps2"
check "unchanged class: no report rewritten" diff "$tmp/stamps1" "$tmp/stamps2"
if [ "$skip_here" = SKIP ]; then
  check "a SKIP this machine cannot run is kept, and said so" grep -q '^kept 1 SKIP report(s) of vector-add: this machine cannot run it either' "$tmp/run2.out"
fi

# One file changed, one deleted, one participant gone.
echo "// carol's second try" >>"$class/carol/softmax-cpu.cpp"
rm "$class/alice/matmul-cpu.cpp"
rm -r "$class/dave"
batch run3.out
check "changed: exactly carol's file regraded, for its source" bash -c "test '$(regraded run3.out)' = 'regrade carol/softmax-cpu.cpp' && grep -qx 'regrade carol/softmax-cpu.cpp: the source changed' '$tmp/run3.out'"
check "deleted: alice's matmul-cpu report removed and listed" bash -c "grep -qx 'removed $results/alice/matmul-cpu.json: its source is gone' '$tmp/run3.out' && test ! -e '$results/alice/matmul-cpu.json'"
check "gone: dave's reports and folder removed and listed" bash -c "grep -qx 'removed $results/dave/matmul-cpu.json: the participant.s folder is gone from the class' '$tmp/run3.out' && test ! -e '$results/dave' && ! grep -q '\"name\": \"dave\"' '$results/leaderboard.json'"
check "gone from every leaderboard: no deleted file's result is listed" bash -c "! grep -q '^[0-9]*,alice,.*,AC,40.0,.*,AC,' '$results/leaderboard.csv' && ! grep -q dave '$results/leaderboard.csv'"
stamps >"$tmp/stamps3"
check "changed: only carol's report rewritten" bash -c "diff <(grep -v -e '^carol/' -e '^alice/matmul' -e '^dave/' '$tmp/stamps2') <(grep -v '^carol/' '$tmp/stamps3')"

# A SKIP where the problem runs here is regraded (a report forged to say SKIP, of a CPU problem).
python3 - "$results/erin/softmax-cpu.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); r["verdict"] = "SKIP"; json.dump(r, open(sys.argv[1], "w"), indent=2)
PY
batch run4.out
check "a SKIP this machine can run is regraded, and only it" bash -c "test '$(regraded run4.out)' = 'regrade erin/softmax-cpu.cpp' && grep -q 'regrade erin/softmax-cpu.cpp: SKIP where it was graded, and this machine can run it' '$tmp/run4.out' && grep -q '\"verdict\": \"AC\"' '$results/erin/softmax-cpu.json'"

# Another seed: every file, and the secret in no report.
echo 987654321 >"$tmp/seed"
batch run5.out --seed-file "$tmp/seed"
n=$(find "$results" -mindepth 2 -name '*.json' | wc -l)
check "seed changed: all $n files regraded for the seed" bash -c "test \$(grep -c '^regrade .*: the seed changed' '$tmp/run5.out') -eq $n && test \$(grep -c '^regrade ' '$tmp/run5.out') -eq $n"
check "the secret seed is in no report, its identity is" bash -c "! grep -rq 987654321 '$results' && grep -q '\"seed_id\"' '$results/bob/softmax-cpu.json'"
batch run6.out --seed-file "$tmp/seed"
check "same secret seed again: nothing regraded" bash -c "! grep -q '^regrade' '$tmp/run6.out' && grep -q '^kept $n current report' '$tmp/run6.out'"
batch run7.out --seed-file "$tmp/seed" --force
check "--force regrades every file" test "$(grep -c '^regrade .*: --force$' "$tmp/run7.out")" -eq "$n"

# --problems overrides class.json: vector-add leaves the list, its report is removed, the maximum is 200.
batch run8.out --seed-file "$tmp/seed" --problems softmax-cpu,matmul-cpu
check "--problems: a problem off the list is removed and listed as not graded" bash -c "grep -q '^removed $results/erin/vector-add.json: not graded now: not one of this class' '$tmp/run8.out' && grep -q '^not graded,erin,vector-add.cu,\"not one of this class' '$results/leaderboard.csv' && grep -q '^1,[^,]*,[0-9.]*,200.0,' '$results/leaderboard.csv'"
check "--problems: an unknown problem is a usage error" bash -c "\"$judge\" batch '$class' --out '$results' --problems softmax-cpu,nosuch >/dev/null 2>'$tmp/bad.err'; test \$? -eq 2 && grep -q \"unknown problem 'nosuch'\" '$tmp/bad.err'"
# Reports edited by hand (a score set by the staff): bob's verdict a number, carol's message and machine of the
# wrong types. The leaderboard leaves bob's out and says so, and lists carol's; the next batch regrades bob's
# alone, for its report, and keeps carol's. Neither ends in an internal error.
python3 - "$results/bob/softmax-cpu.json" "$results/carol/softmax-cpu.json" <<'PY'
import json, sys
b, c = (json.load(open(f)) for f in sys.argv[1:])
b["verdict"] = 5; b["score"]["max"] = "lots"
c["message"] = 7; c["machine"] = {"cpu_model": 5, "gpu": "x"}; c["graded_at"] = 3; c["bench"] = [1, {"name": 2}]
json.dump(b, open(sys.argv[1], "w")); json.dump(c, open(sys.argv[2], "w"))
PY
"$judge" leaderboard "$results" >"$tmp/edited.out" 2>"$tmp/edited.err"
check "edited reports: the leaderboard exits 0, leaves bob's out with a warning and lists carol's" bash -c "test $? -eq 0 && grep -q 'bob/softmax-cpu.json is not a report the judge can read; left out' '$tmp/edited.err' && grep -q '^[0-9]*,carol,' '$results/leaderboard.csv'"
batch run9.out --seed-file "$tmp/seed" --problems softmax-cpu,matmul-cpu
check "edited reports: the batch exits 0 and regrades bob's alone, for its report" bash -c "test $? -eq 0 && test '$(regraded run9.out)' = 'regrade bob/softmax-cpu.cpp' && grep -qx 'regrade bob/softmax-cpu.cpp: its report cannot be read' '$tmp/run9.out' && grep -q '\"verdict\": \"WA\"' '$results/bob/softmax-cpu.json'"
echo '{"problems": ["softmax-cpu", "no-such-problem"]}' >"$class/class.json"
check "class.json naming an unknown problem is a usage error" bash -c "\"$judge\" batch '$class' --out '$results' >/dev/null 2>'$tmp/bad2.err'; test \$? -eq 2 && grep -q 'class.json: \"no-such-problem\" is no problem' '$tmp/bad2.err'"

echo "regrade output of the changed class:"; grep -E '^(regrade|removed|kept|grade)' "$tmp/run3.out" | sed 's/^/  /'
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
