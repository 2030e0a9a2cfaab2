#!/usr/bin/env bash
# Every GPU problem's fast reference under --sanitize: memcheck on every functional test, and
# racecheck and synccheck where the problem asks, must find nothing (AC). A reference that keeps what its
# statement offers (rle-compress's and rle-decompress's mapped, pinned word) must not be RE for it: both were, on
# the H100, first for memcheck's listing of page-locked host memory as a leak, then for reading a
# leak's allocator from the wrong frame of its backtrace (judge/grading/sanitizer_output.h).
# With --emulate, the same under CPU emulation (its own memcheck: leaks, out-of-bounds accesses, races), which
# runs in CI: spmv's fast reference kept a cudaMalloc for the process's life, RE on the H100 (196,608
# bytes, never freed) and RE here too. A reference emulation cannot run (CE: "not supported by CPU emulation") is
# left out with a line that says so.
#   sanitize_references_gpu_test.sh JUDGE [--emulate]
set -u
judge=$1
emulate=${2:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HPCJUDGE_CACHE=$tmp/cache
failed=0
for sol in "$root"/problems/*/solutions/fast.cu; do
  slug=$(basename "$(dirname "$(dirname "$sol")")")  # problems/SLUG/solutions/fast.cu
  name=$slug/$(basename "$sol")
  "$judge" "$slug" "$sol" --sanitize --no-bench $emulate --json "$tmp/r.json" >"$tmp/out.txt" 2>&1
  rc=$?
  if [ -n "$emulate" ] && grep -q "not supported by CPU emulation" "$tmp/out.txt"; then
    echo "--   $name: not emulated ($(grep -m1 -o 'not supported by CPU emulation[^"]*' "$tmp/out.txt" | head -c 120))"
    continue
  fi
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
