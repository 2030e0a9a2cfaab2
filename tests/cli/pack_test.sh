#!/usr/bin/env bash
# The hand-in is what was judged (issue 17): `judge pack` packs the file the student last judged, wherever it
# is (the report names it), with that report; SLUG=FILE names another; it warns of a file changed since its
# report, an untouched starter, a non-AC verdict, and refuses to pack only starters or a file that is gone.
# `judge batch` checks an unpacked pack's manifest and says in the participant's row where it does not match.
# The judge runs on a copy of problems/ (HPCJUDGE_ROOT), so the repository is untouched.
#   pack_test.sh JUDGE
set -uo pipefail
judge=$(realpath "${1:?usage: pack_test.sh path/to/hpcjudge}")
. "$(dirname "$0")/repo_copy.sh"
mkdir -p "$work/elsewhere"
passes=0
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$work/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$work/check.out" | head -20; fails=$((fails + 1)); fi
}
unpack() {  # ARCHIVE FOLDER
  rm -rf "$2" && mkdir -p "$2" && tar -xzf "$1" -C "$2"
}

# The student judges a file outside problems/, as the README shows.
mytry=$work/elsewhere/my-try.cpp
cp "$src/problems/softmax-cpu/solutions/baseline.cpp" "$mytry"
"$judge" softmax-cpu "$mytry" --no-bench >"$work/judge.out" 2>&1
check "the local report names the file judged" grep -q "\"source_path\": \"$mytry\"" "$work/.hpcjudge/reports/softmax-cpu.json"
(cd "$work" && "$judge" pack -o "$work/p1.tar.gz" --name tester) >"$work/p1.out" 2>&1
check "pack exits 0" test $? -eq 0
unpack "$work/p1.tar.gz" "$work/p1"
check "the pack holds the file judged, as softmax-cpu.cpp" cmp "$mytry" "$work/p1/tester/softmax-cpu.cpp"
check "the pack holds that file's report" bash -c "grep -q '\"source_path\": \"$mytry\"' '$work/p1/tester/reports/softmax-cpu.json'"
check "the manifest lists the file, its SHA-256 and source" python3 - "$work/p1/tester/manifest.json" "$mytry" <<'PY'
import json, sys, hashlib
m = json.load(open(sys.argv[1]))
f, = m["files"]
assert f["path"] == "softmax-cpu.cpp" and f["problem"] == "softmax-cpu" and f["report"] is True, f
assert f["source"] == sys.argv[2], f
assert f["sha256"] == hashlib.sha256(open(sys.argv[2], "rb").read()).hexdigest()
assert "+" in m["judge_version"], m["judge_version"]
PY
check "pack says what it packed" bash -c "grep -q 'softmax-cpu.cpp <- $mytry  (report: AC' '$work/p1.out' && grep -q '1 with their report' '$work/p1.out'"
check "pack warns that it was judged without timing" grep -q "judged with --no-bench" "$work/p1.out"

# The starter of a problem never judged: packed with warnings; only starters: refused, nothing written.
(cd "$work" && "$judge" pack softmax-cpu matmul-cpu -o "$work/p2.tar.gz" --name tester) >"$work/p2.out" 2>&1
check "an untouched starter is warned of" grep -q "matmul-cpu.cpp ($work/problems/matmul-cpu/solution.cpp) is the starter as it was given, untouched" "$work/p2.out"
check "a file never judged is warned of" grep -q "matmul-cpu.cpp .* has never been judged here" "$work/p2.out"
(cd "$work" && "$judge" pack matmul-cpu -o "$work/p3.tar.gz" --name tester) >"$work/p3.out" 2>&1
rc=$?
check "only starters: refused (exit 2), no archive" bash -c "test $rc -eq 2 && grep -q 'nothing to pack: every file is the untouched starter' '$work/p3.out' && test ! -e '$work/p3.tar.gz'"

# Changed since its report: packed as it is, without the report, with a warning.
echo "// changed after judging" >>"$mytry"
(cd "$work" && "$judge" pack -o "$work/p4.tar.gz" --name tester) >"$work/p4.out" 2>&1
unpack "$work/p4.tar.gz" "$work/p4"
check "a changed file is packed as it is now" cmp "$mytry" "$work/p4/tester/softmax-cpu.cpp"
check "... without the report of its older version, and warned of" bash -c "test ! -e '$work/p4/tester/reports/softmax-cpu.json' && grep -q 'is the report of another version of $mytry (changed since it was judged)' '$work/p4.out'"

