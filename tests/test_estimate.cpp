// The GPU estimate (judge/estimate/): the model's arithmetic on counts whose answer is known, the score's mapping,
// and that an estimate stays out of every score (the report's, Gradescope's, JUnit's).
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "judge/estimate/estimate.h"
#include "judge/estimate/gpu_model.h"
#include "judge/estimate/kernel_time.h"
#include "judge/estimate/registers.h"
#include "judge/reports/course.h"
#include "judge/reports/report.h"
#include "sdk/problem.h"

using namespace hpcjudge;
using protocol::KernelCounts;

namespace {

const GpuModel& h100() { return *find_gpu_model("h100-sxm"); }

// A kernel reading `bytes` of floats once, one float per lane, 256-thread blocks: `sectors_per_request` 4 is
// coalesced (a warp's 128 bytes in 4 sectors), 32 is each lane in a sector of its own (a thread walking its
// own chunk); each sector is read `sectors_per_request` / 4 times, so distinct sectors stay bytes / 32.
KernelCounts streaming(double bytes, uint64_t sectors_per_request) {
  KernelCounts k;
  k.name = "stream";
  k.launches = 1;
  k.block[0] = 256;
  k.threads = static_cast<uint64_t>(bytes / 4);
  k.grid[0] = static_cast<uint32_t>(k.threads / 256);
  k.global.requests = static_cast<uint64_t>(bytes / 128);
  k.global.sectors = k.global.requests * sectors_per_request;
  k.global.bytes_requested = static_cast<uint64_t>(bytes);
  k.global.distinct_sectors = static_cast<uint64_t>(bytes / 32);
  k.warp_instructions = k.global.requests;
  k.active_lanes = 32 * k.warp_instructions;
  return k;
}

}  // namespace

TEST_CASE("the GPU models: three named, each with its rates", "[estimate]") {
  REQUIRE(find_gpu_model(kDefaultGpuModel) == &gpu_models().front());
  for (const char* name : {"h100-sxm", "h200", "rtx-4090"}) {
    const GpuModel* m = find_gpu_model(name);
    REQUIRE(m != nullptr);
    CHECK(m->dram_bytes_per_s > 0);
    CHECK(m->l2_bytes_per_s > m->dram_bytes_per_s);
    CHECK(m->sms > 0);
    CHECK(m->uncertainty_factor > 1);
  }
  CHECK(find_gpu_model("h100") == nullptr);
  CHECK(gpu_model_names() == "h100-sxm, h200, rtx-4090");
  // The H200 is the H100's SM with faster memory.
  CHECK(find_gpu_model("h200")->dram_bytes_per_s > h100().dram_bytes_per_s);
}

TEST_CASE("a coalesced kernel moving N bytes takes about N over the H100's DRAM bandwidth", "[estimate]") {
  const double n = 1e9;
  const KernelEstimate e = estimate_kernel(streaming(n, 4), h100(), {});
  CHECK(e.bound == "DRAM");
  CHECK(e.coalescing == Catch::Approx(1));
  CHECK(e.sectors_per_request == Catch::Approx(4));
  CHECK(e.dram_bytes == Catch::Approx(n));
  CHECK(e.utilisation == Catch::Approx(1));
  // Between the datasheet's 3.35 TB/s and the measured copy's 3.03 TB/s, less 2%: one launch and the last wave.
  CHECK(e.seconds >= n / 3.35e12);
  CHECK(e.seconds <= 1.02 * n / 3.03e12);
}

TEST_CASE("an uncoalesced kernel (a thread walking its own chunk) takes at least 4 times the coalesced one", "[estimate]") {
  const double n = 1e9;
  const KernelEstimate coalesced = estimate_kernel(streaming(n, 4), h100(), {});
  const KernelEstimate chunked = estimate_kernel(streaming(n, 32), h100(), {});
  CHECK(chunked.coalescing <= 0.25);
  CHECK(chunked.sectors_per_request == Catch::Approx(32));
  CHECK(chunked.seconds >= 4 * coalesced.seconds);
  // 1 GB is past L2's 50 MB: the sectors read again come from DRAM in proportion to what L2 cannot hold.
  CHECK(chunked.bound == "DRAM");
  CHECK(chunked.dram_bytes == Catch::Approx(n + 7 * n * (1 - 50e6 / n)));
  // Within L2's capacity they come from L2: DRAM moves the distinct bytes once.
  const KernelEstimate small = estimate_kernel(streaming(1e7, 32), h100(), {});
  CHECK(small.dram_bytes == Catch::Approx(1e7));
  CHECK(small.bound == "L2");
}

TEST_CASE("bank conflicts cost shared-memory wavefronts; a broadcast or padded tile none", "[estimate]") {
  KernelCounts k = streaming(1e6, 4);
  k.shared.requests = 1'000'000'000;
  k.shared.wavefronts = k.shared.requests;
  k.shared.max_degree = 1;
  const KernelEstimate padded = estimate_kernel(k, h100(), {});
  k.shared.wavefronts = 32 * k.shared.requests;
  k.shared.max_degree = 32;
  const KernelEstimate conflicting = estimate_kernel(k, h100(), {});
  CHECK(padded.bank_conflict_degree == Catch::Approx(1));
  CHECK(conflicting.bank_conflict_degree == Catch::Approx(32));
  CHECK(conflicting.bound == "shared memory");
  CHECK(conflicting.shared_s == Catch::Approx(32 * padded.shared_s));
  CHECK(conflicting.seconds >= 8 * padded.seconds);
}

