#include "judge/estimate/estimate_case.h"

#include <algorithm>

namespace hpcjudge {

namespace {

double work(const Model& m) { return m.flops > 0 ? m.flops : m.bytes; }

bool emulable(const Problem& p, const Case& c) {
  const Model m = p.model(c);
  return m.bytes <= p.info().emulation_max_bytes && m.flops <= p.info().emulation_max_flops;
}

std::optional<Case> emulated_case(const Problem& p) {
  const std::vector<Case> tests = p.tests();
  const std::string& named = p.info().estimate_case;
  std::optional<Case> best;
  for (const Case& c : tests) {
    if (!named.empty()) {
      if (c.name == named) return c;
      continue;
    }
    if (emulable(p, c) && (!best || work(p.model(c)) > work(p.model(*best)))) best = c;
  }
  return best;
}

}  // namespace

std::optional<EstimateCases> estimate_cases(const Problem& p) {
  const std::vector<Case> bench = p.benchmarks();
  const std::optional<Case> emulated = emulated_case(p);
  if (bench.empty() || !emulated) return std::nullopt;
  const Case modelled = *std::max_element(bench.begin(), bench.end(), [&](const Case& a, const Case& b) {
    return work(p.model(a)) < work(p.model(b));
  });
  const Model small = p.model(*emulated), large = p.model(modelled);
  EstimateCases e{*emulated, modelled, {}, large.flops};
  if (work(small) > 0) e.scale.work = work(large) / work(small);
  if (small.bytes > 0) e.scale.traffic = large.bytes / small.bytes;
  return e;
}

}  // namespace hpcjudge
