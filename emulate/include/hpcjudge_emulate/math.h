// CPU emulation, arithmetic: vector types and make_*, the math functions (the
// C library's single-precision ones, IEEE as on the GPU; fmaf fused), the fast
// intrinsics (here more exact than their documented bound requires), bit
// manipulation and reinterpretation.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "core.h"

// --- vector types, aligned as CUDA's ---------------------------------------------
#define HPCJUDGE_VEC(T, name, a1, a2, a4)                                              \
  struct __attribute__((aligned(a1))) name##1 { T x; };                                \
  struct __attribute__((aligned(a2))) name##2 { T x, y; };                             \
  struct name##3 { T x, y, z; };                                                       \
  struct __attribute__((aligned(a4))) name##4 { T x, y, z, w; };                       \
  inline name##1 make_##name##1(T x) { return {x}; }                                   \
  inline name##2 make_##name##2(T x, T y) { return {x, y}; }                           \
  inline name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; }                   \
  inline name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }
HPCJUDGE_VEC(signed char, char, 1, 2, 4)
HPCJUDGE_VEC(unsigned char, uchar, 1, 2, 4)
HPCJUDGE_VEC(short, short, 2, 4, 8)
HPCJUDGE_VEC(unsigned short, ushort, 2, 4, 8)
HPCJUDGE_VEC(int, int, 4, 8, 16)
HPCJUDGE_VEC(long, long, 8, 16, 16)
HPCJUDGE_VEC(unsigned long, ulong, 8, 16, 16)
HPCJUDGE_VEC(long long, longlong, 8, 16, 16)
HPCJUDGE_VEC(unsigned long long, ulonglong, 8, 16, 16)
HPCJUDGE_VEC(float, float, 4, 8, 16)
HPCJUDGE_VEC(double, double, 8, 16, 16)
#undef HPCJUDGE_VEC
// uint3 is core.h's (the type of threadIdx).
struct __attribute__((aligned(4))) uint1 { unsigned int x; };
struct __attribute__((aligned(8))) uint2 { unsigned int x, y; };
struct __attribute__((aligned(16))) uint4 { unsigned int x, y, z, w; };
inline uint1 make_uint1(unsigned x) { return {x}; }
inline uint2 make_uint2(unsigned x, unsigned y) { return {x, y}; }
inline uint3 make_uint3(unsigned x, unsigned y, unsigned z) { return {x, y, z}; }
inline uint4 make_uint4(unsigned x, unsigned y, unsigned z, unsigned w) { return {x, y, z, w}; }

// --- min, max and the float functions CUDA has in the global namespace --------------
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }
inline unsigned min(unsigned a, unsigned b) { return a < b ? a : b; }
inline unsigned max(unsigned a, unsigned b) { return a > b ? a : b; }
inline unsigned min(int a, unsigned b) { return min(static_cast<unsigned>(a), b); }
inline unsigned min(unsigned a, int b) { return min(a, static_cast<unsigned>(b)); }
inline unsigned max(int a, unsigned b) { return max(static_cast<unsigned>(a), b); }
inline unsigned max(unsigned a, int b) { return max(a, static_cast<unsigned>(b)); }
inline long long min(long long a, long long b) { return a < b ? a : b; }
inline long long max(long long a, long long b) { return a > b ? a : b; }
inline long min(long a, long b) { return a < b ? a : b; }
inline long max(long a, long b) { return a > b ? a : b; }
inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
inline float min(float a, float b) { return std::fmin(a, b); }
inline float max(float a, float b) { return std::fmax(a, b); }
inline double min(double a, double b) { return std::fmin(a, b); }
inline double max(double a, double b) { return std::fmax(a, b); }
using std::abs;
inline float rsqrtf(float x) { return 1.0f / std::sqrt(x); }
inline double rsqrt(double x) { return 1.0 / std::sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / std::cbrt(x); }
inline float exp10f(float x) { return std::pow(10.0f, x); }
inline float saturatef(float x) { return x < 0.0f ? 0.0f : (x > 1.0f ? 1.0f : (x != x ? 0.0f : x)); }
inline float __saturatef(float x) { return saturatef(x); }
inline void sincosf(float x, float* s, float* c) {
  *s = std::sin(x);
  *c = std::cos(x);
}
inline float normcdff(float x) { return 0.5f * std::erfc(-x / std::sqrt(2.0f)); }

