#!/usr/bin/env bash
# The GPU estimate under CPU emulation (judge/estimate/): each problem's fast reference, graded as a submission,
# gets an estimated score whose interval holds 100 (vector-add, reduction), labelled as an estimate beside a
# score of the correctness points alone; --model names the GPU, an unknown one is a usage error; --no-bench
# estimates nothing. This proves the estimate's plumbing (the same counts and model on both sides of the ratio
# give the ratio 1, and the ratio's mapping is the score's), not that the model is right on a GPU: that is
# tools/estimate-check.sh's table.
#   estimate.sh JUDGE
set -u
judge=$(realpath "$1")
. "$(dirname "$0")/repo_copy.sh"
export NO_COLOR=1

for slug in vector-add reduction; do
  fast=$src/problems/$slug/solutions/fast.cu
  "$judge" "$slug" "$fast" --emulate --json "$work/$slug.json" >"$work/out" 2>"$work/err"
  rc=$?
  [ $rc = 0 ] || fail "$slug's fast reference under emulation: exit $rc, $(tail -5 "$work/out" "$work/err")"
  python3 - "$work/$slug.json" "$slug" <<'PY' || fail "$slug: $(grep -A3 'estimated score' "$work/out")"
import json, sys
r = json.load(open(sys.argv[1]))
e = r["emulation"]["estimate"]
lo, hi = e["score_interval"]
assert e["model"] == "h100-sxm" and e["model_label"] == "H100 SXM", e["model"]
assert lo <= 100 <= hi, (sys.argv[2], e["score"], lo, hi)
assert abs(e["score"] - 100) < 1e-6, e["score"]
assert e["seconds"] > 0 and e["fast_seconds"] > 0 and e["baseline_seconds"] > 0
k = e["kernels"][0]
for key in ("name", "seconds", "coalescing", "sectors_per_request", "bank_conflict_degree", "active_lanes",
            "dram_bytes", "lines"):
    assert key in k, key
# Registers from nvcc's ptxas for the model's sm_90 where the judge has nvcc (no GPU needed), on every kernel; else
# none, and the estimate says why.
frm = e["registers_from"]
if frm.startswith("ptxas"):
    assert frm == "ptxas, nvcc -arch=sm_90", frm
    for k in e["kernels"]:
        assert isinstance(k["registers"], int) and 1 <= k["registers"] <= 255, (k["name"], k["registers"])
else:
    assert frm.startswith("not known (") and all(k["registers"] is None for k in e["kernels"]), frm
print("registers:", frm, [(k["name"], k["registers"]) for k in e["kernels"]])
# Never the score: the correctness points alone.
assert r["score"]["total"] == r["score"]["correctness"], r["score"]
PY
  grep -q "^estimated score (no GPU; modelled H100 SXM): 100 ± [0-9]*$" "$work/out" ||
    fail "$slug: no human estimate line: $(tail -6 "$work/out")"
  grep -q "score 40.0 / 100 (correctness 40 + performance 0.0 / 60)" "$work/out" ||
    fail "$slug: the score is not the correctness points alone: $(grep score "$work/out")"
done

sub=$src/problems/vector-add/solutions/baseline.cu
"$judge" vector-add "$sub" --emulate --model rtx-4090 --json "$work/4090.json" >"$work/out" 2>&1 ||
  fail "--model rtx-4090: $(tail -5 "$work/out")"
grep -q "^estimated score (no GPU; modelled RTX 4090): " "$work/out" || fail "--model rtx-4090: $(tail -5 "$work/out")"
"$judge" vector-add "$sub" --emulate --model h100 >"$work/out" 2>"$work/err"
rc=$?
[ $rc = 2 ] && grep -q "no GPU model 'h100' (the models: h100-sxm, h200, rtx-4090)" "$work/err" ||
  fail "an unknown --model: exit $rc, $(cat "$work/err")"
"$judge" vector-add "$sub" --emulate --no-bench --json "$work/nobench.json" >"$work/out" 2>&1 || fail "--no-bench: $(tail -3 "$work/out")"
python3 -c 'import json,sys; assert "estimate" not in json.load(open(sys.argv[1]))["emulation"]' "$work/nobench.json" ||
  fail "--no-bench estimated"
grep -q "estimated score" "$work/out" && fail "--no-bench printed an estimate"

[ $fails = 0 ] && echo "ok"
exit $((fails > 0))
