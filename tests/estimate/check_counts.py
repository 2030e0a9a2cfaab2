#!/usr/bin/env python3
"""The CUDA emulator's counts (protocol/emulation_counts.h) of the small kernels beside this file, against the
figures each kernel makes exact: coalesced against chunked loads, a shared tile read column-wise unpadded against
padded, a divergent reduction against a shuffle one, atomics on one address, launches and host synchronisations.

  check_counts.py PROBE DIR   PROBE: hpcjudge-count-probe; DIR: the folder of the .cu files
"""
import json
import os
import subprocess
import sys


def counts(probe, folder, name, cpus=None):
    """The probe's counts; on the CPUs `cpus` (taskset's list) where given, else on all the process may use."""
    pin = ["taskset", "-c", cpus] if cpus else []
    out = subprocess.run(pin + [probe, "vector-add", f"{folder}/{name}.cu"], capture_output=True, text=True,
                         timeout=120)
    if out.returncode != 0:
        sys.exit(f"{name}.cu: the probe failed ({out.returncode}): {out.stderr}")
    return json.loads(out.stdout)


def line_of(folder, name, mark):
    with open(f"{folder}/{name}.cu") as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith("// " + mark):
                return number
    sys.exit(f"{name}.cu has no line marked {mark}")


def kernel(c, name):
    return next(k for k in c["kernels"] if k["name"] == name)


def line(k, number):
    return next((l for l in k["lines"] if l["line"] == number), None)


failures = []


def expect(what, got, want):
    ok = want(got) if callable(want) else got == want
    print(f"{'ok  ' if ok else 'FAIL'} {what}: {got}")
    if not ok:
        failures.append(what)


def coalescing(g):
    return g["bytes_requested"] / (32 * g["sectors"])


def main():
    probe, folder = sys.argv[1], sys.argv[2]
    threads, steps = 512, 8  # the kernels' kThreads and kK

    c = counts(probe, folder, "coalesced")
    expect("coalesced: launches, host synchronisations", (c["launches"], c["host_syncs"]), (2, 2))
    k = kernel(c, "sum_strided")
    load = line(k, line_of(folder, "coalesced", "LOAD"))
    expect("coalesced: the load's requests, sectors, bytes", load and (load["global_requests"], load["sectors"],
           load["bytes_requested"]), (threads * steps // 32, threads * steps // 8, 4 * threads * steps))
    expect("coalesced: the kernel's coalescing", coalescing(k["global"]), 1.0)
    expect("coalesced: distinct sectors (a's and out's bytes / 32)", k["global"]["distinct_sectors"],
           threads * (steps + 1) * 4 // 32)
    expect("coalesced: lanes per warp instruction", k["active_lanes"] / k["warp_instructions"], 32.0)
    k = kernel(c, "count_all")
    a = k["atomics"]
    expect("atomics: count, most on one address, most floating-point ones on one address",
           (a["count"], a["max_same_address"], a["max_same_address_floating"]), (3 * threads, threads, threads))
    expect("atomics: a __shared__ variable only atomics touch is the kernel's static shared memory",
           k["static_shared_bytes"], 4)

    c = counts(probe, folder, "vector4")
    k = kernel(c, "add4")
    load = line(k, line_of(folder, "vector4", "LOAD"))
    expect("float4: the loads' line, one 16-byte request per access", load and (load["global_requests"],
           load["sectors"], load["bytes_requested"]), (2 * threads // 32, 2 * threads // 2, 2 * 16 * threads))
    expect("float4: the kernel's coalescing", coalescing(k["global"]), 1.0)

    c = counts(probe, folder, "chunked")
    k = kernel(c, "sum_chunk")
    load = line(k, line_of(folder, "chunked", "LOAD"))
    expect("chunked: the load's line named, a sector per lane", load and (load["global_requests"], load["sectors"]),
           (threads * steps // 32, threads * steps))
    expect("chunked: the load's coalescing (1/8)", load and load["bytes_requested"] / (32 * load["sectors"]), 0.125)
    expect("chunked: the kernel's coalescing <= 0.25", coalescing(k["global"]), lambda x: x <= 0.25)
    expect("chunked: distinct sectors as the coalesced one's", k["global"]["distinct_sectors"],
           threads * (steps + 1) * 4 // 32)

    c = counts(probe, folder, "tile")
    conflicting, padded = kernel(c, "transpose_conflicting"), kernel(c, "transpose_padded")
    read = line(conflicting, line_of(folder, "tile", "CONFLICT"))
    expect("tile [32][32]: the worst degree", conflicting["shared"]["max_degree"], 32)
    expect("tile [32][32]: the column read's line, 32 wavefronts a request",
           read and (read["shared_requests"], read["wavefronts"]), (32, 32 * 32))
    expect("tile [32][33]: the worst degree", padded["shared"]["max_degree"], 1)
    read = line(padded, line_of(folder, "tile", "PADDED"))
    expect("tile [32][33]: the column read, one wavefront a request",
           read and (read["shared_requests"], read["wavefronts"]), (32, 32))
    expect("tile: static shared bytes", (conflicting["static_shared_bytes"], padded["static_shared_bytes"]),
           (4096, 4224))
    expect("tile: barriers (one per warp)", conflicting["barriers"], 32)

    c = counts(probe, folder, "reduction")
    divergent, shuffle = kernel(c, "sum_divergent"), kernel(c, "sum_shuffle")
    mean = lambda k: k["active_lanes"] / k["warp_instructions"]
    expect("reduction: lanes per warp instruction, divergent < shuffle", (round(mean(divergent), 2),
           round(mean(shuffle), 2)), lambda m: m[0] < m[1])
    # 4 blocks of 8 warps: 9 barriers (one before the loop, 8 in it) against 3 (one, then 2 in it).
    expect("reduction: barriers", (divergent["barriers"], shuffle["barriers"]), (4 * 8 * 9, 4 * 8 * 3))

    # Blocks side by side (emulate/runtime/workers.cpp) count what one worker counts: every figure, every line.
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) >= 2:
        for name in ("coalesced", "vector4", "chunked", "tile", "reduction"):
            expect(f"{name}: the same counts on one CPU as on two", counts(probe, folder, name, str(cpus[0])),
                   counts(probe, folder, name, f"{cpus[0]},{cpus[1]}"))

    if failures:
        sys.exit(f"{len(failures)} failed: " + "; ".join(failures))


if __name__ == "__main__":
    main()
