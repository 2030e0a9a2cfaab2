#!/usr/bin/env bash
# The judge's own runners beside the submission, graded as an ordinary user without the sandbox, where every
# runner and the judge run as that one user: the cheats that reach across (problems/softmax-cpu/submissions/cheat/)
# against their honest twin. copies-the-fast-reference reads the fast reference's output from its memory
# (/proc/PID/mem): the rivals are not dumpable, so it copies nothing and gains nothing; slows-the-fast-reference
# pins the rivals' threads to one CPU and slows-the-judge pins the judge's to CPU 0 at nice 19: FAIL, each named
# (judge/isolation/scheduling.h); poisons-the-cache rewrites the cached scale, which the runner, confined by the
# kernel (runner/confine.h, Landlock), may not: the file is unchanged. tests/cli/submissions/writes-files.cpp
# may write in its own temporary folder and not in /tmp or the cache, and reads-files.cpp may read its own folder and
# the system's files and not the cache, the answers, the tests or the judge's other temporary folders, so that
# borrows-a-compiled-library.cpp finds no library of the fast reference's to call (where the kernel has
# Landlock). As root, the test creates a user for it and removes it after (and is skipped
# where the judge cannot be reached by another user); run as an ordinary user, it grades as that user.
#   same_user_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cheats=$(cd "$here/../../problems/softmax-cpu/submissions/cheat" && pwd)
tmp=$(mktemp -d)
source "$here/checks.sh"
ordinary_user "$judge"
for f in honest-twin copies-the-fast-reference slows-the-fast-reference slows-the-judge poisons-the-cache; do
  cp "$cheats/$f.cpp" "$tmp/$f.cpp"
done
for f in writes-files reads-files borrows-a-compiled-library; do cp "$here/submissions/$f.cpp" "$tmp/$f.cpp"; done
give_tmp
scale_sum() { cat "$tmp"/cache/scale-softmax-cpu-*.json 2>/dev/null | sha256sum; }
for f in honest-twin copies-the-fast-reference slows-the-fast-reference slows-the-judge poisons-the-cache writes-files \
         reads-files borrows-a-compiled-library; do
  [ "$f" = poisons-the-cache ] && before=$(scale_sum)
  as_user "$judge" softmax-cpu "$tmp/$f.cpp" --json "$tmp/$f.json" >"$tmp/$f.out" 2>&1
  echo "$f: $(field "$tmp/$f.json" 'j["verdict"], j["score"]["total"], j["score"]["plus_minus"], j["message"][:200]' 2>&1)"
done
check "the honest twin is AC" test "$(field "$tmp/honest-twin.json" 'j["verdict"]')" = AC
check "copies-the-fast-reference is AC, and copied nothing (no 'copied' in its output)" \
  bash -c "test \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"verdict\"])' '$tmp/copies-the-fast-reference.json')\" = AC && ! grep -q 'copied the output' '$tmp/copies-the-fast-reference.json' '$tmp/copies-the-fast-reference.out'"
check "copies-the-fast-reference gains nothing over its twin" \
  no_gain "$tmp/honest-twin.json" "$tmp/copies-the-fast-reference.json"
check "slows-the-fast-reference is FAIL: the fast reference's runner slowed from outside, its CPUs named" \
  bash -c "grep -q '\"verdict\": \"FAIL\"' '$tmp/slows-the-fast-reference.json' && grep -q \"reference's runner, waiting beside the submission's, was slowed from outside the judge: its thread [0-9]* may run on CPU 0 only\" '$tmp/slows-the-fast-reference.json'"
check "slows-the-judge is FAIL: the judge's own thread on CPU 0 (or at nice 19, where CPU 0 is all it has)" \
  bash -c "grep -q '\"verdict\": \"FAIL\"' '$tmp/slows-the-judge.json' && grep -Eq \"the judge's own thread, which times every call, (may run on CPU 0 only|runs at nice 19)\" '$tmp/slows-the-judge.json'"
check "poisons-the-cache: the cached scale it rewrote is as it was" bash -c "test -n \"\$(ls '$tmp'/cache/scale-softmax-cpu-*.json)\" && test '$before' = \"\$(cat '$tmp'/cache/scale-softmax-cpu-*.json | sha256sum)\" && ! grep -q poisoned '$tmp/poisons-the-cache.out'"
check "poisons-the-cache gains nothing over its twin" no_gain "$tmp/honest-twin.json" "$tmp/poisons-the-cache.json"
if [ "$("$(dirname "$judge")/hpcjudge-runner" --landlock)" -ge 1 ]; then
  check "writes-files: its own temporary folder written, /tmp and the cache refused" \
    grep -q "own temporary folder: written; /tmp: refused; cache: refused" "$tmp/writes-files.out"
  check "reads-files: its own folder and the system's files read; the cache, the solutions, the corpus and the judge's other temporary folders refused" \
    grep -q "own temporary folder: read; system: read; cache: refused; reference: refused; tests: refused; the judge's other temporary folders: refused" "$tmp/reads-files.out"
  check "borrows-a-compiled-library is AC and borrowed nothing" \
    bash -c "grep -q '\"verdict\": \"AC\"' '$tmp/borrows-a-compiled-library.json' && ! grep -q borrowed '$tmp/borrows-a-compiled-library.out'"
  check "borrows-a-compiled-library gains nothing over its twin" \
    no_gain "$tmp/honest-twin.json" "$tmp/borrows-a-compiled-library.json"
else
  echo "skip writes-files: this kernel has no Landlock (the runner writes where its user may)"
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
