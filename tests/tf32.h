// Rounds a float to TF32 (10 explicit mantissa bits), to nearest even: what the
// tensor cores' FP32 mode does to each input. The tolerance tests use it to
// show that TF32 fails where FP32 must pass.
#pragma once
#include <cstdint>
#include <cstring>

inline float to_tf32(float x) {
  uint32_t u;
  std::memcpy(&u, &x, 4);
  u += 0xFFFu + ((u >> 13) & 1u);
  u &= ~0x1FFFu;
  std::memcpy(&x, &u, 4);
  return x;
}
