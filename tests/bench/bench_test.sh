#!/usr/bin/env bash
# `judge bench` end to end on one CPU problem: the table is printed, and the
# JSON and Markdown results hold a row per performance case this machine runs,
# with the baseline's and the fast reference's medians and the fast one's
# share of the measured peak, and the problem's target on its largest case.
#   bench_test.sh JUDGE
set -u
judge=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$judge" bench softmax-cpu --out "$tmp" --name ci >"$tmp/out.txt" 2>&1
rc=$?
cat "$tmp/out.txt"
fail() { echo "FAIL: $*"; exit 1; }
[ $rc -eq 0 ] || fail "judge bench exited with $rc"
[ -s "$tmp/ci.json" ] || fail "no ci.json"
[ -s "$tmp/ci.md" ] || fail "no ci.md"
grep -q "^| softmax-cpu | n1M |" "$tmp/ci.md" || fail "no n1M row in the Markdown"
python3 - "$tmp/ci.json" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
p = [x for x in j["problems"] if x["problem"] == "softmax-cpu"]
assert p, "softmax-cpu missing"
p = p[0]
assert p["solutions"]["baseline"]["verdict"] == "AC" and p["solutions"]["fast"]["verdict"] == "AC", p["solutions"]
names = [c["case"] for c in p["cases"]]
assert "n1M" in names and "n16M" in names, names
for c in p["cases"]:
    assert c["fast"]["median_s"] > 0 and c["baseline"]["median_s"] > 0, c
    assert c["fast"]["percent_of_peak"] > 0, c
    assert c["anchor"] == "peak", c
assert j["machine"]["peaks"]["copy_gbps"] > 0, j["machine"]
# softmax-cpu's target (70% of the peak) stands on its largest case run here, and only there.
targeted = [c["case"] for c in p["cases"] if "target" in c]
assert targeted == [max(p["cases"], key=lambda c: c["fast"]["rate"] * c["fast"]["median_s"])["case"]], targeted
t = [c for c in p["cases"] if "target" in c][0]["target"]
assert t["anchor"] == "peak" and t["at_least"] == 0.7 and t["met"] == (t["value"] >= 0.7), t
assert j["targets"]["met"] + j["targets"]["missed"] == 1, j["targets"]
print("ok: %d cases" % len(p["cases"]))
PY
