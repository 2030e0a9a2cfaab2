#!/usr/bin/env bash
# A hostile class folder (issue 15): files that are not the participant's own regular file, names made to break a
# spreadsheet, a page, a Markdown table, the results folder and Slurm, and participants that snoop for the secret
# seed, rewrite others' reports and leave processes behind (tests/batch/hostile/). Graded as root, then (where
# bubblewrap is installed) as an ordinary user the test creates, under the sandbox; and as that user without it.
#   hostile_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
honest=$repo/problems/softmax-cpu/solutions/baseline.cpp
tmp=$(mktemp -d)
user=hpcjudge-hostile-$$
cleanup() {
  pkill -KILL -x hpcjudge-burner 2>/dev/null; pkill -KILL -x hpcjudge-stray 2>/dev/null
  userdel "$user" 2>/dev/null
  [ -n "${keep:-}" ] || rm -rf "$tmp"
}
trap cleanup EXIT
keep=${HPCJUDGE_KEEP:-}
chmod 755 "$tmp"
passes=0 fails=0
check() {  # NAME COMMAND...
  local name=$1; shift
  if "$@" >"$tmp/check.out" 2>&1; then echo "ok   $name"; passes=$((passes + 1));
  else echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fails=$((fails + 1)); fi
}
newline_name=$'two\nlines' escape_name=$'clear\033[2Jscreen\x9b'
hostile_names=('=HYPERLINK("x.invalid","click")' '+cmd|calc' '@SUM(1+1)' '-2+3' '<img src=x onerror=alert(1)>'
               "$newline_name" '| md | cell' 'slurm' 'leaderboard.json' "$escape_name")

# make_class DIR RESULTS SEED_FILE CACHE: the class, with snoop.cpp's paths written in.
make_class() {
  local class=$1 results=$2 seed=$3 cache=$4
  mkdir -p "$class"/{aaron,alice,bob,carol,dave,snoop,burner,zed,deep}
  cp "$honest" "$class/aaron/softmax-cpu.cpp"
  cp "$honest" "$class/zed/softmax-cpu.cpp"
  ln -s "$repo/problems/softmax-cpu/solutions/fast.cpp" "$class/alice/softmax-cpu.cpp"  # row 1
  ln -s /etc/shadow "$class/bob/softmax-cpu.cpp"                                         # row 2
  mkfifo "$class/carol/softmax-cpu.cpp"                                                  # row 5
  cp "$honest" "$class/outside.cpp" && ln "$class/outside.cpp" "$class/dave/softmax-cpu.cpp"  # a hard link
  sed -e "s|@CLASS@|$class|g" -e "s|@RESULTS@|$results|g" -e "s|@SEED_FILE@|$seed|g" -e "s|@CACHE@|$cache|g" \
      "$here/hostile/snoop.cpp" >"$class/snoop/softmax-cpu.cpp"                          # rows 7, 9
  cp "$here/hostile/burner.cpp" "$class/burner/softmax-cpu.cpp"                          # row 8
  # Issue 56 class 2: a pack manifest under 1 MiB nesting arrays 250,000 deep under judge_version.
  cp "$honest" "$class/deep/softmax-cpu.cpp"
  python3 -c 'import sys; sys.stdout.write("{\"files\": [], \"judge_version\": %s}" % ("[" * 250000 + "]" * 250000))' >"$class/deep/manifest.json"
  for n in "${hostile_names[@]}"; do mkdir -p "$class/$n" && cp "$honest" "$class/$n/softmax-cpu.cpp"; done  # 10, 11
  # Hidden: a participant's folder and file, said in a warning and the leaderboard; a .git folder, passed over.
  mkdir -p "$class/.mallory" "$class/.git" && cp "$honest" "$class/.mallory/softmax-cpu.cpp" && touch "$class/.git/HEAD"
  cp "$honest" "$class/aaron/.softmax-cpu.cpp"
}

verdict_of() { grep -o '"verdict": "[A-Z]*"' "$1" | head -1 | cut -d'"' -f4; }
export -f verdict_of

