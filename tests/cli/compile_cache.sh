#!/usr/bin/env bash
# A file judged again is not compiled again (judge/grading/compile.h, compile_submission_cached):
#   - the second grade of the same file reports compile.cached, the same verdict, compile log and kernel
#     table (emulated on a machine without a GPU; and a GPU problem compiled by nvcc with --no-emulate, where
#     this machine has nvcc: its kernel table, read back from the kept ptxas output, is the compile's);
#   - a file changed by one byte is compiled, and so is an emulated one once the emulator's headers have changed;
#   - a file that does not compile is never kept: CE each time, compiled each time;
#   - the 256 most recently used submissions' libraries are kept, the older ones pruned with their logs.
# The judge runs on a copy of problems/ (HPCJUDGE_ROOT) with a cache of its own.
set -uo pipefail
judge=$(realpath "${1:?usage: compile_cache.sh path/to/hpcjudge}")
. "$(dirname "$0")/repo_copy.sh"
rm "$work/emulate" && cp -r "$src/emulate" "$work/emulate"  # its headers are changed below
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(json.dumps(eval(sys.argv[2])))" "$@"; }

judged() {  # judged NAME SLUG FILE [ENV...]: the report in $work/NAME.json
  local name=$1 slug=$2 file=$3
  shift 3
  (cd "$work" && env "$@" "$judge" "$slug" "$file" --no-bench --json "$work/$name.json") >"$work/$name.out" 2>&1
  [ -f "$work/$name.json" ] || fail "$name: no report: $(tail -3 "$work/$name.out")"
}

for case in "softmax-cpu softmax-cpu/AC/openmp.cpp cpp" "vector-add vector-add/AC/float4-grid-stride.cu cu"; do
  read -r slug file ext <<<"$case"
  cp "$src/problems/${file%%/*}/submissions/${file#*/}" "$work/a.$ext"
  judged "$slug-1" "$slug" "$work/a.$ext"
  judged "$slug-2" "$slug" "$work/a.$ext"
  [ "$(field "$work/$slug-1.json" "j['compile']['cached']")" = false ] || fail "$slug: a first compile called cached"
  [ "$(field "$work/$slug-2.json" "j['compile']['cached']")" = true ] ||
    fail "$slug: the same file compiled again: $(grep -i compil "$work/$slug-2.out")"
  grep -q "compiled earlier on this machine" "$work/$slug-2.out" || fail "$slug: the human report does not say so"
  for k in "j['verdict']" "j['compile']['log']" "j['kernels']" "j['compile']['ok']"; do
    [ "$(field "$work/$slug-1.json" "$k")" = "$(field "$work/$slug-2.json" "$k")" ] ||
      fail "$slug: $k differs between the compile and the kept library"
  done
  [ "$(field "$work/$slug-2.json" "j['verdict']")" = '"AC"' ] || fail "$slug: $(tail -3 "$work/$slug-2.out")"
  echo "// one byte more" >>"$work/a.$ext"
  judged "$slug-3" "$slug" "$work/a.$ext"
  [ "$(field "$work/$slug-3.json" "j['compile']['cached']")" = false ] || fail "$slug: a changed file taken from the cache"
done

# The emulator's headers, which an emulated compile takes in, are part of the key (the judge's version does not
# cover them); where vector-add ran on the GPU above, its compile did not take them in.
if [ "$(field "$work/vector-add-3.json" "j.get('emulated', False)")" = true ]; then
  echo "// changed" >>"$work/emulate/include/hpcjudge_emulate.h"
  judged vector-add-5 vector-add "$work/a.cu"
  [ "$(field "$work/vector-add-5.json" "j['compile']['cached']")" = false ] ||
    fail "vector-add: compiled against the emulator's old headers, taken from the cache"
fi

# Compiled by nvcc (--no-emulate: SKIP where there is no GPU, AC where there is one), where this machine has it:
# the kernel table read back from the kept ptxas output is the compile's.
cp "$src/problems/vector-add/solutions/fast.cu" "$work/n.cu"
for n in 1 2; do
  (cd "$work" && "$judge" vector-add "$work/n.cu" --no-emulate --no-bench --json "$work/nvcc-$n.json") >"$work/nvcc-$n.out" 2>&1
done
if [ "$(field "$work/nvcc-1.json" "j['compile']['ok'] and len(j['kernels']) > 0")" = true ]; then
  [ "$(field "$work/nvcc-2.json" "[j['compile']['cached'], j['verdict'] == $(field "$work/nvcc-1.json" "j['verdict']")]")" = '[true, true]' ] ||
    fail "nvcc: the same file compiled again, or judged otherwise: $(tail -3 "$work/nvcc-2.out")"
  [ "$(field "$work/nvcc-1.json" "j['kernels']")" = "$(field "$work/nvcc-2.json" "j['kernels']")" ] ||
    fail "nvcc: the kernel table differs between the compile and the kept library"
else
  echo "nvcc not used here ($(field "$work/nvcc-1.json" "j['message']")): its part skipped"
fi

cp "$src/problems/softmax-cpu/submissions/CE/syntax-error.cpp" "$work/bad.cpp"
for n in 1 2; do
  judged "ce-$n" softmax-cpu "$work/bad.cpp"
  [ "$(field "$work/ce-$n.json" "[j['verdict'], j['compile']['cached']]")" = '["CE", false]' ] ||
    fail "a file that does not compile, judged $n times: $(field "$work/ce-$n.json" "[j['verdict'], j['compile']['cached']]")"
done
ls "$work/cache/compiled" | grep -q -- '-submission-.*\.so$' || fail "nothing kept under the cache's compiled/"

# The 256 most recently used submissions' libraries are kept: 300 older ones (their logs beside) are pruned to 255
# by the next compile, the library it keeps the 256th.
for i in $(seq 1000 1299); do
  : >"$work/cache/compiled/softmax-cpu-submission-00000000000$i.so"
  : >"$work/cache/compiled/softmax-cpu-submission-00000000000$i.log"
  touch -d "@$((1577836800 + i))" "$work/cache/compiled/softmax-cpu-submission-00000000000$i.so"
done
echo "// once more" >>"$work/a.cpp"
judged prune softmax-cpu "$work/a.cpp"
kept=$(ls "$work/cache/compiled" | grep -c -- '-submission-.*\.so$')
[ "$kept" = 256 ] || fail "$kept submissions' libraries kept, not 256"
[ -e "$work/cache/compiled/softmax-cpu-submission-000000000001299.so" ] || fail "the most recent older library was pruned"
[ -e "$work/cache/compiled/softmax-cpu-submission-000000000001000.so" ] && fail "the oldest library was kept"
[ -e "$work/cache/compiled/softmax-cpu-submission-000000000001000.log" ] && fail "a pruned library's log was kept"
judged prune-2 softmax-cpu "$work/a.cpp"
[ "$(field "$work/prune-2.json" "j['compile']['cached']")" = true ] || fail "the library just kept was pruned"

[ "$fails" = 0 ] && echo "compile cache: all checks passed"
exit "$((fails > 0))"
