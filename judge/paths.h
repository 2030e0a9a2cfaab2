// Where the judge finds its pieces: the source tree (problems/),
// the runner binary beside the judge's own, and the cache of measurements.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>

namespace hpcjudge {

struct Paths {
  std::filesystem::path root;    // the repository
  std::filesystem::path runner;  // hpcjudge-runner
  std::filesystem::path judge;   // this judge's own executable (batch grades each file with it)
  std::filesystem::path reports; // the latest local report of each problem, for `judge pack`
  std::filesystem::path cache;   // cached scoring scales, per machine
  static Paths discover();
  std::filesystem::path problem_dir(const std::string& slug) const { return root / "problems" / slug; }
  // A measurement cached for one machine: <cache>/<name>-<hash of the fingerprint>.json.
  std::filesystem::path machine_cache_file(const std::string& name, const std::string& fingerprint) const;
};

// 16 hex digits of a 64-bit hash: the key in a cache file's name.
std::string hex_key(uint64_t hash);

// The hex_key of a file's bytes ("" when it cannot be read): what a report records of
// the file it graded, so `judge pack` can tell a report of another version of it.
std::string file_key(const std::filesystem::path& file);

// Writes a cached measurement: aside first, then renamed into place, so two
// judges at work at once never leave half a file. A failure costs the cache only.
void write_cache_file(const std::filesystem::path& file, const std::string& text);

}  // namespace hpcjudge
