// What a problem is. A problem's own code (problems/<slug>/problem.cpp) says
// only what differs from every other problem: its buffers and scalars in
// signature order, its cases, how inputs are generated, the reference, the
// tolerance and the traffic or FLOP model. Allocation, sentinels, guards,
// calling solve(), checking, timing and reporting are the sdk's, the runner's and the
// judge's, written once and driven by this description.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "sdk/checker.h"
#include "sdk/invoke.h"
#include "sdk/timing.h"
#include "sdk/uninitialized.h"

namespace hpcjudge {

enum class DType : uint8_t { F32, U8, U32, I32 };
size_t dtype_size(DType t);

// In: filled by the judge, read-only for solve. Out: filled with a sentinel,
// checked after the call. Workspace: scratch memory the judge allocates for
// solve (its size asked of the submission's workspace_size()), neither read
// nor checked, filled with garbage before every call; in a signature with a
// setup() (Signature::setup), filled with garbage once, before setup(), and
// kept from there through that case's calls of solve().
enum class Role : uint8_t { In, Out, Workspace };
enum class Kind : uint8_t { CPU, GPU };
const char* kind_name(Kind k);

// One test or performance case: named sizes, and the generator that fills its inputs.
struct Case {
  std::string name;
  std::vector<std::pair<std::string, int64_t>> sizes;  // in the order they are printed
  std::string gen = "uniform";
  int min_cores = 1;  // performance cases that only a larger machine runs
  int64_t operator[](std::string_view key) const;
  std::string size_string() const;  // "M=7 N=13 K=11"
};

// The case of one size N, named by it: {"n1000", {{"N", 1000}}}. (Built by appending:
// `"n" + std::to_string(n)` sets off g++ 12's false -Wrestrict, GCC bug 105329.)
inline Case sized_case(int64_t n) {
  std::string name = "n";
  name += std::to_string(n);
  return {std::move(name), {{"N", n}}};
}

struct BufferSpec {
  std::string name;
  DType type = DType::F32;
  Role role = Role::In;
  size_t count = 0;
  size_t cols = 0;  // row length of a row-major matrix, for reports; 0 for vectors
  // An input that stays for the whole case (Problem::generate_case fills it once,
  // before setup()); the other inputs are the call's own, fresh for every input set.
  bool per_case = false;
  size_t bytes() const { return count * dtype_size(type); }
  bool case_input() const { return role == Role::In && per_case; }   // laid out once per case
  bool call_input() const { return role == Role::In && !per_case; }  // fresh for every input set
};

// solve()'s arguments in order: each is a buffer (an index into buffers) or a scalar.
struct Arg {
  int buffer = -1;
  int64_t scalar = 0;
};

// A scalar argument whose value the generator chooses for each input set: it
// writes the value into the one-element I32 input buffer `buffer`, and the
// judge passes that value to solve() (LaidCase fills it in before each call).
struct GeneratedScalar {
  size_t arg = 0;  // its position in Signature::args
  int buffer = -1;
};

struct Signature {
  std::vector<BufferSpec> buffers;
  std::vector<Arg> args;
  // The arguments of workspace_size() when the signature has a workspace.
  std::vector<int64_t> workspace_args;
  // The positions in `args` of setup()'s arguments, in its order; empty: no setup().
  std::vector<int> setup_args;
  std::vector<GeneratedScalar> generated;
  Signature& in(std::string name, DType t, size_t count, size_t cols = 0);
  // An input of the whole case (BufferSpec::per_case).
  Signature& in_per_case(std::string name, DType t, size_t count, size_t cols = 0);
  Signature& out(std::string name, DType t, size_t count, size_t cols = 0);
  Signature& scalar(int64_t value);
  // An int scalar the generator sets per input set, in the one-element buffer `name` (GeneratedScalar).
  Signature& generated_scalar(std::string name);
  // A `void*` scratch buffer of workspace_size(size_args...) bytes (count 0 until the judge asks).
  Signature& workspace(std::string name, std::vector<int64_t> size_args);
  // An optional, untimed setup() the judge calls once per case before the timed
  // calls, with these of solve()'s arguments (positions in args, in setup()'s order):
  // the per-case inputs and the workspace, which it may fill for solve() to read.
  Signature& setup(std::vector<int> arg_positions);
  bool has_setup() const { return !setup_args.empty(); }
  int workspace_index() const;  // -1 without one
  size_t input_bytes() const;   // the bytes of every input buffer together
  size_t total_bytes() const;   // of every buffer
};

// A buffer's bytes, typed on demand.
struct BufferView {
  const BufferSpec* spec = nullptr;
  std::byte* data = nullptr;
  template <class T>
  std::span<T> as() const {
    return {reinterpret_cast<T*>(data), spec->count};
  }
};

// The buffers of one call, in Signature::buffers order.
class Buffers {
 public:
  explicit Buffers(std::vector<BufferView> views) : views_(std::move(views)) {}
  const BufferView& operator[](std::string_view name) const;
  std::span<float> f32(std::string_view name) const { return (*this)[name].as<float>(); }
  const std::vector<BufferView>& all() const { return views_; }

