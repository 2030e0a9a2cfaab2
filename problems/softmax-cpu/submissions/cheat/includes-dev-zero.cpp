// expect: CE
// Cheat on the compiler: #includes /dev/zero, an endless file. Unlimited, the preprocessor grows by hundreds of MB a
// second until the machine runs out of memory, and outlives a judge that is killed. Must end quickly as CE: the
// dependency pass runs under a 1 GiB memory limit, dies with the judge and is reaped.
// hpcjudge-test: message=preprocessor
#include "/dev/zero"

extern "C" void solve(const float*, float*, int) {}
