// What a problem is. A problem's own code (problems/<slug>/problem.cpp) says
// only what differs from every other problem: its buffers and scalars in
// signature order, its cases, how inputs are generated, the reference, the
// tolerance and the traffic or FLOP model. Allocation, sentinels, guards,
// calling solve(), checking, timing and reporting are the harness's and the
// judge's, written once and driven by this description.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "checker.h"
#include "invoke.h"
#include "timing.h"

namespace hpcjudge {

enum class DType : uint8_t { F32, U8, U32 };
size_t dtype_size(DType t);

enum class Role : uint8_t { In, Out };
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

struct BufferSpec {
  std::string name;
  DType type = DType::F32;
  Role role = Role::In;
  size_t count = 0;
  size_t cols = 0;  // row length of a row-major matrix, for reports; 0 for vectors
  size_t bytes() const { return count * dtype_size(type); }
};

// solve()'s arguments in order: each is a buffer (an index into buffers) or a scalar.
struct Arg {
  int buffer = -1;
  int64_t scalar = 0;
};

struct Signature {
  std::vector<BufferSpec> buffers;
  std::vector<Arg> args;
  Signature& in(std::string name, DType t, size_t count, size_t cols = 0);
  Signature& out(std::string name, DType t, size_t count, size_t cols = 0);
  Signature& scalar(int64_t value);
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

// The reference's answer for each output buffer, in Signature::buffers order of the outputs.
using Expected = std::vector<std::vector<double>>;

struct Model {
  double bytes = 0;  // minimal traffic: each input read once, each output written once
  double flops = 0;  // 0 for bandwidth-bound problems
};

struct Points {
  double correctness = 0;  // given only with AC on every functional test
  double performance = 0;  // scaled between the baseline and the fast reference
  double total() const { return correctness + performance; }
};

struct ProblemInfo {
  std::string slug;
  std::string title;
  Kind kind = Kind::CPU;
  std::string source_ext;  // "cpp" or "cu": the starter is problems/<slug>/solution.<ext>
  Points points;
  double test_time_limit_s = 5;    // wall clock per solve() call on a functional test
  double bench_time_limit_s = 60;  // wall clock per solve() call on a performance case
  TimingPolicy timing;
  std::string tolerance_why;  // the error bound behind tolerance()
  // Run compute-sanitizer's racecheck and synccheck on the small tests
  // whenever it is installed (a reported hazard is RE).
  bool race_check = false;
  // Libraries beyond the standard library and OpenMP or the CUDA runtime that a
  // submission may use, by family name ("cub", "cublas", ...; see judge/libraries.h).
  std::vector<std::string> allowed_libraries;
};

class Problem {
 public:
  virtual ~Problem() = default;
  virtual const ProblemInfo& info() const = 0;
  virtual std::vector<Case> tests() const = 0;
  virtual std::vector<Case> benchmarks() const = 0;
  virtual Signature signature(const Case& c) const = 0;
  // Fills the input buffers for input set `set` (0 for tests; timed runs alternate sets).
  virtual void generate(const Case& c, uint64_t seed, uint32_t set, const Buffers& bufs) const = 0;
  // The exact answer (double precision) for the inputs in bufs, one vector per output buffer.
  virtual Expected reference(const Case& c, const Buffers& bufs) const = 0;
  virtual Tolerance tolerance(const Case& c) const = 0;
  virtual Model model(const Case& c) const = 0;
  // Calls the submission's solve (the symbol `solve` of the loaded library).
  virtual int64_t invoke(void* solve, std::span<const ArgValue> args) const = 0;
};

// The base every problem derives from: Fn is the function type in its header,
// `decltype(solve)`, so the call is type-checked against the header itself.
template <class Fn>
class ProblemOf : public Problem {
 public:
  int64_t invoke(void* solve, std::span<const ArgValue> args) const override {
    return invoke_symbol<Fn>(solve, args);
  }
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
