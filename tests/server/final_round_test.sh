#!/usr/bin/env bash
# judge serve's final round (issue 59): started with --seed-file, POST /api/admin/final grades every
# participant's counting submission again with the secret seed: the final reports say the seed is secret and
# never show it (nor does anything the server writes), DATA/final holds them, and DATA/results (the public
# round) is unchanged.
#   final_round_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
# Not under /tmp, which the sandbox replaces with a private one.
tmp=$(mktemp -d -p /var/tmp)
source "$here/serve_lib.sh"
data=$tmp/data
echo 918273645 >"$tmp/seed"

for who in ann ben; do
  "$judge" serve --data "$data" --add-participant "$who" >"$tmp/$who.out" 2>&1
  declare "tok_$who=$(token_of "$tmp/$who.out")"
done
start_server "$data" --problems softmax-cpu --no-bench --workers 1 --seed-file "$tmp/seed" || exit 1
"$judge" submit softmax-cpu "$problem/submissions/AC/openmp.cpp" --server "$url" --token "$tok_ann" \
  --json "$tmp/ann.json" >/dev/null 2>&1
"$judge" submit softmax-cpu "$problem/submissions/WA/tail-dropped.cpp" --server "$url" --token "$tok_ben" \
  --json "$tmp/ben.json" >/dev/null 2>&1
check "the public round: ann AC, ben WA, with the public seed" bash -c \
  "[ \"\$(field '$tmp/ann.json' 'j[\"verdict\"], j[\"seed\"]')\" = \"('AC', 42)\" ] && [ \"\$(field '$tmp/ben.json' 'j[\"verdict\"]')\" = WA ]"
public_sums=$(cd "$data/results" && find . -type f | sort | xargs sha256sum)

api POST /api/admin/final "$tok_ann" -d '' >/dev/null
check "a participant cannot start the final round (403)" test "$status" = 403
api POST /api/admin/final "$admin" -d '' >"$tmp/final.json"
check "the final round: 2 queued" bash -c "[ '$status' = 200 ] && [ \"\$(field '$tmp/final.json' 'j[\"queued\"]')\" = 2 ]"
finals=$(sqlite3 "file:$data/hpcjudge.db?mode=ro" "SELECT id FROM submissions WHERE round = 'final'")
wait_done "$admin" $finals
for who in ann ben; do
  report=$data/final/$who/softmax-cpu.json
  check "$who's final report in DATA/final: seed secret, round final" bash -c \
    "[ \"\$(field '$report' 'j[\"seed\"]')\" = secret ]"
done
check "final verdicts: ann AC, ben WA" bash -c \
  "[ \"\$(field '$data/final/ann/softmax-cpu.json' 'j[\"verdict\"]')\" = AC ] && [ \"\$(field '$data/final/ben/softmax-cpu.json' 'j[\"verdict\"]')\" = WA ]"
# The final round's inputs are the secret seed's: ben's mismatches (values drawn from the seed) are those of a local
# grade with --seed 918273645, and not the public round's.
"$judge" softmax-cpu "$problem/submissions/WA/tail-dropped.cpp" --no-bench --seed 918273645 \
  --json "$tmp/local-secret.json" >/dev/null 2>&1
mismatches='[t["message"] for t in j["tests"]]'
check "the final round graded with the secret seed (ben's mismatches as a local grade with it)" bash -c \
  "[ \"\$(field '$data/final/ben/softmax-cpu.json' '$mismatches')\" = \"\$(field '$tmp/local-secret.json' '$mismatches')\" ] && [ \"\$(field '$data/final/ben/softmax-cpu.json' '$mismatches')\" != \"\$(field '$data/results/ben/softmax-cpu.json' '$mismatches')\" ]"
id=$(echo $finals | cut -d' ' -f1)
api GET "/api/submissions/$id" "$admin" >"$tmp/final-report.json"
check "the final report through the API: round final, seed secret" bash -c \
  "[ \"\$(field '$tmp/final-report.json' 'j[\"round\"], j[\"seed\"]')\" = \"('final', 'secret')\" ]"
check "the seed itself nowhere the server writes or says" bash -c \
  "! grep -rqa 918273645 '$data' '$data.log' '$tmp/final-report.json'"
check "DATA/results unchanged by the final round" test \
  "$(cd "$data/results" && find . -type f | sort | xargs sha256sum)" = "$public_sums"
api GET "/api/admin/export/csv?round=final" "$admin" >"$tmp/final.csv"
check "the final round's CSV export names both" bash -c "[ '$status' = 200 ] && grep -q ann '$tmp/final.csv' && grep -q ben '$tmp/final.csv'"
api GET /api/admin/audit "$admin" >"$tmp/audit.json"
check "the audit log has the final round" grep -q "final round" "$tmp/audit.json"
stop_server
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