// --- fast intrinsics: their documented error bounds hold for the exact functions -----
inline float __expf(float x) { return std::exp(x); }
inline float __exp10f(float x) { return std::pow(10.0f, x); }
inline float __logf(float x) { return std::log(x); }
inline float __log2f(float x) { return std::log2(x); }
inline float __log10f(float x) { return std::log10(x); }
inline float __powf(float x, float y) { return std::pow(x, y); }
inline float __sinf(float x) { return std::sin(x); }
inline float __cosf(float x) { return std::cos(x); }
inline float __tanf(float x) { return std::tan(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __fsqrt_rn(float x) { return std::sqrt(x); }
inline float __frsqrt_rn(float x) { return 1.0f / std::sqrt(x); }
// Round-to-nearest arithmetic: what a float operation is anyway (never contracted: separate statements).
inline float __fadd_rn(float a, float b) {
  volatile float r = a + b;
  return r;
}
inline float __fsub_rn(float a, float b) {
  volatile float r = a - b;
  return r;
}
inline float __fmul_rn(float a, float b) {
  volatile float r = a * b;
  return r;
}
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return std::fma(a, b, c); }
inline double __fma_rn(double a, double b, double c) { return std::fma(a, b, c); }
inline double __dadd_rn(double a, double b) {
  volatile double r = a + b;
  return r;
}
inline double __dmul_rn(double a, double b) {
  volatile double r = a * b;
  return r;
}

// --- reinterpretation and conversion ----------------------------------------------------
template <class To, class From>
inline To hpcjudge_bits(From f) {
  To t;
  std::memcpy(&t, &f, sizeof(To));
  return t;
}
inline int __float_as_int(float x) { return hpcjudge_bits<int>(x); }
inline unsigned __float_as_uint(float x) { return hpcjudge_bits<unsigned>(x); }
inline float __int_as_float(int x) { return hpcjudge_bits<float>(x); }
inline float __uint_as_float(unsigned x) { return hpcjudge_bits<float>(x); }
inline long long __double_as_longlong(double x) { return hpcjudge_bits<long long>(x); }
inline double __longlong_as_double(long long x) { return hpcjudge_bits<double>(x); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rn(float x) { return static_cast<int>(std::nearbyint(x)); }
inline int __float2int_rd(float x) { return static_cast<int>(std::floor(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(std::ceil(x)); }
inline unsigned __float2uint_rz(float x) { return static_cast<unsigned>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned x) { return static_cast<float>(x); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }

// --- integer intrinsics --------------------------------------------------------------
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  unsigned r = 0;
  for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
  return r;
}
inline unsigned long long __brevll(unsigned long long x) {
  unsigned long long r = 0;
  for (int i = 0; i < 64; ++i) r |= ((x >> i) & 1ull) << (63 - i);
  return r;
}
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = shift & 31u;
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>((v << s) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return __funnelshift_l(lo, hi, shift > 32 ? 32 : shift) ;
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned s = shift & 31u;
  const unsigned long long v = (static_cast<unsigned long long>(hi) << 32) | lo;
  return static_cast<unsigned>(v >> s);
}
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
  return r;
}
inline int __mul24(int a, int b) { return (a << 8 >> 8) * (b << 8 >> 8); }
inline unsigned __umul24(unsigned a, unsigned b) { return (a & 0xffffffu) * (b & 0xffffffu); }
inline int __mulhi(int a, int b) { return static_cast<int>((static_cast<long long>(a) * b) >> 32); }
inline unsigned __umulhi(unsigned a, unsigned b) {
  return static_cast<unsigned>((static_cast<unsigned long long>(a) * b) >> 32);
}
inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(a) * b) >> 64);
}
inline int __sad(int a, int b, unsigned c) { return (a > b ? a - b : b - a) + static_cast<int>(c); }
// Per-byte comparisons: 0xff in each byte where the bytes differ (equal), 0 elsewhere.
inline unsigned __vcmpne4(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int i = 0; i < 32; i += 8) r |= (((a >> i) & 0xffu) != ((b >> i) & 0xffu) ? 0xffu : 0u) << i;
  return r;
}
inline unsigned __vcmpeq4(unsigned a, unsigned b) { return ~__vcmpne4(a, b); }
inline unsigned __vsub4(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int i = 0; i < 32; i += 8) r |= ((((a >> i) & 0xffu) - ((b >> i) & 0xffu)) & 0xffu) << i;
  return r;
}
inline unsigned __vadd4(unsigned a, unsigned b) {
  unsigned r = 0;
  for (int i = 0; i < 32; i += 8) r |= ((((a >> i) & 0xffu) + ((b >> i) & 0xffu)) & 0xffu) << i;
  return r;
}

// --- clocks -------------------------------------------------------------------------
namespace hpcjudge_emu {
long long clock_ticks();
}
inline long long clock64() { return hpcjudge_emu::clock_ticks(); }

