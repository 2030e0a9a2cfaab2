#include "judge/grading/early_runners.h"

#include <cstdio>

#include "sdk/timing.h"

namespace hpcjudge {

namespace {

// The rivals' notes, kept for the grade's own listener: a listener is not written to from two threads.
class KeptNotes final : public Listener {
 public:
  explicit KeptNotes(std::vector<std::string>& into) : into_(into) {}
  void note(const std::string& n) override { into_.push_back(n); }

 private:
  std::vector<std::string>& into_;
};

}  // namespace

EarlyRunners::EarlyRunners(const Problem& p, const Paths& paths, const GradeOptions& opt,
                           const SessionOptions& session, const EarlyRunnersPlan& plan) {
  SessionOptions tests_options = session;
  tests_options.timed_calls = plan.tests_timed;
  if (plan.timed) tests_options.common_arena = nullptr;  // the performance cases have a runner of their own
  tests = std::make_unique<Session>(paths, p, tests_options);
  if (plan.timed) timed = std::make_unique<Session>(paths, p, session);
  if (plan.rivals_scale) rivals = std::make_unique<Rivals>(p, paths, opt, session, *plan.rivals_scale);
  launching_ = std::async(std::launch::async, [this, &p, &paths, opt, plan] {
    // Every runner launched at once, each on a thread of its own (the rivals' in Rivals::start): a launch
    // measures nothing, and one after another they were the grade's wait past a compile taken from the cache.
    const auto launch = [](Session* s) { return std::async(std::launch::async, [s] { s->launch(60); }); };
    std::future<void> launched_tests = launch(tests.get());
    std::future<void> launched_timed = timed ? launch(timed.get()) : std::future<void>{};
    if (rivals) {
      KeptNotes notes(notes_);
      rivals->start(p, paths, opt, plan.arch, plan.machine_fingerprint, notes);
    }
    launched_tests.get();
    if (launched_timed.valid()) launched_timed.get();
  });
  // An image and a read-back: the functional tests' runner takes them, then the performance cases' runner.
  if (session.images && plan.pinned.copied > 0)
    pinning_ = std::async(std::launch::async, [pool = session.images, need = plan.pinned] {
      const Stopwatch pinning;
      try {
        pool->prepare(need.total, need.copied, 2);
      } catch (const std::exception&) {  // out of memory: each runner maps and pins its own, as it goes
      }
      if (tracing())
        std::fprintf(stderr, "hpcjudge trace: pinned beside the compile: 2 x %.1f MiB in %.3f s (%.1f MiB pinned free)\n",
                     static_cast<double>(need.copied) / (1 << 20), pinning.elapsed(),
                     static_cast<double>(pool->free_pinned_bytes()) / (1 << 20));
    });
}

EarlyRunners::~EarlyRunners() {
  if (launching_.valid()) launching_.wait();  // before any runner it works on goes
  if (pinning_.valid()) pinning_.wait();
}

void EarlyRunners::join(Listener& listener) {
  if (pinning_.valid()) pinning_.get();
  if (!launching_.valid()) return;
  launching_.get();
  for (const std::string& n : notes_) listener.note(n);
}

void EarlyRunners::end() {
  if (launching_.valid()) launching_.wait();
  if (pinning_.valid()) pinning_.wait();
  std::vector<Session*> all;
  if (rivals) all = rivals->sessions();
  for (Session* s : {tests.get(), timed.get()})
    if (s) all.push_back(s);
  finish_together(all);
  rivals.reset();
  timed.reset();
  tests.reset();
}

}  // namespace hpcjudge
