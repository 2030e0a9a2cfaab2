// flash-attention's tolerance, through float emulations of real kernels: FP32
// in the orders a naive and a tiled kernel use passes every test; a missing
// 1/sqrt(d_k), an unstable softmax and TF32 scores fail.
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <span>
#include <vector>

#include "sdk/problem.h"
#include "host_case.h"
#include "problems/families/attention/reference.h"
#include "tf32.h"

using namespace hpcjudge;

namespace {

// One case's generated inputs (in a HostCase) and its sizes.
struct Inputs {
  HostCase host;
  std::span<const float> Q, K, V;
  int64_t N, d, h;
  Inputs(const Problem& p, const Case& c) : host(p, c), N(c["N"]), d(c["d_model"]), h(c["h"]) {
    p.generate(c, 42, 0, host.buffers());
    Q = host.buffers().f32("Q"), K = host.buffers().f32("K"), V = host.buffers().f32("V");
  }
};

enum class Variant { Naive, Tiled, NoScale, NoMax, TF32 };

// One (row, head) at a time, all in float. Naive: online softmax key by key.
// Tiled: 64 keys per tile, the tile's max first, exp2 with log2(e) folded into the scale.
std::vector<float> attention_f32(const Inputs& in, Variant v) {
  const int64_t dk = in.d / in.h;
  std::vector<float> out(in.N * in.d);
  std::vector<float> acc(dk), s(64);
  const float scale = v == Variant::NoScale ? 1.0f : 1.0f / std::sqrt(static_cast<float>(dk));
  for (int64_t head = 0; head < in.h; ++head)
    for (int64_t i = 0; i < in.N; ++i) {
      const float* q = &in.Q[i * in.d + head * dk];
      auto score = [&](int64_t j) {
        const float* k = &in.K[j * in.d + head * dk];
        float dot = 0;
        for (int64_t t = 0; t < dk; ++t) dot += (v == Variant::TF32 ? to_tf32(q[t]) * to_tf32(k[t]) : q[t] * k[t]);
        return dot;
      };
      std::fill(acc.begin(), acc.end(), 0.0f);
      float m = -INFINITY, l = 0;
      if (v == Variant::Tiled) {
        const float log2e_scale = scale * 1.44269504f;
        for (int64_t j0 = 0; j0 < in.N; j0 += 64) {
          const int64_t n = std::min<int64_t>(64, in.N - j0);
          float tile_max = -INFINITY;
          for (int64_t j = 0; j < n; ++j) tile_max = std::max(tile_max, s[j] = score(j0 + j) * log2e_scale);
          const float m_new = std::max(m, tile_max), corr = std::exp2(m - m_new);
          l *= corr;
          for (float& a : acc) a *= corr;
          for (int64_t j = 0; j < n; ++j) {
            const float p = std::exp2(s[j] - m_new);
            l += p;
            const float* vv = &in.V[(j0 + j) * in.d + head * dk];
            for (int64_t t = 0; t < dk; ++t) acc[t] = std::fma(p, vv[t], acc[t]);
          }
          m = m_new;
        }
      } else {
        for (int64_t j = 0; j < in.N; ++j) {
          const float sj = score(j) * scale;
          const float* vv = &in.V[j * in.d + head * dk];
          if (v == Variant::NoMax) {
            const float p = std::exp(sj);
            l += p;
            for (int64_t t = 0; t < dk; ++t) acc[t] += p * vv[t];
            continue;
          }
          const float m_new = std::max(m, sj), corr = std::exp(m - m_new), p = std::exp(sj - m_new);
          l = l * corr + p;
          for (int64_t t = 0; t < dk; ++t) acc[t] = acc[t] * corr + p * vv[t];
          m = m_new;
        }
      }
      for (int64_t t = 0; t < dk; ++t) out[i * in.d + head * dk + t] = acc[t] / l;
    }
  return out;
}

}  // namespace

TEST_CASE("attention tolerance admits FP32 kernels and rejects the classic bugs") {
  const Problem& p = *Registry::find("flash-attention");
  for (const Case& c : p.tests()) {
    INFO(c.name << " " << c.size_string());
    const Inputs in(p, c);
    const UninitVector<double> e = p.reference(c, in.host.buffers()).outputs[0].values;
    const Tolerance tol = p.tolerance(c);
    for (Variant v : {Variant::Naive, Variant::Tiled}) {
      const CheckResult r = check_close(attention_f32(in, v), e, tol);
      INFO("FP32 variant " << static_cast<int>(v) << ": max abs err " << r.max_abs_err << ", atol " << tol.atol);
      CHECK(r.ok());
      CHECK(r.max_abs_err < tol.atol / 4);  // a margin of 4 at least
    }
    const int64_t dk = c["d_model"] / c["h"];
    if (dk > 1 && c["N"] > 1) CHECK_FALSE(check_close(attention_f32(in, Variant::NoScale), e, tol).ok());
    if (c.gen == "large-scores") CHECK_FALSE(check_close(attention_f32(in, Variant::NoMax), e, tol).ok());
    if (c["N"] > 1) CHECK_FALSE(check_close(attention_f32(in, Variant::TF32), e, tol).ok());
  }
}

TEST_CASE("attention reference: one key gives V, equal keys give the mean of V") {
  const std::vector<float> Q = {1, 2, 3, 4}, K1 = {5, 6, 7, 8}, V1 = {0.5f, -1, 2, 3};
  std::vector<double> out(4);
  // N = 1: the softmax of one score is 1, so the output is V.
  reference::attention(Q, K1, V1, out, 1, 4, 2);
  for (int j = 0; j < 4; ++j) CHECK(out[j] == V1[j]);
}
