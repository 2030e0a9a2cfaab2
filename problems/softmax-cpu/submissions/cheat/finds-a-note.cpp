// expect: AC
// Looks for the note leaves-a-note.cpp leaves for the next submission (issue 56, class 3):
// hpcjudge-note-for-the-next-runner in /dev/shm, /tmp or $TMPDIR. Where it finds one, it writes a wrong answer, so
// that a note that survived a grade shows as WA; otherwise it is correct. Must get AC: a runner's /dev/shm, /tmp and
// $TMPDIR are its own, and nothing written there survives a grade (tests/cli/grader_machine_test.sh grades
// leaves-a-note.cpp, then this file, single and in judge batch).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

bool finds_a_note() {
  const char* tmpdir = std::getenv("TMPDIR");
  bool found = false;
  for (const std::string dir : {"/dev/shm", "/tmp", tmpdir ? tmpdir : "/tmp"}) {
    const std::string path = dir + "/hpcjudge-note-for-the-next-runner";
    if (access(path.c_str(), F_OK) == 0) {
      std::fprintf(stderr, "found %s\n", path.c_str());
      found = true;
    }
  }
  return found;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static const bool found = finds_a_note();
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i)
    output[i] = found ? 0.0f : static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