# assert_class RESULTS SEED_FILE LABEL CACHE: what must hold of a graded hostile class.
assert_class() {
  local r=$1 seed=$2 l=$3 cache=$4
  check "$l: all four leaderboard files" test -s "$r/leaderboard.csv" -a -s "$r/leaderboard.md" -a -s "$r/leaderboard.html" -a -s "$r/leaderboard.json"
  check "$l: row 1, a symlink to a fast reference is not graded" bash -c "grep -q 'symbolic link' '$r/alice/softmax-cpu.json' && test \"\$(grep -o '\"total\": [0-9.]*' '$r/alice/softmax-cpu.json' | head -1)\" = '\"total\": 0.0'"
  check "$l: row 2, a symlink to /etc/shadow is not read" bash -c "grep -q 'symbolic link' '$r/bob/softmax-cpu.json' && ! grep -rq 'root:' '$r'"
  check "$l: row 5, a FIFO is refused" grep -q 'a FIFO' "$r/carol/softmax-cpu.json"
  check "$l: a hard link to a file outside is refused" grep -q 'hard link' "$r/dave/softmax-cpu.json"
  check "$l: the honest participants are AC" bash -c "test \"\$(verdict_of '$r/aaron/softmax-cpu.json')\" = AC && test \"\$(verdict_of '$r/zed/softmax-cpu.json')\" = AC" 
  check "$l: a manifest 250,000 deep costs its participant a note, not the batch a grade" bash -c "test \"\$(verdict_of '$r/deep/softmax-cpu.json')\" = AC && grep -q '| deep |.*pack: its manifest.json cannot be read' '$r/leaderboard.md'"
  for n in "${hostile_names[@]}"; do
    local folder=$n
    case $n in slurm|leaderboard.json) folder="$n (participant)" ;; esac
    check "$l: participant $(printf %q "$n") graded AC" bash -c "test \"\$(verdict_of \"\$1/\$2/softmax-cpu.json\")\" = AC" _ "$r" "$folder"
  done
  check "$l: slurm and leaderboard.json are listed" bash -c "grep -q '\"name\": \"slurm\"' '$r/leaderboard.json' && grep -q '\"name\": \"leaderboard.json\"' '$r/leaderboard.json'"
  check "$l: row 10, no CSV cell starts a formula" bash -c "! grep -Eq '(^|,)\"?[-=+@]' '$r/leaderboard.csv' && grep -q \"'=HYPERLINK\" '$r/leaderboard.csv'"
  check "$l: row 10, Markdown has no raw HTML and one line per row" bash -c "! grep -q '<img' '$r/leaderboard.md' && grep -q '&lt;img' '$r/leaderboard.md' && test \$(grep -c '^| [0-9]' '$r/leaderboard.md') -eq $((9 + ${#hostile_names[@]}))"
  check "$l: row 10, the page escapes the names" bash -c "! grep -q '<img src=x' '$r/leaderboard.html'"
  check "$l: a name's ESC is shown, not written, in every leaderboard file" bash -c "! grep -q \$'\\033' '$r'/leaderboard.* && grep -qF 'clear\x1b[2Jscreen\x9b' '$r/leaderboard.csv'"
  check "$l: rows 7 and 9, the snoop escaped nothing" bash -c "test -f '$r/snoop/softmax-cpu.json' && ! grep -q ESCAPED '$r/snoop/softmax-cpu.json' && test \"\$(verdict_of '$r/snoop/softmax-cpu.json')\" = AC"
  check "$l: row 9, the secret seed is in no report" bash -c "! grep -rq 987654321 '$r'"
  check "$l: row 7, the judge's cache was not poisoned" test ! -e "$cache/poison.json"
  sleep 2
  check "$l: row 7, no process edits the leaderboard after the batch" bash -c "! grep -q intruder '$r/leaderboard.csv' && ! pgrep -x hpcjudge-stray"
  check "$l: row 8, no CPU burner outlives the batch" bash -c "! pgrep -x hpcjudge-burner"
}

