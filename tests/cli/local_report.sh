#!/usr/bin/env bash
# The student's latest local report (.hpcjudge/reports/<slug>.json), what `judge pack`
# hands in beside the solution:
#   - pack ships the report of the file as it is, and leaves out (with a warning) one
#     of another version of it, after an edit;
#   - as root, the test creates an ordinary user for whom .hpcjudge/ belongs to root (as
#     after `sudo make judge`): grading still works, and says on stderr that the report
#     was not saved, naming the file and the fix (sudo chown -R "$USER" ...). The user is
#     removed afterwards. Not root: that part is skipped.
# The judge runs on a copy of problems/ (HPCJUDGE_ROOT), so the repository is untouched.
set -uo pipefail
judge=$(realpath "${1:?usage: local_report.sh path/to/hpcjudge}")
. "$(dirname "$0")/repo_copy.sh"
user=""
cleanup() {
  [ -n "$user" ] && userdel -r "$user" >/dev/null 2>&1
  remove_work
}
trap cleanup EXIT

# The student's softmax-cpu (the starter, begun: still WA), correctness only.
echo "// begun" >> "$work/problems/softmax-cpu/solution.cpp"
"$judge" softmax-cpu --no-bench >"$work/judge.out" 2>&1
report=$work/.hpcjudge/reports/softmax-cpu.json
[ -f "$report" ] || fail "no local report after judging: $(tail -3 "$work/judge.out")"
grep -q '"source_key"' "$report" || fail "the report records no source_key"

(cd "$work" && "$judge" pack -o "$work/fresh.tar.gz" --name tester) >"$work/pack1.out" 2>&1 || fail "pack failed: $(cat "$work/pack1.out")"
# (Listed first: with pipefail, `tar | grep -q` fails when grep stops reading early.)
tar -tzf "$work/fresh.tar.gz" >"$work/fresh.list"
grep -q '^tester/reports/softmax-cpu.json$' "$work/fresh.list" || fail "a fresh report was not packed"
grep -q "another version" "$work/pack1.out" && fail "a fresh report called stale: $(cat "$work/pack1.out")"
grep -q "was judged WA" "$work/pack1.out" || fail "no warning that the packed file is WA: $(cat "$work/pack1.out")"

echo "// edited after judging" >> "$work/problems/softmax-cpu/solution.cpp"
(cd "$work" && "$judge" pack -o "$work/stale.tar.gz" --name tester) >"$work/pack2.out" 2>&1 || fail "pack failed: $(cat "$work/pack2.out")"
tar -tzf "$work/stale.tar.gz" >"$work/stale.list"
grep -q 'reports/softmax-cpu.json' "$work/stale.list" && fail "a stale report was packed"
grep -q '^tester/softmax-cpu.cpp$' "$work/stale.list" || fail "the edited solution was not packed"
grep -q "warning: $report is the report of another version of" "$work/pack2.out" ||
  fail "no warning for the stale report: $(cat "$work/pack2.out")"

# Another user reaches the judge only where its folders let it (not in a checkout under /root, mode 0700).
if [ "$(id -u)" = 0 ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$judge"; then
  echo "skipped as an ordinary user: $judge cannot be reached by other users"
elif [ "$(id -u)" = 0 ]; then
  user=hpcjudge-rt-$$
  useradd -m "$user" || { echo "FAIL: cannot create a user"; exit 1; }
  chown -R "$user" "$work/problems" "$work/cache"
  chown -R root "$work/.hpcjudge"
  chmod -R 755 "$work/.hpcjudge"
  runuser -u "$user" -- env HPCJUDGE_ROOT="$work" HPCJUDGE_CACHE="$work/cache" \
    "$judge" softmax-cpu --no-bench >"$work/user.out" 2>"$work/user.err"
  rc=$?
  [ $rc = 1 ] || fail "exit status $rc, not 1 (the starter's WA): $(tail -3 "$work/user.err")"
  grep -q "^verdict WA" "$work/user.out" || fail "no verdict line: $(tail -3 "$work/user.out")"
  grep -q "warning: the report was not saved to $report (Permission denied)" "$work/user.err" ||
    fail "no warning naming the report: $(cat "$work/user.err")"
  grep -q "belongs to root" "$work/user.err" || fail "the warning does not say who owns the folder: $(cat "$work/user.err")"
  grep -q "sudo chown -R \"\$USER\" $work/.hpcjudge" "$work/user.err" || fail "the warning gives no fix: $(cat "$work/user.err")"
else
  echo "not root: the unsavable-report part is skipped"
fi
[ $fails = 0 ] && echo "local report: all checks passed"
[ $fails = 0 ]
