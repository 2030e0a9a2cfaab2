#!/usr/bin/env bash
# A shared install (docs/usage.md, "Set up"): the build, and its cache, another user's. Run as root on a root-built
# install, as a user the test makes, without HPCJUDGE_CACHE: with a home folder the judge keeps its cache in
# ~/.cache/hpcjudge (closed to other users), or $XDG_CACHE_HOME/hpcjudge; without one, in a temporary folder removed
# after the grade; the build's cache is never touched. Skipped where not root or the judge cannot be reached.
#   shared_install_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
source "$here/checks.sh"
[ "$(id -u)" = 0 ] || { echo "skipped: not root"; rm -rf "$tmp"; exit 0; }
ordinary_user "$judge"
build_cache=$(dirname "$(dirname "$judge")")/cache
"$judge" softmax-cpu "$here/../../problems/softmax-cpu/submissions/cheat/honest-twin.cpp" --no-bench >/dev/null 2>&1  # root's cache made
cp "$here/../../problems/softmax-cpu/submissions/cheat/honest-twin.cpp" "$tmp/twin.cpp"
mkdir -p "$tmp/home" "$tmp/xdg"
give_tmp
shared() { runuser -u "$user" -- env -u HPCJUDGE_CACHE -u XDG_CACHE_HOME "$@"; }
# grade LABEL ENV...: the twin graded as that user, AC, no internal error.
grade() {
  local label=$1; shift
  (cd "$tmp" && shared "$@" "$judge" softmax-cpu "$tmp/twin.cpp" --no-bench --json "$tmp/$label.json") >"$tmp/$label.out" 2>&1
  echo "$label: $(field "$tmp/$label.json" 'j["verdict"]' 2>&1) $(grep -m1 'internal error' "$tmp/$label.out")"
  check "$label: AC, no internal error" bash -c "grep -q '\"verdict\": \"AC\"' '$tmp/$label.json' && ! grep -q 'internal error' '$tmp/$label.out'"
}
grade home HOME="$tmp/home"
check "home: its cache in ~/.cache/hpcjudge, closed to other users, the library compiled there" \
  bash -c "test \"\$(stat -c '%U %a' '$tmp/home/.cache/hpcjudge')\" = '$user 700' && ls '$tmp/home/.cache/hpcjudge/compiled/' | grep -q '\.so$'"
grade again HOME="$tmp/home"
check "again: the library from its cache" grep -q 'compiled earlier on this machine' "$tmp/again.json"
grade xdg HOME="$tmp/home" XDG_CACHE_HOME="$tmp/xdg"
check "xdg: its cache in \$XDG_CACHE_HOME/hpcjudge" test -d "$tmp/xdg/hpcjudge/compiled"
ls -d /tmp/hpcjudge-* 2>/dev/null | sort >"$tmp/tmp-before"
grade homeless HOME=/nonexistent
ls -d /tmp/hpcjudge-* 2>/dev/null | sort >"$tmp/tmp-after"
check "homeless: its temporary cache removed after the grade" bash -c "! comm -13 '$tmp/tmp-before' '$tmp/tmp-after' | xargs -r stat -c %U | grep -qx '$user'"
check "the build's cache holds no file of the other user's" bash -c "! find '$build_cache' -user '$user' | grep -q ."
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
