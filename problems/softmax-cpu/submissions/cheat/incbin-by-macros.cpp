// expect: CE
// Cheat on the assembler without the sandbox: the `.incbin` directive and its path are both pasted together by the
// preprocessor and the assembler's string concatenation, so no search of the source for ".incbin" or a path finds
// them; solve() prints what was taken in. Must get CE naming the rule: the assembler's own dependency list names
// /etc/passwd, whatever built the directive.
// hpcjudge-test: message=/etc/passwd
// hpcjudge-test: log-lacks=root:x:0
#include <cstdio>

#define DOT "."
#define DIRECTIVE DOT "inc" "bin"
#define WHERE "\"/" "etc" "/pass" "wd\""
asm(".section .rodata\n.global stolen\nstolen:\n" DIRECTIVE " " WHERE "\n.byte 0\n.text\n");
extern "C" const char stolen[];

extern "C" void solve(const float*, float* output, int N) {
  std::puts(stolen);
  for (int i = 0; i < N; ++i) output[i] = 1.0f / N;
}
