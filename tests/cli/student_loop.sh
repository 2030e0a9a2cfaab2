#!/usr/bin/env bash
# The student's loop (issue 57): a compile error names the file as the student typed it (a relative path kept,
# the line numbers right), never the judge's copy under /tmp, with g++, with nvcc where the judge has it, under
# CPU emulation, and from the compile cache (a file judged under another name); the same in the JSON report.
# Runs on a copy of problems/.
#   student_loop.sh JUDGE
set -u
judge=$(realpath "$1")
. "$(dirname "$0")/repo_copy.sh"
export NO_COLOR=1
cd "$work"
mkdir -p my/sub

# g++: the error's line 4, named as typed.
printf '#include <cmath>\nextern "C" void solve(const float* input, float* output, int N) {\n  for (int i = 0; i < N; ++i)\n    output[i] = input[i] +;\n}\n' >my/sub/bad.cpp
"$judge" softmax-cpu ./my/sub/bad.cpp --no-bench --json bad.json >out 2>&1
grep -q "^\./my/sub/bad\.cpp:4:[0-9]*: error: expected primary-expression" out || fail "g++ CE: $(head -5 out)"
grep -q "hpcjudge-" out && fail "g++ CE names the judge's copy: $(grep hpcjudge- out | head -2)"
grep -q "solution\.cpp" out && fail "g++ CE names solution.cpp: $(grep solution.cpp out | head -2)"
python3 - bad.json <<'EOF' || fail "the JSON report's compile log or message does not name ./my/sub/bad.cpp"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["verdict"] == "CE", j["verdict"]
assert j["compile"]["log"].startswith("./my/sub/bad.cpp: In function"), j["compile"]["log"][:200]
assert j["message"].startswith("./my/sub/bad.cpp:4:"), j["message"]
EOF

# A changed signature: the header named by the problem's own solve.h.
printf 'extern "C" void solve(float* input, float* output, int N) {}\n' >my/sig.cpp
"$judge" softmax-cpu my/sig.cpp --no-bench >out 2>&1
grep -q "^my/sig\.cpp:1:17: error: conflicting declaration" out || fail "signature CE: $(head -3 out)"
grep -q "problems/softmax-cpu/solve.h:[0-9]*:[0-9]*: note: previous declaration" out ||
  fail "the header is not named by problems/softmax-cpu/solve.h: $(grep note out)"

# The compile cache: a warning of a file that compiles, judged again under another name, names the new one.
printf '#include <cmath>\n#warning "a warning of its own, %s"\nextern "C" void solve(const float* input, float* output, int N) {\n  for (int i = 0; i < N; ++i) output[i] = 1.0f / N;\n}\n' "$RANDOM$$" >my/warn.cpp
"$judge" softmax-cpu my/warn.cpp --no-bench --json w1.json >/dev/null 2>&1
cp my/warn.cpp my/sub/again.cpp
"$judge" softmax-cpu my/sub/again.cpp --no-bench --json w2.json >/dev/null 2>&1
python3 - w1.json w2.json <<'EOF' || fail "a cached compile's log does not name the file judged"
import json, sys
for path, name in zip(sys.argv[1:], ["my/warn.cpp", "my/sub/again.cpp"]):
    c = json.load(open(path))["compile"]
    assert "hpcjudge-" not in c["log"] and "\x01" not in c["log"], c["log"][:300]
    assert c["log"].startswith(name + ":2:2: warning: #warning"), (path, c["log"][:200])
assert json.load(open(sys.argv[2]))["compile"]["cached"], "not from the cache"
EOF

# CUDA: under emulation (g++), and with nvcc where the judge has it.
printf 'extern "C" void solve(const float* A, const float* B, float* C, int N) {\n  int x = ;\n}\n' >my/sub/bad.cu
"$judge" vector-add my/sub/bad.cu --emulate --no-bench >out 2>&1
grep -q "^my/sub/bad\.cu:2:[0-9]*: error" out || fail "emulated CE: $(head -5 out)"
"$judge" vector-add my/sub/bad.cu --no-emulate --no-bench >out 2>&1
if grep -q "error" out; then
  grep -q "^my/sub/bad\.cu(2): error: expected an expression" out || fail "nvcc CE: $(head -5 out)"
  grep -q "hpcjudge-" out && fail "nvcc CE names the judge's copy: $(grep hpcjudge- out | head -2)"
else
  echo "no nvcc here: its CE not checked"
fi

[ $fails = 0 ] && echo "student loop: all checks passed"
[ $fails = 0 ]
