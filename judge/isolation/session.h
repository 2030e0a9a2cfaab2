// One runner child for one submission: started once, then asked to call
// solve() on buffers the judge has laid out in the shared arena. A call ends
// in a reply, a crash (RE naming the signal), or the wall-clock limit (the
// child's process group is killed: TLE).
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <string>

#include "harness/arena.h"
#include "harness/problem.h"
#include "judge/paths.h"
#include "judge/isolation/process.h"

namespace hpcjudge {

struct CallOutcome {
  enum Status { Ok, Error, Crashed, TimedOut, OutOfMemory } status = Ok;
  double seconds = 0;  // the call, as the runner timed it
  int64_t ret = 0;     // solve()'s return value, for problems whose solve returns one
  std::optional<size_t> device_peak_bytes;  // GPU: the most device memory the submission held
  std::string message;
};

class Session {
 public:
  // wrapper: the commands the runner runs under (bubblewrap, compute-sanitizer, with
  // their options), or empty. exact_buffers: a device allocation per buffer (for the sanitizers).
  Session(const Paths& paths, const Problem& problem, const std::filesystem::path& library, int threads, int device,
          const std::vector<std::string>& wrapper = {}, bool exact_buffers = false, size_t memory_limit = 0);
  ~Session();
  // Waits for the child to load the submission.
  CallOutcome start(double timeout_s);
  // device_memory_limit: bytes the submission may hold allocated on the device during the call (0: none).
  CallOutcome call(const Signature& sig, const ArenaLayout& layout, bool flush, double timeout_s,
                   size_t device_memory_limit = 0);
  // Calls the submission's workspace_size(args...); its answer is the outcome's ret.
  CallOutcome workspace_size(const std::vector<int64_t>& args, double timeout_s);
  // SM clock and temperature of the GPU (NVML), or an empty object.
  nlohmann::json sensors();
  // Asks the child to exit (kills it after 2 s) and collects the rest of its output.
  void finish();
  SharedArena& arena() { return arena_; }
  // The submission's output so far, and how much it printed in all.
  const std::string& output() const { return child_->output(); }
  size_t output_bytes() const { return child_->output_bytes(); }
  bool alive() const { return alive_; }
  // How the child ended (after finish()).
  const ExitStatus& exit_status() const { return exit_; }

 private:
  bool request(const nlohmann::json& message);  // false: the runner is gone
  CallOutcome wait_reply(double timeout_s, const char* during);
  ExitStatus reap();
  SharedArena arena_;
  int channel_ = -1;
  std::unique_ptr<Child> child_;
  bool alive_ = false;
  bool finished_ = false;
  bool wrapped_ = false;
  size_t memory_limit_ = 0;
  ExitStatus exit_;
};

}  // namespace hpcjudge
