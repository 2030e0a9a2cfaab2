// expect: CE
// Cheat on the assembler, under --sandbox, run as root: inline assembly `.incbin`s a file only root may read into the
// library, and solve() prints it, so it would come back in the report's output. The preprocessor never sees that
// file. Must get CE naming the rule: the assembler's list of what it read (--MD) is checked too, and the sandboxed
// compiler runs as a user of its own that cannot read the file anyway.
// hpcjudge-test: args=--sandbox
// hpcjudge-test: message=/etc/shadow
// hpcjudge-test: log-lacks=root:
#include <cstdio>

asm(".section .rodata\n.global stolen\nstolen:\n.incbin \"/etc/shadow\"\n.byte 0\n.text\n");
extern "C" const char stolen[];

extern "C" void solve(const float*, float* output, int N) {
  std::puts(stolen);
  for (int i = 0; i < N; ++i) output[i] = 1.0f / N;
}
