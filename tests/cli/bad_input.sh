#!/usr/bin/env bash
# Bad command lines and bad files: each must give one line on stderr and exit
# status 2, never a crash, a stack trace or a report.
#   bad_input.sh JUDGE
set -u
judge=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0 passes=0

expect_usage_error() {  # NAME PATTERN ARGS...
  local name=$1 pattern=$2
  shift 2
  "$judge" "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$? lines
  lines=$(wc -l <"$tmp/err")
  if [ $rc -ne 2 ] || [ "$lines" -ne 1 ] || ! grep -q -- "$pattern" "$tmp/err" || [ -s "$tmp/out" ]; then
    echo "FAIL $name: exit $rc, $lines stderr line(s):"; cat "$tmp/err" "$tmp/out"
    fails=$((fails + 1))
  else
    echo "ok   $name: $(cat "$tmp/err")"
    passes=$((passes + 1))
  fi
}

good=$(dirname "$0")/../../problems/softmax-cpu/solutions/baseline.cpp
: >"$tmp/empty.cpp"
mkdir "$tmp/dir.cpp"
cp "$good" "$tmp/unreadable.cpp" && chmod 000 "$tmp/unreadable.cpp"
cp "$good" "$tmp/solution.cu"

expect_usage_error "unknown slug"          "did you mean softmax-cpu?"    sofmax-cpu "$good"
expect_usage_error "a slug's first part"   "unknown problem 'softmax'; did you mean softmax-cpu or softmax-gpu?" softmax "$good"
expect_usage_error "a slug, no dash"       "did you mean vector-add?"     vectoradd
expect_usage_error "unknown slug, far off" "unknown problem 'zzz'"        zzz
expect_usage_error "missing file"          "no such file"                 softmax-cpu "$tmp/missing.cpp"
expect_usage_error "directory as file"     "is a directory"               softmax-cpu "$tmp/dir.cpp"
expect_usage_error "empty file"            "is empty"                     softmax-cpu "$tmp/empty.cpp"
expect_usage_error "wrong language"        "takes a C++ file"             softmax-cpu "$tmp/solution.cu"
expect_usage_error "unwritable --json"     "cannot write the report"      softmax-cpu "$good" --json /nonexistent-dir/r.json
expect_usage_error "unknown option"        "--frobnicate"                 softmax-cpu "$good" --frobnicate
expect_usage_error "misspelt option"       "unknown option '--threds'; did you mean --threads?" softmax-cpu "$good" --threds 2
expect_usage_error "misspelt option, ="    "unknown option '--no-bnech'; did you mean --no-bench?" softmax-cpu "$good" --no-bnech=1
expect_usage_error "misspelt batch option" "unknown option '--slrum'; did you mean --slurm?" batch "$tmp" --slrum
expect_usage_error "misspelt profile option" "unknown option '--cas'; did you mean --case?" profile softmax-cpu "$good" --cas n1M
expect_usage_error "bad seed"              "seed"                         softmax-cpu "$good" --seed banana
expect_usage_error "no slug"               "slug"
# Hostile files: only a regular file is read, a FIFO never opened for a wait, a device never read.
mkfifo "$tmp/fifo.cpp" "$tmp/seed.fifo"
ln -s /dev/zero "$tmp/zero.cpp"
head -c 10000 /dev/urandom | od -An -tx1 >"$tmp/big-seed"
mkdir "$tmp/report-dir"
expect_usage_error "a FIFO as FILE"        "is a FIFO"                    softmax-cpu "$tmp/fifo.cpp"
expect_usage_error "a link to /dev/zero"   "is a device"                  softmax-cpu "$tmp/zero.cpp"
expect_usage_error "--seed-file a FIFO"    "is a FIFO"                    softmax-cpu "$good" --seed-file "$tmp/seed.fifo"
expect_usage_error "--seed-file /dev/zero" "is a device"                  softmax-cpu "$good" --seed-file /dev/zero
expect_usage_error "--seed-file too large" "at most 4096"                 softmax-cpu "$good" --seed-file "$tmp/big-seed"
expect_usage_error "--json /dev/full"      "cannot write the report"      softmax-cpu "$good" --json /dev/full
expect_usage_error "--json a folder"       "cannot write the report"      softmax-cpu "$good" --json "$tmp/report-dir"
# Values in range: no negative seed, no overflow, threads and devices that can exist.
expect_usage_error "negative seed"         "whole number from 0"          softmax-cpu "$good" --seed -1
expect_usage_error "seed past 2^64"        "whole number from 0"          softmax-cpu "$good" --seed 99999999999999999999999
expect_usage_error "seed and seed file"    "give one of them"             softmax-cpu "$good" --seed 1 --seed-file "$tmp/big-seed"
expect_usage_error "zero threads"          "threads"                      softmax-cpu "$good" --threads 0
expect_usage_error "negative threads"      "threads"                      softmax-cpu "$good" --threads -4
expect_usage_error "negative device"       "device"                       softmax-cpu "$good" --device -1
expect_usage_error "device out of range"   "device"                       softmax-cpu "$good" --device 99999
expect_usage_error "list: bad device"      "device"                       list --device -1
expect_usage_error "bench: zero threads"   "threads"                      bench softmax-cpu --threads 0
expect_usage_error "batch: negative seed"  "whole number from 0"          batch "$tmp" --seed -1
if [ "$(id -u)" != 0 ]; then  # root reads any file
  expect_usage_error "unreadable file"     "cannot be read"               softmax-cpu "$tmp/unreadable.cpp"
else
  # Another user's link leads where that user chose (a file only root reads, whose lines a compile error would
  # print): never followed (judge/files.h, unfollowed_link).
  printf 'root only: do not print\n' >"$tmp/root-only.cpp" && chmod 600 "$tmp/root-only.cpp"
  ln -s "$tmp/root-only.cpp" "$tmp/their-link.cpp" && chown -h 65534:65534 "$tmp/their-link.cpp"
  expect_usage_error "another user's link"  "a symbolic link of user 65534's" softmax-cpu "$tmp/their-link.cpp"
  ! grep -q "do not print" "$tmp/err" "$tmp/out" || { echo "FAIL another user's link: the file was read"; fails=$((fails + 1)); }
  # Root's own link, to a file that others may not read (/etc/shadow's mode): not followed either.
  ln -s "$tmp/root-only.cpp" "$tmp/root-link.cpp"
  expect_usage_error "root's link to a 0600 file" "only its owner and group may read" softmax-cpu "$tmp/root-link.cpp"
  ! grep -q "do not print" "$tmp/err" "$tmp/out" || { echo "FAIL root's link: the file was read"; fails=$((fails + 1)); }
fi

# Started with standard input, output and error closed (a job without them): graded as with them, the report
# written where --json says.
"$judge" softmax-cpu "$good" --no-bench --json "$tmp/closed.json" <&- >&- 2>&-
if grep -q '"verdict": "AC"' "$tmp/closed.json" 2>/dev/null; then
  echo "ok   standard input, output and error closed: AC"; passes=$((passes + 1))
else
  echo "FAIL standard input, output and error closed:"; cat "$tmp/closed.json" 2>/dev/null | head -20
  fails=$((fails + 1))
fi

# Help is not an error.
if "$judge" --help >"$tmp/out" 2>&1 && grep -q "judge list" "$tmp/out"; then
  echo "ok   --help"; passes=$((passes + 1))
else
  echo "FAIL --help"; fails=$((fails + 1))
fi
echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
