#!/usr/bin/env python3
"""The CUDA emulator runs a grid's blocks side by side where the process may use more than one CPU, and keeps what
running them one by one gives: each block's own shared memory (declared in a switch's case too), atomics that lose
nothing, and the grid's error that of its lowest failed block. Each .cu beside this file is run through
hpcjudge-count-probe (--no-count), on one CPU and on two (taskset).

  check_blocks.py PROBE DIR   PROBE: hpcjudge-count-probe; DIR: the folder of the .cu files
"""
import os
import subprocess
import sys


def run(probe, folder, name, cpus, timeout=120, count=False):
    """(exit status, stderr) of the probe on NAME.cu pinned to `cpus`, counting accesses or not; (None, "") where it
    ran past `timeout`."""
    command = ["taskset", "-c", cpus, probe, "vector-add", f"{folder}/{name}.cu"] + ([] if count else ["--no-count"])
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, ""
    return out.returncode, out.stderr


def main():
    probe, folder = sys.argv[1], sys.argv[2]
    if len(os.sched_getaffinity(0)) < 2:
        print("HPCJUDGE-SKIP: blocks side by side need two CPUs; this process may use one")
        return 0
    two = ",".join(str(c) for c in sorted(os.sched_getaffinity(0))[:2])
    one = two.split(",")[0]
    failures = []

    def check(ok, what):
        print(("PASS " if ok else "FAIL ") + what)
        if not ok:
            failures.append(what)

    # Blocks side by side: block 0 waits for the last block, which only a second worker can run meanwhile.
    rc, err = run(probe, folder, "waits-for-a-later-block", two)
    check(rc == 0, f"waits-for-a-later-block on two CPUs ends (status {rc}): {err.strip()[-300:]}")
    rc, _ = run(probe, folder, "waits-for-a-later-block", one, timeout=8)
    check(rc is None, f"waits-for-a-later-block on one CPU spins (status {rc}): blocks one by one")

    # Shared memory per block and atomics, many blocks on two workers and on one.
    for cpus in (two, one):
        rc, err = run(probe, folder, "blocks-apart", cpus)
        check(rc == 0, f"blocks-apart on CPUs {cpus}: each block's own shared memory, no atomic lost (status {rc}): "
                       f"{err.strip()[-300:]}")

    # __shared__ declared in a switch's case without braces, crossed by a jump to a later label: it compiles, and
    # each block still has its own tile.
    for cpus in (two, one):
        rc, err = run(probe, folder, "shared-in-a-switch", cpus)
        check(rc == 0, f"shared-in-a-switch on CPUs {cpus}: compiles, each block's own tile (status {rc}): "
                       f"{err.strip()[-300:]}")

    # The grid's error is its lowest failed block's, however the blocks ran, counted or not (a counted block that
    # fails has its open requests closed on its own worker).
    for cpus in (two, one):
        for count in (False, True):
            rc, err = run(probe, folder, "lowest-block-fails", cpus, count=count)
            check(rc == 2 and "past the end" in err and "of block (1,0,0)" in err,
                  f"lowest-block-fails on CPUs {cpus}{' counted' if count else ''} names block (1,0,0) "
                  f"(status {rc}): {err.strip()[-400:]}")

    if failures:
        print(f"FAIL: {len(failures)} check(s) failed")
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
