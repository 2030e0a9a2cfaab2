#!/usr/bin/env bash
# The judge started with OpenMP binding in its environment (OMP_PROC_BIND, OMP_PLACES, GOMP_CPU_AFFINITY, as
# clusters often set them): neither the judge nor its runners bind (judge/cli/main.cpp), so a runner's OpenMP
# threads may each run on every CPU the judge was given, and OMP_PROC_BIND reaches the runner as false. Before, the
# judge's first thread was bound as OpenMP loaded and every runner inherited its one CPU. The judge started
# directly and through ./judge/judge's script; under `taskset` the script keeps the judge to the CPUs given.
#   unbound_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sub=$here/submissions/prints-its-cpus.cpp
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cpus=$(nproc)
fails=0
expect() {  # LABEL WANTED_CPUS COMMAND...
  local label=$1 want=$2; shift 2
  env HPCJUDGE_CACHE="$tmp/cache" OMP_PROC_BIND=true OMP_PLACES=cores GOMP_CPU_AFFINITY=0 "$@" softmax-cpu "$sub" \
    --no-bench >"$tmp/out" 2>&1
  if grep -q "AC .*score" "$tmp/out" && grep -q "fewest cpus $want; OMP_PROC_BIND false" "$tmp/out"; then
    echo "ok   $label: $(grep -o 'fewest cpus [0-9]*; OMP_PROC_BIND [a-z]*' "$tmp/out" | head -1)"
  else
    echo "FAIL $label: wanted every thread on $want CPUs and OMP_PROC_BIND false"; sed 's/^/     /' "$tmp/out" | tail -15
    fails=$((fails + 1))
  fi
}
expect "the judge started directly" "$cpus" "$judge"
build=$(dirname "$(dirname "$judge")")
expect "through ./judge/judge" "$cpus" env HPCJUDGE_BUILD="$build" "$repo/judge/judge"
if [ "$cpus" -ge 2 ] && command -v taskset >/dev/null; then
  expect "through ./judge/judge under taskset -c 1" 1 taskset -c 1 env HPCJUDGE_BUILD="$build" "$repo/judge/judge"
fi
[ $fails -eq 0 ]
