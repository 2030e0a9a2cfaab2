#include "sdk/philox.h"

#include <cstring>

#if defined(__x86_64__)
// GCC 12's AVX-512 intrinsics pass an undefined vector through (a self-initialised variable), which it then
// warns of as uninitialised where they are inlined: a known false alarm, silenced for the header alone.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
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

// The same rounds on 16 * G counters in AVX-512 lanes (the same G groups interleaved). 2^24 counters on one core
// of the H200's host (a Xeon) took 39.8 ms against 60.9 ms eight at a time; on the 2-core VM (an EPYC, whose
// 512-bit multiplies issue in two halves) 30.1 against 37.5 ms.
template <int G>
__attribute__((target("avx512f"), always_inline)) inline void philox16(uint64_t seed, uint32_t stream,
                                                                        uint64_t first, uint32_t* out) {
  const __m512i m0 = _mm512_set1_epi32(static_cast<int>(0xD2511F53u));
  const __m512i m1 = _mm512_set1_epi32(static_cast<int>(0xCD9E8D57u));
  __m512i c0[G], c1[G], c2[G], c3[G];
  for (int g = 0; g < G; ++g) {
    const uint64_t f = first + 16 * static_cast<uint64_t>(g);
    const __m512i low = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(f)));
    const __m512i high = _mm512_set1_epi32(static_cast<int>(static_cast<uint32_t>(f >> 32)));
    c0[g] = _mm512_add_epi32(low, _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    // The counter's high word gains 1 in the lanes whose low word wrapped past 2^32 - 1 (unsigned c0 < low).
    c1[g] = _mm512_mask_add_epi32(high, _mm512_cmplt_epu32_mask(c0[g], low), high, _mm512_set1_epi32(1));
    c2[g] = _mm512_set1_epi32(static_cast<int>(stream));
    c3[g] = _mm512_set1_epi32(static_cast<int>(0x68706A75u));  // "hpju", as philox_bits
  }
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    const __m512i key0 = _mm512_set1_epi32(static_cast<int>(k0)), key1 = _mm512_set1_epi32(static_cast<int>(k1));
    for (int g = 0; g < G; ++g) {
      const __m512i even0 = _mm512_mul_epu32(c0[g], m0), odd0 = _mm512_mul_epu32(_mm512_srli_epi64(c0[g], 32), m0);
      const __m512i even1 = _mm512_mul_epu32(c2[g], m1), odd1 = _mm512_mul_epu32(_mm512_srli_epi64(c2[g], 32), m1);
      const __m512i lo0 = _mm512_mask_blend_epi32(0xAAAA, even0, _mm512_slli_epi64(odd0, 32));
      const __m512i hi0 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even0, 32), odd0);
      const __m512i lo1 = _mm512_mask_blend_epi32(0xAAAA, even1, _mm512_slli_epi64(odd1, 32));
      const __m512i hi1 = _mm512_mask_blend_epi32(0xAAAA, _mm512_srli_epi64(even1, 32), odd1);
      c0[g] = _mm512_ternarylogic_epi32(hi1, c1[g], key0, 0x96);  // hi1 ^ c1 ^ key0
      c2[g] = _mm512_ternarylogic_epi32(hi0, c3[g], key1, 0x96);
      c1[g] = lo1;
      c3[g] = lo0;
    }
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  // Four words of sixteen counters to sixteen counters of four words: within each 128-bit lane L, q_j holds the
  // four words of counter 4L + j; the lanes are then transposed so that vector L holds counters 4L .. 4L + 3.
  for (int g = 0; g < G; ++g) {
    const __m512i t0 = _mm512_unpacklo_epi32(c0[g], c1[g]), t1 = _mm512_unpackhi_epi32(c0[g], c1[g]);
    const __m512i t2 = _mm512_unpacklo_epi32(c2[g], c3[g]), t3 = _mm512_unpackhi_epi32(c2[g], c3[g]);
    const __m512i q0 = _mm512_unpacklo_epi64(t0, t2), q1 = _mm512_unpackhi_epi64(t0, t2);
    const __m512i q2 = _mm512_unpacklo_epi64(t1, t3), q3 = _mm512_unpackhi_epi64(t1, t3);
    const __m512i a = _mm512_shuffle_i32x4(q0, q1, 0x44), b = _mm512_shuffle_i32x4(q2, q3, 0x44);  // lanes 0, 1
    const __m512i c = _mm512_shuffle_i32x4(q0, q1, 0xEE), d = _mm512_shuffle_i32x4(q2, q3, 0xEE);  // lanes 2, 3
    uint32_t* o = out + 64 * g;
    _mm512_storeu_si512(o + 0, _mm512_shuffle_i32x4(a, b, 0x88));
    _mm512_storeu_si512(o + 16, _mm512_shuffle_i32x4(a, b, 0xDD));
    _mm512_storeu_si512(o + 32, _mm512_shuffle_i32x4(c, d, 0x88));
    _mm512_storeu_si512(o + 48, _mm512_shuffle_i32x4(c, d, 0xDD));
  }
}

__attribute__((target("avx512f"))) void philox_x16(uint64_t seed, uint32_t stream, uint64_t first, uint32_t* out) {
  philox16<1>(seed, stream, first, out);
}
__attribute__((target("avx512f"))) void philox_wide16(uint64_t seed, uint32_t stream, uint64_t first,
                                                      uint32_t* out) {
  philox16<kWideGroups>(seed, stream, first, out);
}

#endif

}  // namespace

PhiloxPath philox_best_path() {
#if defined(__x86_64__)
  static const PhiloxPath best = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return PhiloxPath::Avx512;
    return __builtin_cpu_supports("avx2") ? PhiloxPath::Avx2 : PhiloxPath::Scalar;
  }();
  return best;
#else
  return PhiloxPath::Scalar;
#endif
}

void philox_quads(uint64_t seed, uint32_t stream, uint64_t first, uint64_t count, uint32_t* out, PhiloxPath path) {
  if (path == PhiloxPath::Best) path = philox_best_path();
  uint64_t k = 0;
#if defined(__x86_64__)
  if (path == PhiloxPath::Avx512) {
    for (; k + 16 * kWideGroups <= count; k += 16 * kWideGroups) philox_wide16(seed, stream, first + k, out + 4 * k);
    for (; k + 16 <= count; k += 16) philox_x16(seed, stream, first + k, out + 4 * k);
  }
  if (path == PhiloxPath::Avx512 || path == PhiloxPath::Avx2) {
    for (; k + 8 * kWideGroups <= count; k += 8 * kWideGroups) philox_wide(seed, stream, first + k, out + 4 * k);
    for (; k + 8 <= count; k += 8) philox_x8(seed, stream, first + k, out + 4 * k);
  }
#endif
  for (; k < count; ++k) std::memcpy(out + 4 * k, philox_bits(seed, stream, first + k).v, sizeof(Philox4x32));
}

}  // namespace hpcjudge
