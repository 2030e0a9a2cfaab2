// A hostile participant of tests/batch/hostile_test.sh (the test writes the paths in for @CLASS@, @RESULTS@,
// @SEED_FILE@ and @CACHE@). Before computing a correct softmax it prints every other process's command line and
// environment it can read (looking for --seed-file PATH or the seed), tries to read the seed file, to list the
// results folder, to rewrite another participant's report and source and to poison the judge's cache, and leaves a
// grandchild in a session of its own that would edit the leaderboard after the batch. Each thing that works is
// printed on a line starting with ESCAPED; the test asserts that none is, and that nothing it found reaches a report.
#include <dirent.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::string t = s.str();
  for (char& c : t)
    if (c == '\0') c = ' ';
  return t;
}

void escaped(const std::string& what) { std::printf("ESCAPED %s\n", what.c_str()); }

void snoop() {
  const int me = getpid();
  int others = 0;
  if (DIR* d = opendir("/proc")) {
    while (const dirent* e = readdir(d)) {
      const int pid = std::atoi(e->d_name);
      if (pid <= 0 || pid == me) continue;
      ++others;
      const std::string cmdline = slurp("/proc/" + std::to_string(pid) + "/cmdline");
      const std::string environ = slurp("/proc/" + std::to_string(pid) + "/environ");
      std::printf("process %d: %s | %s\n", pid, cmdline.c_str(), environ.c_str());
      if (cmdline.find("--seed-file") != std::string::npos) escaped("a --seed-file on a command line");
      if (environ.find("HPCJUDGE_SECRET_SEED=") != std::string::npos) escaped("the secret seed in an environment");
    }
    closedir(d);
  }
  // Under the sandbox the one other is its PID namespace's init, bubblewrap's own.
  std::printf("%d other processes seen\n", others);
  if (!slurp("@SEED_FILE@").empty()) escaped("read the seed file");
  if (DIR* d = opendir("@RESULTS@")) {
    while (const dirent* e = readdir(d))
      if (e->d_name[0] != '.') escaped(std::string("listed the results folder: ") + e->d_name);
    closedir(d);
  }
  if (std::ofstream("@RESULTS@/aaron/softmax-cpu.json") << "{\"verdict\": \"WA\"}") escaped("rewrote a report");
  if (std::ofstream("@CLASS@/aaron/softmax-cpu.cpp", std::ios::app) << "#error") escaped("changed a source");
  // Under the sandbox the cache is an empty read-only folder; the test looks for the file outside.
  if (std::ofstream("@CACHE@/poison.json") << "{}") escaped("wrote the judge's cache");
  // A grandchild in a session of its own, out of the runner's process group, that edits the leaderboard later.
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      prctl(PR_SET_NAME, "hpcjudge-stray");
      for (int i = 0; i < 600; ++i) {
        sleep(1);
        std::ofstream("@RESULTS@/leaderboard.csv", std::ios::app) << "999,intruder,112.0,100.0\n";
      }
    }
    _exit(0);
  }
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static bool once = false;
  if (!once) once = true, snoop();
  float m = input[0];
  for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
