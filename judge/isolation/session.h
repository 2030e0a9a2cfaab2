// One runner child for one submission, and the judge's side of every call.
//
// The runner's processes run only while a request is in flight: the judge
// resumes the whole family (judge/isolation/family.h), sends the request,
// waits for its reply and stops the family again. A call is timed on the
// judge's clock around exactly that, less the round trip of the same exchange
// measured on this runner before the submission was loaded. Inputs reach the
// runner's memory only while it is stopped, just before the call, from an image
// the judge built in memory of its own; after the call the judge reads the
// buffers back itself (a GPU problem's through its own CUDA context).
//
// A call ends in a reply, a crash (RE naming the signal), or the wall-clock
// limit (the family is killed: TLE).
#pragma once
#include <filesystem>
#include <memory>
#include "protocol/json.h"
#include <optional>
#include <string>
#include <vector>

#include "sdk/arena.h"
#include "judge/machine/cpu_cache.h"
#include "sdk/problem.h"
#include "protocol/protocol.h"
#include "sdk/timing.h"
#include "judge/isolation/call_outcome.h"
#include "judge/timing/interval.h"
#include "judge/isolation/background.h"
#include "judge/isolation/device_buffers.h"
#include "judge/isolation/device_lock.h"
#include "judge/isolation/family.h"
#include "judge/isolation/pinned_images.h"
#include "judge/isolation/process.h"
#include "judge/isolation/scheduling.h"
#include "judge/files.h"
#include "judge/paths.h"