echo 987654321 >"$tmp/seed" && chmod 600 "$tmp/seed"

# As root (CI): each runner and compiler a user of its own, sandboxed where bubblewrap is installed.
mkdir -p "$tmp/cache"
make_class "$tmp/class" "$tmp/results" "$tmp/seed" "$tmp/cache"
HPCJUDGE_CACHE=$tmp/cache "$judge" batch "$tmp/class" --out "$tmp/results" --no-bench --seed-file "$tmp/seed" >"$tmp/root.out" 2>"$tmp/root.err"
rc=$?
check "root: the batch ends 0 whatever the class holds" test $rc -eq 0
check "root: the batch's own lines show a name's ESC, never send it" bash -c "! grep -q \$'\\033' '$tmp/root.out' '$tmp/root.err' && grep -qF 'clear\x1b[2Jscreen\x9b' '$tmp/root.out'"
check "root: refused files are named in warnings" bash -c "grep -q 'not graded:.*alice' '$tmp/root.err' && grep -q 'not graded:.*carol' '$tmp/root.err'"
check "root: a hidden participant folder and file are named, not graded; .git passed over quietly" bash -c "grep -q 'skipped .*/\.mallory: a hidden folder' '$tmp/root.err' && grep -q 'skipped .*/aaron/\.softmax-cpu.cpp: a hidden file' '$tmp/root.err' && ! grep -q '\.git' '$tmp/root.err' && grep -q '\.mallory' '$tmp/results/leaderboard.json' && ! test -e '$tmp/results/.mallory'"
assert_class "$tmp/results" "$tmp/seed" root "$tmp/cache"
if command -v bwrap >/dev/null; then
  check "root: under the sandbox the snoop saw no process but the sandbox's init" grep -q '[^0-9]1 other processes seen' "$tmp/results/snoop/softmax-cpu.json"
fi

# Row 4: an #include of /dev/zero ends quickly as CE, and a judge killed meanwhile leaves no compiler running.
mkdir -m 1777 "$tmp/tmpdir"
start=$(date +%s%N)
TMPDIR=$tmp/tmpdir "$judge" softmax-cpu "$repo/problems/softmax-cpu/submissions/cheat/includes-dev-zero.cpp" --no-bench >"$tmp/zero.out" 2>&1
rc=$?
took=$(( ($(date +%s%N) - start) / 1000000 ))
check "row 4: /dev/zero is CE within 10 s ($took ms)" bash -c "test $rc -eq 1 && grep -q '^verdict CE' '$tmp/zero.out' && test $took -lt 10000"
TMPDIR=$tmp/tmpdir "$judge" softmax-cpu "$repo/problems/softmax-cpu/submissions/cheat/includes-dev-zero.cpp" --no-bench >/dev/null 2>&1 &
judge_pid=$!
compiling=0
for _ in $(seq 100); do  # until the compiler is at work (a busy machine starts it late)
  compiling=$(pgrep -fc "$tmp/[t]mpdir/hpcjudge-")
  [ "$compiling" -gt 0 ] && break
  sleep 0.05
done
kill -KILL $judge_pid
wait $judge_pid 2>/dev/null
sleep 1
check "row 4: no compiler outlives a killed judge ($compiling compiling when it was killed)" bash -c "test $compiling -gt 0 && ! pgrep -f '$tmp/[t]mpdir/hpcjudge-'"

# Row 12: --slurm with a name holding a newline skips that participant, not the class (a stand-in sbatch records it).
mkdir -p "$tmp/bin"
printf '#!/bin/sh\necho 4242\n' >"$tmp/bin/sbatch" && chmod +x "$tmp/bin/sbatch"
PATH=$tmp/bin:$PATH "$judge" batch "$tmp/class" --out "$tmp/slurm-results" --slurm >"$tmp/slurm.out" 2>"$tmp/slurm.err"
rc=$?
check "row 12: --slurm submits the class" bash -c "test $rc -eq 0 && grep -q 'submitted job array 4242' '$tmp/slurm.out'"
check "row 12: the newline name is skipped with a warning" bash -c "grep -q 'skipped participant' '$tmp/slurm.err' && ! grep -qx 'two' '$tmp/slurm-results/slurm/participants.txt' && grep -qx 'zed' '$tmp/slurm-results/slurm/participants.txt' && grep -qx 'slurm' '$tmp/slurm-results/slurm/participants.txt'"

