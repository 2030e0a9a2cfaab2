// expect: AC
// Writes to the grader's terminal past the judge's capture of its output (issue 56, class 1): opens for writing its
// controlling terminal (/dev/tty), the console and every /dev/tty* and /dev/pts/N it can, and writes escape sequences
// (a window title, colours) with "hpcjudge-pwned" into each. Where any of them opened, it writes a wrong answer, so
// that the hole shows as WA. Stopped by: every process the judge starts is in a session of its own (/dev/tty is
// ENXIO), the sandbox's /dev has no terminal of the host's, and a runner confined by Landlock may open no terminal
// under /dev for writing. Must get AC. tests/cli/terminal_test.sh grades it under a real terminal.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::vector<std::string> terminals() {
  std::vector<std::string> names = {"/dev/tty", "/dev/console"};
  for (const std::string dir : {"/dev/", "/dev/pts/"}) {
    DIR* d = opendir(dir.c_str());
    if (!d) continue;
    while (const dirent* e = readdir(d)) {
      const bool tty = dir == "/dev/" && std::strncmp(e->d_name, "tty", 3) == 0 && e->d_name[3] != '\0';
      const bool pts = dir == "/dev/pts/" && e->d_name[0] >= '0' && e->d_name[0] <= '9';
      if (tty || pts) names.push_back(dir + e->d_name);
    }
    closedir(d);
  }
  return names;
}

// How many terminals opened for writing.
int write_to_terminals() {
  static const char kEscapes[] = "\033]0;hpcjudge-pwned\007\033[1;31mhpcjudge-pwned\033[0m\r\n";
  int opened = 0;
  for (const std::string& name : terminals()) {
    const int fd = open(name.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) continue;
    ++opened;
    std::fprintf(stderr, "opened %s for writing\n", name.c_str());
    if (write(fd, kEscapes, sizeof kEscapes - 1) < 0) std::perror(name.c_str());
    close(fd);
  }
  return opened;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static const int opened = write_to_terminals();
  float m = -INFINITY;
  for (int i = 0; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i)
    output[i] = opened ? 0.0f : static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