namespace hpcjudge {

class CpuSpinners;

struct SessionOptions {
  std::filesystem::path library;   // the compiled submission
  int threads = 1;                 // OpenMP threads
  int device = 0;                  // the CUDA device
  std::vector<std::string> wrapper;  // commands the runner runs under (bubblewrap, compute-sanitizer), or none
  bool exact_buffers = false;      // GPU: a device allocation of the runner's per buffer (for the sanitizers)
  size_t memory_limit = 0;         // bytes of host memory the runner may take (0: none)
  bool emulate = false;            // GPU problem under CPU emulation: its buffers in the host arena
  // GPU: the read-back pinned for speed. A rival reads back only its first, checked call of a case, and only
  // where its buffers are not copied on the device (else into the submission's: Session::read_back_from);
  // pinning the read-back took 0.3-0.5 s a GiB on the H200 (the first load of each case's rivals), for one copy.
  bool pin_read_back = true;
  // GPU on a device: CPUs kept spinning from just before a timed call's (or ping's) request, for their window
  // or until the call's end (judge/timing/wake_latency.h); none where null. Shared by the grade's sessions,
  // the rivals' included.
  CpuSpinners* keep_awake = nullptr;
  // CPU: the buffer that evicts the caches before a timed call (judge/machine/cpu_cache.h), shared by the grade's
  // sessions, the rivals' included (up to 256 MiB each, and their first flush 1.1 s each on the 2-core VM);
  // the session's own where null.
  CacheFlusher* flusher = nullptr;
  // The judge's memory for the image and the read-back, on loan from a pool that outlives the session and
  // keeps what it pinned for the next one (judge/isolation/pinned_images.h), shared by the grade's sessions;
  // the session's own where null.
  PinnedImages* images = nullptr;
  // Whether it makes timed calls (after a cache flush): only then is the round trip after a flush measured in
  // ready() (21 pings, each after a flush: 0.55 s of spmv-cpu's grade on the 2-core VM). The functional tests'
  // runner where the performance cases have a runner of their own makes none; nor does a rival's, whose calls
  // take the submission's round trip and late-work allowance (Session::late_work_as).
  bool timed_calls = true;
  // The judge's own reference (a rival beside the submission: judge/timing/rivals.h). Its runner makes itself not
  // dumpable where its buffers are in the host arena (a CPU problem, CPU emulation), so that no other process of
  // the judge's user reads or writes its memory (/proc/PID/mem, ptrace) or opens its files (/proc/PID/fd): graded
  // as an ordinary user without the sandbox, a submission read the fast reference's outputs of the same run that
  // way. And its threads are watched for another process slowing them (slowed_from_outside()).
  bool judges_own = false;
  // The runner runs under a tool that writes files of its own from inside its process (compute-sanitizer, ncu:
  // `judge profile`): where its buffers are on a device, confined (runner/confine.h) as such a runner is, /tmp
  // writable and signals unscoped (Session's constructor says when each runner is).
  bool under_tool = false;
  // What the runner may not read (judge/isolation/sandbox.h, hidden_from_runners), where it runs as the judge's
  // own user and is confined (runner/confine.h): graded without the sandbox, where the sandbox hides them
  // itself (none then). As root a runner is a user of its own, to whom the cache is closed.
  std::vector<std::filesystem::path> hidden = {};
  // CPU: the grade's common arena, one memfd that the submission's timed runner and every rival's map, each over the
  // first ArenaLayout::copied bytes of its own arena (its workspaces stay on its own file), so that every side of a
  // ratio calls on the same pages; none where null (its own memfd holds them all). On the 2-core VM four memfd
  // buffers of 32 MiB with the same contents, made one after another, gave a gather over them medians of 30.4,
  // 32.2, 30.2 and 19.8 ms, each held call after call (docs/notebook/runner-offset.md). A session
  // loads its image into it right before each call of its own (call() ignores CallOptions::loaded) and reads the
  // call back right after into its read-back, which result() gives.
  SharedArena* common_arena = nullptr;
};

// What the judge reads back after a call: everything (a submission's call: guard zones and inputs are checked
// too), the outputs alone (a rival's checked call: the judge's own reference, whose outputs alone are checked),
// or nothing (a rival's unchecked call).
enum class ReadBack { None, Outputs, All };

struct CallOptions {
  bool flush = false;              // flush the caches first (a timed call)
  bool setup = false;              // call setup() instead of solve(), untimed (Signature::setup)
  double timeout_s = 5;            // the call's wall-clock limit
  size_t device_memory_limit = 0;  // GPU: what solve() may hold allocated itself (0: none)
  bool loaded = false;             // load() or load_from() put this call's buffers in place already
  ReadBack read_back = ReadBack::All;  // what is read back after the call
  BackgroundWork* quiet = nullptr;  // a timed call: paused from the flush to the reply (judge/isolation/background.h)
  // GPU: the runner measures the call's device time too (CallOutcome::device_seconds). `judge bench` only,
  // which times the judge's own references: a submission's word is never part of its score.
  bool device_time = false;
  // CPU emulation: the emulator counts the call's memory requests, conflicts and lanes (CallOutcome::
  // emulation_counts), the estimate's input (judge/estimate/); off, it counts nothing.
  bool count_accesses = false;
  // GPU side by side on a device: this call's buffers copied on the device from `stage` (the run's image,
  // uploaded once: Session::stage_image()) right before the call, the runner's device work locked anew first,
  // so that every side's lock spans the same steps, its own copy and the flush, and none spans another side's
  // call; and held again right after the call's read-back, so that no work of its runs beside another side's
  // call (docs/design.md, "Device work between calls"). CallOptions::loaded is then ignored.
  const JudgeDevice* stage = nullptr;
};

class Session;

// Ends several sessions at once (the rivals' and the timed one's, after the last
// case): every runner is asked to exit first, then each is awaited, and the
// judge's memory for them (device buffers, pins, images) is freed on a thread
// each. What it took is in the report (timing.wall_s: runners_exited, memory_freed).
struct Ended {
  double exited_s = 0;  // the runners asked to exit until the last was gone
  double freed_s = 0;   // the judge's memory for them freed
};
Ended finish_together(const std::vector<Session*>& sessions);

class Session {
 public:
  Session(const Paths& paths, const Problem& problem, const SessionOptions& opt);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Starts the runner: launch(), then ready().
  CallOutcome start(double timeout_s);
  // start()'s first step: the runner's process up and its buffers set up (on a GPU, its CUDA context made and
  // the judge's device buffers mapped), no code of the submission's loaded: what may run beside other work of
  // the judge's (the submission's compile, other runners' launches), as it
  // measures nothing and holds none of the grade's shared aids (SessionOptions::keep_awake).
  CallOutcome launch(double timeout_s);
  // start()'s second step, once the machine is as quiet as for the calls: the round trips measured (what each
  // call has subtracted) and the submission loaded (SessionOptions::library, which must exist by then). Where
  // the launch failed, what it ended in, and nothing more.
  CallOutcome ready(double timeout_s);
  // How launch() ended (Ok before it was called).
  const CallOutcome& launched() const { return launched_; }
  // Makes room for a call's buffers of `bytes` (the image, and the memory the runner calls on).
  void reserve(size_t bytes);
  // The judge's own image of the next call's buffers (inputs, sentinels, guards).
  std::byte* image() const { return image_.base(); }
  // Calls solve(): the image goes into the runner's memory (load(), unless opt.loaded), the caches are
  // flushed (opt.flush), the call is timed, the buffers read back (as opt.read_back says; what is not read
  // back stays as the previous call left it in result()). In a signature with a setup(), the workspace is filled with garbage only for
  // the setup() call (opt.setup) and kept for the calls of solve() after it.
  CallOutcome call(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt);
  // call()'s first step alone: the runner's memory mapped for the layout, the image copied into it (for a
  // GPU problem, onto the judge's device buffers). While the runner is stopped, so it sees them only in its call.
  // In the common arena (SessionOptions::common_arena) only the mapping: call() copies in right before each call.
  CallOutcome load(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt);
  // load() from another session's device buffers instead of this one's image, on the device: `from` holds
  // the same layout but for the workspaces (same_but_workspaces), loaded for this run and not yet called on (a
  // rival's inputs are the submission's); the guard zones past `from`'s part are laid on the device.
  // False where either session's buffers are not the judge's on a device (then load() it is); true with
  // `o` failed where the runner could not map them.
  bool load_from(const Session& from, const Signature& sig, const ArenaLayout& layout, const CallOptions& opt,
                 CallOutcome& o);
  // The image of this run's call into `stage`, device buffers of the judge's that no runner maps, from which
  // each side's call then copies its own (CallOptions::stage): [0, ArenaLayout::copied), the inputs and the
  // outputs' sentinels. False where this session's buffers are not the judge's on a device.
  bool stage_image(JudgeDevice& stage, const Signature& sig, const ArenaLayout& layout);
  // The last call's buffers as the judge read them back: what to check.
  const std::byte* result() const;
  // `other`'s device buffers (a rival's, the same layout but for the workspaces, its call made without a
  // read-back) read back into this session's read-back, which result() then gives: a rival's checked call is
  // checked against this session's image, which holds the same inputs, so neither its image nor a read-back
  // of its own is filled (0.6-3 s a grade on the H200, each first run of a large case). Only the outputs are
  // read (a rival's are all that is checked). False where either is not on a device.
  bool read_back_from(const Session& other, const Signature& sig, const ArenaLayout& layout);
  // After the judge has checked a call: the submission's output flushed, a thread still working reported.
  CallOutcome after_call(double timeout_s);
  // GPU on a device: the runner's device work held now, where it is not already, until its next call (a staged
  // run's, CallOptions::stage, before its first call: after_call() let the runner run), so that work it launched
  // outside its calls runs beside no other side's call. `before` names the moment in a failure's message.
  CallOutcome hold_between_calls(const char* before);
  // Calls the submission's workspace_size(args...); its answer is the outcome's ret.
  CallOutcome workspace_size(const std::vector<int64_t>& args, double timeout_s);
  // SM clock and temperature of the GPU (NVML), or an empty object.
  nlohmann::json sensors();
  // Asks the child to exit (kills it after 2 s, and every process it left) and collects the rest of its output.
  void finish();
  // finish()'s first step alone: the child asked to exit, not awaited (finish_together()).
  void ask_to_exit();
  // After finish(): the judge's memory for the calls (image, read-back, device buffers and their pins) freed now
  // rather than at destruction.
  void release();

