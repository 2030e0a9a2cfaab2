# What the tests that judge CPU problems' references share (sourced by repeat_test.sh, fastest_test.sh,
# peaks_too_low.sh and ../cli/runners.sh, with their arguments: JUDGE [SLUG...]): the judge, the problems (every CPU problem where none is named), the
# repository's root, and a scratch folder with a judge's cache of its own, removed on exit.
set -u
judge=$1
shift
slugs=${*:-softmax-cpu matmul-cpu spmv-cpu bfs-cpu}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export HPCJUDGE_CACHE=$tmp/cache
status=0
