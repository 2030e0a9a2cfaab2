#!/usr/bin/env bash
# The proof run on a GPU machine: build for its GPU, run every test with the
# GPU tests required (a SKIP there is a failure), then judge each GPU
# problem's reference solutions with timing. Logs go to $OUT (default ./gpu-check).
#   tools/gpu-check.sh [build|test|judge|bench|bench-start|bench-wait|repeat|sanitize|speed|trace|lock|wake|unlock|wake-probe|flush-probe|switch-probe|l2-probe|busy-probe|unlock-probe|all] [ctest -R regex | seconds]
# speed: each GPU problem's fast reference ($SLUGS) judged twice ($SPEED_GRADES), traced: score, where the grade's wall time went,
# runs per case, and each timed run's steps (median ms); the first grade times the scale where none is cached. Last, a
# line a problem against issue 16's bars (second grade under 10 s, every case >= 10 runs, both scores >= 98 and
# within 1 point of each other), with the count of problems that meet them all.
# trace: where each timed call's interval goes (HPCJUDGE_TRACE), each fast reference ($SLUGS) against itself with a
# second fast runner beside: medians per side and case of the request's way, the device's part, the reply's way.
# wake: the same fast reference ($SLUGS, default $TRACE_SLUG or vector-add) judged with the wake aids off and on,
# twice each (HPCJUDGE_NO_WAKE_AIDS). speed, wake and unlock print each grade's interval beside the CPU time other
# processes took and the hypervisor's steal during its timing (timing.cpu_beside_timing).
# wake-probe: tools/wake_probe.cpp, a stopped process's wake-up with and without spinning threads on the CPUs.
# flush-probe: tools/flush_probe.cpp, how cold a working set written on every CPU is after each kind of CPU cache flush.
# switch-probe: tools/switch_probe.cu, a runner's tiny kernel after each kind of the judge's own device work.
# l2-probe: tools/l2_probe.cu, whether the judge sees a runner's persisting-L2 set-aside, and a runner's tiny kernel
# after an untimed kernel of its own and a flush that is a copy from the host (a call free of the switch).
# busy-probe: tools/busy_probe.cu, how long each kind of the judge's device work waits behind a kernel another
# process keeps resident, and the driver's process lock (judge/isolation/device_lock.h) on a process idle, with a
# kernel in flight, a resident kernel or queued work, running and stopped, and what a lock and an unlock cost.
# lock: staged calls against every side locked at the run's load (HPCJUDGE_LOCK_AT_LOAD), alternately: scores and
# the traced medians per case and side.
# unlock: the fast references of the short GPU cases judged with a call's unlock asked for while the runner is
# stopped (HPCJUDGE_UNLOCK_WHILE_STOPPED=1) and after its resume, alternately; scores and the unlock's time.
# unlock-probe: tools/unlock_probe.cu, a call's unlock asked for after the resume or while the runner is still
# stopped: when it returns, when the runner reads, synchronises and replies.
# bench: make bench's table ($OUT/results/<machine>.{json,md}; commit it under bench/results/).
# sanitize: each file in $SANITIZE (SLUG:FILE; default the --sanitize twins and every fast .cu) judged with
# --sanitize, HPCJUDGE_TRACE keeping the tool's raw output; the tool's reports printed where the verdict is not
# the expected one (RE for a file under RE/, else AC).
# repeat: judges each file in $REPEAT (default: one submission per GPU problem
# that scores above 0) twice in a row and prints both scores: the repeatability check.
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

# The median of each (runner and size class, mark) over a trace's timed calls (HPCJUDGE_TRACE's `trace call`
# lines; the size class is the runner's reported time within a factor of 2): one line per group, sorted, then
# each group's median (plain POSIX awk). With `unlock`, of two spans instead of the marks: resumed to unlocked
# (the unlock) and handed to fenced (the interval), for the calls that reported a time.
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
            ">= 98": min(a["total"], b["total"]) >= 98, "within 1 point": gap <= 1}
    missed = [name for name, ok in bars.items() if not ok]
    met += not missed
    within = "" if gap <= 1 else f" (within their intervals, +- {pm:.1f} together)" if gap <= pm else ""
    print(f"  {slug:<18} {wall:5.2f} s, fewest runs {runs:3d}, scores {a['total']:.1f} and {b['total']:.1f}: "
          + ("every bar met" if not missed else "missed " + ", ".join(missed) + within))