 private:
  std::vector<BufferView> views_;
};

// The reference's answer for one output buffer. Its arrays are the reference's own, taken over without a copy
// and never zeroed first (sdk/uninitialized.h): the reference writes every element.
struct ExpectedOutput {
  ExpectedOutput() = default;
  // Moved, never copied: an answer is up to a few GiB.
  ExpectedOutput(ExpectedOutput&&) = default;
  ExpectedOutput& operator=(ExpectedOutput&&) = default;
  UninitVector<double> values;  // a float output: compared within the tolerance
  UninitVector<double> bound;   // per element, added to the tolerance's atol (an error bound per element), or empty
  std::span<const std::byte> exact;  // an integer output: its exact bytes, in the buffer's own type (held below)
  std::shared_ptr<const void> exact_owner;
  size_t count = 0;  // the elements checked, from the first (solve may use the rest freely)
  static ExpectedOutput close(UninitVector<double> values, UninitVector<double> bound = {});
  // The reference's integer answer, taken over: no copy of the elements.
  template <class T, class Alloc>
  static ExpectedOutput exactly(std::vector<T, Alloc>&& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    auto owner = std::make_shared<std::vector<T, Alloc>>(std::move(values));
    ExpectedOutput o;
    o.count = owner->size();
    o.exact = std::as_bytes(std::span<const T>(*owner));
    o.exact_owner = std::move(owner);
    return o;
  }
};

// The reference's answer: every output buffer's, in Signature::buffers order of
// the outputs, and for a solve() that returns a count, that count.
struct Expected {
  Expected() = default;
  // One output, taken over: `return {{ExpectedOutput::close(std::move(y))}};`. Without this constructor that
  // brace list would build `outputs` from a std::initializer_list, whose elements are const and so copied (the
  // whole answer, once more, on one core).
  Expected(ExpectedOutput one) { outputs.push_back(std::move(one)); }
  std::vector<ExpectedOutput> outputs;
  std::optional<int64_t> ret;
};

struct Model {
  double bytes = 0;  // minimal traffic: each input read once, each output written once
  double flops = 0;  // 0 for bandwidth-bound problems
  double edges = 0;  // a graph traversal: the edges it counts as traversed (GTEPS = edges / time / 10^9); else 0
};

struct Points {
  double correctness = 0;  // given only with AC on every functional test
  double performance = 0;  // scaled between the baseline and the fast reference
  double total() const { return correctness + performance; }
};

// A bar the fast reference solution must clear in make bench: at least
// `at_least` of its anchor on the performance case `on`: a case's name, "*"
// (every case) or "largest" (the case with the most work, FLOPs or else bytes,
// among those this machine runs). A problem may set several (softmax-gpu: one
// for its largest case, one for its smallest); a case takes the first that
// names it.
// The anchor is "vendor" (the vendor anchor's time over the fast reference's:
// 0.9 means within 90% of the vendor's speed) or "peak" (the fraction of the
// machine's measured peak). No anchor: no target.
struct BenchTarget {
  std::string anchor;
  double at_least = 0;
  std::string on = "largest";
};

struct ProblemInfo {
  std::string slug;
  std::string title;
  Kind kind = Kind::CPU;
  std::string source_ext;  // "cpp" or "cu": the starter is problems/<slug>/solution.<ext>
  Points points;
  double test_time_limit_s = 5;    // wall clock per solve() call on a functional test
  double bench_time_limit_s = 60;  // wall clock per solve() call on a performance case
  double tests_time_limit_s = 30;  // solve() time over all the functional tests together
  double setup_time_limit_s = 10;  // wall clock per setup() call (problems whose signature has one)
  TimingPolicy timing;
  std::string tolerance_why;  // the error bound behind tolerance()
  // Run compute-sanitizer's racecheck and synccheck on the small tests
  // whenever it is installed (a reported hazard is RE).
  bool race_check = false;
  // Libraries beyond the standard library and OpenMP or the CUDA runtime that a
  // submission may use, by family name ("cub", "cublas", ...; see judge/grading/libraries.h).
  std::vector<std::string> allowed_libraries;
  // Workspace limit: this many bytes per byte of input plus workspace_floor_bytes
  // (so arrays aligned to 256 bytes fit at tiny sizes); workspace_size() asking for more is MLE.
  double workspace_per_input_byte = 16;
  size_t workspace_floor_bytes = size_t{4} << 20;
  // Keep reference answers on disk (slow references, such as attention at N = 16,384).
  bool cache_reference = false;
  // The names generate() knows, the one its last branch (any other name) gives
  // first; a name ending in ':' is a family taking a parameter ("runs:" for
  // "runs:8"). Every case names one of them (tests/test_problems.cpp checks
  // it, and that each other name gives other inputs than the last branch), so
  // a misspelt name cannot fall through to the default unnoticed.
  std::vector<std::string> generators = {"uniform"};
  std::vector<BenchTarget> bench_targets;
  // CPU emulation (judge --emulate) runs a functional test only while its model
  // stays under these (traffic in bytes, FLOPs); a larger one is skipped, listed with the
  // reason, so that a problem's functional tests finish within a minute on two cores.
  double emulation_max_bytes = 64e6;
  double emulation_max_flops = 1e8;
  // The functional test on which an emulated grade estimates the GPU's time (judge/estimate/), scaled from there
  // to the largest performance case; empty: the largest functional test under the emulation limits with that
  // case's generator (else with any).
  std::string estimate_case;
};

class Problem {
 public:
  virtual ~Problem() = default;
  virtual const ProblemInfo& info() const = 0;
  virtual std::vector<Case> tests() const = 0;
  virtual std::vector<Case> benchmarks() const = 0;
  virtual Signature signature(const Case& c) const = 0;
  // Fills the per-case input buffers (BufferSpec::per_case), once per case, before setup() and every input set.
  virtual void generate_case(const Case&, uint64_t /*seed*/, const Buffers&) const {}
  // Fills the other input buffers for input set `set` (0 and 1 for the tests; each timed call its own, 2, 3, ...).
  virtual void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& bufs) const = 0;
  // The exact answer (double precision) for the inputs in bufs, one vector per output buffer.
  virtual Expected reference(const Case& c, const Buffers& bufs) const = 0;
  virtual Tolerance tolerance(const Case& c) const = 0;
  // Cases whose reference is too slow to compute for every timed call (every
  // timed call has fresh inputs): their timed outputs get a randomised check
  // instead, which a wrong output passes with negligible probability
  // (Freivalds' check for a matmul, sampled rows for attention).
  virtual bool spot_checked(const Case&) const { return false; }
  // "" when the outputs in bufs pass; else what is wrong. `draw` seeds the
  // random choices: the judge draws it afresh, so they cannot be predicted.
  virtual std::string spot_check(const Case&, const Buffers&, uint64_t /*draw*/) const { return ""; }
  virtual Model model(const Case& c) const = 0;
  // The model for one input set, where the traffic depends on the data (the runs
  // of a run-length code); by default model(c).
  virtual Model model_of(const Case& c, const Expected&) const { return model(c); }
  // Device memory solve() may hold allocated at any moment (cudaMalloc and kin
  // inside solve, counted by the runner); more is MLE. Default: as much as the
  // case's buffers together, plus 64 MiB.
  virtual size_t device_memory_limit(const Case& c, const Signature& sig) const;
  // The most workspace_size() may ask for (ProblemInfo::workspace_per_input_byte, workspace_floor_bytes).
  size_t workspace_limit(const Signature& sig) const;
  // Calls the submission's solve (the symbol `solve` of the loaded library).
  virtual int64_t invoke(void* solve, std::span<const ArgValue> args) const = 0;
  // Calls its workspace_size (for problems whose signature has a workspace).
  virtual int64_t invoke_workspace_size(void*, std::span<const ArgValue>) const { return 0; }
  // Calls its setup (for problems whose signature has one).
  virtual void invoke_setup(void*, std::span<const ArgValue>) const {}
  // Whether setup() is part of the problem: then workspace_size() and setup() are
  // optional symbols (a submission without them gets no workspace and no setup call).
  virtual bool has_setup() const { return false; }
};

