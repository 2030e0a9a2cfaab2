# What the cli tests that grade cheats against their honest twin share (sourced; $tmp must be set):
#   check NAME COMMAND...      runs COMMAND, prints ok/FAIL NAME (and its output on failure), counts both
#   field REPORT EXPR          EXPR of the report's JSON (j), printed by Python
#   no_gain TWIN FILE          the file's performance points at most its twin's plus 3, or plus both stated
#                              uncertainties where wider (tests/expect_no_gain.cmake's rule)
passes=0 fails=0
check() {
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fails=$((fails + 1)); fi
}
field() { python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
no_gain() {
  python3 -c '
import json, sys
t, c = (json.load(open(f))["score"] for f in sys.argv[1:])
slack = max(3.0, (t.get("plus_minus") or 0) + (c.get("plus_minus") or 0))
print("twin", t["performance"], "file", c["performance"], "slack", slack)
assert c["performance"] <= t["performance"] + slack' "$1" "$2"
}
