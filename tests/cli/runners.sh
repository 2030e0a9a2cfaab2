#!/usr/bin/env bash
# The runners of a scored grade and what each measures (judge/grading/early_runners.h, rivals.h):
#   - only the performance cases' runner measures its round trip after cache flushes; the functional
#     tests' runner and each rival's (the fast reference timed beside) measure the same warm pings alone,
#     as HPCJUDGE_TRACE's ping lines show, one runner at a time;
#   - the report gives the one late-work allowance every side's calls had (timing.late_work_allowance_s),
#     between kLateWorkNs and kLateWorkCapNs (100 and 300 us).
#   - the traced grade's report lists HPCJUDGE_TRACE in its settings, the other's does not.
# The first grade fills a cache of its own with the problem's scale; the second, traced, starts its rivals beside the
# compile as a grade on a machine that judged the problem before does.
#   runners.sh JUDGE
source "$(dirname "$0")/../bench/cpu_problems.sh" "$1" softmax-cpu
slug=$slugs
sol=$root/problems/$slug/solutions/fast.cpp
"$judge" "$slug" "$sol" --json "$tmp/first.json" >"$tmp/first.txt" 2>&1 ||
  { cat "$tmp/first.txt"; echo "FAIL: the first grade"; exit 1; }
HPCJUDGE_TRACE=1 "$judge" "$slug" "$sol" --json "$tmp/second.json" >"$tmp/second.txt" 2>"$tmp/trace.txt" ||
  { cat "$tmp/second.txt" "$tmp/trace.txt"; echo "FAIL: the second grade"; exit 1; }
python3 - "$tmp/first.json" "$tmp/second.json" "$tmp/trace.txt" <<'PY'
import collections, json, sys
first = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[2]))
assert r["verdict"] == "AC", (r["verdict"], r.get("message"))
sides = r["timing"]["side_by_side"]
assert any(s.startswith("fast: timed beside") for s in sides), sides
beside = [s.split(":")[0] for s in sides if ": timed beside" in s]
for b in r["bench"]:
    roles = sorted(p["role"] for p in b["side_by_side"])
    assert "fast" in roles and set(roles) <= set(beside), (b["name"], roles, beside)
# HPCJUDGE_TRACE changes how the calls are timed: the report says it was set (settings/settings.h), only then.
assert r.get("settings", {}).get("HPCJUDGE_TRACE") == "1", r.get("settings")
assert "HPCJUDGE_TRACE" not in first.get("settings", {}), first.get("settings")
print("ratios to the rivals timed beside:",
      ", ".join(f'{b["name"]} ' + " and ".join(f'{p["role"]} {p["median_ratio"]:.3f}' for p in b["side_by_side"])
                for b in r["bench"]))
pings = collections.Counter(line.split()[3] for line in open(sys.argv[3]) if line.startswith("trace ping runner "))
counts = sorted(pings.values())
print("pings per runner:", dict(pings))
# The functional tests' runner, the performance cases' runner and each rival's timed beside.
assert len(counts) >= 2 + len(beside), f"{len(counts)} runners pinged, not the tests', the performance cases' and {beside}"
assert counts[-1] > counts[-2], f"more than one runner measured its round trip after cache flushes: {counts}"
assert len(set(counts[:-1])) == 1, f"the runners other than the performance cases' pinged unlike each other: {counts}"
assert r["timing"]["round_trip_timed"]["samples"] > 0, r["timing"]["round_trip_timed"]
allowance = r["timing"]["late_work_allowance_s"]
assert 100e-6 <= allowance <= 300e-6, f"late-work allowance {allowance} s"
print(f"one late-work allowance for every side: {allowance * 1e6:.0f} us")
PY
