#!/usr/bin/env bash
# Gradescope autograder setup (runs once, as root, when the autograder image is built).
# The autograder zip holds setup.sh, run_autograder and this repository as hpcjudge/
# (Gradescope unpacks it into /autograder/source/); optionally `problem` (the slug, one
# line) and `seed` (the staff's secret seed file) beside them.
set -euo pipefail
apt-get update -qq
apt-get install -y -qq --no-install-recommends make g++ ca-certificates bubblewrap
cd /autograder/source/hpcjudge
make judge  # installs the judge's packages, builds it, grades every starter (their WA is expected)
