// The buffers of one case of a problem in plain host memory, for tests that
// generate inputs and call references without the judge.
#pragma once
#include <cstddef>
#include <vector>

#include "sdk/problem.h"

struct HostCase {
  hpcjudge::Signature sig;
  std::vector<std::vector<std::byte>> storage;
  std::vector<hpcjudge::BufferView> views;
  HostCase(const hpcjudge::Problem& p, const hpcjudge::Case& c) : sig(p.signature(c)) {
    for (const auto& b : sig.buffers) storage.emplace_back(b.bytes());
    for (size_t i = 0; i < sig.buffers.size(); ++i) views.push_back({&sig.buffers[i], storage[i].data()});
  }
  HostCase(const HostCase&) = delete;  // views point into this object's own sig and storage
  HostCase& operator=(const HostCase&) = delete;
  hpcjudge::Buffers buffers() const { return hpcjudge::Buffers(views); }
};
