#!/usr/bin/env bash
# Every GPU problem's fast reference under --sanitize: memcheck on every functional test, and
# racecheck and synccheck where the problem asks, must find nothing (AC). A reference that keeps what its
# statement offers (rle-compress's and rle-decompress's mapped, pinned word) must not be RE for it: both were, on
# the H100 on 2026-12-05, first for memcheck's listing of page-locked host memory as a leak, then for reading a
# leak's allocator from the wrong frame of its backtrace (judge/grading/sanitizer_output.h).
#   sanitize_references_gpu_test.sh JUDGE
set -u
judge=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HPCJUDGE_CACHE=$tmp/cache
failed=0
for sol in "$root"/reference/solutions/*/fast.cu; do
  slug=$(basename "$(dirname "$sol")")
  name=$slug/$(basename "$sol")
  "$judge" "$slug" "$sol" --sanitize --no-bench --json "$tmp/r.json" >"$tmp/out.txt" 2>&1
  rc=$?
  if [ $rc -eq 2 ] && grep -q "compute-sanitizer" "$tmp/out.txt" && [ -z "${HPCJUDGE_REQUIRE_GPU:-}" ]; then
    echo "HPCJUDGE-SKIP: no compute-sanitizer or no CUDA device here"
    exit 0
  fi
  verdict=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["verdict"])' "$tmp/r.json" 2>/dev/null)
  if [ "$verdict" = SKIP ] && [ -z "${HPCJUDGE_REQUIRE_GPU:-}" ]; then
    echo "HPCJUDGE-SKIP: no CUDA device"
    exit 0
  fi
  if [ "$verdict" = AC ]; then
    echo "AC   $name  $(grep -m1 -o 'judged in [0-9.]* s' "$tmp/out.txt")"
  else
    echo "FAIL $name: ${verdict:-no report} (rc $rc)"
    tail -5 "$tmp/out.txt"
    failed=1
  fi
done
exit $failed
