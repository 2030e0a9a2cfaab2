// A timed run's input set made ahead: while one run's calls are in flight, a
// thread of the judge's generates the next input set and computes its
// reference, so that a run's host work (up to 0.9 s on the H200 for the
// largest cases) overlaps the calls and uploads of the run before it.
//
// The next set is made in memory of the judge's own (a staging copy of the
// per-call inputs; the per-case inputs are read where they are, in the image,
// which no call writes), never in the runner's memory: no process of the
// submission can see it before its call, as before. A run takes it into the
// session's image only once the runner is stopped after the previous call.
//
// Only where no code of the judge's may run beside a timed call is it made
// when taken instead: a CPU problem, and a GPU problem emulated on the CPU
// (their timed calls use every core). Ahead, the maker's threads run under
// SCHED_IDLE: any other runnable thread (a runner, the judge's own checks)
// takes the CPU from them at once, so they use only CPUs that would be idle.
// And they are paused while a call is timed (BackgroundWork, given to each
// timed call as CallOptions::quiet): running beside the timed calls, they
// tripled the spread of scores on the H200 (vector-add's fast reference
// against itself 86.1 +- 27.4, reduction's 76.9 +- 36.0, where a grade with
// the sets made when taken gave +- 9.9 and +- 12.9). Each of their threads
// bears the name kThreadName (the maker's, inherited by the OpenMP team it
// starts); pause() sends each a signal whose handler sleeps until resume().
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>

#include "sdk/problem.h"
#include "judge/grading/laid_case.h"
#include "judge/isolation/background.h"

namespace hpcjudge {

class InputsAhead final : public BackgroundWork {
 public:
  static constexpr const char* kThreadName = "hpcjudge-ahead";  // at most 15 characters (a thread's comm)
  struct Options {
    bool ahead = false;  // make the next set on a thread while the run goes on (else when taken)
    bool spot = false;   // a spot-checked case: no reference to compute (Problem::spot_checked)
  };
  // `l` is the case laid out in the session's image; it outlives this object.
  InputsAhead(const Problem& p, const Case& c, const LaidCase& l, uint64_t seed, Options opt);
  ~InputsAhead() override;  // waits for a set still in the making
  InputsAhead(const InputsAhead&) = delete;
  InputsAhead& operator=(const InputsAhead&) = delete;

  struct Set {
    Expected expected;     // the reference's answer (empty for a spot-checked case)
    double generate_s = 0;   // generating it, wherever it was made
    double reference_s = 0;  // its reference
    double waited_s = 0;     // the taker's wait for it, and the copy into the image (0 when made when taken)
  };
  // Input set `set` in the image's buffers, and its reference; with opt.ahead, then starts on set + 1.
  // What the generator or the reference threw is thrown here.
  Set take(uint32_t set);
  // Every thread of the maker's asleep in a signal handler, within 50 ms (else it goes on regardless: a
  // signalled thread still waiting for a CPU, on a busy machine, finishes the system call or page fault it
  // was in once it gets one, then runs nothing but the handler); with opt.ahead false, nothing to do.
  void pause() override;
  void resume() override;
  // While paused: the maker's threads the pause signalled, and those of them asleep in the handler so far.
  uint64_t signalled() const { return paused_ ? signalled_ : 0; }
  uint64_t held() const;

 private:
  void make(const Buffers& into, uint32_t set, Set& out) const;
  void work();  // the maker's thread

  const Problem& p_;
  const Case& c_;
  const LaidCase& l_;
  const uint64_t seed_;
  const Options opt_;
  std::unique_ptr<std::byte[]> staging_;  // the per-call inputs of the set made ahead, at the image's offsets
  std::vector<size_t> per_call_;          // the buffers generated for each call (per-call inputs)

  std::mutex m_;
  std::condition_variable cv_;
  std::optional<uint32_t> asked_;  // the set the maker is asked for
  std::optional<Set> made_;         // what it made
  uint32_t made_set_ = 0;
  std::exception_ptr failed_;
  bool quit_ = false;
  std::thread maker_;
  bool paused_ = false;
  uint64_t arrived_before_ = 0;  // the handler's entries before this pause
  uint64_t signalled_ = 0;
};

}  // namespace hpcjudge
