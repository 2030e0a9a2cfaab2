#!/usr/bin/env bash
# A cached peak measured far too low (a busy machine) must not turn a real time into FAIL ("faster than the
# hardware allows") or a share of the peak over 100%: the judge measures the peaks again the first time a case
# seems to beat them, and keeps the higher figures.
#   peaks_too_low.sh JUDGE
source "$(dirname "$0")/cpu_problems.sh" "$1" softmax-cpu
fail() { echo "FAIL: $*"; exit 1; }
sol=$root/problems/softmax-cpu/solutions/fast.cpp
"$judge" softmax-cpu "$sol" --json "$tmp/first.json" >"$tmp/first.txt" 2>&1 || { cat "$tmp/first.txt"; fail "first run"; }
peaks=$(ls "$tmp"/cache/peaks-cpu-*.json 2>/dev/null | head -1)
[ -n "$peaks" ] || fail "no peaks cached by the first run"
# What a machine busy with something else might have measured: 1/1000 of the copy bandwidth and FMA rate.
python3 - "$peaks" <<'PY' || exit 1
import json, sys
j = json.load(open(sys.argv[1]))
j["peaks"]["copy_gbps"] = j["peaks"]["copy_gbps"] / 1000
j["peaks"]["fma_gflops"] = j["peaks"]["fma_gflops"] / 1000
json.dump(j, open(sys.argv[1], "w"))
PY
"$judge" softmax-cpu "$sol" --json "$tmp/second.json" >"$tmp/second.txt" 2>&1
cat "$tmp/second.txt"
python3 - "$tmp/first.json" "$tmp/second.json" "$peaks" <<'PY' || exit 1
import json, sys
first, second, cache = (json.load(open(f)) for f in sys.argv[1:])
assert second["verdict"] == "AC", (second["verdict"], second.get("message"))
low = first["machine"]["peaks"]["copy_gbps"] / 1000
got = second["machine"]["peaks"]["copy_gbps"]
assert got > 100 * low, f"copy bandwidth in the report {got} GB/s: not measured again (cached {low})"
assert cache["peaks"]["copy_gbps"] == got, (cache["peaks"], got)
for b in second["bench"]:
    assert b["percent_of_peak"] < 1000, b
print(f"ok: cached {low:.3g} GB/s, measured again {got:.3g} GB/s; AC")
PY
