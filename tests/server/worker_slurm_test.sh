#!/usr/bin/env bash
# `judge serve --slurm PARTITION` on the single-node Slurm that the tests start (tests/slurm/single_node.sh): the
# server, with no local worker, submits its workers as a Slurm job; a queued file is graded by the `judge worker`
# that job runs, to the local judge's verdict, its report naming the Slurm worker; the worker token is in a file
# only its owner reads; the server's stop cancels the job. Skipped (77) where Slurm cannot start.
#   worker_slurm_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
problem=$here/../../problems/softmax-cpu
tmp=$(mktemp -d)
source "$here/serve_lib.sh"
source "$here/../slurm/single_node.sh"
why=$(slurm_skip_reason)
[ -z "$why" ] || { echo "SKIP: $why"; exit 77; }
prev=$(trap -p EXIT) prev=${prev#trap -- \'} prev=${prev%\' EXIT}
trap "slurm_stop; $prev" EXIT
data=$tmp/data

slurm_start || exit 1
check "single-node Slurm started" true
"$judge" serve --data "$data" --add-participant ann >"$tmp/ann.out" 2>&1
ann=$(token_of "$tmp/ann.out")
# The server (and so the job it submits) carries the marker: slurm_stop finds what the job left.
export SLURM_CONF=$conf "${marker%%=*}=${marker#*=}"
start_server "$data" --problems softmax-cpu --no-bench --workers 0 --slurm judge || exit 1
job=$(sed -n 's/^slurm workers: job \([0-9]*\) .*/\1/p' "$data.log")
check "the server submitted its workers as Slurm job '$job'" test -n "$job"
check "the worker token's file: its owner's alone" test "$(stat -c %a "$data/slurm/worker-token")" = 600

id=$(api POST /api/submissions "$ann" -F problem=softmax-cpu -F "file=@$problem/submissions/AC/openmp.cpp" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
wait_s=120 wait_done "$ann" "$id"
api GET "/api/submissions/$id" "$ann" >"$tmp/ac.json"
echo "graded: $(field "$tmp/ac.json" 'j["verdict"], j["server"]["worker"]' 2>&1)"
check "graded by the Slurm job's worker: AC, as the local judge gives" bash -c \
  "[ \"\$(field '$tmp/ac.json' 'j[\"verdict\"]')\" = AC ] && field '$tmp/ac.json' 'j[\"server\"][\"worker\"]' | grep -q '^remote:slurm-workers/'"
state=$(slurm squeue -h -j "$job" -o %T 2>/dev/null)
check "the workers' job runs while the server does ($state)" test "$state" = RUNNING

stop_server
left=
for _ in $(seq 40); do
  left=$(slurm squeue -h -j "$job" -o %T 2>/dev/null)
  [ -z "$left" ] || [ "$left" = COMPLETED ] || [ "$left" = CANCELLED ] && break
  sleep 0.5
done
check "the server's stop cancelled the workers' job (state '${left:-gone}')" bash -c "[ -z '$left' ] || [ '$left' = CANCELLED ] || [ '$left' = COMPLETED ]"
[ $fails -eq 0 ] || tail -n 20 "$data"/slurm/logs/worker-*.out 2>/dev/null
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
