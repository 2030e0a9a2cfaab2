#!/usr/bin/env bash
# The secret seed is never the submission's to read (problems/softmax-cpu/submissions/cheat/reads-the-seed-file.cpp:
# the seed file named on any process's command line, by a path relative to its folder or where it is known to be
# (Gradescope's path in the file, this test's seed file here), and
# the seed in any process's environment; where it reads one it writes a wrong answer). Graded with a seed file
# every user may read (0644), as Gradescope's run_autograder does: as root and as an ordinary user (one the test
# creates, as root), each with and without --sandbox (where bubblewrap is installed), one file and in a batch.
# Without the sandbox the seed file is hidden by Landlock (runner/confine.h): where the kernel has none, those
# grades are skipped and the judge's warning is checked instead.
#   secret_seed_test.sh JUDGE
set -u
judge=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
cheat=$here/../../problems/softmax-cpu/submissions/cheat/reads-the-seed-file.cpp
# Not under /tmp, which the sandbox replaces with a private one (as Gradescope's /autograder/source/seed is not).
tmp=$(mktemp -d -p /var/tmp)
source "$here/checks.sh"
landlock=$("$(dirname "$judge")/hpcjudge-runner" --landlock)
sandboxes=("")
command -v bwrap >/dev/null && sandboxes+=(--sandbox) || echo "skip --sandbox: bubblewrap is not installed"

# grade WHO LABEL RUN...: the cheat graded alone and in a batch of one participant, both AC, the seed in no
# report and nothing said of reading it. RUN runs a command as WHO.
grade() {
  local who=$1 label=$2; shift 2
  local dir=$tmp/$who
  "$@" "$judge" softmax-cpu "$dir/cheat.cpp" --no-bench --seed-file "$dir/seed" $label --json "$dir/one$label.json" \
    >"$dir/one$label.out" 2>&1
  echo "$who ${label:-(no sandbox)}, one file: $(field "$dir/one$label.json" 'j["verdict"], j["message"][:120]' 2>&1)"
  check "$who ${label:-(no sandbox)}, one file: AC, the seed read nowhere" bash -c \
    "grep -q '\"verdict\": \"AC\"' '$dir/one$label.json' && ! grep -rq 'read the secret seed\|987654321' '$dir/one$label.json' '$dir/one$label.out'"
  local batch_flags=()
  [ -z "$label" ] && batch_flags=(--no-sandbox) && [ "$who" != root ] && batch_flags+=(--unsafe-no-isolation)
  "$@" "$judge" batch "$dir/class" --out "$dir/results$label" --no-bench --seed-file "$dir/seed" \
    "${batch_flags[@]}" >"$dir/batch$label.out" 2>&1
  local report=$dir/results$label/mallory/softmax-cpu.json
  echo "$who ${label:-(no sandbox)}, batch: $(field "$report" 'j["verdict"], j["message"][:120]' 2>&1)"
  check "$who ${label:-(no sandbox)}, batch: AC, the seed read nowhere" bash -c \
    "grep -q '\"verdict\": \"AC\"' '$report' && ! grep -rq 'read the secret seed\|987654321' '$dir/results$label' '$dir/batch$label.out'"
}

# setup DIR: the cheat, a class of one participant with it, and a seed file every user may read.
setup() {
  mkdir -p "$1/class/mallory"
  sed "s|/autograder/source/seed|$1/seed|" "$cheat" >"$1/cheat.cpp"
  cp "$1/cheat.cpp" "$1/class/mallory/softmax-cpu.cpp"
  echo 987654321 >"$1/seed" && chmod 644 "$1/seed"
}

# As root (the test's user made first: ordinary_user exits 0, skipped, where the judge cannot be reached by another
# user), then as that user; as an ordinary user, as that user alone.
if [ "$(id -u)" = 0 ]; then
  ordinary_user "$judge"
  whos=(root user)
else
  trap 'rm -rf "$tmp"' EXIT
  whos=(user)
fi
as_root() { "$@"; }
for who in "${whos[@]}"; do mkdir -p "$tmp/$who" && setup "$tmp/$who"; done
[ "$(id -u)" = 0 ] && give_tmp && chown -R root "$tmp/root"
for who in "${whos[@]}"; do
  run=as_user
  [ "$who" = root ] && run=as_root
  for s in "${sandboxes[@]}"; do
    if [ -z "$s" ] && [ "$landlock" -lt 1 ]; then
      $run "$judge" softmax-cpu "$tmp/$who/cheat.cpp" --no-bench --seed-file "$tmp/$who/seed" >"$tmp/$who/warned.out" 2>&1
      check "$who, no Landlock: the judge warns that the seed file is within the submission's reach" \
        grep -q "warning: .*seed" "$tmp/$who/warned.out"
      echo "skip $who without the sandbox: this kernel has no Landlock"
      continue
    fi
    grade "$who" "$s" $run
  done
done
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
