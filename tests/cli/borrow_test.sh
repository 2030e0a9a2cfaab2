#!/usr/bin/env bash
# A file that loads the judge's other compiled libraries and calls their solve() (tests/cli/submissions/
# borrows-a-compiled-library.cpp: the fast reference's, from the cache's compiled/ folder or the temporary
# folder it was compiled in) against its honest twin. As root, every runner is a user of its own, the cache's
# compiled/ and references/ folders are the judge's alone (mode 0700) and a temporary folder can be passed
# through but not listed, its library at a name only the judge knows (judge/grading/compile.h): the file finds
# nothing to borrow and gains nothing. Under --sandbox (where bubblewrap is installed), as any user, it sees
# neither the cache nor the judge's /tmp. Run as an ordinary user without bubblewrap, nothing is checked: the
# judge's user's files are its runners' to read.
#   borrow_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
twin=$here/../../problems/softmax-cpu/submissions/cheat/honest-twin.cpp
cheat=$here/submissions/borrows-a-compiled-library.cpp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cache=${HPCJUDGE_CACHE:-$(dirname "$(dirname "$judge")")/cache}
source "$here/checks.sh"
grade_both() {  # LABEL ARGS...
  local label=$1; shift
  "$judge" softmax-cpu "$twin" --json "$tmp/$label-twin.json" "$@" >"$tmp/$label-twin.out" 2>&1
  "$judge" softmax-cpu "$cheat" --json "$tmp/$label-cheat.json" "$@" >"$tmp/$label-cheat.out" 2>&1
  for w in twin cheat; do
    echo "$label $w: $(field "$tmp/$label-$w.json" 'j["verdict"], j["score"]["total"], j["score"]["plus_minus"]' 2>&1)"
  done
  check "$label: both AC" bash -c "grep -q '\"verdict\": \"AC\"' '$tmp/$label-twin.json' && grep -q '\"verdict\": \"AC\"' '$tmp/$label-cheat.json'"
  check "$label: nothing borrowed" bash -c "! grep -h 'borrowed' '$tmp/$label-cheat.out' '$tmp/$label-cheat.json'"
  check "$label: no gain over the twin" no_gain "$tmp/$label-twin.json" "$tmp/$label-cheat.json"
}
ran=
if [ "$(id -u)" = 0 ]; then
  grade_both root
  check "root: the cache's compiled/ folder is the judge's alone (0700)" test "$(stat -c %a "$cache/compiled")" = 700
  ran=1
fi
if command -v bwrap >/dev/null; then
  grade_both sandbox --sandbox
  ran=1
fi
[ -n "$ran" ] || echo "skipped: neither root nor bubblewrap (the judge's user's files are its runners' to read)"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
