// expect: AC
// Cheat on the secret seed: looks for it where a judge might leave it within a runner's reach. Every process's
// command line (/proc/PID/cmdline, readable by any user: the judge's `--seed-file PATH`, a batch's child judge's
// `--hide PATH`), such a path relative to that process's folder (/proc/PID/cwd), where the seed file is known to be
// (kKnownSeedFile: Gradescope's; tests/cli/secret_seed_test.sh writes its own in), and every process's environment
// (/proc/PID/environ: the seed a batch hands its child judges). If it reads a seed it says where (never the seed)
// and writes a wrong answer, so a hole shows as WA; otherwise it computes a correct softmax. The test grades it with
// a world-readable seed file, as root and as an ordinary user, with and without --sandbox, alone and in a batch;
// here, with the public seed and no seed file, it is AC.
#include <dirent.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

constexpr const char* kKnownSeedFile = "/autograder/source/seed";

std::string slurp(const std::string& path, size_t most = 1 << 16) {
  std::ifstream in(path, std::ios::binary);
  std::string s(most, '\0');
  in.read(s.data(), static_cast<std::streamsize>(most));
  s.resize(static_cast<size_t>(in.gcount()));
  return s;
}

std::vector<std::string> split_nul(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string a; std::getline(ss, a, '\0');) v.push_back(a);
  return v;
}

// A seed file read: a regular file's first line, a few bytes of text.
bool reads_a_seed(const std::string& path) {
  const std::string text = slurp(path, 4097);
  if (text.empty() || text.size() > 4096) return false;
  return std::isgraph(static_cast<unsigned char>(text[0])) != 0;
}

// Where the seed was read ("" where it was not).
std::string find_seed() {
  std::vector<std::string> candidates = {kKnownSeedFile};
  std::string found;
  if (DIR* d = opendir("/proc")) {
    while (const dirent* e = readdir(d)) {
      if (!std::isdigit(static_cast<unsigned char>(e->d_name[0]))) continue;
      const std::string proc = std::string("/proc/") + e->d_name;
      const std::vector<std::string> argv = split_nul(slurp(proc + "/cmdline"));
      for (size_t i = 0; i + 1 < argv.size(); ++i)
        if (argv[i] == "--seed-file" || argv[i] == "--hide") {
          candidates.push_back(argv[i + 1]);
          if (!argv[i + 1].empty() && argv[i + 1][0] != '/') candidates.push_back(proc + "/cwd/" + argv[i + 1]);
        } else if (argv[i].rfind("--seed-file=", 0) == 0) {
          candidates.push_back(argv[i].substr(12));
        }
      const std::string name = "HPCJUDGE_SECRET_SEED=";
      for (const std::string& v : split_nul(slurp(proc + "/environ")))
        if (v.rfind(name, 0) == 0 && v.size() > name.size() && std::isdigit(static_cast<unsigned char>(v[name.size()])))
          found = proc + "/environ";
    }
    closedir(d);
  }
  for (const std::string& c : candidates)
    if (found.empty() && reads_a_seed(c)) found = c;
  return found;
}

}  // namespace

extern "C" void solve(const float* input, float* output, int N) {
  static const std::string where = find_seed();
  if (!where.empty()) {
    static bool said = false;
    if (!said) said = true, std::printf("reads-the-seed-file: read the secret seed from %s\n", where.c_str());
    for (int i = 0; i < N; ++i) output[i] = 0;  // the hole shows as WA
    return;
  }
  float m = input[0];
  for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
  for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
}
