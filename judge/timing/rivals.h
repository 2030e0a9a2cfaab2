// Side by side: the problem's reference solutions timed in the same judge run
// as the submission, on the same inputs, one call right beside each of its
// timed calls (issue 16). A score is then a ratio measured in one run: the
// machine's drift, its clock and its load are common to both sides of it,
// where a scale cached from another run would carry that run's noise into
// every score.
//
// The fast reference is always timed beside; the baseline only where its
// cached medians are all under kBaselineBesideS (a slow baseline would take the
// case's whole budget: its cached medians are used, and the report says so).
// A rival runs as a submission does: its own runner, compiled by the same
// compiler with the same options, under the same wrapper (sandbox), on its own
// copy of the case's buffers laid out the same way; its output is checked on
// the first call. A rival that fails is withdrawn with a note, never a verdict
// on the submission.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "judge/files.h"
#include "judge/grading/grade_options.h"
#include "judge/grading/laid_case.h"
#include "judge/timing/score.h"
#include "judge/isolation/session.h"

namespace hpcjudge {

// A baseline slower than this per call (its cached median, on any case) is not timed beside.
inline constexpr double kBaselineBesideS = 0.02;

// The order of a side-by-side run's calls: kSubmissionCall for the submission's, k for rival k (0 the fast
// reference, 1 the baseline). A call's place in its run changes its time: on the H200 (each fast
// reference judged as a submission, HPCJUDGE_TRACE) a run's first call took 25-70 us more than its last, mostly
// between the runner's synchronise and its reply reaching the judge. With S F B on even runs and F B S on odd
// ones, the submission was last in half the runs and the fast reference never, and the fast reference judged
// as a submission scored 2.9 points over 100 in both grades of prefix-sum (its n16M at 0.94-0.97x its twin's
// time on odd runs). So the order goes through a cycle of call_order_cycle() runs in which the submission and
// the fast reference swap places in each pair of runs (S F B, F S B, B S F, B F S, S B F, F B S): each ratio of
// the submission to a rival is taken as often with either in front, at mirrored places, and each side is at
// each place as often as any other.
inline constexpr int kSubmissionCall = -1;
size_t call_order_cycle(size_t rivals);
std::vector<int> call_order(size_t run, size_t rivals);

class Rivals {
 public:
  // Spawns the rivals' runners, each for the library its compile will leave in a folder of its own; `session`
  // is the submission's session options (the rivals get the same threads, device, memory limit and, for their
  // own folder, the same wrapper). On the thread that the runners must not outlive: a runner dies with the
  // thread that started it (PR_SET_PDEATHSIG, judge/isolation/process.h).
  Rivals(const Problem& p, const Paths& paths, const GradeOptions& opt, const SessionOptions& session,
         const Scale& cached);
  ~Rivals();
  // Compiles each rival and launches its runner, each on a thread of its own (Session::launch), then makes them
  // ready one after another (Session::ready); one that fails is left out with a note. May run on another thread
  // than the constructor's (beside the submission's compile).
  void start(const Problem& p, const Paths& paths, const GradeOptions& opt, const std::string& arch,
             const std::string& machine_fingerprint, Listener& listener);

  size_t size() const { return members_.size(); }
  const std::string& role(size_t k) const { return members_[k]->role; }
  const Session& session(size_t k) const { return *members_[k]->session; }
  bool active(size_t k) const { return members_[k]->failure.empty(); }
  // Why rival k was withdrawn, or "".
  const std::string& failure(size_t k) const { return members_[k]->failure; }
  // What the report says of the rivals: who was timed beside, who was not and why.
  const std::vector<std::string>& notes() const { return notes_; }
  // Each rival's calls given the late-work allowance of the submission's timed runner `timed` (ready() made):
  // the same for every side of a ratio, as the round trip subtracted is (Session::late_work_as).
  void late_work_as(const Session& timed);
  // The rivals' sessions, to end together with the submission's (finish_together).
  std::vector<Session*> sessions() const;

  // Lays the case out in every active rival's session (its own workspace_size(),
  // the per-case inputs copied from the submission's, its own setup() where the problem has one).
  void lay_out(const Problem& p, const Case& c, const LaidCase& submission);
  // Puts the inputs now in the submission's laid-out case `sub` into every active rival's buffers, while
  // `loaded` (the submission's session) holds them loaded and not yet called on: on a GPU with the same
  // layout, copied on the device from the submission's buffers (one upload serves every runner), else
  // through the rival's own image. With a `stage` (the run's image on the device: Session::stage_image), a
  // rival whose buffers are the judge's on a device copies its own from it inside its call instead, right after
  // its lock (CallOptions::stage).
  void load(const Case& c, const LaidCase& sub, const Session& loaded, double limit,
            const JudgeDevice* stage = nullptr);
  // One timed call of rival k on the inputs load() put in place; the output checked when `check` holds
  // a reference, or left for check_beside() where its buffers were copied on the device from the submission's.
  // Returns the call's whole interval on the judge's clock, nothing subtracted (CallOutcome::interval_s: the
  // caller subtracts the submission's round trip, the same for every side), or nothing when the rival failed
  // (withdrawn). `quiet`: paused while it is timed.
  std::optional<double> call(size_t k, const Problem& p, const Case& c, const Against* check, double limit,
                             BackgroundWork* quiet = nullptr);
  // The checked calls call() left to check: each such rival's buffers read back into the submission's
  // session `sub` (its pinned read-back) and checked against its image, which holds the same inputs and
  // the same layout (Session::read_back_from). After the submission's own call has been checked.
  void check_beside(const Problem& p, const Case& c, const Against& check, Session& sub);
  // How a rival's runner was slowed from outside the judge since it started (Session::slowed_from_outside:
  // fewer CPUs, a higher nice value, SCHED_IDLE), by the first active rival found so, which is withdrawn; none
  // where none was. Only the submission's code runs as the judge's user while the rivals wait: a forgery of the
  // timing, which the caller makes the submission's verdict (FAIL), after each run, so that no run with a rival
  // slowed is ever scored.
  std::optional<std::string> slowed_from_outside();

 private:
  struct Member {
    std::string role;
    std::string source;
    TempDir dir;
    std::unique_ptr<Session> session;
    std::optional<LaidCase> laid;
    bool loaded = false;  // load() put this run's inputs in its buffers
    bool beside = false;  // load() copied them on the device from the submission's: checked against its image
    const JudgeDevice* stage = nullptr;  // or its call copies them from this run's stage (CallOptions::stage)
    std::optional<CallOutcome> unchecked;  // call() made a checked call that check_beside() checks
    std::string failure;
  };
  void withdraw(Member& m, const std::string& why);
  // Withdrawn for verdict `v` on case c.
  void withdraw(Member& m, const Case& c, Verdict v, const std::string& message);
  // Rival m's call `o` checked, its outputs at `result` (check_outputs); withdrawn unless AC.
  bool passes(Member& m, const Problem& p, const Case& c, const Against& check, const CallOutcome& o,
              const std::byte* result);
  std::vector<std::unique_ptr<Member>> members_;
  std::vector<std::string> notes_;
};

}  // namespace hpcjudge
