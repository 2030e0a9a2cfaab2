// The runners a grade will need, started beside the submission's compile (issue 16: a GPU grade in under 10 s).
// A runner's start is mostly its process and, on a GPU, its CUDA context (on the H200 0.3-0.6 s each, and a grade
// has up to four: the functional tests', the performance cases', the fast reference's and the baseline's), and
// the compiler leaves the machine's other cores idle. So:
// - the runners' processes are spawned on the grade's own thread (a runner dies with the thread that started
//   it: PR_SET_PDEATHSIG), then, while the compiler runs, each on a thread of its own and all at once,
// - the functional tests' runner and the performance cases' runner are launched (Session::launch): nothing is
//   measured and no code of the submission's is loaded; their round trips, which every call has subtracted,
//   are measured later by Session::ready, on a machine as quiet as for the calls;
// - the rivals (judge/timing/rivals.h) are compiled and launched, then made ready one after another, where the
//   problem's scale is cached and need not be timed again (their round trips are subtracted from nothing:
//   Rivals::call);
// - and, on another thread, a GPU problem's image and read-back for the largest case are pinned into the
//   grade's pool (PinnedImages::prepare): 0.3-0.5 s a GiB on the H200, which the first load paid before.
// join() waits for that once the compile has ended, before any code of the submission's runs. Launches are the
// only exchanges that go on beside each other: they measure nothing, hold none of the grade's shared aids (the
// CPUs kept awake), and no code of a submission's has run to leave an orphan that two families would share.
#pragma once
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "judge/grading/laid_case.h"
#include "judge/timing/rivals.h"
#include "judge/timing/score.h"
#include "judge/isolation/session.h"

namespace hpcjudge {

struct EarlyRunnersPlan {
  bool timed = false;                 // a runner of its own for the performance cases (grade(): `fresh`)
  bool tests_timed = true;            // the functional tests' runner makes timed calls too (SessionOptions)
  std::optional<Scale> rivals_scale;  // the cached scale to start the rivals against, or none: no rivals now
  std::string arch;                   // the rivals' compile
  std::string machine_fingerprint;    // the rivals' compile cache
  // GPU: the memory the runners' largest image and read-back need, pinned meanwhile into the grade's pool
  // (SessionOptions::images; judge/isolation/pinned_images.h), where `copied` is not 0.
  LargestLayout pinned;
};

class EarlyRunners {
 public:
  // Spawns the plan's runners on this thread, then launches them on a thread of its own.
  EarlyRunners(const Problem& p, const Paths& paths, const GradeOptions& opt, const SessionOptions& session,
               const EarlyRunnersPlan& plan);
  EarlyRunners(const EarlyRunners&) = delete;
  EarlyRunners& operator=(const EarlyRunners&) = delete;
  ~EarlyRunners();
  // Waits for the launches (rethrowing what they threw); the rivals' notes go to `listener`.
  void join(Listener& listener);
  // Ends every runner still held here, all at once (a compile that failed).
  void end();

  std::unique_ptr<Session> tests;  // launched (after join()); Session::ready() says how that went
  std::unique_ptr<Session> timed;  // launched, where the plan asked for it
  std::unique_ptr<Rivals> rivals;  // started whole, where the plan gave a scale

 private:
  std::vector<std::string> notes_;
  std::future<void> launching_, pinning_;
};

}  // namespace hpcjudge
