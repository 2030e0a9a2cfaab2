// merge: the merge of two ascending int32 arrays of up to 2^28 elements together, on the GPU, exactly.
#include "solve.h"

#include <algorithm>
#include <limits>

#include "sdk/generators.h"
#include "sdk/problem.h"
#include "problems/families/primitives/reference.h"

namespace hpcjudge {
namespace {

constexpr int64_t kIntMin = std::numeric_limits<int32_t>::min();  // the sentinel: no key is ever this

class Merge final : public ProblemOf<decltype(solve)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i{
        .slug = "merge",
        .title = "Merge of two sorted arrays (CUDA, int32)",
        .kind = Kind::GPU,
        .source_ext = "cu",
        .points = {.correctness = 40, .performance = 60},
        .tolerance_why =
            "Exact: the merge of two ascending arrays is one array, whichever side a tie is taken from (equal "
            "keys are indistinguishable), so every element of C must equal the reference's. The keys stay above "
            "INT32_MIN, the sentinel, so an element never written fails.",
        .generators = {"random", "duplicates", "interleaved", "a-first", "b-first", "runs", "extremes"},
        .bench_targets = {{"vendor", 0.90}},
    };
    return i;
  }

  std::vector<Case> tests() const override {
    auto t = [](std::string name, int64_t m, int64_t n, const char* gen = "random") {
      return Case{std::move(name), {{"M", m}, {"N", n}}, gen};
    };
    return {t("both-empty", 0, 0),
            t("a-empty", 0, 1000),
            t("b-empty", 1000, 0),
            t("one-each", 1, 1),
            t("1-2", 1, 2),
            t("2-1", 2, 1),
            t("3-5", 3, 5),
            t("31-33", 31, 33),
            t("32-32", 32, 32),
            t("255-257", 255, 257),
            t("1023-1025", 1023, 1025),
            t("4096-4097", 4096, 4097),
            t("one-vs-10M", 1, 10000000),
            t("10M-vs-one", 10000000, 1),
            t("1000-vs-1M", 1000, 1000003),
            t("all-duplicates", 100000, 100003, "duplicates"),
            t("interleaved", 500000, 500000, "interleaved"),
            t("a-before-b", 300000, 200001, "a-first"),
            t("b-before-a", 200001, 300000, "b-first"),
            t("long-equal-runs", 1 << 20, (1 << 20) + 5, "runs"),
            t("whole-int32-range", 100003, 99991, "extremes"),
            t("random-8M", 3000017, 5000011),
            t("n2^28", int64_t{1} << 27, int64_t{1} << 27)};  // the largest, last: run twice
  }

  std::vector<Case> benchmarks() const override {
    return {{"equal-2^27", {{"M", int64_t{1} << 27}, {"N", int64_t{1} << 27}}, "random"},
            {"skewed-2^27-2^10", {{"M", int64_t{1} << 27}, {"N", 1024}}, "random"}};
  }

  Signature signature(const Case& c) const override {
    const auto m = static_cast<size_t>(c["M"]), n = static_cast<size_t>(c["N"]);
    return Signature{}
        .in("A", DType::I32, m)
        .scalar(c["M"])
        .in("B", DType::I32, n)
        .scalar(c["N"])
        .out("C", DType::I32, m + n);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto A = b["A"].as<int32_t>(), B = b["B"].as<int32_t>();
    const uint32_t sa = input_stream(c, set, 0), sb = input_stream(c, set, 1);
    // Keys spread over about [-2^30, 2^30) whatever the size, so a short array lands anywhere in a long
    // one: gaps of 0 (one in five) or 1 .. 2^31 / n, so the largest key is below 2^30.
    auto spread = [&](std::span<int32_t> x, uint32_t stream) {
      if (x.empty()) return;
      const auto gap = static_cast<uint32_t>(std::max<int64_t>(1, (int64_t{1} << 31) / static_cast<int64_t>(x.size())));
      gen::ascending(x, seed, stream, -(int64_t{1} << 30), gap, 1.25);
    };
    if (c.gen == "duplicates") {
      std::fill(A.begin(), A.end(), static_cast<int32_t>(42 + set));
      std::fill(B.begin(), B.end(), static_cast<int32_t>(42 + set));
    } else if (c.gen == "interleaved") {  // A even, B odd: the output alternates
      for (size_t i = 0; i < A.size(); ++i) A[i] = static_cast<int32_t>(2 * i);
      for (size_t i = 0; i < B.size(); ++i) B[i] = static_cast<int32_t>(2 * i + 1);
    } else if (c.gen == "a-first" || c.gen == "b-first") {  // one array entirely before the other
      const auto lo = c.gen == "a-first" ? A : B, hi = c.gen == "a-first" ? B : A;
      gen::ascending(lo, seed, sa, -1000000, 4, 1.25);
      gen::ascending(hi, seed, sb, lo.empty() ? 0 : lo.back() + 1, 4, 1.25);
    } else if (c.gen == "runs") {  // consecutive keys in runs of mean length 3000 in both arrays
      gen::ascending(A, seed, sa, 0, 1, 3000);
      gen::ascending(B, seed, sb, 0, 1, 3000);
    } else if (c.gen == "extremes") {  // from INT32_MIN + 1 up to INT32_MAX at most
      const auto gap = [](size_t n) { return static_cast<uint32_t>((uint64_t{1} << 32) / std::max<size_t>(n, 2) - 1); };
      gen::ascending(A, seed, sa, kIntMin + 1, gap(A.size()), 1.25);
      gen::ascending(B, seed, sb, kIntMin + 1, gap(B.size()), 1.25);
    } else {
      spread(A, sa);
      spread(B, sb);
    }
  }

  Expected reference(const Case&, const Buffers& b) const override {
    UninitVector<int32_t> C(b["C"].spec->count);
    reference::merge(b["A"].as<const int32_t>(), b["B"].as<const int32_t>(), C);
    return {{ExpectedOutput::exactly(std::move(C))}};
  }

  Tolerance tolerance(const Case&) const override { return {}; }

  // Each input read once, each output written once: 8 bytes per output element.
  Model model(const Case& c) const override { return {.bytes = 8.0 * static_cast<double>(c["M"] + c["N"])}; }
};

HPCJUDGE_REGISTER_PROBLEM(Merge);

}  // namespace
}  // namespace hpcjudge
