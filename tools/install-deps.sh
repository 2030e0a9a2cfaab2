#!/usr/bin/env bash
# Installs what hpcjudge needs to build and test, from Debian/Ubuntu packages.
# As root on Debian 12 or Ubuntu 24.04 it installs whatever is missing (adding
# bookworm-backports only where Catch2 v3 is otherwise missing); otherwise it prints
# the one command to run and stops. With HPCJUDGE_NO_INSTALL=1 it only checks.
#   tools/install-deps.sh          what the judge needs
#   tools/install-deps.sh --test   and what its tests use: Chromium (the leaderboard page)
#                                  a single-node Slurm with munge (the cluster test) and python3 (the bench test)
set -euo pipefail

pkgs=(cmake g++ make libcli11-dev nlohmann-json3-dev libopenblas-dev libcatch2-dev bubblewrap)
if [ "${1:-}" = --test ]; then pkgs+=(chromium slurmctld slurmd slurm-client munge python3); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Catch2 v2 is also called libcatch2-dev on some releases: insist on v3's header.
if [[ ! " ${missing[*]} " =~ " libcatch2-dev " ]] && [ ! -f /usr/include/catch2/catch_test_macros.hpp ]; then
  missing+=(libcatch2-dev)
fi
[ ${#missing[@]} -eq 0 ] && exit 0

# Catch2 v3 on Debian 12 lives in bookworm-backports.
needs_backports=0
if [[ " ${missing[*]} " =~ " libcatch2-dev " ]] && grep -qs 'VERSION_CODENAME=bookworm' /etc/os-release; then
  needs_backports=1
fi

cmd="apt-get update && apt-get install -y ${missing[*]/libcatch2-dev/libcatch2-dev$([ $needs_backports = 1 ] && echo /bookworm-backports)}"
if [ "${HPCJUDGE_NO_INSTALL:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
  echo "hpcjudge needs: ${missing[*]}" >&2
  if [ $needs_backports = 1 ]; then
    echo "run as root:  echo 'deb http://deb.debian.org/debian bookworm-backports main' > /etc/apt/sources.list.d/backports.list && $cmd" >&2
  else
    echo "run as root:  $cmd" >&2
  fi
  exit 1
fi

if [ $needs_backports = 1 ] && ! grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  echo 'deb http://deb.debian.org/debian bookworm-backports main' > /etc/apt/sources.list.d/backports.list
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]/libcatch2-dev/libcatch2-dev$([ $needs_backports = 1 ] && echo /bookworm-backports)}" >/dev/null
