// expect: WA
// Cheat on the shared memory: a runner that truncates the file holding the buffers (its fd 4) would have the judge's
// next read of it end in SIGBUS, a crash of the judge (FAIL, the judge's fault). The file is sealed against
// shrinking: the truncation fails (EPERM), the judge reads its buffers as they are and writes its report. This
// solution computes nothing after its attempt, so its outputs are still the judge's NaN sentinels: WA.
// hpcjudge-test: message=expected
#include <unistd.h>

extern "C" void solve(const float*, float*, int) { ftruncate(4, 0); }
