// The double-precision references against brute force on small sizes.
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <omp.h>
#include <string>
#include <vector>

#include "sdk/generators.h"
#include "problems/families/matmul/reference.h"
#include "problems/families/primitives/reference.h"
#include "problems/families/rle/reference.h"
#include "problems/families/softmax/reference.h"

using namespace hpcjudge;

TEST_CASE("softmax reference matches the textbook formula") {
  for (int n : {1, 2, 3, 17, 1000}) {
    std::vector<float> x(n);
    gen::uniform(x, 11, n, -20, 20);
    std::vector<double> y(n);
    reference::softmax(x, y);
    long double s = 0;
    for (float v : x) s += std::exp(static_cast<long double>(v));
    double total = 0;
    for (int i = 0; i < n; ++i) {
      const double want = static_cast<double>(std::exp(static_cast<long double>(x[i])) / s);
      CHECK(std::abs(y[i] - want) <= 1e-14 * want + 1e-300);
      total += y[i];
    }
    CHECK(std::abs(total - 1) < 1e-12);
  }
}

TEST_CASE("softmax reference stays finite where the naive formula overflows") {
  std::vector<float> x = {1000.0f, 999.0f, -1000.0f};
  std::vector<double> y(3);
  reference::softmax(x, y);
  CHECK(std::abs(y[0] - 1 / (1 + std::exp(-1.0))) < 1e-15);
  CHECK(std::abs(y[1] - std::exp(-1.0) / (1 + std::exp(-1.0))) < 1e-15);
  CHECK(y[2] == 0.0);
}

TEST_CASE("OpenBLAS's kernels are named where it took the CPU for an older one than its features say") {
  using reference::openblas_coretype_for;
  // The H200's host: a CPU model OpenBLAS 0.3.21 does not know, with AVX-512.
  CHECK(std::string(openblas_coretype_for("Prescott", true, true)) == "SkylakeX");
  CHECK(std::string(openblas_coretype_for("Nehalem", false, true)) == "Haswell");
  CHECK(std::string(openblas_coretype_for(nullptr, false, true)) == "Haswell");
  CHECK(openblas_coretype_for("Prescott", false, false) == nullptr);  // nothing better to name
  // Its own choice of the AVX2 class or later is kept (this VM: Cooperlake).
  for (const char* own : {"Cooperlake", "SKYLAKEX", "Haswell", "Zen", "SapphireRapids"})
    CHECK(openblas_coretype_for(own, true, true) == nullptr);
}

TEST_CASE("matmul reference matches the triple loop with A MxN and B NxK") {
  struct Shape {
    int m, n, k;
  };
  for (Shape s : {Shape{1, 1, 1}, Shape{7, 13, 11}, Shape{33, 17, 5}, Shape{1, 64, 1}, Shape{40, 1, 30}}) {
    std::vector<float> a(s.m * s.n), b(s.n * s.k);
    gen::uniform(a, 5, 0, -1, 1);
    gen::uniform(b, 5, 1, -1, 1);
    std::vector<double> c(s.m * s.k);
    reference::matmul(a, b, c, s.m, s.n, s.k);
    for (int i = 0; i < s.m; ++i)
      for (int j = 0; j < s.k; ++j) {
        double want = 0;
        for (int p = 0; p < s.n; ++p) want += double(a[i * s.n + p]) * b[p * s.k + j];
        CHECK(std::abs(c[i * s.k + j] - want) < 1e-12);
      }
  }
}

TEST_CASE("run-length reference: encoded and decoded in stretches on every core, as in one pass") {
  // The plain loop: a run is a maximal stretch of equal bytes.
  const auto one_pass = [](const std::vector<uint8_t>& raw) {
    reference::Runs r;
    for (size_t i = 0; i < raw.size(); ++i)
      if (i == 0 || raw[i] != raw[i - 1]) r.bytes.push_back(raw[i]), r.lengths.push_back(1);
      else ++r.lengths.back();
    return r;
  };
  const size_t stretch = size_t{1} << 20;
  std::vector<std::vector<uint8_t>> inputs;
  for (double mean : {1.0, 3.0, 5000.0}) {
    std::vector<uint8_t> v(3 * stretch + 12345);
    gen::byte_runs(v, 7, 1, mean);
    inputs.push_back(v);
  }
  inputs.emplace_back(4 * stretch + 1, uint8_t{0x41});  // one run over every stretch
  std::vector<uint8_t> cuts(5 * stretch, uint8_t{1});   // runs that start or end at a stretch's edge, or span two
  for (size_t i = stretch; i < 2 * stretch; ++i) cuts[i] = 2;
  for (size_t i = 3 * stretch - 1; i < 4 * stretch + 1; ++i) cuts[i] = 3;
  cuts.back() = 4;
  inputs.push_back(cuts);
  inputs.emplace_back();
  for (const auto& raw : inputs) {
    INFO("size " << raw.size());
    const reference::Runs got = reference::rle_encode(raw), want = one_pass(raw);
    CHECK(got.bytes == want.bytes);
    CHECK(got.lengths == want.lengths);
    // Decoded in stretches of 2^16 runs on every core: the bytes it came from (3 x 10^6 runs at a mean of 1).
    std::vector<uint8_t> back(raw.size(), 0xEE);
    reference::rle_decode(got.bytes, got.lengths, back);
    CHECK(back == raw);
  }
  // Empty runs beside the edge of a part of the output that each core writes (2^20 bytes): the bytes around it.
  {
    const uint32_t edge = 1u << 20;
    const std::vector<uint8_t> bytes{1, 2, 3, 4, 5};
    const std::vector<uint32_t> lengths{edge - 1, 0, 2, 0, 5};
    std::vector<uint8_t> raw(edge + 6, 0xEE), want;
    for (size_t i = 0; i < bytes.size(); ++i) want.insert(want.end(), lengths[i], bytes[i]);
    reference::rle_decode(bytes, lengths, raw);
    CHECK(raw == want);
  }
  // A code that does not add up to the raw size is the judge's own error, found before anything is written.
  const std::vector<uint8_t> bytes{1, 2};
  const std::vector<uint32_t> lengths{3, 4};
  std::vector<uint8_t> small(6), large(8);
  CHECK_THROWS(reference::rle_decode(bytes, lengths, small));
  CHECK_THROWS(reference::rle_decode(bytes, lengths, large));
}

TEST_CASE("floating-point references give the same bits on any number of threads, run after run") {
  // An OpenMP reduction adds the threads' sums in the order they finish: softmax's reference gave two answers
  // for one input set (problems/families/ordered_sum.h).
  std::vector<float> x(3000017);
  gen::uniform(x, 5, 1, -30, 30);
  std::vector<double> first(x.size()), again(x.size());
  reference::softmax(x, first);
  const reference::Sum s1 = reference::sum(x);
  const int threads = omp_get_max_threads();
  for (int t : {1, 3, 16, 1, 16}) {
    INFO(t << " threads");
    omp_set_num_threads(t);
    reference::softmax(x, again);
    CHECK(again == first);
    const reference::Sum s = reference::sum(x);
    CHECK(s.sum == s1.sum);
    CHECK(s.abs_sum == s1.abs_sum);
  }
  omp_set_num_threads(threads);
}
