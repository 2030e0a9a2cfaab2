// Reference answers kept on disk, for problems whose reference is slow
// (ProblemInfo::cache_reference): attention at N = 16,384 takes tens of
// seconds in double. The key is the problem, the case's sizes and a hash of
// every input byte, so a changed seed, generator or case can never be served
// a stale answer. Files live under the cache folder, which the sandbox hides.
#pragma once
#include "sdk/problem.h"
#include "judge/paths.h"

namespace hpcjudge {

// p.reference(c, bufs), from the cache where allowed and present; stored after computing it.
Expected reference_answer(const Problem& p, const Case& c, const Buffers& bufs, const Paths& paths);

}  // namespace hpcjudge
