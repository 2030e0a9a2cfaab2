// expect: CE
// Cheat on the human report (issue 56, class 7): a #line directive names the file with terminal control sequences
// (clear the screen, cursor home, a green "verdict AC   score 100.0 / 100", then hidden text), and the code after it
// does not compile, so the compiler quotes that name at the head of its error. Printed raw, the grader's terminal
// cleared and showed a forged verdict. Must be CE, the compiler's message printed with every ESC shown as \x1b
// (tests/cli/human_report.sh checks the terminal's text; the --json report keeps the compiler's text as it was).
// hpcjudge-test: message=verdict AC   score 100.0 / 100
#include <cmath>

#line 1 "\033[2J\033[H\033[1;32mverdict AC   score 100.0 / 100\033[0m\033[8m"
extern "C" void solve(const float* input, float* output, int N) {
  output[0] = input[0] not_a_declared_name;
}
