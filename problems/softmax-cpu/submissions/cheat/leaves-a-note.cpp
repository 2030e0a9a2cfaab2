// expect: AC
// Leaves a note for the next submission graded on the machine (issue 56, class 3): a small file named
// hpcjudge-note-for-the-next-runner in /dev/shm, /tmp and $TMPDIR, which finds-a-note.cpp looks for (without the
// sandbox, in judge batch --no-sandbox, the next participant read it from /dev/shm). Correct otherwise: AC. What
// stops the note: a runner's /dev/shm, /tmp and $TMPDIR are its own, and nothing it wrote there survives its grade
// (tests/cli/grader_machine_test.sh grades it, then finds-a-note, and looks for the note after each).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

void leave_notes() {
  const char* tmpdir = std::getenv("TMPDIR");
  for (const std::string dir : {"/dev/shm", "/tmp", tmpdir ? tmpdir : "/tmp"}) {
    const std::string path = dir + "/hpcjudge-note-for-the-next-runner";
    if (FILE* f = std::fopen(path.c_str(), "w")) {
      std::fprintf(f, "left by runner pid %d uid %d\n", getpid(), getuid());
      std::fclose(f);
      std::fprintf(stderr, "left %s\n", path.c_str());
    }
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool left = false;
  if (!left) {
    left = true;
    leave_notes();
  }
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
