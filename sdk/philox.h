// Philox4x32-10 (Salmon et al., SC'11): a counter-based generator. The same
// (key, counter) gives the same bits on every machine, compiler and on the
// device, and element i of a stream is computed without computing 0..i-1,
// so inputs can be generated in parallel and reproduced anywhere.
#pragma once
#include <cstdint>

#if defined(__CUDACC__)
#define HPCJUDGE_HD __host__ __device__
#else
#define HPCJUDGE_HD
#endif

namespace hpcjudge {

struct Philox4x32 {
  uint32_t v[4];
};

HPCJUDGE_HD inline void philox_mulhilo(uint32_t a, uint32_t b, uint32_t& hi, uint32_t& lo) {
  uint64_t p = static_cast<uint64_t>(a) * b;
  hi = static_cast<uint32_t>(p >> 32);
  lo = static_cast<uint32_t>(p);
}

// Ten rounds of Philox4x32 on counter (c0..c3) under key (k0, k1).
HPCJUDGE_HD inline Philox4x32 philox4x32(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3,
                                         uint32_t k0, uint32_t k1) {
  for (int r = 0; r < 10; ++r) {
    uint32_t hi0, lo0, hi1, lo1;
    philox_mulhilo(0xD2511F53u, c0, hi0, lo0);
    philox_mulhilo(0xCD9E8D57u, c2, hi1, lo1);
    c0 = hi1 ^ c1 ^ k0;
    c1 = lo1;
    c2 = hi0 ^ c3 ^ k1;
    c3 = lo0;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return {{c0, c1, c2, c3}};
}

// 128 random bits for element `index` of stream `stream` under `seed`.
HPCJUDGE_HD inline Philox4x32 philox_bits(uint64_t seed, uint32_t stream, uint64_t index) {
  return philox4x32(static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), stream,
                    0x68706A75u /* "hpju" */, static_cast<uint32_t>(seed),
                    static_cast<uint32_t>(seed >> 32));
}

// How philox_quads computes its words (all give the same bits): 16 counters at a time in AVX-512 lanes, 8 in
// AVX2 lanes, or one at a time. Best: the widest this CPU has (philox_best_path). The others are for the tests,
// which compare every path the CPU has with philox_bits.
enum class PhiloxPath { Best, Avx512, Avx2, Scalar };
PhiloxPath philox_best_path();

// philox_bits for `count` consecutive counters from `first`: out[4 * k + j] is word j of
// philox_bits(seed, stream, first + k). The generators' hot loops draw their bits through it. A path the CPU
// lacks must not be asked for.
void philox_quads(uint64_t seed, uint32_t stream, uint64_t first, uint64_t count, uint32_t* out,
                  PhiloxPath path = PhiloxPath::Best);

// A float uniform in [0, 1) with 24 random bits: exact, no rounding anywhere.
HPCJUDGE_HD inline float bits_to_unit_float(uint32_t bits) {
  return static_cast<float>(bits >> 8) * (1.0f / 16777216.0f);
}

}  // namespace hpcjudge
