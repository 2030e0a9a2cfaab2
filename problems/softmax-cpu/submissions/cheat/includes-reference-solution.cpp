// expect: CE
// Cheat on the compiler: instead of writing a solution, #includes the fast reference solution from the repository
// (by a path relative to where the tests keep this file; a student would guess the repository's path the same way),
// hoping to be graded as fast as the reference. Must get CE under --sandbox: the compiler runs in the sandbox on a
// copy of the file, and the solutions are hidden there, so the include is not found. (Without the sandbox it compiles:
// grade classes with `judge batch`, which sandboxes by default.)
// hpcjudge-test: args=--sandbox
// hpcjudge-test: message=fast.cpp
#include "../../../../problems/softmax-cpu/solutions/fast.cpp"