  const std::string& output() const { return child_->output(); }
  size_t output_bytes() const { return child_->output_bytes(); }
  bool alive() const { return alive_; }
  // The runner's process id (HPCJUDGE_TRACE's `trace call` lines name runners by it), 0 before launch().
  int runner_pid() const { return child_ ? child_->pid() : 0; }
  const ExitStatus& exit_status() const { return exit_; }
  // The round trip of an untimed call (a functional test), and of a timed one,
  // measured as a timed call runs: right after the caches were flushed (none measured, samples 0, nothing
  // subtracted, where SessionOptions::timed_calls is false).
  const RoundTrip& round_trip(bool flushed = true) const { return flushed ? cold_trip_ : warm_trip_; }
  // Where solve()'s buffers are: "host arena", "judge's device buffers", or the
  // runner's own device memory with the reason the judge's could not be shared.
  const std::string& buffers() const { return buffers_note_; }
  // What keeps the runner's device work inside its calls (judge/isolation/device_lock.h), or why nothing does;
  // "" where it has no device (a CPU problem, CPU emulation).
  const std::string& device_work() const { return device_work_note_; }
  bool judge_held() const { return device_ != nullptr; }
  // The CPU a call's processes may use after its reply before the interval runs on to their stop (the late-work
  // allowance: the runner's own return to waiting, measured by ready()'s pings, plus kLateWorkNs, capped), taken
  // from `timed`, a session ready() made with timed calls: a rival's, whose runner is the same program with the
  // same options, is the submission's timed runner's, so that each side of a ratio has the same allowance and no
  // rival measures its own after cache flushes (SessionOptions::timed_calls).
  void late_work_as(const Session& timed) { late_work_ns_ = timed.late_work_ns_; }
  uint64_t late_work_ns() const { return late_work_ns_; }
  // A judge's own runner (SessionOptions::judges_own): how another process changed how one of its threads runs
  // since it started (fewer CPUs, a higher nice value, SCHED_IDLE: judge/isolation/scheduling.h), or none. Every
  // thread of the runner's process on a CPU problem or under emulation, its main thread alone on a device (the
  // CUDA driver's own threads are left to it). Always none for a submission's runner.
  std::optional<std::string> slowed_from_outside() const;

