#!/usr/bin/env bash
# For a GPU host with no network: on a Debian 12 machine that has one, downloads the
# packages hpcjudge builds against that a GPU host often lacks (CLI11, nlohmann/json,
# and Catch2 v3 for the tests; EXTRA_DEPS="..." adds more, e.g. bubblewrap) and
# unpacks them into DIR (default .deps in the current folder). Copy DIR beside the
# repository on the GPU host and configure with
#   cmake -S . -B build -DCMAKE_PREFIX_PATH="$PWD/.deps/usr"
# (tools/gpu-check.sh does so by itself when .deps/usr exists). Catch2 v3 comes from
# bookworm-backports, a suite added for this download only: nothing here changes the
# machine's apt configuration or installs anything.
#   tools/offline-deps.sh [DIR]
set -euo pipefail
dir=${1:-.deps}
pkgs="libcli11-dev nlohmann-json3-dev libcatch2-dev ${EXTRA_DEPS:-}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/lists/partial" "$tmp/debs"
src="$tmp/sources.list"
uri=$(sed -n 's/^URIs: //p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
[ -n "$uri" ] || { echo "no Debian source found in /etc/apt/sources.list.d/debian.sources" >&2; exit 1; }
printf 'deb %s bookworm main\ndeb %s bookworm-backports main\n' "$uri" "$uri" > "$src"
o=(-oDir::Etc::SourceList="$src" -oDir::Etc::SourceParts=/dev/null -oDir::State::Lists="$tmp/lists")
apt-get "${o[@]}" update -qq
names=()
for p in $pkgs; do
  if [ "$p" = libcatch2-dev ]; then names+=(libcatch2-dev/bookworm-backports); else names+=("$p"); fi
done
( cd "$tmp/debs" && apt-get "${o[@]}" download "${names[@]}" )
mkdir -p "$dir"
for d in "$tmp"/debs/*.deb; do dpkg -x "$d" "$dir"; done
echo "unpacked into $dir: $(ls "$tmp"/debs | tr '\n' ' ')"