TEST_CASE("a grid too small to fill the GPU is slower per byte; a launch costs its latency", "[estimate]") {
  KernelCounts one_block = streaming(256 * 4, 4);  // one block of 256 threads
  one_block.global.requests = one_block.global.sectors = 0;  // nothing moved: the launch alone
  one_block.global.distinct_sectors = one_block.warp_instructions = 0;
  CHECK(estimate_kernel(one_block, h100(), {}).seconds == Catch::Approx(h100().launch_s));
  KernelCounts small = streaming(1e6, 4);
  small.threads = 256;  // one block does all the work
  const KernelEstimate e = estimate_kernel(small, h100(), {});
  CHECK(e.utilisation == Catch::Approx(8.0 / (132 * kSaturatingWarps)));
  CHECK(e.seconds > 100 * estimate_kernel(streaming(1e6, 4), h100(), {}).seconds - 100 * h100().launch_s);
  // Scaled to a larger case, a one-block grid stays one block (a one-block scan), where a grid of two grows.
  const Scaling larger{.work = 1000, .traffic = 1000};
  CHECK(estimate_kernel(small, h100(), larger).utilisation == Catch::Approx(e.utilisation));
  KernelCounts two = small;
  two.threads = 512;
  CHECK(estimate_kernel(two, h100(), larger).utilisation == Catch::Approx(1));
  // Shared memory per block limits the blocks an SM holds.
  small.dynamic_shared_bytes = 100'000;
  CHECK(estimate_kernel(small, h100(), {}).blocks_per_sm == 2);
}

TEST_CASE("atomics on one word queue one after another; on words of their own they cost no more than their bytes", "[estimate]") {
  // 2^20 blocks of 256 threads read 1 GiB; each block's thread 0 adds its sum into one word (a reduction's
  // atomicAdd) or into a word of its own.
  KernelCounts one_word = streaming(1 << 30, 4);
  one_word.atomics.count = one_word.threads / 256;
  one_word.atomics.max_same_address = one_word.atomics.max_same_address_floating = one_word.atomics.count;
  KernelCounts own_words = one_word;
  own_words.atomics.max_same_address = own_words.atomics.max_same_address_floating = 1;
  // Integer atomics on one word: a warp's combined into one by the compiler, not charged.
  KernelCounts ints = one_word;
  ints.atomics.max_same_address_floating = 0;
  const KernelEstimate queued = estimate_kernel(one_word, h100(), {}), apart = estimate_kernel(own_words, h100(), {});
  CHECK(apart.bound == "DRAM");
  CHECK(apart.seconds < 1.02 * (1 << 30) / h100().dram_bytes_per_s);
  CHECK(queued.atomic_s == Catch::Approx(double(1 << 20) * h100().same_address_atomic_s));
  CHECK(queued.bound == "atomics on one address");
  CHECK(queued.seconds > 4 * apart.seconds);
  CHECK(estimate_kernel(ints, h100(), {}).seconds == Catch::Approx(apart.seconds));
  // Scaled with the work, as every count is.
  CHECK(estimate_kernel(one_word, h100(), {.work = 4, .traffic = 4}).atomic_s == Catch::Approx(4 * queued.atomic_s));
}

TEST_CASE("scaling multiplies the work, not the launches and synchronisations", "[estimate]") {
  protocol::EmulationCounts c;
  c.launches = 1;
  c.host_syncs = 1;
  c.kernels.push_back(streaming(10 * 132 * 8 * 256 * 4, 4));  // 10 whole waves of 8 blocks per SM: no tail
  const CallEstimate one = estimate_call(c, h100(), {}, 0);
  const CallEstimate ten = estimate_call(c, h100(), {.work = 10, .traffic = 10}, 0);
  const double fixed = h100().launch_s + h100().host_sync_s + h100().call_overhead_s;
  CHECK(ten.seconds - fixed == Catch::Approx(10 * (one.seconds - fixed)).epsilon(0.02));
  // The problem's FLOPs at the FP32 peak are a floor.
  const CallEstimate flops = estimate_call(c, h100(), {}, 1e12);
  CHECK(flops.seconds >= 1e12 / h100().fp32_flops_per_s);
}

