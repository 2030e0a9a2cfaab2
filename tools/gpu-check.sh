#!/usr/bin/env bash
# The proof run on a GPU machine: build for its GPU, run every test with the
# GPU tests required (a SKIP there is a failure), then judge each GPU
# problem's reference solutions with timing. Logs go to $OUT (default ./gpu-check).
#   tools/gpu-check.sh [build|test|judge|bench|bench-start|bench-wait|sanitize|speed|all] [ctest -R regex | seconds]
# speed: each GPU problem's fast reference ($SLUGS) judged twice ($SPEED_GRADES), traced: score, where the grade's wall time went,
# runs per case, and each timed run's steps (median ms); the first grade times the scale where none is cached. Last, a
# line a problem against issue 16's bars (second grade under 10 s, every case >= 10 runs, both scores >= 98, and the
# two grades agree: within 1 point of each other or within their two stated intervals), with the count of problems
# that meet them all.
# bench: make bench's table ($OUT/results/<machine>.{json,md}; commit it under bench/results/).
# sanitize: each file in $SANITIZE (SLUG:FILE; default the --sanitize twins and every fast .cu) judged with
# --sanitize, HPCJUDGE_TRACE keeping the tool's raw output; the tool's reports printed where the verdict is not
# the expected one (RE for a file under RE/, else AC).
# The probes and the repeatability run are in lab/ (lab/lab.sh), not here.
# On a host without network, unpack the build dependencies into .deps first
# (tools/offline-deps.sh .deps, on a machine with network) and it configures against them.
set -uo pipefail
cd "$(dirname "$0")/.."
phase=${1:-all}
filter=${2:-}
# Every GPU problem: what judge, speed and their bars take where $SLUGS does not say.
gpu_slugs="vector-add softmax-gpu matmul-gpu shared-memory-fix flash-attention rle-compress rle-decompress prefix-sum reduction merge spmv bfs"
out=${OUT:-$PWD/gpu-check}
mkdir -p "$out"
build=${HPCJUDGE_BUILD:-$PWD/build}
export HPCJUDGE_BUILD=$build HPCJUDGE_REQUIRE_GPU=1
if [ -d .deps/usr ]; then
  prefix=(-DCMAKE_PREFIX_PATH="$PWD/.deps/usr")
  export LD_LIBRARY_PATH="$PWD/.deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
# bubblewrap unpacked beside them (dpkg -x bubblewrap_*.deb .deps/bwrap), for --sandbox.
[ -x .deps/bwrap/usr/bin/bwrap ] && export PATH="$PWD/.deps/bwrap/usr/bin:$PATH"
ls -l /dev | grep -i nvidia >"$out/dev-nodes.txt" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,temperature.gpu --format=csv >"$out/gpu.txt" 2>&1

cpu_beside() {  # REPORT.json: the score's interval and what the rest of the machine did beside the timing
  python3 - "$1" <<'PY' 2>/dev/null || true
import json, sys
r = json.load(open(sys.argv[1]))
c, s = r.get("timing", {}).get("cpu_beside_timing") or {}, r.get("score", {})
print(f"  +- {s.get('plus_minus') or 0:.1f}; beside the timing ({c.get('seconds', 0):.1f} s): other processes "
      f"{c.get('others_cpu_s', 0):.2f} CPU-s, the hypervisor's steal {c.get('steal_s', 0):.2f} CPU-s")
PY
}
done_when() {  # OUT SLUG...: issue 16's bars over the speed grades, one line a problem and a count
  python3 - "$@" <<'PY'
import json, os, sys
out, slugs, met = sys.argv[1], sys.argv[2:], 0
for slug in slugs:
    grades = []
    for k in (1, 2):
        try:
            grades.append(json.load(open(os.path.join(out, f"speed-{slug}-{k}.json"))))
        except (OSError, ValueError):
            pass
    if len(grades) < 2 or any(g.get("verdict") != "AC" for g in grades):
        print(f"  {slug:<18} not two AC grades")
        continue
    (a, b), last = [g["score"] for g in grades], grades[-1]
    wall = last["timing"]["wall_s"]["total"]
    runs = min(c["runs"] for c in last["bench"])
    gap = abs(a["total"] - b["total"])
    pm = (a.get("plus_minus") or 0) + (b.get("plus_minus") or 0)
    bars = {"under 10 s": wall < 10, ">= 10 runs": runs >= 10,
            ">= 98": min(a["total"], b["total"]) >= 98,
            "agree (within 1 point or within their intervals)": gap <= 1 or gap <= pm}
    missed = [name for name, ok in bars.items() if not ok]
    met += not missed
    print(f"  {slug:<18} {wall:5.2f} s, fewest runs {runs:3d}, scores {a['total']:.1f} and {b['total']:.1f} "
          f"(+- {pm:.1f} together): " + ("every bar met" if not missed else "missed " + ", ".join(missed)))
print(f"issue 16's bars met by {met} of {len(slugs)} (the second grade's wall time and runs; both scores)")
PY
}
if [ "$phase" = build ] || [ "$phase" = all ]; then
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 -DHPCJUDGE_TESTS=ON "${prefix[@]}" >"$out/configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" >"$out/build.log" 2>&1 || { tail -30 "$out/configure.log" "$out/build.log"; exit 1; }
  echo "built"
