#!/usr/bin/env bash
# `judge batch --slurm` end to end on a single-node Slurm that this test starts
# on localhost: munged with a generated key, slurmctld and slurmd with a
# generated slurm.conf (one CPU-only node, no accounting), all with their
# state, spool, sockets and logs in a temporary folder and their paths given on
# the command line, so nothing under /etc is read or written. It grades the
# class with --no-bench, waits for the leaderboard job, checks the results and
# the ranking, then stops every daemon it started and removes its files.
#   slurm_test.sh JUDGE CLASS_DIR EXPECTED_ORDER_FILE
# Needs root and Debian's munge, slurmctld, slurmd and slurm-client; without
# them it prints one line and exits 77 (skipped). HPCJUDGE_SLURM_WAIT bounds
# the wait for the jobs (seconds, default 1200).
set -u
export PATH=$PATH:/usr/sbin:/sbin
export LC_ALL=C.UTF-8
judge=$(realpath "$1") class=$(realpath "$2") expected=$(realpath "$3")
wait_limit=${HPCJUDGE_SLURM_WAIT:-1200}

tmp=$(mktemp -d /tmp/hpcjudge-slurm.XXXXXX)
# The cluster (munged, slurmctld, slurmd, their files under $tmp/slurm): tests/slurm/single_node.sh.
source "$(cd "$(dirname "$0")" && pwd)/single_node.sh"
reason=$(slurm_skip_reason)
[ -z "$reason" ] || { echo "SKIP: $reason"; rm -rf "$tmp"; exit 77; }
# The sample class's files are links to the reference solutions; a participant's file must be a regular file of
# their own (a link is not graded), so the class is graded as copies.
cp -rL "$class" "$tmp/class" && class=$tmp/class
# shellcheck disable=SC2317  # run by the trap
cleanup() { slurm_stop; rm -rf "$tmp"; }
trap cleanup EXIT
trap 'exit 1' INT TERM

passes=0 fails=0
ok() { echo "ok   $1"; passes=$((passes + 1)); }
fail() { echo "FAIL $1"; shift; for f in "$@"; do [ -s "$f" ] && tail -n 15 "$f" | sed 's/^/     /'; done; fails=$((fails + 1)); }
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then ok "$name"; else fail "$name" "$tmp/check.out"; fi
}
finish() { echo "$passes passed, $fails failed"; [ "$fails" -eq 0 ]; exit; }
if slurm_start >"$tmp/start.out" 2>&1; then ok "slurmctld and slurmd started: node $(hostname -s 2>/dev/null) idle, $(nproc) CPUs"
else fail "slurmctld and slurmd started" "$tmp/start.out"; finish; fi

# --- grade the class through Slurm -------------------------------------------------------
results=$tmp/results
participants=()
for d in "$class"/*/; do d=${d%/}; participants+=("${d##*/}"); done
start=$(date +%s)
(cd "$tmp" && env "$marker" SLURM_CONF="$conf" "$judge" batch "$class" --out "$results" --slurm --no-bench \
  --throttle 2 >"$tmp/submit.out" 2>"$tmp/submit.err")
rc=$?
if [ $rc -eq 0 ] && [ -s "$results/slurm/jobs.txt" ]; then ok "judge batch --slurm submitted: $(head -n 1 "$tmp/submit.out")"
else fail "judge batch --slurm submitted (exit status $rc)" "$tmp/submit.out" "$tmp/submit.err"; finish; fi
array_job=$(awk '$1 == "array" { print $2 }' "$results/slurm/jobs.txt")
board_job=$(awk '$1 == "leaderboard" { print $2 }' "$results/slurm/jobs.txt")

left=
while [ $(($(date +%s) - start)) -lt "$wait_limit" ]; do
  left=$(slurm squeue -h -o %i 2>&1) || left="squeue failed: $left"
  [ -z "$left" ] && break
  sleep 3