TEST_CASE("the estimated score maps the ratio as the measured score does", "[estimate]") {
  const Problem& p = *Registry::find("vector-add");
  Estimate e;
  e.gpu = &h100();
  e.cases.modelled = p.benchmarks().back();
  e.submission.seconds = 1e-3;
  e.fast_s = 1e-3;
  e.baseline_s = 8e-3;
  estimate_score(p, e);
  REQUIRE(e.score);
  // The fast reference's own time: all the points, and the interval holds them.
  CHECK(*e.score == Catch::Approx(p.info().points.total()));
  CHECK(*e.score_lo <= p.info().points.total());
  CHECK(*e.score_hi >= p.info().points.total());
  // The model's factor of 2 over a span of 8: a third of the performance points either way.
  CHECK(*e.score - *e.score_lo == Catch::Approx(p.info().points.performance / 3));
  e.submission.seconds = 8e-3;
  estimate_score(p, e);
  CHECK(*e.score == Catch::Approx(p.info().points.correctness));
  e.fast_s.reset();
  e.score.reset();
  estimate_score(p, e);
  CHECK_FALSE(e.score);  // no reference's estimate: no score
}

TEST_CASE("an estimate never enters the report's score, Gradescope's or JUnit's", "[estimate]") {
  const Problem& p = *Registry::find("vector-add");
  Report r;
  r.problem = "vector-add";
  r.verdict = Verdict::AC;
  r.emulated = true;
  r.score.correctness = p.info().points.correctness;
  r.score.max = p.info().points.total();
  Estimate e;
  e.gpu = &h100();
  e.score = 97;
  e.score_lo = 90;
  e.score_hi = 100;
  r.estimate = e.to_json();
  const nlohmann::json j = r.to_json();
  CHECK(j["emulation"]["estimate"]["score"] == 97);
  CHECK(j["score"]["total"] == p.info().points.correctness);
  CHECK(j["score"]["performance"] == 0);
  const nlohmann::json gs = gradescope_results(p, j);
  double sum = 0;
  for (const auto& t : gs["tests"]) sum += t.value("score", 0.0);
  CHECK(sum <= p.info().points.correctness);
  CHECK(gs["score"] == p.info().points.correctness);
  CHECK(gs.dump().find("estimate") == std::string::npos);
  const JUnitSuite suite = junit_testsuite(p, j);
  CHECK(junit_document("hpcjudge", {suite}).find("estimate") == std::string::npos);
}

TEST_CASE("an estimate with nothing counted says why, and models no time", "[estimate]") {
  const Problem& p = *Registry::find("vector-add");
  Estimate e;
  e.gpu = &h100();
  e.cases.modelled = p.benchmarks().back();
  e.note = "no estimate: the emulated case n1 could not be counted (solve() did not return within 80 s)";
  const nlohmann::json j = e.to_json();
  CHECK(j["seconds"].is_null());
  const std::vector<std::string> lines = estimate_lines(j);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find("none (no estimate: the emulated case n1 could not be counted") != std::string::npos);
  e.submission.seconds = 2e-3;  // counted: the modelled time is said
  const std::vector<std::string> counted = estimate_lines(e.to_json());
  REQUIRE(counted.size() == 2);
  CHECK(counted[1].find("modelled from") != std::string::npos);
}

TEST_CASE("a kernel's registers: ptxas's names matched to the emulator's launches, and fewer blocks per SM", "[estimate]") {
  std::vector<KernelResources> ptxas(3);
  ptxas[0].name = "tiled<32>(float const*, float*)";
  ptxas[0].registers = 40;
  ptxas[1].name = "tiled<16>(float const*, float*)";
  ptxas[1].registers = 72;
  ptxas[2].name = "add(float const*, float const*, float*, int)";
  ptxas[2].registers = 16;
  const KernelRegisters regs = registers_by_kernel(ptxas);
  CHECK(registers_of(regs, "add") == 16);
  CHECK(registers_of(regs, "tiled<32>") == 40);          // an instantiation as launched
  CHECK(registers_of(regs, "tiled<TILE>") == 72);        // as written: the most among its instantiations
  CHECK_FALSE(registers_of(regs, "other").has_value());
  // Demangled as c++filt shows nvcc's _ZN41_GLOBAL__N__180b0c16_11_solution_cu_solve6reduceEPKfxbPf.
  KernelResources anonymous;
  anonymous.name = "(anonymous namespace)::reduce(float const*, long long, bool, float*)";
  anonymous.registers = 31;
  CHECK(registers_by_kernel({anonymous})[0].first == "reduce");
  CHECK(registers_of(registers_by_kernel({anonymous}), "reduce") == 31);
  anonymous.name = "ns::inner::tiled<a::b>(float*)";  // a namespace's kernel launched unqualified
  CHECK(registers_of(registers_by_kernel({anonymous}), "tiled<a::b>") == 31);
  // 256 threads a block: 2048 threads an SM allow 8 blocks; 64 registers a thread allow 65536 / (64 x 256) = 4.
  KernelCounts k = streaming(1e8, 4);
  CHECK(estimate_kernel(k, h100(), {}).blocks_per_sm == 8);
  CHECK(estimate_kernel(k, h100(), {}, 64).blocks_per_sm == 4);
  CHECK(estimate_kernel(k, h100(), {}, 64).registers == 64);
  const protocol::EmulationCounts call{.kernels = {k}};  // k is named "stream"
  CHECK(estimate_call(call, h100(), {}, 0, {{"stream", 128}}).kernels[0].blocks_per_sm == 2);
}