print(f"issue 16's bars met by {met} of {len(slugs)} (the second grade's wall time and runs; both scores)")
PY
}
side_medians() {  # TRACE: per performance case (its calls' reported time within a factor of 2) and side (the
  # `trace runner PID SIDE` lines; a runner they do not name, the functional tests', left out), the medians of
  # a call's parts in us.
  python3 - "$1" <<'PY'
import collections, math, statistics, sys
side, calls = {}, collections.defaultdict(list)
for line in open(sys.argv[1]):
    t = line.split()
    if t[:2] == ["trace", "runner"] and len(t) >= 4:
        side[t[2]] = t[3]
    elif t[:3] == ["trace", "call", "runner"] and len(t) > 4:
        try:
            m = {t[i]: float(t[i + 1]) for i in range(4, len(t) - 1, 2) if t[i] != "cpus"}
        except ValueError:
            continue
        if m.get("reported", 0) > 0 and {"body", "gpu-began", "synced", "arrived", "fenced"} <= m.keys():
            calls[(int(math.log2(m["reported"] + 1)), t[3])].append(m)
parts = [("request-body", "handed", "body"), ("device", "gpu-began", "synced"), ("reply", "synced", "arrived"),
         ("interval", "handed", "fenced")]
for (size, pid), ms in sorted(calls.items(), key=lambda kv: (kv[0][0], side.get(kv[0][1], "~"))):
    if pid not in side:
        continue
    cells = " ".join(f"{name} {statistics.median(m[b] - m[a] for m in ms):7.1f}" for name, a, b in parts)
    print(f"  ~{2 ** size:>6} us  {side[pid]:<11} {len(ms):4d} calls  {cells}")
PY
}
call_medians() {  # TRACE [unlock]
  awk -v unlock="${2:-}" '$1 == "trace" && $2 == "call" {
         key = $4 "/" int(log($NF + 1) / log(2))
         if (unlock == "") { for (i = 5; i < NF; i += 2) print key, $i, $(i + 1); next }
         if ($NF <= 0) next
         for (i = 5; i < NF; i += 2) m[$i] = $(i + 1)
         print key, "unlock", m["unlocked"] - m["resumed"]
         print key, "interval", m["fenced"] - m["handed"]
       }' "$1" | sort -k1,1 -k2,2 -k3,3g |
    awk 'function flush() { if (n) printf "%s %s %s (%d calls)\n", g, f, v[int((n + 1) / 2)], n; n = 0 }
         $1 != g || $2 != f { flush(); g = $1; f = $2 }
         { v[++n] = $3 }
         END { flush() }'
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
    for f in reference/solutions/$slug/*.cu; do
      ./judge/judge "$slug" "$f" --json "$out/$slug-$(basename "$f" .cu).json" >"$out/$slug-$(basename "$f" .cu).txt" 2>&1
      echo "== $slug $(basename "$f")"; sed -n '/^performance/,$p' "$out/$slug-$(basename "$f" .cu).txt"
    done
  done
fi
if [ "$phase" = repeat ]; then
  # Between the baseline and the fast reference where the problem has such a file, else its fast reference (a
  # baseline always scores 0 performance points, which says nothing about noise).
  for f in ${REPEAT:-tests/submissions/vector-add/AC/float4-grid-stride.cu tests/submissions/softmax-gpu/AC/multi-block.cu
      tests/submissions/matmul-gpu/AC/tiled.cu tests/submissions/shared-memory-fix/AC/fixed.cu
      reference/solutions/flash-attention/fast.cu reference/solutions/rle-compress/fast.cu
      reference/solutions/rle-decompress/fast.cu tests/submissions/prefix-sum/AC/warp-block-grid.cu
      tests/submissions/reduction/AC/warp-shuffle-two-pass.cu tests/submissions/merge/AC/merge-path-ties-from-b.cu
      tests/submissions/spmv/AC/csr-vector.cu tests/submissions/bfs/AC/frontier-queue.cu}; do
    case $f in
      reference/solutions/*) slug=$(basename "$(dirname "$f")") ;;  # reference/solutions/SLUG/FILE
      *) slug=$(basename "$(dirname "$(dirname "$f")")") ;;         # tests/submissions/SLUG/VERDICT/FILE
    esac
    for k in 1 2; do
      log="$out/repeat-$slug-$(basename "${f%.*}")-$k"
      ./judge/judge "$slug" "$f" --json "$log.json" >"$log.txt" 2>&1
      echo "$slug $(basename "$f") run $k: $(grep -o 'score .*' "$log.txt" | head -1)"
    done
  done
fi
if [ "$phase" = sanitize ]; then
  # Each file judged under --sanitize (memcheck with its leak check; the race tools where the problem asks), the
  # tool's raw output kept (HPCJUDGE_TRACE): the verdict, and where it is not the one expected, the tool's reports.
  for sv in ${SANITIZE:-vector-add:tests/submissions/vector-add/AC/sanitize-pinned-host-word.cu
      vector-add:tests/submissions/vector-add/RE/sanitize-leak.cu $(for f in reference/solutions/*/fast.cu; do
        echo "$(basename "$(dirname "$f")"):$f"; done)}; do
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
      HPCJUDGE_TRACE=1 timeout "${SPEED_LIMIT:-180}" ./judge/judge "$slug" "reference/solutions/$slug/fast.cu" \
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
if [ "$phase" = wake ]; then
  # What the wake aids change (docs/design.md, "What it costs"): the fast reference of each of $SLUGS (default
  # ${TRACE_SLUG:-vector-add}) judged against the cached scale, with HPCJUDGE_NO_WAKE_AIDS=1 and without, alternating, twice each.
  for slug in ${SLUGS:-${TRACE_SLUG:-vector-add}}; do
    for k in 1 2; do
      for aids in off on; do
        log="$out/wake-$slug-$aids-$k"
        if [ $aids = off ]; then export HPCJUDGE_NO_WAKE_AIDS=1; else unset HPCJUDGE_NO_WAKE_AIDS; fi
        HPCJUDGE_TRACE=1 ./judge/judge "$slug" "reference/solutions/$slug/fast.cu" --no-side-by-side --json "$log.json" \
          >"$log.txt" 2>"$log.trace"
        echo "== $slug, wake aids $aids, run $k: $(grep -o 'score .*' "$log.txt" | head -1)"
        sed -n '/^performance/,/^verdict/p' "$log.txt" | grep -E '^  [^ ]+ +[A-Za-z]+=' || true
        grep -o '"cpus_kept_awake":[a-z]*' "$log.json" || true
        cpu_beside "$log.json"
      done
    done
  done
  unset HPCJUDGE_NO_WAKE_AIDS
