// expect: CE
// Cheat on the compiler: #includes the environment of a process through /proc by a path that macros build (so no
// text search for "/proc" finds it), hoping to read the judge's secrets in the compile log. Must get CE naming the
// rule: the preprocessor's own list of the files it read is checked, wherever the path came from.
// hpcjudge-test: message=a submission may include only
// hpcjudge-test: log-lacks=PATH=
#define STR(x) #x
#define PATH(a, b, c) STR(a/b/c)
#include PATH(/proc, self, environ)

extern "C" void solve(const float*, float*, int) {}