done
if [ -z "$left" ]; then ok "every job ended, in $(($(date +%s) - start)) s"
else fail "every job ended within $wait_limit s (still queued: $(echo "$left" | tr '\n' ' '))" "$slurm_dir/log/slurmctld.log"; fi

job_states() { slurm scontrol -o show job "$1" 2>&1 | grep -o 'JobState=[A-Z_]*' | sort | uniq -c | tr -s ' ' | sed 's/^ //'; }
if slurm scontrol -o show job "$array_job" 2>/dev/null | grep -q 'ArrayTaskThrottle=2 '; then ok "array throttled to 2 tasks at once"
else fail "array throttled to 2 tasks at once"; fi
tasks=$(slurm scontrol -o show job "$array_job" 2>/dev/null | grep -c 'JobState=COMPLETED')
if [ "$tasks" -eq ${#participants[@]} ]; then ok "all ${#participants[@]} array tasks completed"
else
  echo "array job $array_job: $(job_states "$array_job")" >"$tmp/states"
  fail "all ${#participants[@]} array tasks completed (only $tasks)" "$tmp/states" "$results"/slurm/logs/batch-*
fi
if slurm scontrol -o show job "$board_job" 2>/dev/null | grep -q 'JobState=COMPLETED'; then ok "leaderboard job (afterany on the array) completed"
else
  echo "leaderboard job $board_job: $(job_states "$board_job")" >"$tmp/states"
  fail "leaderboard job (afterany on the array) completed" "$tmp/states" "$results"/slurm/logs/leaderboard-*
fi

missing=()
for who in "${participants[@]}"; do [ -d "$results/$who" ] || missing+=("$who"); done
if [ ${#missing[@]} -eq 0 ]; then ok "a results folder for each of ${#participants[@]} participants"
else fail "a results folder for each participant (missing: ${missing[*]})"; fi
logs=$(find "$results/slurm/logs" -name 'batch-*.out' 2>/dev/null | wc -l)
if [ "$logs" -eq ${#participants[@]} ]; then ok "a log per array task in results/slurm/logs"
else fail "a log per array task in results/slurm/logs ($logs of ${#participants[@]})"; fi
check "leaderboard.csv written" test -s "$results/leaderboard.csv"

# The "participant" column of leaderboard.csv, in row order (RFC 4180 quoting).
split_csv() {  # LINE -> fields=(...)
  local s=$1 f='' q=0 c i
  fields=()
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    if ((q)); then
      if [ "$c" != '"' ]; then f+=$c
      elif [ "${s:i+1:1}" = '"' ]; then f+='"'; i=$((i + 1))
      else q=0; fi
    elif [ "$c" = '"' ]; then q=1
    elif [ "$c" = , ]; then fields+=("$f"); f=''
    else f+=$c; fi
  done
  fields+=("$f")
}
ranking() {
  local line col=-1 i
  while IFS= read -r line || [ -n "$line" ]; do
    [ -z "${line%$'\r'}" ] && break  # the blank line before the not-graded section ends the ranking
    split_csv "${line%$'\r'}"
    if [ "$col" -lt 0 ]; then
      for i in "${!fields[@]}"; do [ "${fields[i],,}" = participant ] && col=$i; done
      [ "$col" -ge 0 ] || { echo "no 'participant' column in the header: $line"; return 1; }
    else
      printf '%s\n' "${fields[col]}"
    fi
  done <"$results/leaderboard.csv"
}
if [ -s "$results/leaderboard.csv" ] && ranking >"$tmp/order.txt" && diff "$expected" "$tmp/order.txt" >"$tmp/order.diff"; then
  ok "ranking as expected: $(awk 'NR > 1 { printf ", " } { printf "%s", $0 }' "$tmp/order.txt")"
else
  cat "$tmp/order.txt" >>"$tmp/order.diff" 2>/dev/null
  fail "ranking as expected (diff expected actual)" "$tmp/order.diff"
fi
finish