fi
if [ "$phase" = unlock ]; then
  # A timed call's unlock asked for while the runner is stopped (HPCJUDGE_UNLOCK_WHILE_STOPPED=1) against after
  # its resume (docs/design.md, "Device work between calls"): the fast references of the short GPU cases, judged
  # against themselves side by side, off and on alternately, twice each; the score, and the medians of the
  # trace's resumed-to-unlocked and handed-to-fenced per runner and case.
  for slug in ${SLUGS:-vector-add reduction prefix-sum}; do
    for k in 1 2; do
      for ahead in off on; do
        log="$out/unlock-$slug-$ahead-$k"
        if [ $ahead = on ]; then export HPCJUDGE_UNLOCK_WHILE_STOPPED=1; else unset HPCJUDGE_UNLOCK_WHILE_STOPPED; fi
        HPCJUDGE_TRACE=1 ./judge/judge "$slug" "reference/solutions/$slug/fast.cu" --json "$log.json" \
          >"$log.txt" 2>"$log.trace"
        echo "== $slug, unlock ahead $ahead, grade $k: $(grep -o '^verdict.*' "$log.txt" | head -1)"
        cpu_beside "$log.json"
        call_medians "$log.trace" unlock
      done
    done
  done
  unset HPCJUDGE_UNLOCK_WHILE_STOPPED
