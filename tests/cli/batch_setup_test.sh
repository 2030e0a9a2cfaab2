#!/usr/bin/env bash
# judge batch where a TA would naturally put things (issue 57): the judge's own faults never become a student's
# verdict. As root and as an ordinary user the test creates (skipped where it cannot), the sample class graded
# right (its expected order, no runner that "could not start") with the class and --out under a home folder of
# mode 0700, and with the results inside the class (`cd class && judge batch .`: the results folder no
# participant); where bubblewrap cannot make its namespaces (a bwrap earlier on PATH that says so and fails) the
# batch says so with bwrap's words, offers --no-sandbox, grades nothing and exits non-zero; a failing canary
# (the sandbox starts for the probe, not for the judge) grades none of its problem's files. As root also: GPU
# files without a GPU get their emulated verdicts (--no-emulate: SKIP), and a JE is never kept as current.
#   batch_setup_test.sh JUDGE CLASS_DIR EXPECTED_ORDER_FILE
set -u
judge=$(realpath "$1") class=$(realpath "$2") expected=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /var/tmp/hpcjudge-setup-XXXXXX)
source "$here/checks.sh"
user=hpcjudge-setup-$$
created=
trap '[ -n "$created" ] && userdel "$user" 2>/dev/null; [ -n "${HPCJUDGE_KEEP:-}" ] || rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
me=$(id -un)
as_me() { "$@"; }
# With a GPU the GPU participant earns timed points: the ranking file beside it (as tests/batch/batch_test.sh).
if [ -n "${HPCJUDGE_REQUIRE_GPU:-}" ]; then expected=${expected%.txt}.gpu.txt; fi

# A bwrap that cannot make its namespaces, with bubblewrap's own words; and one that starts only for the batch's
# probe (its command `true`), so that the canary meets the failure instead.
mkdir -p "$tmp/no-ns" "$tmp/probe-only"
cat >"$tmp/no-ns/bwrap" <<'EOF'
#!/bin/sh
echo "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2
exit 1
EOF
real_bwrap=$(command -v bwrap || echo /usr/bin/bwrap)
cat >"$tmp/probe-only/bwrap" <<EOF
#!/bin/sh
for last; do :; done
[ "\$last" = true ] && exec "$real_bwrap" "\$@"
echo "bwrap: Can't mkdir /nowhere: Permission denied" >&2
exit 1
EOF
chmod 755 "$tmp/no-ns" "$tmp/probe-only" "$tmp/no-ns/bwrap" "$tmp/probe-only/bwrap"

# graded_right LABEL RESULTS: the batch's exit 0, the expected order, no runner that could not start, the GPU
# participant's file graded (emulated where there is no GPU), no participant named after the results folder.
graded_right() {
  local label=$1 results=$2
  check "$label: exit 0" test "$(cat "$tmp/$label.rc")" = 0
  check "$label: the expected order" bash -c "diff '$expected' <(tail -n +2 '$results/leaderboard.csv' | sed '/^\$/,\$d' | cut -d, -f2)"
  check "$label: no runner that could not start, no JE" bash -c "! grep -rlE 'could not start|during starting|\"verdict\": \"JE\"' '$results' --include='*.json'"
  check "$label: ivan's vector-add.cu graded, not SKIP" bash -c "grep -q '\"verdict\": \"AC\"' '$results/ivan/vector-add.json'"
  check "$label: the results folder is no participant" bash -c "! grep -q \"participant 'results'\" '$tmp/$label.err' && ! test -d '$results/results'"
}
# setup_scenarios RUN LABEL OWNER: the class under a 0700 home folder (class and --out), then the results inside
# the class, then a sandbox that cannot start, then a canary that fails.
setup_scenarios() {
  local run=$1 label=$2 owner=$3
  local home=$tmp/$label-home
  mkdir -p "$home" && cp -rL "$class" "$home/class" && chown -R "$owner" "$home" && chmod 700 "$home"
  $run "$judge" batch "$home/class" --out "$home/res" --no-bench >"$tmp/$label-home.out" 2>"$tmp/$label-home.err"
  echo $? >"$tmp/$label-home.rc"
  graded_right "$label-home" "$home/res"

  local inside=$tmp/$label-inside
  mkdir -p "$inside" && cp -rL "$class" "$inside/class" && chown -R "$owner" "$inside"
  (cd "$inside/class" && $run "$judge" batch . --no-bench) >"$tmp/$label-inside.out" 2>"$tmp/$label-inside.err"
  echo $? >"$tmp/$label-inside.rc"
  graded_right "$label-inside" "$inside/class/results"

  local broken=$tmp/$label-broken
  mkdir -p "$broken" && chown "$owner" "$broken"
  $run env PATH="$tmp/no-ns:$PATH" "$judge" batch "$home/class" --out "$broken/res" --no-bench >"$tmp/$label-broken.out" 2>"$tmp/$label-broken.err"
  local rc=$?
  check "$label-broken: exit non-zero" test $rc -ne 0
  check "$label-broken: says the sandbox cannot start, in bwrap's words" grep -q "sandbox (bubblewrap) cannot start here: bwrap: No permissions to create new namespace" "$tmp/$label-broken.err"
  check "$label-broken: offers --no-sandbox" grep -q -- "--no-sandbox" "$tmp/$label-broken.err"
  check "$label-broken: no student verdict" bash -c "test -z \"\$(find '$broken/res' -mindepth 2 -name '*.json' 2>/dev/null)\""

  $run env PATH="$tmp/probe-only:$PATH" "$judge" batch "$home/class" --out "$broken/canary" --no-bench >"$tmp/$label-canary.out" 2>"$tmp/$label-canary.err"
  rc=$?
  check "$label-canary: exit non-zero" test $rc -ne 0
  check "$label-canary: each problem's canary names the cause" bash -c "grep -q \"canary softmax-cpu: its fast reference got JE: .*bwrap: Can't mkdir /nowhere\" '$tmp/$label-canary.err' && grep -q 'canary matmul-cpu: its fast reference got JE' '$tmp/$label-canary.err'"
  check "$label-canary: no student verdict" bash -c "test -z \"\$(find '$broken/canary' -mindepth 2 -name '*.json' ! -path '*/.canary/*')\""
}

