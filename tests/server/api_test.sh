#!/usr/bin/env bash
# judge serve's HTTP API and `judge submit` on 127.0.0.1 (issue 59): a roster of three; AC, WA and CE files of
# softmax-cpu (--no-bench) get through `judge submit` the verdict and exit status `judge softmax-cpu FILE
# --no-bench` gives; a bad token is refused (401), another participant's submission is not found (404), an
# oversized upload is refused (413), a name with HTML stays text; 50 submissions from 10 participants at once are
# each graded exactly once (each id done, one report each, claimed once).
#   api_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
tmp=$(mktemp -d)
source "$here/serve_lib.sh"
data=$tmp/data

# The roster: three participants, one named with HTML.
printf 'name\nalice\nbob\n"<b>x</b>"\n' >"$tmp/roster.csv"
"$judge" serve --data "$data" --import-roster "$tmp/roster.csv" >"$tmp/roster.out" 2>"$tmp/roster.err"
check "--import-roster: name,token for each of three" bash -c "[ \$(grep -c ',hj_' '$tmp/roster.out') = 3 ]"
token() { grep "^$1," "$tmp/roster.out" | cut -d, -f2; }
alice=$(token alice) bob=$(token bob) html=$(grep '^<b>x</b>,' "$tmp/roster.out" | cut -d, -f2)
"$judge" serve --data "$data" --import-roster "$tmp/roster.csv" >/dev/null 2>"$tmp/again.err"
check "the roster again: refused (exit 2), the names in use" bash -c "[ $? = 2 ] && grep -q 'in use' '$tmp/again.err'"

start_server "$data" --problems softmax-cpu --no-bench --workers 2 --in-flight 10 --per-hour 1000 \
  --max-upload 65536 || exit 1
check "the admin token printed once, at the first start" test -n "$admin"