fi
if [ "$phase" = wake-probe ]; then
  # How long a stopped process takes to read a request once continued, with and without spinning threads on
  # the CPUs (docs/design.md, "What it costs"; judge/timing/wake_latency.h's CpuSpinners).
  g++ -O2 -pthread -o "$out/wake_probe" tools/wake_probe.cpp && "$out/wake_probe" | tee "$out/wake-probe.txt"
fi
if [ "$phase" = flush-probe ]; then
  # How cold a call's data is after the judge's CPU cache flush (one thread's) and after the every-CPU flush
  # (harness/cpu_cache.h; docs/design.md, "The CPU's caches"), against 1 GiB of other reads.
  g++ -std=c++20 -O2 -pthread -I. -Iharness -o "$out/flush_probe" tools/flush_probe.cpp harness/cpu_cache.cpp &&
    "$out/flush_probe" | tee "$out/flush-probe.txt"
fi
if [ "$phase" = switch-probe ] || [ "$phase" = l2-probe ] || [ "$phase" = busy-probe ] || [ "$phase" = unlock-probe ]; then
  # The GPU probes (tools/*_probe.cu, each a parent in the judge's place and a child in a runner's): what the
  # judge's own device work before a call costs that call, a call free of the switch, and what the judge can see
  # of a runner's work kept between calls (docs/design.md, "What the judge's device work costs" and "Device work
  # between calls").
  name=${phase%-probe}_probe
  nvcc -O2 -arch=sm_90 -o "$out/$name" "tools/$name.cu" -lcuda && timeout 300 "$out/$name" | tee "$out/$phase.txt"
fi
if [ "$phase" = trace ]; then
  # Where a timed GPU call's interval goes, side by side (docs/design.md, "Where a call's interval goes"): each
  # fast reference of ${SLUGS:-${TRACE_SLUG:-vector-add}} judged against itself with a second fast runner beside
  # (HPCJUDGE_FAST_TWICE=1) and HPCJUDGE_TRACE=1, then for each performance case and side its calls' medians, in
  # us: the request's way to the runner's body (the resume, the unlock, the wake), the device's part (the GPU
  # taking up the work to the runner's synchronise), the reply's way, and the interval. Two runners of one program
  # differ only by where they stand: what differs between them is the offset a score carries.
  for slug in ${SLUGS:-${TRACE_SLUG:-vector-add}}; do
    log="$out/trace-$slug"
    HPCJUDGE_FAST_TWICE=1 HPCJUDGE_TRACE=1 ./judge/judge "$slug" "reference/solutions/$slug/fast.cu" \
      --json "$log.json" >"$log.txt" 2>"$log.log"
    echo "== $slug: $(grep -o '^verdict.*' "$log.txt" | head -1)"
    side_medians "$log.log"
  done
fi
if [ "$phase" = lock ]; then
  # Staged calls (each side locked anew right before its own call, its buffers copied from the run's stage)
  # against every side locked and loaded before the run's first call (HPCJUDGE_LOCK_AT_LOAD=1), alternately,
  # $GRADES grades each (default 2; docs/design.md, "Device work between calls"): each fast reference of $SLUGS
  # judged against itself with a second fast runner beside; the score, then per case and side the trace's medians.
  for slug in ${SLUGS:-vector-add reduction prefix-sum}; do
    for k in $(seq "${GRADES:-2}"); do
      for way in staged at-load; do
        log="$out/lock-$slug-$way-$k"
        if [ $way = at-load ]; then export HPCJUDGE_LOCK_AT_LOAD=1; else unset HPCJUDGE_LOCK_AT_LOAD; fi
        HPCJUDGE_FAST_TWICE=1 HPCJUDGE_TRACE=1 ./judge/judge "$slug" "reference/solutions/$slug/fast.cu" \
          --json "$log.json" >"$log.txt" 2>"$log.log"
        echo "== $slug, $way, grade $k: $(grep -o '^verdict.*' "$log.txt" | head -1)"
        side_medians "$log.log"
      done
    done
  done
  unset HPCJUDGE_LOCK_AT_LOAD
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