fi
if [ "$phase" = test ] || [ "$phase" = all ]; then
  (cd "$build" && ctest -j 8 --output-on-failure ${filter:+-R "$filter"}) >"$out/ctest.log" 2>&1
  grep -E "tests passed|tests failed|\(Failed\)|\(Skipped\)|Timeout" "$out/ctest.log"
fi
if [ "$phase" = judge ] || [ "$phase" = all ]; then
  for slug in ${SLUGS:-$gpu_slugs}; do
    for f in problems/$slug/solutions/*.cu; do
      ./judge/judge "$slug" "$f" --json "$out/$slug-$(basename "$f" .cu).json" >"$out/$slug-$(basename "$f" .cu).txt" 2>&1
      echo "== $slug $(basename "$f")"; sed -n '/^performance/,$p' "$out/$slug-$(basename "$f" .cu).txt"
    done
  done
fi
if [ "$phase" = sanitize ]; then
  # Each file judged under --sanitize (memcheck with its leak check; the race tools where the problem asks), the
  # tool's raw output kept (HPCJUDGE_TRACE): the verdict, and where it is not the one expected, the tool's reports.
  for sv in ${SANITIZE:-vector-add:problems/vector-add/submissions/AC/sanitize-pinned-host-word.cu
      vector-add:problems/vector-add/submissions/RE/sanitize-leak.cu $(for f in problems/*/solutions/fast.cu; do
        echo "$(basename "$(dirname "$(dirname "$f")")"):$f"; done)}; do
    slug=${sv%%:*}; f=${sv#*:}
    log="$out/sanitize-$slug-$(basename "${f%.*}")"
    HPCJUDGE_TRACE=1 ./judge/judge "$slug" "$f" --sanitize --no-bench --json "$log.json" >"$log.txt" 2>"$log.trace"
    verdict=$(grep -o '^verdict [A-Z-]*' "$log.txt" | head -1)
    echo "$slug $(basename "$f"): ${verdict:-no verdict: $(cat "$log.txt" "$log.trace" | tail -1)}"
    case "$f:$verdict" in
      */RE/*:"verdict RE" | *:"verdict AC") ;;
      *) sed -n '/^trace sanitizer/,/^trace sanitizer output ends/p' "$log.trace" | grep -E "^=========" | head -40 ;;
    esac
  done
fi
if [ "$phase" = speed ]; then
  for slug in ${SLUGS:-$gpu_slugs}; do
    for k in $(seq "${SPEED_GRADES:-2}"); do
      log="$out/speed-$slug-$k"
      HPCJUDGE_TRACE=1 timeout "${SPEED_LIMIT:-180}" ./judge/judge "$slug" "problems/$slug/solutions/fast.cu" \
        --json "$log.json" >"$log.txt" 2>"$log.trace"
      echo "== $slug grade $k: $(grep -o '^verdict.*' "$log.txt" | head -1)"
      grep -o 'judged in [^:]*' "$log.txt" | head -1
      cpu_beside "$log.json"
      # The performance table's rows: case and runs (the column after the first "N%", the share of the peak).
      sed -n '/^performance/,/^scale/p' "$log.txt" |
        awk 'NR > 2 && $1 != "scale" { for (i = 3; i < NF; ++i) if ($i ~ /%$/) break; printf "  %s runs %s;", $1, $(i + 1) }
             END { print "" }'
      # Each timed run's steps, the median per case (trace run lines, ms).
      awk '$1 == "trace" && $2 == "run" { for (i = 5; i < NF; i += 2) print $3, $i, $(i + 1) }' "$log.trace" |
        sort -k1,1 -k2,2 -k3,3g |
        awk 'function flush() { if (n) printf " %s", f "=" v[int((n + 1) / 2)]; n = 0 }
             $1 != c { flush(); if (c != "") print ""; c = $1; printf "  %s:", c; f = "" }
             $2 != f { flush(); f = $2 }
             { v[++n] = $3 }
             END { flush(); if (c != "") print "" }'
    done
  done
  done_when "$out" ${SLUGS:-$gpu_slugs}
fi
if [ "$phase" = bench ]; then
  rm -f "$out/bench.done"
  ./judge/judge bench --out "$out/results" >"$out/bench.txt" 2>&1
  echo "exit status $?" >"$out/bench.done"
  tail -40 "$out/bench.txt"
fi
# make bench takes longer than one device call may: bench-start runs it in a
# session of its own (it outlives the call while the machine stays held), and
# bench-wait [SECONDS] waits for it (default 540 s) and copies what it has to $OUT/bench.
bg=/tmp/hpcjudge-bench
if [ "$phase" = bench-start ]; then
  rm -rf "$bg" && mkdir -p "$bg"
  OUT=$bg setsid nohup "$PWD/tools/gpu-check.sh" bench >"$bg/run.log" 2>&1 </dev/null &
  echo "make bench started in the background (logs in $bg)"
fi
if [ "$phase" = bench-wait ]; then
  waited=0
  while [ ! -f "$bg/bench.done" ] && [ "$waited" -lt "${filter:-540}" ]; do sleep 5; waited=$((waited + 5)); done
  mkdir -p "$out/bench" && cp -r "$bg/bench.txt" "$bg/results" "$out/bench/" 2>/dev/null
  if [ -f "$bg/bench.done" ]; then cat "$bg/bench.done"; tail -45 "$bg/bench.txt"; else echo "still running after ${waited} s"; tail -3 "$bg/bench.txt"; fi
fi
