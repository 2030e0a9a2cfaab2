#include "harness/philox.h"

#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace hpcjudge {

namespace {

#if defined(__x86_64__)
// Groups of eight counters interleaved: on the 2-core VM (AMD EPYC), 2^26 counters on one core took 277 ms one
// group at a time, 185 ms four at a time (the multiplies' throughput, not their latency, bounds it there).
constexpr int kWideGroups = 4;

// Ten Philox rounds on 8 * G counters at once, first .. first + 8G - 1, one per 32-bit lane of G vectors: the
// products of the even lanes and of the odd ones (shifted down) as 64-bit lanes, their halves blended back into
// 32-bit lanes. A round's multiplies wait on the round before (about 8 cycles of latency), so G independent groups
// are interleaved to fill that wait. out gets the results in counter order (the four words of each counter together).
template <int G>
__attribute__((target("avx2"), always_inline)) inline void philox8(uint64_t seed, uint32_t stream, uint64_t first,
                                                                    uint32_t* out) {
  const __m256i sign = _mm256_set1_epi32(static_cast<int>(0x80000000u));
  const __m256i m0 = _mm256_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m256i m1 = _mm256_set1_epi32(static_cast<int>(0xCD9E8D57u));
  __m256i c0[G], c1[G], c2[G], c3[G];
  for (int g = 0; g < G; ++g) {
    const uint64_t f = first + 8 * static_cast<uint64_t>(g);
    const __m256i low = _mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(f)));
    c0[g] = _mm256_add_epi32(low, _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    // The counter's high word gains 1 in the lanes whose low word wrapped past 2^32 - 1 (unsigned c0 < low).
    const __m256i wrapped = _mm256_cmpgt_epi32(_mm256_xor_si256(low, sign), _mm256_xor_si256(c0[g], sign));
    c1[g] = _mm256_sub_epi32(_mm256_set1_epi32(static_cast<int>(static_cast<uint32_t>(f >> 32))), wrapped);
    c2[g] = _mm256_set1_epi32(static_cast<int>(stream));
    c3[g] = _mm256_set1_epi32(static_cast<int>(0x68706A75u));  // "hpju", as philox_bits
  }
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    const __m256i key0 = _mm256_set1_epi32(static_cast<int>(k0)), key1 = _mm256_set1_epi32(static_cast<int>(k1));
    for (int g = 0; g < G; ++g) {
      const __m256i even0 = _mm256_mul_epu32(c0[g], m0), odd0 = _mm256_mul_epu32(_mm256_srli_epi64(c0[g], 32), m0);
      const __m256i even1 = _mm256_mul_epu32(c2[g], m1), odd1 = _mm256_mul_epu32(_mm256_srli_epi64(c2[g], 32), m1);
      const __m256i lo0 = _mm256_blend_epi32(even0, _mm256_slli_epi64(odd0, 32), 0xAA);
      const __m256i hi0 = _mm256_blend_epi32(_mm256_srli_epi64(even0, 32), odd0, 0xAA);
      const __m256i lo1 = _mm256_blend_epi32(even1, _mm256_slli_epi64(odd1, 32), 0xAA);
      const __m256i hi1 = _mm256_blend_epi32(_mm256_srli_epi64(even1, 32), odd1, 0xAA);
      c0[g] = _mm256_xor_si256(_mm256_xor_si256(hi1, c1[g]), key0);
      c2[g] = _mm256_xor_si256(_mm256_xor_si256(hi0, c3[g]), key1);
      c1[g] = lo1;
      c3[g] = lo0;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  // Four words of eight counters to eight counters of four words, group by group.
  for (int g = 0; g < G; ++g) {
    const __m256i t0 = _mm256_unpacklo_epi32(c0[g], c1[g]), t1 = _mm256_unpackhi_epi32(c0[g], c1[g]);
    const __m256i t2 = _mm256_unpacklo_epi32(c2[g], c3[g]), t3 = _mm256_unpackhi_epi32(c2[g], c3[g]);
    const __m256i q04 = _mm256_unpacklo_epi64(t0, t2), q15 = _mm256_unpackhi_epi64(t0, t2);
    const __m256i q26 = _mm256_unpacklo_epi64(t1, t3), q37 = _mm256_unpackhi_epi64(t1, t3);
    auto* o = reinterpret_cast<__m256i*>(out + 32 * g);
    _mm256_storeu_si256(o + 0, _mm256_permute2x128_si256(q04, q15, 0x20));
    _mm256_storeu_si256(o + 1, _mm256_permute2x128_si256(q26, q37, 0x20));
    _mm256_storeu_si256(o + 2, _mm256_permute2x128_si256(q04, q15, 0x31));
    _mm256_storeu_si256(o + 3, _mm256_permute2x128_si256(q26, q37, 0x31));
  }
}

// philox8<G> as functions of their own, so that the AVX2 code stays behind the CPU check.
__attribute__((target("avx2"))) void philox_x8(uint64_t seed, uint32_t stream, uint64_t first, uint32_t* out) {
  philox8<1>(seed, stream, first, out);
}
__attribute__((target("avx2"))) void philox_wide(uint64_t seed, uint32_t stream, uint64_t first, uint32_t* out) {
  philox8<kWideGroups>(seed, stream, first, out);
}

bool has_avx2() {
  static const bool yes = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") != 0;
  }();
  return yes;
}
#endif

}  // namespace

void philox_quads(uint64_t seed, uint32_t stream, uint64_t first, uint64_t count, uint32_t* out) {
  uint64_t k = 0;
#if defined(__x86_64__)
  if (has_avx2())
  {
    for (; k + 8 * kWideGroups <= count; k += 8 * kWideGroups) philox_wide(seed, stream, first + k, out + 4 * k);
    for (; k + 8 <= count; k += 8) philox_x8(seed, stream, first + k, out + 4 * k);
  }
#endif
  for (; k < count; ++k) std::memcpy(out + 4 * k, philox_bits(seed, stream, first + k).v, sizeof(Philox4x32));
}

}  // namespace hpcjudge
