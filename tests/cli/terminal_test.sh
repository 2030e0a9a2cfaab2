#!/usr/bin/env bash
# The grader's terminal is out of a submission's reach (issue 56, class 1): an interactive shell on a terminal of its
# own (script(1)), in which the judge grades problems/softmax-cpu/submissions/cheat/types-into-the-terminal.cpp (pushes
# " echo pwned > /tmp/hpcjudge-proof-$UID" into the terminal's input with TIOCSTI, for the shell to run after the
# judge) and writes-to-the-terminal.cpp (writes escape sequences with "hpcjudge-pwned" to /dev/tty and every
# /dev/pts/N it can open), with and without --sandbox (where bubblewrap can start), then both in judge batch (with
# the sandbox where it can start, else without it as root; an ordinary user's batch requires it), then exits.
# Nothing typed may have run (no /tmp/hpcjudge-proof-*), and the typescript may hold no escape sequence but the
# judge's own (with NO_COLOR: the progress line's erase, ESC [K). As root, and as an ordinary user the test creates
# (where the judge can be reached by another user); run as an ordinary user, as that user.
#   terminal_test.sh JUDGE
set -u
command -v script >/dev/null || { echo "skipped: script(1) is not installed (util-linux)"; exit 0; }
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cheats=$(cd "$here/../../problems/softmax-cpu/submissions/cheat" && pwd)
tmp=$(mktemp -d /var/tmp/hpcjudge-terminal-XXXXXX)
source "$here/checks.sh"
user=hpcjudge-term-$$
created=
cleanup() {
  [ -n "$created" ] && userdel "$user" 2>/dev/null
  rm -f /tmp/hpcjudge-proof-"$(id -u)" ${uid:+/tmp/hpcjudge-proof-$uid}
  [ -n "${HPCJUDGE_KEEP:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
chmod 755 "$tmp"

# send LINE RESULT ID: LINE typed into the shell, which writes RESULT.rc when it is done; then, once what the grade
# typed (if anything) has run, a proof file it made moved to RESULT.proof.
send() {
  echo "$1; echo \$? >$2.rc"
  for _ in $(seq 600); do [ -e "$2.rc" ] && break; sleep 0.5; done
  sleep 1
  mv "/tmp/hpcjudge-proof-$3" "$2.proof" 2>/dev/null
}

# feed D ID BATCH: the session's lines: each grade, the batch (BATCH: its option, or "none"), exit.
feed() {
  local d=$1 id=$2 batch=$3
  for s in "" $sandbox; do
    for f in types-into-the-terminal writes-to-the-terminal; do
      send "timeout -k 10 240 $judge softmax-cpu $d/$f.cpp --no-bench $s --json $d/$f$s.json" "$d/$f$s" "$id"
    done
  done
  [ "$batch" = none ] ||
    send "timeout -k 10 240 $judge batch $d/class --out $d/results --no-bench $batch" "$d/batch" "$id"
  echo "echo shell-done >$d/done"
  sleep 1
  echo exit
}

# shell_session NAME UID [RUNAS...]: an interactive bash under script(1) as RUNAS's user, fed line by line through
# a FIFO (feed). Writes $tmp/NAME/typescript.
shell_session() {
  local name=$1 id=$2; shift 2
  local d=$tmp/$name batch=
  sandbox=--sandbox
  if ! "$@" bwrap --ro-bind / / --unshare-pid --new-session true 2>/dev/null; then
    sandbox= batch=none
    [ "$(id -u)" = 0 -a $# -eq 0 ] && batch=--no-sandbox
    echo "$name: skip the sandbox's grades: bubblewrap cannot start here"
  fi
  mkdir -p "$d/cache" "$d/class/1-types" "$d/class/2-writes"
  cp "$cheats/types-into-the-terminal.cpp" "$cheats/writes-to-the-terminal.cpp" "$d/"
  cp "$cheats/types-into-the-terminal.cpp" "$d/class/1-types/softmax-cpu.cpp"
  cp "$cheats/writes-to-the-terminal.cpp" "$d/class/2-writes/softmax-cpu.cpp"
  mkfifo "$d/input"
  [ $# -eq 0 ] || chown -R "$user" "$d"
  "$@" env -i PATH="$PATH" HOME="$d" TERM=xterm NO_COLOR=1 HPCJUDGE_CACHE="$d/cache" PS1='$ ' \
    script -qfec 'bash --norc --noprofile --noediting -i' "$d/typescript" <"$d/input" >"$d/script.out" 2>&1 &
  local shell=$!
  feed "$d" "$id" "$batch" >"$d/input"
  wait $shell
  echo "$name: script exit $?"
}

# check_session NAME UID: what must hold after a session (its $sandbox as shell_session set it).
check_session() {
  local name=$1 id=$2 d=$tmp/$1
  check "$name: the shell ran to its end" test -e "$d/done"
  check "$name: nothing typed into the shell ran (no /tmp/hpcjudge-proof-$id)" test ! -e "/tmp/hpcjudge-proof-$id"
  for s in "" $sandbox; do
    local t=$d/types-into-the-terminal$s w=$d/writes-to-the-terminal$s
    check "$name: nothing typed while types-into-the-terminal ${s:-(no sandbox)} was graded ran" test ! -e "$t.proof"
    check "$name: nothing typed while writes-to-the-terminal ${s:-(no sandbox)} was graded ran" test ! -e "$w.proof"
    check "$name: types-into-the-terminal ${s:-(no sandbox)} is RE, a system call no submission may make" \
      bash -c "test \"\$(cat '$t.rc')\" = 1 && grep -q '\"verdict\": \"RE\"' '$t.json' &&
               grep -q 'a system call no submission may make' '$t.json'"
    check "$name: writes-to-the-terminal ${s:-(no sandbox)} is AC (it opened no terminal)" \
      bash -c "test \"\$(cat '$w.rc')\" = 0 && grep -q '\"verdict\": \"AC\"' '$w.json'"
  done
  if [ -e "$d/batch.rc" ]; then
    check "$name: nothing typed while the batch graded ran" test ! -e "$d/batch.proof"
    local by_name='" ".join(p["results"]["softmax-cpu"]["verdict"]
                            for p in sorted(j["participants"], key=lambda p: p["name"]))'
    check "$name: the batch's leaderboard has types-into-the-terminal RE, writes-to-the-terminal AC" \
      test "$(field "$d/results/leaderboard.json" "$by_name")" = "RE AC"
  else
    echo "$name: skip the batch: bubblewrap cannot start, and without it an ordinary user's batch is refused"
  fi
  check "$name: the typescript has nothing the submission wrote to the terminal" \
    bash -c "! grep -q hpcjudge-pwned '$d/typescript'"
  check "$name: the typescript has no escape sequence but the judge's progress erase (ESC [K)" \
    bash -c "! sed 's/\x1b\[K//g' '$d/typescript' | grep -q \$'\x1b'"
}

rm -f /tmp/hpcjudge-proof-"$(id -u)"
shell_session "$(id -un)" "$(id -u)"
check_session "$(id -un)" "$(id -u)"
if [ "$(id -u)" = 0 ]; then
  if ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$judge"; then
    echo "skip the ordinary user: $judge cannot be reached by other users"
  elif useradd --system --no-create-home "$user" 2>/dev/null; then
    created=1
    uid=$(id -u "$user")
    rm -f "/tmp/hpcjudge-proof-$uid"
    shell_session user "$uid" runuser -u "$user" --
    check_session user "$uid"
  else
    echo "skip the ordinary user: useradd failed"
  fi
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
