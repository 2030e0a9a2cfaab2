// expect: RE
// Cheat on the machine: a fork bomb inside solve(). Must get RE and leave the machine usable: the runner's user may
// have only its threads plus 64 tasks (RLIMIT_NPROC; run as root, the judge gives the runner a user id of its own so
// the limit binds), so the bomb stops there, and at the time limit every process of that user is killed and the
// verdict names the fork bomb.
// hpcjudge-test: message=fork bomb
// hpcjudge-test: message-matches=started [0-9][0-9]? processes
#include <unistd.h>

extern "C" void solve(const float*, float*, int) {
    for (;;) fork();
}