// The base every problem derives from: Fn is the function type in its header,
// `decltype(solve)`, so the call is type-checked against the header itself.
// WorkspaceFn, where the problem has one, is `decltype(workspace_size)`;
// SetupFn, where it has one, `decltype(setup)`.
template <class Fn, class WorkspaceFn = void, class SetupFn = void>
class ProblemOf : public Problem {
 public:
  int64_t invoke(void* solve, std::span<const ArgValue> args) const override {
    return invoke_symbol<Fn>(solve, args);
  }
  int64_t invoke_workspace_size(void* f, std::span<const ArgValue> args) const override {
    if constexpr (std::is_void_v<WorkspaceFn>) return 0;
    else return invoke_symbol<WorkspaceFn>(f, args);
  }
  void invoke_setup(void* f, std::span<const ArgValue> args) const override {
    if constexpr (!std::is_void_v<SetupFn>) invoke_symbol<SetupFn>(f, args);
  }
  bool has_setup() const override { return !std::is_void_v<SetupFn>; }
};

// A member of a family of problems (problems/families/: softmax, matmul, spmv, bfs): the family's class is the
// description (signature, inputs, reference, tolerance), and each member passes its own info and cases to it.
template <class Fn, class WorkspaceFn = void, class SetupFn = void>
class FamilyProblem : public ProblemOf<Fn, WorkspaceFn, SetupFn> {
 public:
  FamilyProblem(ProblemInfo info, std::vector<Case> tests, std::vector<Case> bench)
      : info_(std::move(info)), tests_(std::move(tests)), bench_(std::move(bench)) {}
  const ProblemInfo& info() const override { return info_; }
  std::vector<Case> tests() const override { return tests_; }
  std::vector<Case> benchmarks() const override { return bench_; }

 protected:
  ProblemInfo info_;  // the family's constructor completes it (its tolerance's reason, its generators)

 private:
  std::vector<Case> tests_, bench_;
};

// The generator stream for one input buffer of one case and input set: distinct
// cases, sets and buffers get independent data from the same seed.
uint32_t input_stream(const Case& c, uint32_t set, uint32_t buffer);

class Registry {
 public:
  static void add(std::unique_ptr<Problem> p);
  static std::vector<const Problem*> all();  // sorted by slug
  static const Problem* find(std::string_view slug);
};

#define HPCJUDGE_REGISTER_PROBLEM(Type) \
  static const bool hpcjudge_registered_##Type = (::hpcjudge::Registry::add(std::make_unique<Type>()), true)

}  // namespace hpcjudge
