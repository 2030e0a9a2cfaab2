// Work of the judge's that runs beside the calls (the next input set, made ahead: judge/grading/inputs_ahead.h)
// but must not run while a call is timed: its threads would take CPUs, the last-level cache and memory
// bandwidth from the runner and the judge's wait for the reply. A timed call (CallOptions::flush) with
// CallOptions::quiet pauses it from just before the caches are flushed until the reply, and resumes it then.
#pragma once

namespace hpcjudge {

class BackgroundWork {
 public:
  virtual ~BackgroundWork() = default;
  // Returns once none of its threads runs (or after a short bound, where one cannot be reached).
  virtual void pause() = 0;
  virtual void resume() = 0;
};

// pause() now, resume() at the end of the scope; nothing where `w` is null.
class Paused {
 public:
  explicit Paused(BackgroundWork* w) : w_(w) {
    if (w_) w_->pause();
  }
  ~Paused() {
    if (w_) w_->resume();
  }
  Paused(const Paused&) = delete;
  Paused& operator=(const Paused&) = delete;

 private:
  BackgroundWork* w_;
};

}  // namespace hpcjudge
