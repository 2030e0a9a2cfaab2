#!/usr/bin/env bash
# On a GPU: a GPU problem's file graded through `judge serve` (uploaded with `judge submit`) scores within its
# interval of the same file graded by `judge SLUG FILE` on the same machine: the two grades' intervals (each the
# score's ± about it) overlap, and both are AC. Without a usable GPU: HPCJUDGE-SKIP (unless HPCJUDGE_REQUIRE_GPU).
#   gpu_interval_test.sh JUDGE [SLUG [FILE]]
set -u
judge=$(readlink -f "$1")
slug=${2:-vector-add}
root=$(cd "$(dirname "$0")/../.." && pwd)
file=${3:-$root/problems/$slug/solutions/fast.cu}
tmp=$(mktemp -d)
server_pid=
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

if ! "$judge" list | grep -E "^$slug " | grep -q " yes "; then
  [ -n "${HPCJUDGE_REQUIRE_GPU:-}" ] && fail "no usable GPU for $slug, and HPCJUDGE_REQUIRE_GPU is set"
  echo "HPCJUDGE-SKIP: $slug is not runnable on a GPU here"
  exit 0
fi
# The scale each grade scores against is measured once and cached: both grades share the cache, as two grades on
# one machine do.
export HPCJUDGE_CACHE=$tmp/cache
port=$(python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])')
token=$("$judge" serve --data "$tmp/data" --add-participant gpu-student | tail -1)
"$judge" serve --data "$tmp/data" --listen "127.0.0.1:$port" --problems "$slug" > "$tmp/serve.out" 2> "$tmp/serve.err" &
server_pid=$!
for _ in $(seq 100); do grep -q "serving on" "$tmp/serve.out" && break; sleep 0.2; done
grep -q "serving on" "$tmp/serve.out" || { cat "$tmp/serve.err"; fail "judge serve did not start"; }

"$judge" "$slug" "$file" --json "$tmp/local.json" > "$tmp/local.txt" 2>&1
echo "local: rc $?"; tail -5 "$tmp/local.txt"
"$judge" submit "$slug" "$file" --server "http://127.0.0.1:$port" --token "$token" --json "$tmp/server.json" \
  > "$tmp/server.txt" 2>&1
echo "server: rc $?"; tail -5 "$tmp/server.txt"

python3 - "$tmp/local.json" "$tmp/server.json" <<'EOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def span(r):
    s = r["score"]
    iv = s.get("performance_interval")
    base = s["total"] - s["performance"]  # correctness (and nothing else) below the performance points
    return (base + iv[0], base + iv[1]) if iv else (s["total"], s["total"])
for name, r in (("local", a), ("server", b)):
    print(f"{name}: {r['verdict']} {r['score']['total']:.1f} interval {span(r)[0]:.1f}..{span(r)[1]:.1f}"
          f" on {(r.get('machine', {}).get('gpu') or {}).get('name', '?')}"
          f" {('server: ' + json.dumps(r['server'])) if 'server' in r else ''}")
if a["verdict"] != "AC" or b["verdict"] != "AC":
    sys.exit("FAIL: both grades must be AC")
(l0, l1), (s0, s1) = span(a), span(b)
if l1 < s0 or s1 < l0:
    sys.exit(f"FAIL: the intervals do not overlap: local {l0:.1f}..{l1:.1f}, server {s0:.1f}..{s1:.1f}")
print("PASS: the server's grade is within the local grade's interval")
EOF
