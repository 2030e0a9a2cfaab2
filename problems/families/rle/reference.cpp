#include "problems/families/rle/reference.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace hpcjudge::reference {

namespace {

// Calls emit(byte, length) for each run of raw[from, to), in order.
template <class Emit>
void each_run(std::span<const uint8_t> raw, size_t from, size_t to, Emit emit) {
  for (size_t i = from; i < to;) {
    size_t j = i + 1;
    while (j < to && raw[j] == raw[i]) ++j;
    emit(raw[i], static_cast<uint32_t>(j - i));
    i = j;
  }
}

}  // namespace

Runs rle_encode(std::span<const uint8_t> raw) {
  // In stretches on every core, each cut where a run starts (a byte unlike the one before), so that no run
  // spans two stretches and the stretches' runs, in order, are the whole's: counted first, then written
  // where each stretch's first run goes.
  constexpr size_t kStretch = size_t{1} << 20;
  const size_t n = raw.size(), parts = (n + kStretch - 1) / kStretch;
  Runs r;
  if (parts <= 1) {
    each_run(raw, 0, n, [&](uint8_t byte, uint32_t length) {
      r.bytes.push_back(byte);
      r.lengths.push_back(length);
    });
    return r;
  }
  // cut[k]: the first run start at or after stretch k's first byte: in stretch k, else cut[k + 1].
  std::vector<size_t> cut(parts + 1, n);
#pragma omp parallel for schedule(static)
  for (size_t k = 1; k < parts; ++k) {
    size_t at = k * kStretch;
    const size_t end = std::min(n, at + kStretch);
    while (at < end && raw[at] == raw[at - 1]) ++at;
    cut[k] = at < end ? at : n;
  }
  for (size_t k = parts - 1; k >= 1; --k) cut[k] = std::min(cut[k], cut[k + 1]);
  cut[0] = 0;
  std::vector<size_t> first(parts + 1, 0);  // the index of stretch k's first run
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < parts; ++k) {
    size_t runs = cut[k] < cut[k + 1] ? 1 : 0;
    for (size_t i = cut[k] + 1; i < cut[k + 1]; ++i) runs += raw[i] != raw[i - 1];
    first[k + 1] = runs;
  }
  for (size_t k = 0; k < parts; ++k) first[k + 1] += first[k];
  r.bytes.resize(first[parts]);
  r.lengths.resize(first[parts]);
#pragma omp parallel for schedule(static)
  for (size_t k = 0; k < parts; ++k) {
    if (cut[k] == cut[k + 1]) continue;
    if ((first[k + 1] - first[k]) * 8 < cut[k + 1] - cut[k]) {  // long runs: a branch that is mostly right
      size_t run = first[k];
      each_run(raw, cut[k], cut[k + 1], [&](uint8_t byte, uint32_t length) {
        r.bytes[run] = byte;
        r.lengths[run++] = length;
      });
      continue;
    }
    // Short runs, without a branch (whether a byte starts a run is as likely as not at a mean of 1.5 bytes, and
    // a mispredicted branch a run took the 2-core VM 500 ms a set of rle-compress's mean-1.5 case): every byte
    // stores its run's byte and its run's start in its run's slot; then each run's length is the next start
    // less its own.
    // Everything in locals: the byte stores may alias any object, which would reload each from memory.
    uint32_t* const start = r.lengths.data();
    uint8_t* const byte = r.bytes.data();
    const uint8_t* const in = raw.data();
    const size_t from = cut[k], to = cut[k + 1], run0 = first[k], run1 = first[k + 1];
    size_t run = run0;                        // the run that holds byte i
    auto s = static_cast<uint32_t>(from);      // and its start
    start[run] = s;
    byte[run] = in[from];
    for (size_t i = from + 1; i < to; ++i) {
      const uint8_t b = in[i];
      const uint32_t starts = b != in[i - 1];
      run += starts;
      s ^= (s ^ static_cast<uint32_t>(i)) & (0u - starts);  // i where it starts a run, a mask rather than a branch
      byte[run] = b;
      start[run] = s;
    }
    for (size_t j = run0; j + 1 < run1; ++j) start[j] = start[j + 1] - start[j];
    start[run1 - 1] = static_cast<uint32_t>(to - start[run1 - 1]);
  }
  return r;
}

void rle_decode(std::span<const uint8_t> bytes, std::span<const uint32_t> lengths, std::span<uint8_t> raw) {
  // Stretches of runs on every core, each from its offset (the lengths before it summed): the same bytes as
  // one pass (rle-decompress's mean-1.5 case is 1.8 x 10^8 runs, which one core took 0.7 s a call to write).
  constexpr size_t kStretch = size_t{1} << 16;
  const size_t runs = bytes.size(), stretches = (runs + kStretch - 1) / kStretch;
  std::vector<uint64_t> start(stretches + 1, 0);
#pragma omp parallel for schedule(static) if (stretches > 1)
  for (size_t k = 0; k < stretches; ++k) {
    uint64_t n = 0;
    for (size_t i = k * kStretch; i < std::min(runs, (k + 1) * kStretch); ++i) n += lengths[i];
    start[k + 1] = n;
  }
  for (size_t k = 0; k < stretches; ++k) start[k + 1] += start[k];
  if (start[stretches] > raw.size()) throw std::logic_error("run-length code longer than its raw size");
  if (start[stretches] < raw.size()) throw std::logic_error("run-length code shorter than its raw size");
  // The raw bytes in equal parts on every core, each part from the run that holds its first byte: a few long
  // runs (rle-decompress's one-run and skewed-half cases, one run of 2^28 bytes) are shared out as evenly as
  // many short ones (one core took 129 ms a call to write the one run, on the H200's host).
  constexpr uint64_t kPart = uint64_t{1} << 20;
  const uint64_t total = raw.size(), parts = (total + kPart - 1) / kPart;
#pragma omp parallel for schedule(dynamic, 4) if (parts > 1)
  for (uint64_t q = 0; q < parts; ++q) {
    const uint64_t lo = q * kPart, hi = std::min(total, lo + kPart);
    // The stretch that holds byte lo, then its run: the last of the runs that start at or before lo.
    const size_t k = static_cast<size_t>(std::upper_bound(start.begin(), start.end(), lo) - start.begin()) - 1;
    uint64_t at = start[k];
    size_t i = k * kStretch;
    while (at + lengths[i] <= lo) at += lengths[i++];
    // A short run (rle-decompress's mean-1.5 case: 1.8 x 10^8 of them) is one 8-byte store of its byte
    // repeated, whose bytes past the run the runs after it write over, in order; a memset call each took the
    // 2-core VM 240 ms a set. The part's last 8 bytes go by memset, so that no store crosses into the next part.
    for (; at < hi; at += lengths[i++]) {
      const uint64_t from = std::max(at, lo), to = std::min(at + lengths[i], hi);
      if (to - from <= 8 && from + 8 <= hi) {
        const uint64_t word = 0x0101010101010101ull * bytes[i];
        std::memcpy(raw.data() + from, &word, 8);
      } else {
        std::memset(raw.data() + from, bytes[i], to - from);
      }
    }
  }
}

}  // namespace hpcjudge::reference