# AC, WA and CE: the server's verdict and exit status are the local judge's.
for f in AC/openmp.cpp WA/tail-dropped.cpp CE/syntax-error.cpp; do
  v=${f%%/*}
  "$judge" softmax-cpu "$problem/submissions/$f" --no-bench --json "$tmp/local-$v.json" >"$tmp/local-$v.out" 2>&1
  local_rc=$?
  "$judge" submit softmax-cpu "$problem/submissions/$f" --server "$url" --token "$alice" --json "$tmp/served-$v.json" \
    >"$tmp/served-$v.out" 2>"$tmp/served-$v.err"
  served_rc=$?
  echo "$v: local $(field "$tmp/local-$v.json" 'j["verdict"]') (exit $local_rc), served" \
    "$(field "$tmp/served-$v.json" 'j["verdict"]' 2>&1) (exit $served_rc)"
  check "$v: judge submit gives the local verdict and exit status" bash -c \
    "[ '$(field "$tmp/local-$v.json" 'j["verdict"]')' = '$v' ] && [ '$(field "$tmp/served-$v.json" 'j["verdict"]' 2>&1)' = '$v' ] && [ $local_rc = $served_rc ]"
  check "$v: the report printed is the local one's (its verdict line)" bash -c \
    "grep -q '^verdict $v ' '$tmp/served-$v.out' && [ \"\$(grep '^verdict' '$tmp/served-$v.out')\" = \"\$(grep '^verdict' '$tmp/local-$v.out')\" ]"
done
check "judge submit showed the grade's progress" grep -q "submission [0-9]*: \(queued\|compiling\|testing\)" \
  "$tmp/served-AC.err"
ac_id=$(field "$tmp/served-AC.json" 'j["id"]')

# Tokens and who sees what.
api GET /api/submissions hj_not-a-token >/dev/null
check "a bad token: 401" test "$status" = 401
"$judge" submit softmax-cpu "$problem/submissions/AC/openmp.cpp" --server "$url" --token hj_bad >/dev/null 2>&1
check "judge submit with a bad token: exit 2" test $? = 2
api GET "/api/submissions/$ac_id" "$bob" >/dev/null
check "another participant's submission: 404" test "$status" = 404
# The session cookie alone reads through the API (the pages' live updates), never changes: a cross-site form
# carries the cookie, not the Bearer header.
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: hpcjudge_session=$bob" "$url/api/submissions")
check "the session cookie reads the API: 200" test "$status" = 200
status=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: hpcjudge_session=$bob" -F problem=softmax-cpu \
  -F "file=@$problem/submissions/AC/openmp.cpp" "$url/api/submissions")
check "a POST to the API with only the session cookie: 403" test "$status" = 403
api GET "/api/submissions/$ac_id/source" "$bob" >/dev/null
check "another participant's source: 404" test "$status" = 404
curl -s -H "Authorization: Bearer $alice" -o "$tmp/source.cpp" "$url/api/submissions/$ac_id/source"
check "the owner's source: as submitted" cmp "$tmp/source.cpp" "$problem/submissions/AC/openmp.cpp"
api GET /api/submissions "$bob" >"$tmp/bob.json"
check "bob's list: none of alice's" bash -c "[ '$status' = 200 ] && [ \"\$(cat '$tmp/bob.json')\" = '[]' ]"
api POST /api/admin/final "$alice" -d '' >/dev/null
check "a participant at an admin route: 403" test "$status" = 403
api POST /api/admin/final "$admin" -d '' >"$tmp/final.json"
check "the final round without --seed-file: refused (409)" test "$status" = 409

# Uploads over the limit: past the request limit (httplib) and past the policy's (the route).
head -c 300000 /dev/zero | tr '\0' 'x' >"$tmp/big.cpp"
api POST /api/submissions "$alice" -F problem=softmax-cpu -F "file=@$tmp/big.cpp" >"$tmp/big.out"
check "an upload of 300 KB (limit 64 KiB): 413" test "$status" = 413
head -c 70000 /dev/zero | tr '\0' 'x' >"$tmp/over.cpp"
api POST /api/submissions "$alice" -F problem=softmax-cpu -F "file=@$tmp/over.cpp" >"$tmp/over.out"
check "an upload of 70 KB (limit 64 KiB, within the request's slack): 413 {error}" bash -c \
  "[ '$status' = 413 ] && grep -q '\"error\"' '$tmp/over.out'"
"$judge" submit softmax-cpu "$tmp/over.cpp" --server "$url" --token "$alice" >/dev/null 2>"$tmp/over.err"
check "judge submit of an oversized file: exit 2, the server's error said" bash -c \
  "[ $? = 2 ] && grep -q 'refused' '$tmp/over.err'"
api POST /api/submissions "$alice" -F problem=no-such-problem -F "file=@$problem/solutions/fast.cpp" >/dev/null
check "an unknown problem: 400" test "$status" = 400

# A name with HTML stays text: JSON (never sniffed as HTML) with the name as it is.
"$judge" submit softmax-cpu "$problem/solutions/fast.cpp" --server "$url" --token "$html" >/dev/null 2>&1
curl -s -D "$tmp/whoami.headers" -H "Authorization: Bearer $html" "$url/api/whoami" >"$tmp/whoami.json"
check "whoami of <b>x</b>: the name as text in JSON, nosniff" bash -c \
  "[ \"\$(field '$tmp/whoami.json' 'j[\"name\"]')\" = '<b>x</b>' ] && grep -qi '^content-type: application/json' '$tmp/whoami.headers' && grep -qi '^x-content-type-options: nosniff' '$tmp/whoami.headers'"
api GET /api/leaderboard "$html" >"$tmp/board.json"
check "the leaderboard: <b>x</b> ranked by name, as text" bash -c \
  "field '$tmp/board.json' '[r[\"name\"] for r in j[\"participants\"]]' | grep -qF \"'<b>x</b>'\""
if curl -s -o "$tmp/page.html" -w '%{http_code}' -b "hpcjudge_session=$html" "$url/leaderboard" | grep -q 200; then
  check "the leaderboard page: <b>x</b> escaped" bash -c \
    "grep -qF '&lt;b&gt;x&lt;/b&gt;' '$tmp/page.html' && ! grep -qF '<b>x</b>' '$tmp/page.html'"
else
  echo "skip the leaderboard page: no page at /leaderboard in this build"
fi

# The freeze: from frozen_at on, participants see the leaderboard as it stood then; admins the live one.
api POST /api/admin/policy "$admin" -H 'Content-Type: application/json' \
  -d "{\"frozen_at\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}" >/dev/null
api GET /api/leaderboard "$alice" >/dev/null  # the copy is taken by now
"$judge" submit softmax-cpu "$problem/solutions/fast.cpp" --server "$url" --token "$bob" >/dev/null 2>&1
bob_rank='[r["rank"] for r in j["participants"] if r["name"] == "bob"]'
api GET /api/leaderboard "$alice" >"$tmp/frozen.json"
api GET /api/leaderboard "$admin" >"$tmp/live.json"
echo "bob's rank after the freeze: to alice $(field "$tmp/frozen.json" "$bob_rank"), to the admin $(field "$tmp/live.json" "$bob_rank")"
check "frozen: bob's grade after the freeze unseen by participants, seen by the admin" bash -c \
  "[ \"\$(field '$tmp/frozen.json' '$bob_rank')\" != '[1]' ] && [ \"\$(field '$tmp/live.json' '$bob_rank')\" = '[1]' ]"
api POST /api/admin/policy "$admin" -H 'Content-Type: application/json' -d '{"frozen_at": ""}' >/dev/null
api GET /api/leaderboard "$alice" >"$tmp/thawed.json"
check "thawed: participants see the live leaderboard again" test "$(field "$tmp/thawed.json" "$bob_rank")" = '[1]'

# 50 submissions from 10 participants at once: each graded exactly once.
users=(alice bob)
for i in $(seq 3 10); do
  api POST /api/admin/participants "$admin" -H 'Content-Type: application/json' -d "{\"name\": \"p$i\"}" \
    >"$tmp/p$i.json"
  declare "tok_p$i=$(field "$tmp/p$i.json" 'j["token"]')"
  users+=("p$i")
done
tok_alice=$alice tok_bob=$bob
check "admin: 8 participants added, each in the audit log" bash -c \
  "[ \$(curl -s -H 'Authorization: Bearer $admin' '$url/api/admin/audit' | grep -o 'add participant' | wc -l) -ge 8 ]"
rm -f "$tmp"/load-*.json
for u in "${users[@]}"; do
  t=tok_$u
  for k in 1 2 3 4 5; do
    curl -s -H "Authorization: Bearer ${!t}" -F problem=softmax-cpu -F "file=@$problem/submissions/AC/openmp.cpp" \
      "$url/api/submissions" >"$tmp/load-$u-$k.json" &
  done
done
wait_for_uploads() { for j in $(jobs -p); do [ "$j" = "$server_pid" ] || wait "$j"; done; }
wait_for_uploads
ids=$(python3 -c 'import json, sys; print(" ".join(str(json.load(open(f))["id"]) for f in sys.argv[1:]))' "$tmp"/load-*.json)
check "50 uploads at once: 50 ids, each its own" bash -c "[ \$(echo $ids | tr ' ' '\n' | sort -u | wc -l) = 50 ]"
start=$SECONDS
wait_s=170 wait_done "$admin" $ids
echo "50 graded in $((SECONDS - start)) s"
in_list=$(echo $ids | tr ' ' ',')
db() { sqlite3 "file:$data/hpcjudge.db?mode=ro" "$1"; }
check "each of the 50 done with AC, claimed once" test \
  "$(db "SELECT COUNT(*) FROM submissions WHERE id IN ($in_list) AND state = 'done' AND verdict = 'AC' AND attempts = 1")" = 50
check "finished rows and report files agree: one report each" bash -c \
  "n=0; for i in $ids; do [ -f '$data/reports/'\$i.json ] && n=\$((n + 1)); done; [ \$n = 50 ] && [ \$(ls '$data/reports' | grep -c 'json$') = \$(sqlite3 'file:$data/hpcjudge.db?mode=ro' \"SELECT COUNT(*) FROM submissions WHERE state = 'done'\") ]"

stop_server
check "the server stops on SIGTERM" grep -q "^stopped" "$data.log"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
