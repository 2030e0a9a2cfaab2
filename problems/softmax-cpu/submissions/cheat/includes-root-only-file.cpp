// expect: CE
// Cheat on the compiler: #includes a file only root may read, hoping its lines come back in the compile log (and
// from there in the report and the leaderboard) as the compiler quotes what it cannot parse. Must get CE naming the
// rule, and the log must hold nothing of the file: every file the preprocessor read is checked before its output is
// kept (run as an ordinary user, the compiler cannot even open it: CE all the same).
// hpcjudge-test: message=/etc/shadow
// hpcjudge-test: log-lacks=root:
#include "/etc/shadow"

extern "C" void solve(const float*, float*, int) {}
