#include "judge/estimate/estimate_case.h"

#include <algorithm>

namespace hpcjudge {

namespace {

double work(const Model& m) { return m.flops > 0 ? m.flops : m.bytes; }

// A generator's family: its name without the parameter ("stencil" of "stencil:3000").
std::string family(const std::string& gen) { return gen.substr(0, gen.find(':')); }

bool emulable(const Problem& p, const Case& c) {
  const Model m = p.model(c);
  return m.bytes <= p.info().emulation_max_bytes && m.flops <= p.info().emulation_max_flops;
}

// The named test, else the largest emulable test drawn by the modelled case's generator family (a test of another
// shape, such as spmv's long rows or rle's all-equal runs, is no guide to the performance case), else the largest
// emulable test.
std::optional<Case> emulated_case(const Problem& p, const Case& modelled) {
  const std::vector<Case> tests = p.tests();
  const std::string& named = p.info().estimate_case;
  if (!named.empty()) {
    for (const Case& c : tests)
      if (c.name == named) return c;
    return std::nullopt;
  }
  std::optional<Case> best, best_alike;
  for (const Case& c : tests) {
    if (!emulable(p, c)) continue;
    if (!best || work(p.model(c)) > work(p.model(*best))) best = c;
    if (family(c.gen) == family(modelled.gen) && (!best_alike || work(p.model(c)) > work(p.model(*best_alike)))) best_alike = c;
  }
  return best_alike ? best_alike : best;
}

}  // namespace

std::optional<EstimateCases> estimate_cases(const Problem& p) {
  const std::vector<Case> bench = p.benchmarks();
  if (bench.empty()) return std::nullopt;
  const Case modelled = *std::max_element(bench.begin(), bench.end(), [&](const Case& a, const Case& b) {
    return work(p.model(a)) < work(p.model(b));
  });
  const std::optional<Case> emulated = emulated_case(p, modelled);
  if (!emulated) return std::nullopt;
  const Model small = p.model(*emulated), large = p.model(modelled);
  EstimateCases e{*emulated, modelled, {}, large.flops};
  if (work(small) > 0) e.scale.work = work(large) / work(small);
  if (small.bytes > 0) e.scale.traffic = large.bytes / small.bytes;
  return e;
}

}  // namespace hpcjudge
