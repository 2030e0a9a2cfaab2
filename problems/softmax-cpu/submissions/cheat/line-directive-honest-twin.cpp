// expect: CE
// The honest twin of line-directive-clears-the-terminal.cpp: a #line directive (as a code generator writes one)
// naming the file in Chinese, and a typo after it. CE, the compiler's message printed with the name as it is:
// valid UTF-8 is shown unchanged (tests/cli/human_report.sh).
// hpcjudge-test: message=王小明的 softmax.cpp:2:
#include <cmath>

#line 1 "王小明的 softmax.cpp"
extern "C" void solve(const float* input, float* output, int N) {
  output[0] = input[0] not_a_declared_name;
}
