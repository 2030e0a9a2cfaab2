#!/usr/bin/env bash
# The lab's runs on a GPU machine (lab/README.md): not part of the judge, nor of its tests. Logs go to $OUT
# (default ./lab-out). Run from anywhere; the judge is built by ./judge/judge where a phase needs it.
#   lab/lab.sh repeat|wake-probe|flush-probe|switch-probe|l2-probe|busy-probe|unlock-probe|atomic-probe
# repeat: each file in $REPEAT (default: one submission per GPU problem that scores above 0) judged twice in a
# row: both scores, and whether the two grades agree, which they do when within 1 point of each other or within
# their two stated intervals (the sum of their +-).
# wake-probe: lab/wake_probe.cpp, a stopped process's wake-up with and without spinning threads on the CPUs.
# flush-probe: lab/flush_probe.cpp, how cold a working set written on every CPU is after each kind of CPU cache flush.
# switch-probe: lab/switch_probe.cu, a runner's tiny kernel after each kind of the judge's own device work.
# l2-probe: lab/l2_probe.cu, whether the judge sees a runner's persisting-L2 set-aside, and a runner's tiny kernel
# after an untimed kernel of its own and a flush that is a copy from the host (a call free of the switch).
# busy-probe: lab/busy_probe.cu, how long each kind of the judge's device work waits behind a kernel another
# process keeps resident, and the driver's process lock (judge/isolation/device_lock.h) on a process idle, with a
# kernel in flight, a resident kernel or queued work, running and stopped, and what a lock and an unlock cost.
# unlock-probe: lab/unlock_probe.cu, a call's unlock asked for after the resume or while the runner is still
# stopped: when it returns, when the runner reads, synchronises and replies.
# atomic-probe: lab/atomic_probe.cu, what atomics on one address cost per atomic (the estimate's same-address term).
set -uo pipefail
cd "$(dirname "$0")/.."
phase=${1:-}
out=${OUT:-$PWD/lab-out}
mkdir -p "$out"

agree() {  # A.json B.json: the two scores and whether they agree (within 1 point or within their two intervals)
  python3 - "$1" "$2" <<'PY'
import json, sys
a, b = (json.load(open(p))["score"] for p in sys.argv[1:3])
gap, pm = abs(a["total"] - b["total"]), (a.get("plus_minus") or 0) + (b.get("plus_minus") or 0)
agree = gap <= 1 or gap <= pm
print(f"  {a['total']:.1f} and {b['total']:.1f}, +- {pm:.1f} together: "
      + ("agree" if agree else f"DISAGREE (apart by {gap:.1f}, over 1 point and over their intervals)"))
PY
}

case $phase in
  repeat)
    # Between the baseline and the fast reference where the problem has such a file, else its fast reference (a
    # baseline always scores 0 performance points, which says nothing about noise).
    for f in ${REPEAT:-problems/vector-add/submissions/AC/float4-grid-stride.cu problems/softmax-gpu/submissions/AC/multi-block.cu
        problems/matmul-gpu/submissions/AC/tiled.cu problems/shared-memory-fix/submissions/AC/fixed.cu
        problems/flash-attention/solutions/fast.cu problems/rle-compress/solutions/fast.cu
        problems/rle-decompress/solutions/fast.cu problems/prefix-sum/submissions/AC/warp-block-grid.cu
        problems/reduction/submissions/AC/warp-shuffle-two-pass.cu problems/merge/submissions/AC/merge-path-ties-from-b.cu
        problems/spmv/submissions/AC/csr-vector.cu problems/bfs/submissions/AC/frontier-queue.cu}; do
      case $f in
        */solutions/*) slug=$(basename "$(dirname "$(dirname "$f")")") ;;  # problems/SLUG/solutions/FILE
        *) slug=$(basename "$(dirname "$(dirname "$(dirname "$f")")")") ;;         # problems/SLUG/submissions/VERDICT/FILE
      esac
      log="$out/repeat-$slug-$(basename "${f%.*}")"
      for k in 1 2; do
        ./judge/judge "$slug" "$f" --json "$log-$k.json" >"$log-$k.txt" 2>&1
        echo "$slug $(basename "$f") run $k: $(grep -o 'score .*' "$log-$k.txt" | head -1)"
      done
      agree "$log-1.json" "$log-2.json" 2>/dev/null || echo "  not two graded reports"
    done
    ;;
  wake-probe)
    # How long a stopped process takes to read a request once continued, with and without spinning threads on
    # the CPUs (judge/timing/wake_latency.h's CpuSpinners).
    g++ -O2 -pthread -o "$out/wake_probe" lab/wake_probe.cpp && "$out/wake_probe" | tee "$out/wake-probe.txt"
    ;;
  flush-probe)
    # How cold a call's data is after the judge's CPU cache flush (one thread's) and after the every-CPU flush
    # (judge/machine/cpu_cache.h), against 1 GiB of other reads.
    g++ -std=c++20 -O2 -pthread -I. -o "$out/flush_probe" lab/flush_probe.cpp judge/machine/cpu_cache.cpp &&
      "$out/flush_probe" | tee "$out/flush-probe.txt"
    ;;
  switch-probe | l2-probe | busy-probe | unlock-probe | atomic-probe)
    # The GPU probes (lab/*_probe.cu, each a parent in the judge's place and a child in a runner's): what the
    # judge's own device work before a call costs that call, a call free of the switch, and what the judge can see
    # of a runner's work kept between calls.
    name=${phase%-probe}_probe
    nvcc -O2 -arch=sm_90 -o "$out/$name" "lab/$name.cu" -lcuda && timeout 300 "$out/$name" | tee "$out/$phase.txt"
    ;;
  *)
    sed -n '4p' "$0" | sed 's/^# *//' >&2
    exit 2
    ;;
esac