# SLUG=FILE, with a hostile name: '=', quotes, a leading dash, wide characters; a WA verdict is warned of.
odd=$work/elsewhere/'-odd="na=me" 王.cpp'
cp "$src/problems/softmax-cpu/solution.cpp" "$odd" && echo "// begun" >>"$odd"
"$judge" softmax-cpu "$odd" --no-bench >/dev/null 2>&1
(cd "$work" && "$judge" pack "softmax-cpu=$odd" -o "$work/p5.tar.gz" --name '-Zoë "Z" 王') >"$work/p5.out" 2>&1
check "SLUG=FILE packs that file" bash -c "unpack() { rm -rf \"\$2\" && mkdir -p \"\$2\" && tar -xzf \"\$1\" -C \"\$2\"; }; unpack '$work/p5.tar.gz' '$work/p5' && cmp \"\$1\" '$work/p5/-Zoë \"Z\" 王/softmax-cpu.cpp' && test -f '$work/p5/-Zoë \"Z\" 王/reports/softmax-cpu.json'" _ "$odd"
check "a WA verdict is warned of" grep -q "was judged WA" "$work/p5.out"
check "the manifest is valid JSON naming the odd file" python3 -c 'import json, sys; m = json.load(open(sys.argv[1])); assert m["files"][0]["source"] == sys.argv[2] and m["participant"] == "-Zoë \"Z\" 王"' "$work/p5/-Zoë \"Z\" 王/manifest.json" "$odd"

# A file judged before another attempt at the same problem: packed by name, with its own report (each file's last
# report is kept), not "the report of another version".
cp "$src/problems/softmax-cpu/solutions/baseline.cpp" "$work/elsewhere/first.cpp" && echo "// first" >>"$work/elsewhere/first.cpp"
cp "$odd" "$work/elsewhere/second.cpp"
"$judge" softmax-cpu "$work/elsewhere/first.cpp" --no-bench >/dev/null 2>&1
"$judge" softmax-cpu "$work/elsewhere/second.cpp" --no-bench >/dev/null 2>&1
(cd "$work" && "$judge" pack "softmax-cpu=elsewhere/first.cpp" -o "$work/p8.tar.gz" --name tester) >"$work/p8.out" 2>&1
unpack "$work/p8.tar.gz" "$work/p8"
check "a file judged before another: packed with its own report" bash -c "grep -q '\"source_path\": \"$work/elsewhere/first.cpp\"' '$work/p8/tester/reports/softmax-cpu.json' && grep -q 'first.cpp  (report: AC' '$work/p8.out' && ! grep -q 'another version' '$work/p8.out'"
(cd "$work" && "$judge" pack -o "$work/p9.tar.gz" --name tester) >"$work/p9.out" 2>&1
check "... while the default is still the file judged last, with its report" grep -q "softmax-cpu.cpp <- $work/elsewhere/second.cpp  (report: WA" "$work/p9.out"
echo "// changed" >>"$work/elsewhere/first.cpp"
(cd "$work" && "$judge" pack "softmax-cpu=elsewhere/first.cpp" -o "$work/p10.tar.gz" --name tester) >"$work/p10.out" 2>&1
check "... and once changed, its own report is of another version" grep -q "is the report of another version of $work/elsewhere/first.cpp (changed since it was judged)" "$work/p10.out"

# A file gone since it was judged: refused.
cp "$odd" "$work/elsewhere/gone.cpp"
"$judge" softmax-cpu "$work/elsewhere/gone.cpp" --no-bench >/dev/null 2>&1
rm "$work/elsewhere/gone.cpp"
(cd "$work" && "$judge" pack -o "$work/p6.tar.gz" --name tester) >"$work/p6.out" 2>&1
rc=$?
check "a judged file since removed: refused, naming it" bash -c "test $rc -eq 2 && grep -q 'the file you last judged for softmax-cpu, $work/elsewhere/gone.cpp, is gone' '$work/p6.out'"
check "an unknown problem in SLUG=FILE: refused" bash -c "(cd '$work' && '$judge' pack 'nosuch=$mytry' -o '$work/p7.tar.gz' --name t) 2>&1 | grep -q \"unknown problem 'nosuch'\""

