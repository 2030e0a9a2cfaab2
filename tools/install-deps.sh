#!/usr/bin/env bash
# Installs what hpcjudge needs, from Debian 12 or Ubuntu 24.04 packages.
#   tools/install-deps.sh          what judging needs, and the recommended sandbox
#   tools/install-deps.sh --test   and what the tests need
#
# Three lists:
#   required     cmake g++ make CLI11 nlohmann/json OpenBLAS: the judge does not build without them
#   recommended  bubblewrap (the sandbox, judge --sandbox and batch): installed when root,
#                its absence (or a failed install) is a warning, never a failure
#   test         Catch2 v3 (from bookworm-backports on Debian 12; Ubuntu 24.04 has it),
#                Chromium (the leaderboard page; Debian only, Ubuntu ships it as a snap),
#                a single-node Slurm with munge (the cluster test), python3 (the bench test and
#                the course-tools checks), libxml2-utils (xmllint: the JUnit schema check)
#
# As root it installs what is missing; otherwise it prints the one command to run as
# root and exits 1 (a missing recommended package only prints a note). With
# HPCJUDGE_NO_INSTALL=1 it only checks. Nothing missing: silent, exit 0.
# HPCJUDGE_OS_RELEASE (default /etc/os-release) and HPCJUDGE_APT_DIR (default /etc/apt)
# name the files it reads and the sources folder it writes: the tests point them elsewhere.
set -euo pipefail

os_release=${HPCJUDGE_OS_RELEASE:-/etc/os-release}
apt_dir=${HPCJUDGE_APT_DIR:-/etc/apt}
backports_line='deb http://deb.debian.org/debian bookworm-backports main'

# shellcheck disable=SC1090  # the file is named at run time
codename=$( (. "$os_release" 2>/dev/null && echo "${VERSION_CODENAME:-}") || true)
# shellcheck disable=SC1090
distro=$( (. "$os_release" 2>/dev/null && echo "${ID:-}") || true)

required=(cmake g++ make libcli11-dev nlohmann-json3-dev libopenblas-dev libcpp-httplib-dev libsqlite3-dev libsodium-dev)
recommended=(bubblewrap)
test_pkgs=(libcatch2-dev slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3)
[ "$distro" = ubuntu ] || test_pkgs+=(chromium chromium-driver python3-selenium)
want_tests=0
[ "${1:-}" = --test ] && want_tests=1

# installed PKG: the package is installed; for Catch2, version 3 (v2 has the same name).
installed() {
  local status
  status=$(dpkg-query -W -f='${Status} ${Version}' "$1" 2>/dev/null) || return 1
  [[ $status == "install ok installed "* ]] || return 1
  if [ "$1" = libcatch2-dev ]; then [[ ${status#install ok installed } == 3.* ]] || return 1; fi
  return 0
}
missing_of() {
  local p
  for p in "$@"; do installed "$p" || echo "$p"; done
}

mapfile -t missing_required < <(missing_of "${required[@]}")
mapfile -t missing_recommended < <(missing_of "${recommended[@]}")
missing_tests=()
[ $want_tests = 1 ] && mapfile -t missing_tests < <(missing_of "${test_pkgs[@]}")
needed=("${missing_required[@]}" "${missing_tests[@]}")

# Catch2 v3 on Debian 12 lives in bookworm-backports.
needs_backports=0
if [[ " ${missing_tests[*]} " == *" libcatch2-dev "* ]] && [ "$codename" = bookworm ]; then
  needs_backports=1
fi
# The names apt-get is given: Catch2 pinned to the backports release where it comes from there.
apt_names() {
  local p
  for p in "$@"; do
    if [ "$p" = libcatch2-dev ] && [ $needs_backports = 1 ]; then echo libcatch2-dev/bookworm-backports; else echo "$p"; fi
  done
}

is_root=0
[ "$(id -u)" = 0 ] && [ "${HPCJUDGE_NO_INSTALL:-0}" != 1 ] && is_root=1

if [ $is_root = 0 ]; then
  status=0
  if [ ${#needed[@]} -gt 0 ]; then
    echo "hpcjudge needs: ${needed[*]}" >&2
    cmd="apt-get update && apt-get install -y $(apt_names "${needed[@]}" | tr '\n' ' ')"
    cmd=${cmd% }
    if [ $needs_backports = 1 ]; then
      cmd="echo '$backports_line' > $apt_dir/sources.list.d/backports.list && $cmd"
    fi
    echo "run as root:  $cmd" >&2
    status=1
  fi
  if [ ${#missing_recommended[@]} -gt 0 ]; then
    echo "recommended: ${missing_recommended[*]} (the sandbox: judge --sandbox, and every batch); as root: apt-get install -y ${missing_recommended[*]}" >&2
  fi
  exit $status
fi

[ ${#needed[@]} -eq 0 ] && [ ${#missing_recommended[@]} -eq 0 ] && exit 0

if [ $needs_backports = 1 ] && ! grep -rqs 'bookworm-backports' "$apt_dir/sources.list" "$apt_dir/sources.list.d/"; then
  mkdir -p "$apt_dir/sources.list.d"
  echo "$backports_line" > "$apt_dir/sources.list.d/backports.list"
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq >/dev/null; then
  [ ${#needed[@]} -gt 0 ] && { echo "apt-get update failed: cannot install ${needed[*]}" >&2; exit 1; }
  echo "warning: apt-get update failed: ${missing_recommended[*]} not installed (recommended: the sandbox)" >&2
  exit 0
fi
if [ ${#needed[@]} -gt 0 ]; then
  echo "installing: ${needed[*]}" >&2
  mapfile -t names < <(apt_names "${needed[@]}")
  if ! apt-get install -y -qq --no-install-recommends "${names[@]}" >/dev/null; then
    echo "apt-get install failed for: ${needed[*]}" >&2
    exit 1
  fi
fi
if [ ${#missing_recommended[@]} -gt 0 ]; then
  echo "installing (recommended): ${missing_recommended[*]}" >&2
  if ! apt-get install -y -qq --no-install-recommends "${missing_recommended[@]}" >/dev/null; then
    echo "warning: could not install ${missing_recommended[*]}: the judge works without it, but --sandbox and batch run unsandboxed" >&2
  fi
fi
if [ $want_tests = 1 ] && [ "$distro" = ubuntu ] && [ ! -x /usr/bin/chromium ]; then
  echo "note: Ubuntu ships Chromium as a snap; the leaderboard browser test is skipped unless CHROMIUM=/path/to/chromium is set" >&2
fi
exit 0
