// rle-decompress: expand a run-length code of up to 2^28 bytes on the GPU,
// from one run of 2^28 bytes to 2^24 runs of one byte each.
#include "solve.h"

#include "sdk/generators.h"
#include "problems/families/rle/description.h"
#include "problems/families/rle/reference.h"

namespace hpcjudge {
namespace {

class RleDecompress final : public ProblemOf<decltype(solve), decltype(workspace_size)> {
 public:
  const ProblemInfo& info() const override {
    static const ProblemInfo i = rle_info("rle-decompress", "Run-length decoding (CUDA)", {"peak", 0.70, "*"},
                                          {"cuts", "boundary", "extreme", "skewed"});
    return i;
  }

  static Case code(const char* name, int64_t runs, int64_t raw, const char* gen = "cuts") {
    return Case{name, {{"compressed_count", runs}, {"raw_capacity", raw}}, gen};
  }

  std::vector<Case> tests() const override {
    constexpr int64_t k2p24 = int64_t{1} << 24, k2p28 = int64_t{1} << 28;
    return {code("empty", 0, 0),
            code("one", 1, 1),
            code("two", 2, 5),
            code("three", 3, 3),
            code("all-length-1", 100000, 100000),
            code("block-boundaries", 400, 716900, "boundary"),
            code("extreme-bytes", 50000, 150000, "extreme"),
            code("geometric-1.5", 666667, 1000000),
            code("geometric-8", int64_t{1} << 19, int64_t{1} << 22),
            code("geometric-1000", 16777, k2p24),
            code("one-run-2^28", 1, k2p28),
            code("length-1-2^24", k2p24, k2p24),
            code("skewed", 100001, k2p24, "skewed")};
  }

  std::vector<Case> benchmarks() const override {
    constexpr int64_t k2p28 = int64_t{1} << 28;
    return {code("mean-1.5", 178956970, k2p28), code("mean-64", int64_t{1} << 22, k2p28),
            code("one-run", 1, k2p28), code("skewed-half", int64_t{1} << 24, k2p28, "skewed")};
  }

  Signature signature(const Case& c) const override {
    const auto runs = static_cast<size_t>(c["compressed_count"]), raw = static_cast<size_t>(c["raw_capacity"]);
    return Signature{}
        .scalar(c["compressed_count"])
        .in("compressed_data", DType::U8, runs)
        .in("compressed_lengths", DType::U32, runs)
        .workspace("workspace", {c["compressed_count"]})
        .out("raw", DType::U8, raw)
        .scalar(c["raw_capacity"]);
  }

  void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& b) const override {
    const auto bytes = b["compressed_data"].as<uint8_t>();
    const auto lengths = b["compressed_lengths"].as<uint32_t>();
    const auto total = static_cast<uint64_t>(c["raw_capacity"]);
    const uint32_t s0 = input_stream(c, set, 0), s1 = input_stream(c, set, 1);
    gen::run_bytes(bytes, seed, s0, c.gen == "extreme" ? std::span<const uint8_t>(kExtremeBytes)
                                                       : std::span<const uint8_t>());
    if (c.gen == "boundary") {
      for (size_t k = 0; k < lengths.size(); ++k) lengths[k] = kBoundaryRuns[k % 4];
    } else if (c.gen == "skewed" && !lengths.empty()) {
      // Half the bytes in the middle run; the rest in short runs around it, drawn in place (no copy of its
      // own: 2^24 lengths in skewed-half), the second half then moved up one for the middle run.
      const size_t mid = lengths.size() / 2;
      const uint64_t big = total / 2;
      gen::run_lengths(lengths.first(lengths.size() - 1), total - big, seed, s1);
      std::copy_backward(lengths.begin() + static_cast<std::ptrdiff_t>(mid), lengths.end() - 1, lengths.end());
      lengths[mid] = static_cast<uint32_t>(big);
    } else {
      gen::run_lengths(lengths, total, seed, s1);
    }
  }

  Expected reference(const Case& c, const Buffers& b) const override {
    UninitVector<uint8_t> raw(static_cast<size_t>(c["raw_capacity"]));
    reference::rle_decode(b["compressed_data"].as<const uint8_t>(), b["compressed_lengths"].as<const uint32_t>(),
                          raw);
    Expected e;
    e.outputs.push_back(ExpectedOutput::exactly(std::move(raw)));
    e.ret = c["raw_capacity"];
    return e;
  }

  Tolerance tolerance(const Case&) const override { return {}; }

  // 5 bytes read per run (its byte and length), every raw byte written.
  Model model(const Case& c) const override {
    return {.bytes = 5.0 * static_cast<double>(c["compressed_count"]) + static_cast<double>(c["raw_capacity"])};
  }
};

HPCJUDGE_REGISTER_PROBLEM(RleDecompress);

}  // namespace
}  // namespace hpcjudge
