#include "judge/paths.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <span>

#include "sdk/generators.h"
#include "judge/files.h"
#include "settings/settings.h"

namespace hpcjudge {

namespace {

// Whether this user may keep its cache at `dir`: a folder of its own, or none yet in a folder of its own (its own
// build). A shared install's cache is its owner's alone (compiled libraries and reference answers: docs/design.md,
// "Trust"), and another user's files there would be in the owner's way.
bool own_cache(const std::filesystem::path& dir) {
  struct stat st {};
  if (stat(dir.c_str(), &st) == 0) return st.st_uid == geteuid();
  return stat(dir.parent_path().c_str(), &st) == 0 && st.st_uid == geteuid();
}

// The cache of a user of another's install: $XDG_CACHE_HOME/hpcjudge, else ~/.cache/hpcjudge, closed to other
// users; where neither can be made (no home folder), a temporary one for this judge's run alone.
std::filesystem::path users_cache() {
  namespace fs = std::filesystem;
  fs::path base;
  const settings::Settings& env = settings::Settings::at_start();
  if (const auto x = env.get(settings::kXdgCacheHome); x && fs::path(*x).is_absolute()) base = *x;
  else if (const auto h = env.get(settings::kHome); h && fs::path(*h).is_absolute()) base = fs::path(*h) / ".cache";
  if (!base.empty()) {
    const fs::path dir = base / "hpcjudge";
    make_private_folder(dir);
    if (access(dir.c_str(), W_OK | X_OK) == 0 && own_cache(dir)) return dir;
  }
  static const TempDir per_run(std::filesystem::perms::owner_all);
  return per_run.path;
}

}  // namespace

Paths Paths::discover() {
  namespace fs = std::filesystem;
  Paths p;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  p.runner = exe.parent_path() / "hpcjudge-runner";
  p.judge = exe;
  p.root = HPCJUDGE_SOURCE_DIR;
  const settings::Settings& env = settings::Settings::at_start();
  if (const auto r = env.get(settings::kRoot)) p.root = *r;
  p.cache = exe.parent_path().parent_path() / "cache";
  if (const auto c = env.get(settings::kCache)) p.cache = *c;
  else if (!own_cache(p.cache)) p.cache = users_cache();
  p.reports = p.root / ".hpcjudge" / "reports";
  return p;
}

std::string hex_key(uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

std::string file_key(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) return "";
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return hex_key(gen::fnv1a(std::as_bytes(std::span(bytes.data(), bytes.size()))));
}

std::filesystem::path Paths::machine_cache_file(const std::string& name, const std::string& fingerprint) const {
  return cache / (name + "-" + hex_key(gen::fnv1a(std::as_bytes(std::span(fingerprint.data(), fingerprint.size())))) +
                  ".json");
}

void write_cache_file(const std::filesystem::path& file, const std::string& text) {
  write_aside(file, [&](std::ostream& out) { out << text; });
}

}  // namespace hpcjudge
