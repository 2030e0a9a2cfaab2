#!/usr/bin/env bash
# problems/starters.sha256 lists every problem's starter as the repository ships it (judge pack warns of a
# starter handed in untouched by comparing with it). A starter changed or added without the list: fail, with
# the command that writes the list again.
#   starter_hashes.sh PROBLEMS_DIR
set -u
cd "$1" || exit 1
expected=$(sha256sum -- */solution.cpp */solution.cu 2>/dev/null | sort -k2)
if [ "$expected" != "$(sort -k2 starters.sha256)" ]; then
  diff <(sort -k2 starters.sha256) <(echo "$expected")
  echo "FAIL: problems/starters.sha256 is out of date; write it again: (cd problems && sha256sum */solution.* > starters.sha256)"
  exit 1
fi
echo "ok   problems/starters.sha256 lists all $(echo "$expected" | wc -l) starters"