 private:
  struct Exchange {
    std::optional<protocol::Reply> reply;
    Clock::time_point sent;     // the judge's clock: before the request was written (HPCJUDGE_TRACE's zero)
    Clock::time_point start;    // the interval's start: the request written, just before the family was resumed
    Clock::time_point replied;  // the reply there to read (before it was read and parsed)
    Clock::time_point stopped;  // when it was stopped again
    Clock::time_point end;      // the reply, or the stop where the processes worked on after the reply
    uint64_t cpu_after_ns = 0;  // CPU the family used from the reply to the stop (UINT64_MAX: not known)
    bool late_work = false;
  };
  // One request and its reply, the family resumed only in between. A failure
  // (crash, timeout, a family that would not stop) is written into `o`.
  Exchange exchange(protocol::Request q, double timeout_s, const char* during, CallOutcome& o, int pass_fd = -1);
  // An exchange's moments on the judge's clock (HPCJUDGE_TRACE names them), and the family at the reply.
  struct Moments {
    Clock::time_point handed, resumed, unlocked, arrived, fenced, parsed;
    uint64_t cpu_ns = 0;     // CPU the family had used when the reply arrived
    std::vector<pid_t> known;  // the family's processes then
  };
  // exchange()'s steps: the reply awaited (`channel` -1: the request could not be sent, only the runner's end is awaited), the family
  // stopped and the interval's end taken; a time limit, the runner's end, a reply that says it failed.
  std::optional<protocol::Reply> await_reply(uint64_t seq, int channel, Clock::time_point deadline,
                                             Clock::duration spin, double timeout_s, const char* during,
                                             CallOutcome& o, Moments& m);
  bool stop_after_reply(Exchange& x, const Moments& m, bool call, const char* during, CallOutcome& o);
  void timed_out(double timeout_s, const char* during, CallOutcome& o);
  void runner_gone(const char* during, CallOutcome& o);
  void failed_reply(const protocol::Reply& r, const char* during, CallOutcome& o);
  bool simple(protocol::Request q, double timeout_s, const char* during, CallOutcome& o);
  // Why the family, stopped after a call, is past its memory limit (its processes and the files it wrote), or "".
  std::string over_memory_limit(const char* during) const;
  void setup_buffers(double timeout_s, CallOutcome& o);
  bool map_for(const ArenaLayout& layout, double timeout_s, CallOutcome& o);
  RoundTrip measure_round_trip(bool flush, double timeout_s, CallOutcome& o);
  void flush_caches();
  bool host_arena() const { return mode_ == "host" || mode_ == "emulate"; }
  // Its buffers but the workspaces in the grade's common arena (SessionOptions::common_arena).
  bool common() const { return opt_.common_arena && mode_ == "host"; }
  // load()'s copies, which call() makes itself right before each call in the common arena.
  CallOutcome load_now(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt);
  // load_from()'s and a staged call's copy: the runner's device work held, then [0, copied) of `from` copied on
  // the device into this session's buffers, the guard zones laid and the workspaces filled (or kept).
  bool copy_on_device(const JudgeDevice& from, const Signature& sig, const ArenaLayout& layout,
                      const CallOptions& opt, CallOutcome& o);
  // The host arena's bytes [from, to) copied with `copy(arena, offset, bytes)`, each part from where it lies:
  // the common arena below the layout's `copied`, where common(), else the session's own.
  template <class Copy>
  void each_arena_part(size_t copied, size_t from, size_t to, Copy copy) const;
  void ended(CallOutcome& o, const std::string& why, CallOutcome::Status status);
  // A host arena's shared-memory file (its own, or the common one) whose size the submission changed: why, or "".
  std::string resized_arena() const;
  // Before the judge writes a call's buffers on the device (or pings): every CUDA process of the family locked
  // once the device work it submitted has ended (within kDeviceWorkLimit), then the family stopped again. False
  // (`o` says why, naming `before`: RE) where some work did not end; the family is killed then.
  // `fresh`: where they are locked already, unlocked and locked anew (a staged call's lock: CallOptions::stage).
  bool hold_device_work(CallOutcome& o, const char* before, bool fresh = false);
  // After the family was resumed: what hold_device_work() locked, unlocked. False where the driver refused.
  bool release_device_work(CallOutcome& o, const char* during);
  // Under CPU emulation, at a call's time limit: what the emulator says was running (the kernel, its block, the
  // threads that had not ended), asked for with kStallSignal (emulate/runtime/runner.h); "" where it says nothing.
  std::string emulated_stall();
  ExitStatus reap();

