#!/usr/bin/env bash
# A GPU submission graded as an ordinary user without the sandbox, where every runner and the judge run as that one
# user: its runner is confined as a CPU one is (runner/confine.h, Landlock), from just before it loads the file,
# its GPU context made. problems/vector-add/submissions/cheat/poisons-the-cache.cu rewrites the cached scale (each
# baseline 1000 times slower): the file is unchanged and it gains nothing over its twin (../AC/float4-grid-stride.cu);
# tests/cli/submissions/writes-files.cu may write in its own temporary folder and not in /tmp or the cache. As root,
# the test makes a user for it (tests/cli/checks.sh, ordinary_user). Without a CUDA device the judge emulates
# the GPU on the CPU: the same checks but the scale's (none is timed).
#   same_user_gpu_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
subs=$(cd "$here/../../problems/vector-add/submissions" && pwd)
tmp=$(mktemp -d)
source "$here/checks.sh"
ordinary_user "$judge"
cp "$subs/AC/float4-grid-stride.cu" "$tmp/honest-twin.cu"
cp "$subs/cheat/poisons-the-cache.cu" "$tmp/poisons-the-cache.cu"
cp "$here/submissions/writes-files.cu" "$tmp/writes-files.cu"
give_tmp
scale_sum() { cat "$tmp"/cache/scale-vector-add-*.json 2>/dev/null | sha256sum; }
for f in honest-twin poisons-the-cache writes-files; do
  [ "$f" = poisons-the-cache ] && before=$(scale_sum)
  as_user "$judge" vector-add "$tmp/$f.cu" --json "$tmp/$f.json" >"$tmp/$f.out" 2>&1
  echo "$f: $(field "$tmp/$f.json" 'j["verdict"], j["score"]["total"], j["score"]["plus_minus"], j["message"][:200]' 2>&1)"
  if [ "$f" = honest-twin ] && [ "$(field "$tmp/$f.json" 'j["verdict"]' 2>/dev/null)" = SKIP ] && [ -z "${HPCJUDGE_REQUIRE_GPU:-}" ]; then
    echo "HPCJUDGE-SKIP: no CUDA device"; exit 0
  fi
done
check "the honest twin is AC" test "$(field "$tmp/honest-twin.json" 'j["verdict"]')" = AC
# Without a CUDA device the judge emulates the GPU on the CPU (a host arena, confined as ever) and times nothing:
# no scale to poison, and the checks below hold all the same.
if [ "$(field "$tmp/honest-twin.json" 'j.get("emulated", False)')" = True ]; then
  [ -z "${HPCJUDGE_REQUIRE_GPU:-}" ] || { echo "FAIL: emulated on a machine that must run the GPU"; exit 1; }
  echo "emulated on the CPU: no scale timed"
else
  check "the grade cached a scale for vector-add" bash -c "ls '$tmp'/cache/scale-vector-add-*.json"
fi
check "poisons-the-cache is AC, and the cached scale it rewrote is as it was" bash -c "test \"\$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[\"verdict\"])' '$tmp/poisons-the-cache.json')\" = AC && test '$before' = \"\$(cat '$tmp'/cache/scale-vector-add-*.json | sha256sum)\" && ! grep -q poisoned '$tmp/poisons-the-cache.out'"
check "poisons-the-cache gains nothing over its twin" no_gain "$tmp/honest-twin.json" "$tmp/poisons-the-cache.json"
if [ "$("$(dirname "$judge")/hpcjudge-runner" --landlock)" -ge 1 ]; then
  check "writes-files.cu is AC: its own temporary folder written, /tmp and the cache refused" bash -c \
    "grep -q '\"verdict\": \"AC\"' '$tmp/writes-files.json' && grep -q 'own temporary folder: written; /tmp: refused; cache: refused' '$tmp/writes-files.out'"
else
  echo "skip writes-files: this kernel has no Landlock (the runner writes where its user may)"
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