start=$(date +%s)
if [ "$(id -u)" = 0 ] || bwrap --ro-bind / / --unshare-pid --new-session true 2>/dev/null; then
  setup_scenarios as_me "$me" "$(id -u)"
else
  echo "skip $me's batches: bubblewrap cannot start here and the judge is not root (a batch needs one of them)"
fi

if [ "$(id -u)" = 0 ]; then
  # A JE is never current: a report made JE (its record kept) is graded again.
  results=$tmp/$me-home/res
  python3 - "$results/alice/softmax-cpu.json" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1])); r["verdict"] = "JE"; r["message"] = "the runner could not start here"
json.dump(r, open(sys.argv[1], "w"))
EOF
  "$judge" batch "$tmp/$me-home/class" --out "$results" --no-bench >"$tmp/je.out" 2>&1
  check "a JE report is regraded, never kept" bash -c "grep -q '^regrade alice/softmax-cpu.cpp: a judge error (JE)' '$tmp/je.out' && grep -q '\"verdict\": \"AC\"' '$results/alice/softmax-cpu.json'"
  # One file where the sandbox cannot start: JE with bwrap's words, exit non-zero, not kept as the latest report.
  mkdir -p "$tmp/root" && cp -r "$here/../../problems" "$tmp/root/problems"
  HPCJUDGE_ROOT=$tmp/root PATH="$tmp/no-ns:$PATH" "$judge" softmax-cpu "$class/alice/softmax-cpu.cpp" --sandbox --no-bench \
    --json "$tmp/single.json" >"$tmp/single.out" 2>&1
  rc=$?
  check "one file, no sandbox: JE with bwrap's words, exit non-zero" bash -c "test $rc -ne 0 && grep -q '\"verdict\": \"JE\"' '$tmp/single.json' && grep -q 'bwrap: No permissions' '$tmp/single.json'"
  check "one file, no sandbox: the JE is not kept as the latest report" test ! -e "$tmp/root/.hpcjudge/reports/softmax-cpu.json"

  # GPU files in a batch, as one file is graded: emulated where there is no GPU (a race's RE beside a correct AC).
  mkdir -p "$tmp/gpu/ivan" "$tmp/gpu/mallory"
  cp -L "$class/ivan/vector-add.cu" "$tmp/gpu/ivan/vector-add.cu"
  cp "$here/../../problems/vector-add/submissions/RE/write-past-c.cu" "$tmp/gpu/mallory/vector-add.cu"
  "$judge" batch "$tmp/gpu" --out "$tmp/gpu-res" --no-bench >"$tmp/gpu.out" 2>&1
  echo "gpu batch: exit $?"
  if [ -z "${HPCJUDGE_REQUIRE_GPU:-}" ] && ! nvidia-smi -L >/dev/null 2>&1; then
    check "no GPU: the correct kernel AC, emulated" bash -c "grep -q '\"verdict\": \"AC\"' '$tmp/gpu-res/ivan/vector-add.json' && grep -q '\"emulated\": true' '$tmp/gpu-res/ivan/vector-add.json'"
    check "no GPU: the write past C RE, emulated" bash -c "grep -q '\"verdict\": \"RE\"' '$tmp/gpu-res/mallory/vector-add.json' && grep -q '\"emulated\": true' '$tmp/gpu-res/mallory/vector-add.json'"
    check "no GPU: the leaderboard says emulated" grep -q emulated "$tmp/gpu-res/leaderboard.csv"
    "$judge" batch "$tmp/gpu" --out "$tmp/gpu-res" --no-bench --no-emulate >"$tmp/gpu-skip.out" 2>&1
    check "--no-emulate: regraded, SKIP" bash -c "grep -q 'graded by CPU emulation, and this batch is --no-emulate' '$tmp/gpu-skip.out' && grep -q '\"verdict\": \"SKIP\"' '$tmp/gpu-res/ivan/vector-add.json'"
  fi
fi

if second_user "$judge" "$tmp/user"; then
  if as_user bwrap --ro-bind / / --unshare-pid --new-session true 2>/dev/null; then
    setup_scenarios as_user user "$user"
  else
    echo "skip the ordinary user's batches: bubblewrap cannot start for $user (its batch needs the sandbox)"
  fi
fi
echo "took $(($(date +%s) - start)) s"
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
