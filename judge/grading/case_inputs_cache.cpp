#include "judge/grading/case_inputs_cache.h"

#include <unistd.h>

#include <fstream>

#include "sdk/generators.h"
#include "judge/files.h"
#include "sdk/timing.h"
#include "judge/paths.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

fs::path cache_file(const Problem& p, const Case& c, uint64_t seed, const Buffers& bufs, const fs::path& cache) {
  std::string key = std::string(judge_version()) + '\0' + problem_version(p.info().slug) + '\0' + c.name + '\0' +
                    c.size_string() + '\0' + c.gen + '\0' + std::to_string(seed);
  for (const BufferView& v : bufs.all())
    if (v.spec->case_input()) key += '\0' + v.spec->name + ':' + std::to_string(v.spec->bytes());
  return cache / "inputs" / p.info().slug / (hex_key(gen::fnv1a(std::as_bytes(std::span(key.data(), key.size())))) + ".bin");
}

size_t per_case_bytes(const Buffers& bufs) {
  size_t n = 0;
  for (const BufferView& v : bufs.all())
    if (v.spec->case_input()) n += v.spec->bytes();
  return n;
}

bool load(const fs::path& f, const Buffers& bufs) {
  std::error_code ec;
  if (fs::file_size(f, ec) != per_case_bytes(bufs) || ec) return false;
  std::ifstream in(f, std::ios::binary);
  for (const BufferView& v : bufs.all())
    if (v.spec->case_input())
      in.read(reinterpret_cast<char*>(v.data), static_cast<std::streamsize>(v.spec->bytes()));
  return static_cast<bool>(in);
}

// Written aside and renamed (a full disk costs the cache, never the verdict).
void store(const fs::path& f, const Buffers& bufs) {
  write_aside(f, [&](std::ostream& out) {
    for (const BufferView& v : bufs.all())
      if (v.spec->case_input())
        out.write(reinterpret_cast<const char*>(v.data), static_cast<std::streamsize>(v.spec->bytes()));
  });
}

}  // namespace

void generate_case_inputs(const Problem& p, const Case& c, uint64_t seed, const Buffers& bufs, const fs::path& cache,
                          double worth_s) {
  if (cache.empty() || per_case_bytes(bufs) == 0) return p.generate_case(c, seed, bufs);
  const fs::path f = cache_file(p, c, seed, bufs, cache);
  if (load(f, bufs)) return;
  Stopwatch took;
  p.generate_case(c, seed, bufs);
  if (took.elapsed() >= worth_s) store(f, bufs);
}

}  // namespace hpcjudge
