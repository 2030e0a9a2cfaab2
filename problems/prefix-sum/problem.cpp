// prefix-sum: the inclusive scan of up to 2^28 int32 on the GPU, exactly.
#include "solve.h"

#include <algorithm>
#include <limits>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/primitives/reference.h"

namespace hpcjudge {
namespace {

constexpr int64_t kIntMax = std::numeric_limits<int32_t>::max();

// The largest magnitude of the "uniform" inputs at size n: every prefix stays within
// +-(2^31 - 1), since |prefix| <= n * bound, and never exceeds 1000.
int32_t uniform_bound(int64_t n) { return static_cast<int32_t>(std::min<int64_t>(1000, kIntMax / n)); }

class PrefixSum final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "prefix-sum",
        .title = "Inclusive prefix sum (CUDA, int32)",
        .kind = Kind::GPU,
        .source_ext = "cu",
        .points = {.correctness = 40, .performance = 60},
        .tolerance_why =
            "Exact: integer addition is associative, so every scan order (Kogge-Stone, Brent-Kung, warp shuffles, "
            "decoupled look-back) gives the same int32 prefixes, and every element must equal the reference's. "
            "The inputs keep every prefix within +-(2^31 - 1), so no correct scan overflows; the sentinel "
            "INT32_MIN is never a right answer. A float accumulator is exact only while the prefixes stay below "
            "2^24, and the large-sums tests pass that.",
        .race_check = true,  // the Kogge-Stone step without a barrier between its read and its write
        .generators = {"uniform", "zeros", "equal", "alternating", "large"},
        .bench_targets = {{"vendor", 0.90}},
        // Under CPU emulation up to N = 1000003 (sums-beyond-2^24, alternating-signs): a block scan of 10^6
        // elements costs about 3 s there, and the three 2^20 +- 1 tests would take the tests past a minute.
        .emulation_max_bytes = 8.1e6,
    };
    return i;
  }

  std::vector<Case> tests() const override {
    std::vector<Case> t;
    auto add = [&](int64_t n, const char* gen = "uniform", std::string name = "") {
      if (name.empty()) name = std::string("n").append(std::to_string(n));
      t.push_back({std::move(name), {{"N", n}}, gen});
    };
    // Around a warp, and around the common block sizes (threads, or 2 or 4 elements per thread).
    for (int64_t n : {1, 2, 3, 4, 5, 31, 32, 33, 127, 128, 129, 255, 256, 257, 511, 512, 513, 1023, 1024, 1025,
                      2047, 2048, 2049, 4095, 4096, 4097, 8191, 8192, 8193})
      add(n);
    // Two and three levels of blocks: 1024^2 and 4096^2 elements, plus or minus one; a prime near 10^7.
    for (int64_t n : {1048575, 1048576, 1048577, 16777217, 9999991}) add(n);
    add(100003, "zeros", "all-zeros");
    add(65537, "equal", "all-equal");
    add(1000001, "alternating", "alternating-signs");
    add(1000003, "large", "sums-beyond-2^24");
    add(int64_t{1} << 28);  // the largest, last: it runs a second time with new inputs
    return t;
  }

  std::vector<Case> benchmarks() const override {
    return {{"n16M", {{"N", int64_t{1} << 24}}}, {"n256M", {{"N", int64_t{1} << 28}}}};
  }

  Signature signature(const Case& c) const override {
    const auto n = static_cast<size_t>(c["N"]);
    return Signature{}.in("input", DType::I32, n).out("output", DType::I32, n).scalar(c["N"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto x = b["input"].as<int32_t>();
    const uint32_t stream = input_stream(c, set, 0);
    const int64_t n = c["N"];
    if (c.gen == "zeros") {
      std::fill(x.begin(), x.end(), 0);
    } else if (c.gen == "equal") {
      std::fill(x.begin(), x.end(), static_cast<int32_t>(std::min<int64_t>(3 + set, kIntMax / n)));
    } else if (c.gen == "alternating") {
      // +-(10^9 + r), r in [0, 100], signs alternating from +: the prefixes swing between about 0 and 10^9,
      // within 10^9 + 100 + 50 n.
      gen::integers(x, seed, stream, 1000000000, 1000000100);
      for (size_t i = 1; i < x.size(); i += 2) x[i] = -x[i];
    } else if (c.gen == "large") {
      // Non-negative, mean 127.5: the prefixes pass 2^24 after about 130,000 elements.
      gen::integers(x, seed, stream, 0, std::min<int32_t>(255, uniform_bound(n)));
    } else {
      const int32_t k = uniform_bound(n);
      gen::integers(x, seed, stream, -k, k);
    }
  }

  Expected reference(const Case&, const Buffers& b) const override {
    const auto x = b["input"].as<const int32_t>();
    UninitVector<int32_t> y(x.size());
    reference::inclusive_scan(x, y);
    return {{ExpectedOutput::exactly(std::move(y))}};
  }

  Tolerance tolerance(const Case&) const override { return {}; }

  // Each input read once, each output written once.
  Model model(const Case& c) const override { return {.bytes = 8.0 * static_cast<double>(c["N"])}; }
};

HPCJUDGE_REGISTER_PROBLEM(PrefixSum);

}  // namespace
}  // namespace hpcjudge
