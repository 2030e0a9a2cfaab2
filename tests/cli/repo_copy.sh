# Sourced by the cli tests that judge on a copy of the repository's problems/ (HPCJUDGE_ROOT), so that the
# repository is untouched: $src (the repository), $work (a fresh folder that the compiler's own user reads
# through as root; removed on exit by remove_work unless KEEP is set), the copy with links to tests/ and
# emulate/, a cache of its own ($work/cache), and fail() counting into $fails.
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d)
remove_work() { [ -n "${KEEP:-}" ] || rm -rf "$work"; }
trap remove_work EXIT
chmod 755 "$work"
cp -r "$src/problems" "$work/problems"
for d in tests emulate; do ln -s "$src/$d" "$work/$d"; done
export HPCJUDGE_ROOT=$work HPCJUDGE_CACHE=$work/cache
mkdir -p "$work/cache"
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
