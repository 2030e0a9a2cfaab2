#!/bin/bash
# Issue 58, the grading part's moves: a verdict's cause in judge/verdicts/, the timing rules in judge/timing/.
# Re-runnable: a move already made is skipped; every path string naming a moved file is rewritten in the
# product's code, tests and build files (not docs/: the docs helper's).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

move() {  # old new
  if [ -e "$1" ]; then mkdir -p "$(dirname "$2")"; git mv "$1" "$2"; fi
  local files
  files=$(git grep -l -F "$1" -- '*.h' '*.cpp' '*.cu' '*.cuh' '*.cmake' '*.sh' '*.py' 'CMakeLists.txt' '*/CMakeLists.txt' \
          ':!docs' ':!lab/moves' || true)
  for f in $files; do sed -i "s#$1#$2#g" "$f"; done
}

move judge/grading/verdict.h judge/verdicts/verdict.h
move judge/grading/verdict.cpp judge/verdicts/verdict.cpp
move judge/grading/score.h judge/timing/score.h
move judge/grading/score.cpp judge/timing/score.cpp
move judge/grading/rivals.h judge/timing/rivals.h
move judge/grading/rivals.cpp judge/timing/rivals.cpp
move judge/machine/wake_latency.h judge/timing/wake_latency.h
move judge/machine/wake_latency.cpp judge/timing/wake_latency.cpp