  const Problem& problem_;
  SessionOptions opt_;
  SharedArena arena_;
  std::unique_ptr<PinnedImages> own_images_;  // where opt_.images is null; before the leases, which go back to it
  PinnedImages::Lease image_, readback_;
  std::unique_ptr<JudgeDevice> device_;
  CacheFlusher flusher_;  // where opt_.flusher is null (mapped on its first flush only)
  std::string mode_;  // host, judge, runner, exact (protocol Setup)
  std::string buffers_note_;
  std::unique_ptr<DeviceLock> device_lock_;  // a GPU problem's on a device, where the driver has the lock
  std::string device_work_note_;
  int channel_ = -1;
  std::unique_ptr<Child> child_;
  std::unique_ptr<ProcessFamily> family_;
  uint64_t seq_ = 0;
  CallOutcome launched_;  // how launch() ended (ready() goes on only after an Ok)
  RoundTrip warm_trip_, cold_trip_;
  uint64_t late_work_ns_;  // CPU after a reply past which the interval runs to the stop (session.cpp)
  size_t mapped_ = 0;  // bytes of the runner's buffers mapped so far
  size_t common_mapped_ = 0;  // of which the first, from the common arena (common())
  double load_s_ = 0;  // the last load's copies, for HPCJUDGE_TRACE
  bool alive_ = false;
  bool measuring_ = false;  // ready() began: its pings and the calls are timed exchanges (exchange())
  bool loaded_ = false;  // the submission's library asked for (ready()): its code may have run
  bool asked_to_exit_ = false;
  bool finished_ = false;
  bool trace_ = tracing();  // a line per call on stderr: where its interval goes
  bool spin_replies_ = false;  // a GPU problem on a device: timed replies awaited without sleeping
  bool wrapped_ = false;
  ExitStatus exit_;
  std::optional<Scheduling> started_as_;  // the runner's main thread as it started (slowed_from_outside())
  std::unique_ptr<TempDir> runner_tmp_;  // the runner's TMPDIR, the one folder it may write in (runner/confine.h)
  unsigned runner_uid_ = 0;              // the runner's user, where it is one of its own (the judge is root)
};

}  // namespace hpcjudge
