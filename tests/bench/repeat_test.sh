#!/usr/bin/env bash
# Scores that repeat: each CPU problem's fast reference, judged as a submission
# twice, scores at least 98 (less by no more than its own stated interval) and
# the two grades agree. Two grades of one file agree when their scores are
# within 1 point of each other or within their two stated intervals (the sum of
# their +-, from the runs' spread), on the GPU as on the CPU: a gap wider than
# both fails. The judge times the fast reference beside every run, so the score
# is a ratio measured in one run.
#   repeat_test.sh JUDGE [SLUG...]
source "$(dirname "$0")/cpu_problems.sh" "$@"
for slug in $slugs; do
  sol=$root/problems/$slug/solutions/fast.cpp
  for k in 1 2; do
    "$judge" "$slug" "$sol" --json "$tmp/$slug-$k.json" >"$tmp/$slug-$k.txt" 2>&1 ||
      { cat "$tmp/$slug-$k.txt"; echo "FAIL: $slug run $k"; status=1; continue 2; }
  done
  # The fast reference is compiled once per machine and judge: the second grade takes it from the cache.
  grep -q "fast reference, compiled earlier on this machine" "$tmp/$slug-2.txt" ||
    { cat "$tmp/$slug-2.txt"; echo "FAIL: $slug run 2 compiled the fast reference again"; status=1; }
  python3 - "$slug" "$tmp/$slug-1.json" "$tmp/$slug-2.json" <<'PY' || status=1
import json, sys
slug, a, b = sys.argv[1], json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
def figures(r):
    s = r["score"]
    assert r["verdict"] == "AC", (r["verdict"], r.get("message"))
    assert s["plus_minus"] is not None, "no interval in the report"
    for case in r["bench"]:
        roles = [p["role"] for p in case["side_by_side"]]
        assert "fast" in roles, f"{case['name']}: the fast reference was not timed beside ({r['timing'].get('side_by_side')})"
    return s["total"], s["plus_minus"], s["noise"]
(s1, pm1, n1), (s2, pm2, n2) = figures(a), figures(b)
runs = [c["runs"] for c in a["bench"]] + [c["runs"] for c in b["bench"]]
print(f"{slug}: {s1:.1f} +- {pm1:.1f} and {s2:.1f} +- {pm2:.1f} (runs per case {runs})"
      + (f"; noisy: {n1 or n2}" if (n1 or n2) else ""))
assert s1 >= 98 - pm1, f"first score {s1:.1f} < 98 - {pm1:.1f}"
assert s2 >= 98 - pm2, f"second score {s2:.1f} < 98 - {pm2:.1f}"
gap = abs(s1 - s2)
agree = gap <= 1.0 or gap <= pm1 + pm2  # within 1 point, or within their two intervals
assert agree, f"scores {s1:.1f} and {s2:.1f} disagree: {gap:.1f} apart, over 1 point and over their intervals ({pm1 + pm2:.1f})"
PY
done
exit $status
