#!/usr/bin/env bash
# The proof run on a GPU machine: build for its GPU, run every test with the
# GPU tests required (a SKIP there is a failure), then judge each GPU
# problem's reference solutions with timing. Logs go to $OUT (default ./gpu-check).
#   tools/gpu-check.sh [build|test|judge|bench|all] [ctest -R regex]
# bench: make bench's table (bench/results/<machine>.{json,md}, copied to $OUT).
# On a host without network, unpack the build dependencies into .deps first
# (shared/tools/offline-deps.sh .deps) and it configures against them.
set -uo pipefail
cd "$(dirname "$0")/.."
phase=${1:-all}
filter=${2:-}
out=${OUT:-$PWD/gpu-check}
mkdir -p "$out"
build=${HPCJUDGE_BUILD:-$PWD/build}
export HPCJUDGE_BUILD=$build HPCJUDGE_REQUIRE_GPU=1
if [ -d .deps/usr ]; then
  prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/usr")
  export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv >"$out/gpu.txt" 2>&1

if [ "$phase" = build ] || [ "$phase" = all ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 "${prefix[@]}" >"$out/configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { tail -30 "$out/configure.log" "$out/build.log"; exit 1; }
  echo "built"
fi
if [ "$phase" = test ] || [ "$phase" = all ]; then
  (cd "$build" && ctest -j 8 --output-on-failure ${filter:+-R "$filter"}) >"$out/ctest.log" 2>&1
  grep -E "tests passed|tests failed|\(Failed\)|\(Skipped\)|Timeout" "$out/ctest.log"
fi
if [ "$phase" = judge ] || [ "$phase" = all ]; then
  for slug in ${SLUGS:-vector-add softmax-gpu matmul-gpu shared-memory-fix flash-attention rle-compress rle-decompress}; do
    for f in reference/solutions/$slug/*.cu; do
      ./judge/judge "$slug" "$f" --json "$out/$slug-$(basename "$f" .cu).json" >"$out/$slug-$(basename "$f" .cu).txt" 2>&1
      echo "== $slug $(basename "$f")"; sed -n '/^performance/,$p' "$out/$slug-$(basename "$f" .cu).txt"
    done
  done
fi
if [ "$phase" = bench ]; then
  ./judge/judge bench >"$out/bench.txt" 2>&1
  tail -40 "$out/bench.txt"
  cp bench/results/*.json bench/results/*.md "$out/" 2>/dev/null || true
fi
