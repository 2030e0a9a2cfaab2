// rle-compress: run-length encode up to 2^28 bytes on the GPU; each run's
// output position is known only after a scan.
#include "solve.h"

#include "sdk/generators.h"
#include "problems/families/rle/description.h"
#include "problems/families/rle/reference.h"

namespace hpcjudge {
namespace {

class RleCompress final : public ProblemOf<decltype(solve), decltype(workspace_size)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i = rle_info("rle-compress", "Run-length encoding (CUDA)",
                                              {"vendor", 1 / 1.25, "*"},  // within 1.25x CUB's time
                                          {"runs:", "equal", "alternate", "boundary", "extreme", "random", "image"});
    return i;
  }

  std::vector<Case> tests() const override {
    auto t = [](const char* name, int64_t n, const char* gen) { return Case{name, {{"raw_count", n}}, gen}; };
    return {t("empty", 0, "runs:2"),
            t("one", 1, "runs:2"),
            t("two", 2, "runs:1"),
            t("three", 3, "random"),
            t("all-equal", 1000003, "equal"),
            t("all-length-1", 100000, "runs:1"),
            t("alternating", 65537, "alternate"),
            t("block-boundaries", 1000000, "boundary"),
            t("extreme-bytes", 100000, "extreme"),
            t("geometric-1.5", 1000000, "runs:1.5"),
            t("geometric-8", 4194305, "runs:8"),
            t("geometric-1000", 16777216, "runs:1000"),
            Case{"image-small", {{"raw_count", 1000 * 777}, {"width", 1000}}, "image"},
            t("large", int64_t{1} << 28, "runs:4")};
  }

  std::vector<Case> benchmarks() const override {
    return {{"mean-1.5", {{"raw_count", int64_t{1} << 28}}, "runs:1.5"},
            {"mean-64", {{"raw_count", int64_t{1} << 28}}, "runs:64"},
            {"image", {{"raw_count", int64_t{1} << 28}, {"width", 16384}}, "image"}};
  }

  Signature signature(const Case& c) const override {
    const auto n = static_cast<size_t>(c["raw_count"]);
    return Signature{}
        .scalar(c["raw_count"])
        .in("raw", DType::U8, n)
        .workspace("workspace", {c["raw_count"]})
        .out("compressed_data", DType::U8, n)
        .out("compressed_lengths", DType::U32, n);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto raw = b["raw"].as<uint8_t>();
    const uint32_t stream = input_stream(c, set, 0);
    if (c.gen == "equal") {
      std::fill(raw.begin(), raw.end(), static_cast<uint8_t>(0x41 + set));
    } else if (c.gen == "alternate") {
      for (size_t i = 0; i < raw.size(); ++i) raw[i] = i % 2 ? 0xB7 : 0x42;
    } else if (c.gen == "boundary") {
      for (size_t i = 0, k = 0; i < raw.size(); ++k) {
        const size_t end = std::min(raw.size(), i + kBoundaryRuns[k % 4]);
        std::fill(raw.begin() + i, raw.begin() + end, static_cast<uint8_t>(k % 2 ? 0x10 + k % 7 : 0xF0 - k % 5));
        i = end;
      }
    } else if (c.gen == "extreme") {
      gen::byte_runs(raw, seed, stream, 3, kExtremeBytes);
    } else if (c.gen == "random") {
      gen::random_bytes(raw, seed, stream);
    } else if (c.gen == "image") {
      gen::bitmap(raw, c["width"], seed, stream);
    } else {
      gen::byte_runs(raw, seed, stream, rle_mean(c.gen));
    }
  }

  Expected reference(const Case&, const Buffers& b) const override {
    reference::Runs r = reference::rle_encode(b["raw"].as<const uint8_t>());
    Expected e;
    e.ret = static_cast<int64_t>(r.bytes.size());
    e.outputs.push_back(ExpectedOutput::exactly(std::move(r.bytes)));
    e.outputs.push_back(ExpectedOutput::exactly(std::move(r.lengths)));
    return e;
  }

  Tolerance tolerance(const Case&) const override { return {}; }

  // raw_count bytes read; 5 bytes written per run (estimated from the mean run length before the data exists).
  Model model(const Case& c) const override {
    const auto n = static_cast<double>(c["raw_count"]);
    const double mean = c.gen.rfind("runs:", 0) == 0 ? rle_mean(c.gen) : 64;
    return {.bytes = n + 5 * n / mean};
  }
  Model model_of(const Case& c, const Expected& e) const override {
    return {.bytes = static_cast<double>(c["raw_count"]) + 5.0 * static_cast<double>(e.ret.value_or(0))};
  }
};

HPCJUDGE_REGISTER_PROBLEM(RleCompress);

}  // namespace
}  // namespace hpcjudge