# The batch checks an unpacked pack's manifest: silent when it matches, in the row when it does not.
mkdir -p "$work/class" && cp -r "$work/p1/tester" "$work/class/" && cp -r "$work/p5/-Zoë \"Z\" 王" "$work/class/"
iso=()
if ! command -v bwrap >/dev/null && [ "$(id -u)" != 0 ]; then iso=(--unsafe-no-isolation); fi
"$judge" batch "$work/class" --out "$work/r1" --no-bench "${iso[@]}" >"$work/b1.out" 2>"$work/b1.err"
check "a matching pack: no note" bash -c "! grep -q 'pack does not match' '$work/b1.err' && python3 -c 'import json, sys; assert all(r[\"note\"] == \"\" for r in json.load(open(sys.argv[1]))[\"participants\"])' '$work/r1/leaderboard.json'"
echo "// edited after packing" >>"$work/class/tester/softmax-cpu.cpp"
"$judge" batch "$work/class" --out "$work/r1" --no-bench "${iso[@]}" >"$work/b2.out" 2>"$work/b2.err"
check "an edited pack: said in the participant's row, in every format" bash -c "grep -q 'tester: pack does not match its manifest: softmax-cpu.cpp changed since it was packed' '$work/b2.err' && grep -q '^[0-9]*,tester,.*pack does not match its manifest: softmax-cpu.cpp changed since it was packed' '$work/r1/leaderboard.csv' && grep -q '| tester |.*pack does not match its manifest' '$work/r1/leaderboard.md' && grep -q 'class=\"note\">pack does not match its manifest' '$work/r1/leaderboard.html'"
python3 - "$work/class/tester/manifest.json" <<'PY'
import json, sys
m = json.load(open(sys.argv[1])); m["judge_version"] = "0.0.1+000000000000"; json.dump(m, open(sys.argv[1], "w"))
PY
"$judge" batch "$work/class" --out "$work/r1" --no-bench "${iso[@]}" >"$work/b3.out" 2>"$work/b3.err"
check "a pack of another judge version: said" grep -q 'tester: pack does not match its manifest: packed with judge 0.0.1+000000000000, graded with ' "$work/b3.err"

# One participant's files cannot stop the batch (issue 56, class 2): a pack whose manifest.json, under 1 MiB, nests
# arrays 250,000 deep under judge_version (and its report as deep), then reports (one's graded_from, read to decide
# on a regrade) and a batch record as deep in the results folder. Each is not valid, said for that participant or
# file; the others are graded and ranked.
deep_json() { python3 -c 'import sys; sys.stdout.write(sys.argv[1] % ("[" * 250000 + "]" * 250000))' "$1"; }
mkdir -p "$work/class/deep/reports" && cp "$work/p1/tester/softmax-cpu.cpp" "$work/class/deep/"
deep_json '{"participant": "deep", "files": [{"path": "softmax-cpu.cpp", "sha256": "'"$(sha256sum <"$work/class/deep/softmax-cpu.cpp" | cut -d' ' -f1)"'"}], "judge_version": %s}' >"$work/class/deep/manifest.json"
deep_json '{"problem": "softmax-cpu", "verdict": %s}' >"$work/class/deep/reports/softmax-cpu.json"
"$judge" batch "$work/class" --out "$work/r2" --no-bench "${iso[@]}" >"$work/b4.out" 2>"$work/b4.err"
rc=$?
check "a manifest 250,000 deep ($(stat -c %s "$work/class/deep/manifest.json") bytes): the batch exits 0 ($rc), all graded, the leaderboard written" bash -c "test $rc -eq 0 && test -s '$work/r2/leaderboard.md' && grep -q '\"verdict\": \"AC\"' '$work/r2/deep/softmax-cpu.json' && grep -q '\"verdict\": \"AC\"' '$work/r2/tester/softmax-cpu.json'"
check "... its participant named, in a warning and in its row" bash -c "grep -q '^warning: deep: pack: its manifest.json cannot be read' '$work/b4.err' && grep -q '| deep |.*pack: its manifest.json cannot be read' '$work/r2/leaderboard.md'"
deep_json '{"problem": "softmax-cpu", "verdict": "AC", "graded_from": %s}' >"$work/r2/deep/softmax-cpu.json"
deep_json '{"problem": "softmax-gpu", "verdict": %s}' >"$work/r2/tester/softmax-gpu.json"
"$judge" leaderboard "$work/r2" >"$work/l5.out" 2>"$work/l5.err"
rc=$?
check "reports 250,000 deep in the results folder: the leaderboard exits 0 ($rc), leaves them out and names them" bash -c "test $rc -eq 0 && grep -q 'r2/tester/softmax-gpu.json is not a report the judge can read' '$work/l5.err' && grep -q 'r2/deep/softmax-cpu.json is not a report the judge can read' '$work/l5.err' && grep -q '| tester |' '$work/r2/leaderboard.md'"
deep_json '{"problems": %s}' >"$work/r2/batch.json"
"$judge" batch "$work/class" --out "$work/r2" --no-bench "${iso[@]}" >"$work/b6.out" 2>"$work/b6.err"
rc=$?
check "... and the next batch exits 0 ($rc), regrading the deep report's file" bash -c "test $rc -eq 0 && grep -q '^regrade deep/softmax-cpu.cpp: its report cannot be read' '$work/b6.out' && grep -q '\"verdict\": \"AC\"' '$work/r2/deep/softmax-cpu.json' && test -s '$work/r2/leaderboard.md'"

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
