# What the cli tests that grade cheats against their honest twin share (sourced; $tmp must be set):
#   check NAME COMMAND...      runs COMMAND, prints ok/FAIL NAME (and its output on failure), counts both
#   field REPORT EXPR          EXPR of the report's JSON (j), printed by Python
#   no_gain TWIN FILE          the file's performance points at most its twin's plus 3, or plus both stated
#                              uncertainties where wider (tests/expect_no_gain.cmake's rule)
#   second_user JUDGE DIR      as root, a user made for the test ($user; the caller's EXIT trap removes it where
#                              $created is set) and as_user COMMAND... run as it with HOME=DIR and
#                              HPCJUDGE_CACHE=DIR/cache (made, its own); elsewhere says why not and returns 1
#   ordinary_user JUDGE        defines as_user COMMAND...: run as an ordinary user with HOME=$tmp and
#                              HPCJUDGE_CACHE=$tmp/cache. As root, a user made for the test (removed, with $tmp,
#                              at exit; $tmp given to it by give_tmp); exits 0 with "skipped" where JUDGE cannot be
#                              reached by another user or no user can be made. Otherwise this user.
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
ordinary_user() {
  user=hpcjudge-test-$$
  created=
  trap '[ -n "$created" ] && userdel "$user" 2>/dev/null; [ -n "${HPCJUDGE_KEEP:-}" ] || rm -rf "$tmp"' EXIT
  chmod 755 "$tmp"
  mkdir -p "$tmp/cache"
  if [ "$(id -u)" = 0 ]; then
    if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$1"; then
      echo "skipped: $1 cannot be reached by other users"; exit 0
    fi
    useradd --system --no-create-home "$user" 2>/dev/null || { echo "skipped: useradd failed"; exit 0; }
    created=1
    as_user() { runuser -u "$user" -- env HOME="$tmp" HPCJUDGE_CACHE="$tmp/cache" "$@"; }
  else
    as_user() { env HPCJUDGE_CACHE="$tmp/cache" "$@"; }
  fi
}
second_user() {
  if [ "$(id -u)" != 0 ]; then echo "skip the ordinary user: not root (this user's runs are above)"; return 1; fi
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$1"; then
    echo "skip the ordinary user: $1 cannot be reached by other users"; return 1
  fi
  useradd --system --no-create-home "$user" 2>/dev/null || { echo "skip the ordinary user: useradd failed"; return 1; }
  created=1
  second_home=$2
  mkdir -p "$second_home/cache" && chown -R "$user" "$second_home"
  as_user() { runuser -u "$user" -- env HOME="$second_home" HPCJUDGE_CACHE="$second_home/cache" "$@"; }
}
# After the files are in $tmp: the test's user owns them.
give_tmp() { [ -z "$created" ] || chown -R "$user" "$tmp"; }
