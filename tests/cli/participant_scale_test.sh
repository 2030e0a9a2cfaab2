#!/usr/bin/env bash
# A participant's file graded the way judge batch grades it (--participant-folder: the file must lie in that
# folder) on a machine with no scale cached: the judge times its own baseline and fast reference for the scale,
# which lie outside every participant's folder and are its own files, so the grade is the file's (AC with
# performance points), never "resolves to ..., outside the participant's folder" (JE for every file of a class).
#   participant_scale_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$here/checks.sh"
mkdir -p "$tmp/class/alice" "$tmp/cache"
cp "$here/../../problems/softmax-cpu/solutions/fast.cpp" "$tmp/class/alice/softmax-cpu.cpp"
HPCJUDGE_CACHE="$tmp/cache" "$judge" softmax-cpu "$tmp/class/alice/softmax-cpu.cpp" \
  --participant-folder "$tmp/class/alice" --json "$tmp/report.json" >"$tmp/out.txt" 2>&1
echo "exit $?: $(field "$tmp/report.json" 'j["verdict"], j["score"]["total"], j["message"][:200]' 2>&1)"
check "no cached scale: the file is AC, graded with its performance cases" \
  test "$(field "$tmp/report.json" 'j["verdict"], len(j["bench"]) > 0')" = "('AC', True)"
check "the scale was timed from the judge's own references (cached now)" \
  bash -c "ls '$tmp'/cache/scale-softmax-cpu-*.json"
check "nothing refused for lying outside the participant's folder" \
  bash -c "! grep -q 'outside the participant' '$tmp/out.txt' '$tmp/report.json'"
echo "$passes passed, $fails failed"
[ "$fails" = 0 ]
