// expect: RE
// Cheat on the machine, from a GPU problem: a fork bomb inside solve(). Must get RE and leave the machine usable.
// Run as root, the judge gives the runner a user id of its own and the groups of the GPU's device nodes, so the
// task limit (RLIMIT_NPROC: its threads plus 64) binds; at the time limit every process of that user is killed and
// the verdict names the fork bomb. So that a judge without the limit cannot take the machine down, this bomb stops
// itself at 2^11 processes; fewer than 100 in the message is the proof that the limit held.
// hpcjudge-test: message=(a fork bomb)
// hpcjudge-test: message-matches=started [0-9][0-9]? processes
#include <unistd.h>

extern "C" void solve(const float*, const float*, float*, int) {
    for (int i = 0; i < 11; ++i) fork();
    for (;;) pause();
}
