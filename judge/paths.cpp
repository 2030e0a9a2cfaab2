#include "judge/paths.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <span>

#include "harness/generators.h"
#include "judge/files.h"

namespace hpcjudge {

Paths Paths::discover() {
  namespace fs = std::filesystem;
  Paths p;
  const fs::path exe = fs::read_symlink("/proc/self/exe");
  p.runner = exe.parent_path() / "hpcjudge-runner";
  p.judge = exe;
  p.root = HPCJUDGE_SOURCE_DIR;
  if (const char* r = std::getenv("HPCJUDGE_ROOT")) p.root = r;
  p.cache = exe.parent_path().parent_path() / "cache";
  if (const char* c = std::getenv("HPCJUDGE_CACHE")) p.cache = c;
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
