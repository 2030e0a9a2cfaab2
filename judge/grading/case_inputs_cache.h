// A case's per-case inputs (a matrix, a graph) kept on disk where they are slow to generate: R-MAT's of 2^21 and
// 2^22 vertices took 2.1 and 2.7 s on the H200's host and 6.4 and 17.1 s on the 2-core VM, in every grade (and
// in every submission of a class, graded one after another). Where generating them took kWorthCachingS or
// more, their bytes are stored under <cache>/inputs/<slug>/, keyed by the judge's and the problem's versions,
// the case (name, sizes, generator), the seed and every per-case buffer's name and size: a changed generator,
// case or seed is never served another's inputs. Written aside and renamed into place (a judge at work beside
// reads the old file or the new one), read only where its size is exactly the buffers'; the cache folder is
// hidden from submissions by the sandbox, as the reference cache is (judge/grading/reference_cache.h).
#pragma once
#include <filesystem>

#include "sdk/problem.h"

namespace hpcjudge {

inline constexpr double kWorthCachingS = 0.25;

// p.generate_case(c, seed, bufs), or its bytes from `cache` (an empty path: no cache); stored there when
// generating them took `worth_s` or more.
void generate_case_inputs(const Problem& p, const Case& c, uint64_t seed, const Buffers& bufs,
                          const std::filesystem::path& cache, double worth_s = kWorthCachingS);

}  // namespace hpcjudge
