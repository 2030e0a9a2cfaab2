#!/usr/bin/env bash
# judge serve killed (kill -9) with work queued and started again loses nothing (issue 59): every submission
# queued or being graded when it died is graded after the restart, none lost, none graded twice (one report each,
# a job held at the kill claimed again once, never JE).
#   restart_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
tmp=$(mktemp -d)
source "$here/serve_lib.sh"
data=$tmp/data

for who in ann ben; do
  "$judge" serve --data "$data" --add-participant "$who" >"$tmp/$who.out" 2>&1
  declare "tok_$who=$(token_of "$tmp/$who.out")"
done
check "--add-participant: the token alone on the last line" bash -c "grep -qx 'hj_[A-Za-z0-9_-]*' <<<'$tok_ann'"
start_server "$data" --problems softmax-cpu --no-bench --workers 1 --in-flight 10 --per-hour 100 || exit 1
first_admin=$admin

# Ten uploads at once (each its own file, so each compiles), then the server killed at once.
for k in 1 2 3 4 5; do
  for who in ann ben; do
    sed "1i // $who $k" "$problem/submissions/AC/openmp.cpp" >"$tmp/$who-$k.cpp"
    t=tok_$who
    curl -s -H "Authorization: Bearer ${!t}" -F problem=softmax-cpu -F "file=@$tmp/$who-$k.cpp" \
      "$url/api/submissions" >"$tmp/up-$who-$k.json" &
  done
done
for j in $(jobs -p); do [ "$j" = "$server_pid" ] || wait "$j"; done
ids=($(python3 -c 'import json, sys; print(" ".join(str(json.load(open(f))["id"]) for f in sys.argv[1:]))' "$tmp"/up-*.json))
api GET /api/admin/queue "$admin" >"$tmp/queue.json"
queued=$(field "$tmp/queue.json" 'sum(1 for s in j if s["state"] == "queued")')
echo "at the kill: $(field "$tmp/queue.json" 'len(j)') not done, $queued queued"
stop_server KILL
check "killed with work queued (at least 4 of 10 queued)" test "$queued" -ge 4
db() { sqlite3 "file:$data/hpcjudge.db?mode=ro" "$1"; }
echo "rows after the kill: $(db "SELECT state, COUNT(*) FROM submissions GROUP BY state" | tr '\n' ' ')"

start_server "$data" --problems softmax-cpu --no-bench --workers 1 --in-flight 10 --per-hour 100 || exit 1
check "the second start makes no admin token, says what it requeued" bash -c \
  "[ -z '$admin' ] && grep -q 'queued again' '$data.log'"
admin=$first_admin
wait_done "$admin" "${ids[@]}"
in_list=$(IFS=,; echo "${ids[*]}")
check "all 10 done with AC after the restart" test \
  "$(db "SELECT COUNT(*) FROM submissions WHERE id IN ($in_list) AND state = 'done' AND verdict = 'AC'")" = 10
check "none claimed more than twice (once before the kill, once after)" test \
  "$(db "SELECT COUNT(*) FROM submissions WHERE attempts > 2 OR attempts < 1")" = 0
check "no other submission made: 10 rows, 10 reports" bash -c \
  "[ \$(sqlite3 'file:$data/hpcjudge.db?mode=ro' 'SELECT COUNT(*) FROM submissions') = 10 ] && [ \$(ls '$data/reports' | grep -c 'json$') = 10 ]"
for who in ann ben; do
  t=tok_$who
  api GET /api/submissions "${!t}" >"$tmp/list-$who.json"
  check "$who sees their 5, done" test "$(field "$tmp/list-$who.json" 'sum(1 for s in j if s["state"] == "done")')" = 5
done
stop_server
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
