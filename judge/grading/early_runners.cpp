#include "judge/grading/early_runners.h"

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
  tests = std::make_unique<Session>(paths, p, session);
  if (plan.timed) timed = std::make_unique<Session>(paths, p, session);
  if (plan.rivals_scale) rivals = std::make_unique<Rivals>(p, paths, opt, session, *plan.rivals_scale);
  launching_ = std::async(std::launch::async, [this, &p, &paths, opt, plan] {
    tests->launch(60);
    if (timed) timed->launch(60);
    if (rivals) {
      KeptNotes notes(notes_);
      rivals->start(p, paths, opt, plan.arch, plan.machine_fingerprint, notes);
    }
  });
}

EarlyRunners::~EarlyRunners() {
  if (launching_.valid()) launching_.wait();  // before any runner it works on goes
}

void EarlyRunners::join(Listener& listener) {
  if (!launching_.valid()) return;
  launching_.get();
  for (const std::string& n : notes_) listener.note(n);
}

void EarlyRunners::end() {
  if (launching_.valid()) launching_.wait();
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