# As an ordinary user: the staff member grading on a cluster without root.
# Another user reaches the judge only where its folders let it (not in a checkout under /root, mode 0700).
if [ "$(id -u)" = 0 ] && ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$judge"; then
  echo "skipped as an ordinary user: $judge cannot be reached by other users"
elif [ "$(id -u)" = 0 ] && useradd --system --no-create-home "$user" 2>/dev/null; then
  as_user() { runuser -u "$user" -- env HPCJUDGE_CACHE="$tmp/user/cache" "$@"; }
  mkdir -p "$tmp/user/cache"
  make_class "$tmp/user/class" "$tmp/user/results" "$tmp/user/seed" "$tmp/user/cache"
  cp "$tmp/seed" "$tmp/user/seed"
  chown -R "$user" "$tmp/user"
  as_user "$judge" batch "$tmp/user/class" --out "$tmp/user/refused" --no-bench --no-sandbox >"$tmp/user.out" 2>"$tmp/user.err"
  rc=$?
  check "user: no sandbox, no root: batch refuses (exit 2, how to install bubblewrap)" bash -c "test $rc -eq 2 && grep -q 'apt-get install bubblewrap' '$tmp/user.err' && test \$(wc -l <'$tmp/user.err') -eq 1 && ! test -e '$tmp/user/refused/aaron'"
  as_user "$judge" batch "$tmp/user/class" --out "$tmp/user/unsafe" --participant zed --no-bench --no-sandbox --unsafe-no-isolation >/dev/null 2>&1
  check "user: --unsafe-no-isolation grades, and the report says so" grep -q '"isolation": "none' "$tmp/user/unsafe/zed/softmax-cpu.json"
  # The compiler's cheats, as that user, with and without the sandbox: CE, nothing of the file in the report.
  for cheat in includes-root-only-file includes-proc-environ includes-dev-zero incbin-root-only-file incbin-by-macros; do
    for sandbox in "" --sandbox; do
      [ -n "$sandbox" ] && ! command -v bwrap >/dev/null && continue
      cp "$repo/problems/softmax-cpu/submissions/cheat/$cheat.cpp" "$tmp/user/$cheat.cpp" && chown "$user" "$tmp/user/$cheat.cpp"
      as_user "$judge" softmax-cpu "$tmp/user/$cheat.cpp" --no-bench $sandbox --json "$tmp/user/$cheat$sandbox.json" >/dev/null 2>&1
      check "user: $cheat ${sandbox:-(no sandbox)} is CE with nothing read in the report" bash -c "test \"\$(verdict_of '$tmp/user/$cheat$sandbox.json')\" = CE && ! grep -q 'root:' '$tmp/user/$cheat$sandbox.json' && ! grep -q HPCJUDGE_CACHE= '$tmp/user/$cheat$sandbox.json'"
    done
  done
  if command -v bwrap >/dev/null; then
    as_user "$judge" batch "$tmp/user/class" --out "$tmp/user/results" --no-bench --seed-file "$tmp/user/seed" >"$tmp/user.out" 2>"$tmp/user.err"
    rc=$?
    check "user: the sandboxed batch ends 0" test $rc -eq 0
    assert_class "$tmp/user/results" "$tmp/user/seed" user "$tmp/user/cache"
    check "user: the snoop saw no process but the sandbox's init" grep -q '[^0-9]1 other processes seen' "$tmp/user/results/snoop/softmax-cpu.json"
  else
    echo "skip user sandbox: bubblewrap is not installed"
  fi
else
  echo "skip the ordinary user's part: not root, or useradd failed"
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
