#!/usr/bin/env bash
# The fast reference earns its 100 (issue 16): no AC submission of a CPU problem in
# problems/<slug>/submissions/AC/ is faster than the problem's fast reference on this
# machine. Each is judged (the fast reference timed beside every run, so the score is a
# ratio measured in one run) and must score at most 100, the score's own stated
# uncertainty allowed (its interval, from the runs' spread): a score past 100 by more
# than that is a bonus for beating the fast reference, which then sets too low a bar.
#   fastest_test.sh JUDGE [SLUG...]
source "$(dirname "$0")/cpu_problems.sh" "$@"
for slug in $slugs; do
  for sol in "$root/problems/$slug/submissions/AC/"*; do
    name=$(basename "$sol")
    out=$tmp/$slug-${name%.*}
    "$judge" "$slug" "$sol" --json "$out.json" >"$out.txt" 2>&1 ||
      { cat "$out.txt"; echo "FAIL: $slug $name: the judge failed"; status=1; continue; }
    python3 - "$slug" "$name" "$out.json" <<'PY' || { cat "$out.txt"; status=1; }
import json, sys
slug, name, r = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
assert r["verdict"] == "AC", f"{slug} {name}: {r['verdict']} ({r.get('message')})"
s = r["score"]
ratios = []
for case in r["bench"]:
    fast = [p for p in case["side_by_side"] if p["role"] == "fast"]
    assert fast, f"{slug} {name} {case['name']}: the fast reference was not timed beside"
    ratios.append(f"{case['name']} {fast[0]['median_ratio']:.3f}x")
pm = s["plus_minus"] or 0.0
print(f"{slug} {name}: {s['total']:.1f} +- {pm:.1f}; its time over the fast reference's: {', '.join(ratios)}"
      + (f"; noisy: {s['noise']}" if s.get("noise") else ""))
assert s["total"] <= 100 + pm, f"{slug} {name} scored {s['total']:.1f} +- {pm:.1f}: faster than the fast reference"
PY
  done
done
exit $status
