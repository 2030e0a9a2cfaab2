#include "judge/isolation/session.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>

#include "sdk/bytes.h"
#include "protocol/channel.h"
#include "sdk/spans.h"
#include "sdk/timing.h"
#include "emulate/runtime/runner.h"
#include "protocol/private_tmp.h"
#include "judge/isolation/runner_files.h"
#include "judge/isolation/sandbox.h"
#include "judge/machine/gpu.h"
#include "judge/timing/wake_latency.h"
#include "judge/verdicts/memory_limit.h"
#include "settings/settings.h"

namespace hpcjudge {

using protocol::Op;
using protocol::Reply;
using protocol::Request;

namespace {
// More processes than this in the runner's group or user at a timeout: a fork bomb (RE, not TLE).
constexpr size_t kForkBomb = 16;
// How long the family may take to stop after a reply; longer is RE (a process that will not stop).
constexpr auto kStopLimit = std::chrono::seconds(2);
// How long the judge polls for a timed GPU call's reply without sleeping before it blocks.
constexpr auto kReplySpin = std::chrono::milliseconds(20);
// How long the device work of a runner's processes may take to end once they are out of a call, before the
// judge writes the next call's buffers: none should be left (the runner synchronised after solve()), so this
// bounds work launched after it, honest or not, on a device shared with other work.
constexpr auto kDeviceWorkLimit = std::chrono::milliseconds(500);
// Passes of Session::hold_device_work() while the family keeps starting processes.
constexpr int kHoldPasses = 4;
// How long a failed unlock waits for the runner's own end before it is the call's cause.
constexpr auto kDeathGrace = std::chrono::seconds(1);

// HPCJUDGE_TRACE's line for one call or ping (docs/design.md, "timing"): in µs
// from the judge's `sent`, its own moments (handed: the interval's start; resumed, unlocked, arrived: the
// reply there to read, the interval's end on a CPU; fenced: its end on a GPU; parsed, stopped) and the
// runner's marks, on the same monotonic clock.
void print_trace(bool call, pid_t runner, const std::array<Clock::time_point, 8>& judge, double cpu_after_us,
                 const Reply& r) {
  const auto sent = judge[0];
  const auto us = [&](Clock::time_point t) {
    return std::chrono::duration<double, std::micro>(t - sent).count();
  };
  const double sent_ns =
      static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(sent.time_since_epoch()).count());
  std::string line = std::string(call ? "trace call" : "trace ping") + " runner " + std::to_string(runner);
  char buf[96];
  std::snprintf(buf, sizeof buf, " resumed %.1f handed %.1f unlocked %.1f", us(judge[1]), us(judge[2]),
                us(judge[6]));
  line += buf;
  const char* names[] = {"read", "body", "returned", "synced", "gpu-began"};
  for (size_t i = 0; i < r.marks.size() && i < 5; ++i) {
    std::snprintf(buf, sizeof buf, " %s %.1f", names[i], (static_cast<double>(r.marks[i]) - sent_ns) / 1e3);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, " arrived %.1f fenced %.1f parsed %.1f stopped %.1f cpu-after %.1f reported %.1f",
                us(judge[7]), us(judge[4]), us(judge[3]), us(judge[5]), cpu_after_us, r.seconds * 1e6);
  line += buf;
  if (r.cpus.size() == 3) {  // the runner's thread's CPU as it read the request, began the body, saw it return
    std::snprintf(buf, sizeof buf, " cpus %d,%d,%d", r.cpus[0], r.cpus[1], r.cpus[2]);
    line += buf;
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

// The supplementary groups a user other than root needs to open every NVIDIA
// device node (/dev/nvidia*) for reading and writing: none where the nodes are
// open to all (the usual 0666), their groups where the groups may. No value
// where some node is closed to others: the runner must then stay root.
std::optional<std::vector<unsigned>> gpu_node_groups() {
  std::vector<unsigned> groups;
  for (const std::filesystem::path& node : nvidia_device_nodes()) {
    struct stat st{};
    if (stat(node.c_str(), &st) != 0 || !S_ISCHR(st.st_mode)) continue;
    if ((st.st_mode & (S_IROTH | S_IWOTH)) == (S_IROTH | S_IWOTH)) continue;
    if ((st.st_mode & (S_IRGRP | S_IWGRP)) != (S_IRGRP | S_IWGRP)) return std::nullopt;
    if (std::find(groups.begin(), groups.end(), st.st_gid) == groups.end()) groups.push_back(st.st_gid);
  }
  return groups;
}

// Whether `runner` starts as user `uid` with `groups` (`hpcjudge-runner --check`).
bool starts_as(const std::filesystem::path& runner, unsigned uid, const std::vector<unsigned>& groups) {
  SpawnOptions opt;
  opt.argv = {runner.string(), "--check"};
  opt.uid = uid;
  opt.groups = groups;
  Child c(opt);
  c.wait(-1, Clock::now() + std::chrono::seconds(30));
  const ExitStatus st = c.reap();
  return st.exited && st.code == 0;
}

// The runner a user of its own can start: the build's, or, where that user
// cannot reach it (a checkout under /root), a copy in a folder of /var/tmp open
// to all (outside the sandbox's private /tmp), removed when the judge exits.
// Empty where neither starts. Asked once per judge process.
std::filesystem::path runner_for_own_user(const std::filesystem::path& runner, unsigned uid,
                                          const std::vector<unsigned>& groups) {
  namespace fs = std::filesystem;
  struct Copy {
    fs::path dir;
    ~Copy() {
      std::error_code ec;
      if (!dir.empty()) fs::remove_all(dir, ec);
    }
  };
  static Copy copy;
  static const fs::path usable = [&]() -> fs::path {
    if (starts_as(runner, uid, groups)) return runner;
    std::string t = "/var/tmp/hpcjudge-runner-XXXXXX";
    if (!mkdtemp(t.data())) return {};
    copy.dir = t;
    std::error_code ec;
    fs::permissions(copy.dir, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec, ec);
    const fs::path copied = copy.dir / runner.filename();
    fs::copy_file(runner, copied, ec);
    if (ec) return {};
    return starts_as(copied, uid, groups) ? copied : fs::path();
  }();
  return usable;
}

// Whether another user can reach `p`: every folder above it open to others (x).
bool reachable_by_others(const std::filesystem::path& p) {
  for (std::filesystem::path d = p.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path()) {
    struct stat st {};
    if (stat(d.c_str(), &st) != 0 || !(st.st_mode & S_IXOTH)) return false;
  }
  return true;
}

std::vector<std::string> for_runner_copy(const std::vector<std::string>& w, const std::filesystem::path& build,
                                         const std::filesystem::path& copy) {
  std::vector<std::string> out;
  for (size_t i = 0; i < w.size(); ++i) {
    if (w[i] == "--ro-bind" && i + 2 < w.size() && w[i + 1] == build.string() && w[i + 2] == build.string()) {
      out.insert(out.end(), {w[i], copy.string(), copy.string()});
      i += 2;
    } else if (w[i] == "--tmpfs" && i + 3 < w.size() && w[i + 2] == "--remount-ro" && !reachable_by_others(w[i + 1])) {
      i += 3;
    } else if (w[i] == "--ro-bind" && i + 2 < w.size() && w[i + 1] == "/dev/null" && !reachable_by_others(w[i + 2])) {
      i += 2;
    } else {
      out.push_back(w[i]);
    }
  }
  return out;
}

// The first line of a runner's output that holds text (what a wrapper said when it could not start it).
std::string first_line(const std::string& output) {
  size_t at = 0;
  while (at < output.size()) {
    const size_t end = std::min(output.find('\n', at), output.size());
    if (output.find_first_not_of(" \t\r", at) < end) return output.substr(at, std::min<size_t>(end - at, 300));
    at = end + 1;
  }
  return "";
}

double seconds_between(Clock::time_point a, Clock::time_point b) { return std::chrono::duration<double>(b - a).count(); }

// Every buffer argument of a call, and its scalars, as the protocol carries them.
std::vector<protocol::CallArg> call_args(const Signature& sig, const ArenaLayout& layout) {
  std::vector<protocol::CallArg> args;
  for (const Arg& a : sig.args) {
    protocol::CallArg c;
    if (a.buffer >= 0) {
      c.buffer = true;
      c.offset = layout.offset[a.buffer];
      c.bytes = layout.bytes[a.buffer];
      c.workspace = sig.buffers[a.buffer].role == Role::Workspace;
      c.name = sig.buffers[a.buffer].name;
      c.elem = dtype_size(sig.buffers[a.buffer].type);
    } else {
      c.value = a.scalar;
    }
    args.push_back(c);
  }
  return args;
}

// A problem whose buffers are the host arena, whatever the machine: a CPU problem, or a GPU one under emulation.
bool host_arena_problem(const Problem& p, const SessionOptions& opt) { return p.info().kind == Kind::CPU || opt.emulate; }

// The size of each of a runner's own tmpfs mounts: its memory limit, which what it holds there counts against
// (exchange()), or 1 GiB where it has none.
size_t private_tmp_bytes_for(const SessionOptions& opt) { return opt.memory_limit > 0 ? opt.memory_limit : size_t{1} << 30; }

// A call of solve() in a signature with a setup() keeps the workspace setup() wrote; every other call's is garbage.
bool keeps_workspace(const Signature& sig, const CallOptions& opt) { return sig.has_setup() && !opt.setup; }

// The workspaces' spans (never copied: garbage on the device), and where the
// bytes to copy end: workspaces come last in the arena (sdk/arena.h).
JudgeDevice::Spans scratch_spans(const Signature& sig, const ArenaLayout& layout) {
  JudgeDevice::Spans s;
  for (size_t i = 0; i < sig.buffers.size(); ++i)
    if (sig.buffers[i].role == Role::Workspace) s.push_back({layout.offset[i], layout.bytes[i]});
  std::sort(s.begin(), s.end());
  return s;
}

// The outputs of a GPU call, whose sentinels (sdk/arena.h: a 4-byte word, or one byte, repeated) the device
// repeats from their first JudgeDevice::kRepeatSeed bytes rather than take them over the bus: 1.3 GB a run of
// rle-compress's cases, 1 GB of prefix-sum's n256M and merge's 2^27 cases.
JudgeDevice::Spans repeating_sentinels(const Signature& sig, const ArenaLayout& layout) {
  JudgeDevice::Spans s;
  for (int i : layout.order)
    if (sig.buffers[i].role == Role::Out && layout.bytes[i] > JudgeDevice::kRepeatSeed)
      s.push_back({layout.offset[i], layout.bytes[i]});
  return s;
}

// What a read-back of the outputs alone skips: every span of the layout that holds no output.
JudgeDevice::Spans all_but_outputs(const Signature& sig, const ArenaLayout& layout) {
  JudgeDevice::Spans outputs;
  for (int i : layout.order)
    if (sig.buffers[i].role == Role::Out) outputs.push_back({layout.offset[i], layout.bytes[i]});
  return complement(outputs, layout.total);
}

// The outputs and `scratch` (the workspaces), skipped where the rest of a call's buffers is read back.
JudgeDevice::Spans outputs_and(const Signature& sig, const ArenaLayout& layout, JudgeDevice::Spans scratch) {
  for (int i : layout.order)
    if (sig.buffers[i].role == Role::Out) scratch.push_back({layout.offset[i], layout.bytes[i]});
  std::sort(scratch.begin(), scratch.end());
  return scratch;
}

// Processes and threads: a fork bomb stops at a limit and is killed whole.
// Run as root, the runner gets a user id of its own, so the limit binds (it
// never binds root) and the kill reaches every process it started. A GPU
// problem's runner gets the groups of the device nodes too. Where that user
// cannot reach the build's runner, it runs a copy it can reach. Where a node
// is closed to every other user, or no copy starts, it stays root, with no
// limit but the fork-bomb count and kill at a timeout. Not root, the limit is
// the user's tasks now plus room. The runner to start, `sp` its user and limit.
std::filesystem::path as_runner_user(const Paths& paths, const Problem& problem, const SessionOptions& opt,
                                     SpawnOptions& sp) {
  constexpr unsigned long kRoom = 64;
  std::filesystem::path runner = paths.runner;
  if (geteuid() == 0) {
    const auto groups = problem.info().kind == Kind::GPU ? gpu_node_groups() : std::vector<unsigned>{};
    const unsigned own_uid = fresh_runner_uid();
    if (groups) {
      if (const auto usable = runner_for_own_user(paths.runner, own_uid, *groups); !usable.empty()) {
        runner = usable;
        sp.uid = own_uid;
        sp.groups = *groups;
        sp.max_tasks = static_cast<unsigned long>(opt.threads) + kRoom;
      }
    }
  } else {
    sp.max_tasks = tasks_of_user(geteuid()) + static_cast<unsigned long>(opt.threads) + kRoom;
  }
  return runner;
}

// The runner's command line after its wrapper: the problem, its channel and arena, its device, its memory limit,
// and how it confines itself.
void add_runner_arguments(SpawnOptions& sp, const std::filesystem::path& runner, const Problem& problem,
                          const SessionOptions& opt) {
  for (std::string a : {runner.string(), std::string("--problem"), problem.info().slug, std::string("--channel"),
                        std::string("3"), std::string("--arena"), std::string("4"), std::string("--device"),
                        std::to_string(opt.device)})
    sp.argv.push_back(a);
  if (opt.memory_limit > 0) sp.argv.insert(sp.argv.end(), {"--memory-limit", std::to_string(opt.memory_limit)});
  // Not on a device: the driver's process lock (judge/isolation/device_lock.h) may refuse a process the judge,
  // as an ordinary user, may not look into.
  if (opt.judges_own && host_arena_problem(problem, opt)) sp.argv.push_back("--not-dumpable");
  // Its writes and signals confined (runner/confine.h): graded as the judge's own user without the sandbox, a
  // submission could otherwise rewrite the judge's cache (a cached baseline 1000 times slower lifts every later
  // score) or stop the judge. On a device too, and under compute-sanitizer or ncu with /tmp writable and signals
  // unscoped (ConfineOptions::under_tool; docs/design.md, "A runner's files and signals").
  if (host_arena_problem(problem, opt) || !opt.under_tool)
    sp.argv.push_back("--confine");
  else
    sp.argv.push_back("--confine-under-tool");
  // Its reads too: not what the sandbox would hide (hidden_from_runners: the cache, where the compiled fast
  // reference and the cached reference answers are; the answers, the tests, the seed file), nor the judge's other
  // temporary folders (where the fast reference is compiled). As the judge's own user and as a user of its own
  // alike: a file every user may read (a seed file of mode 0644) is a user of its own's to read too.
  for (const std::filesystem::path& h : opt.hidden) sp.argv.insert(sp.argv.end(), {"--hide", h.string()});
}

}  // namespace

Session::Session(const Paths& paths, const Problem& problem, const SessionOptions& opt)
    : problem_(problem), opt_(opt), late_work_ns_(kLateWorkNs) {
  if (!opt_.images) own_images_ = std::make_unique<PinnedImages>(opt_.device);
  spin_replies_ = problem.info().kind == Kind::GPU && !opt.emulate;
  int fds[2];
  make_channel(fds);
  channel_ = fds[0];
  SpawnOptions sp;
  const std::filesystem::path runner = as_runner_user(paths, problem, opt, sp);
  sp.argv = opt.wrapper;
  wrapped_ = !opt.wrapper.empty();
  // Under bubblewrap, as a user of its own: a runner copy is bound in place of
  // the build's folder, and what the sandbox would hide below a folder that
  // user cannot reach is left out (bubblewrap, as that user, cannot mount
  // there; the runner cannot see it either way: a class or results folder
  // under a home folder of mode 0700 ended every runner "Can't mkdir").
  if (sp.uid != 0) sp.argv = for_runner_copy(sp.argv, paths.runner.parent_path(), runner.parent_path());
  add_runner_arguments(sp, runner, problem, opt);
  sp.pass_fds = {{3, fds[1]}, {4, arena_.fd()}};
  // Memory held in a file (a memfd grown by ftruncate or fallocate, /dev/shm)
  // is in no address space: no file of the runner's may outgrow the limit.
  sp.file_size = opt.memory_limit;
  // The runner links the problem descriptions, and with them OpenBLAS: keep its
  // thread pool out of the submission's process.
  // OpenMP's (and OpenBLAS's) idle threads sleep rather than spin, so a thread
  // still running after solve() returns is work deferred past the call
  // (runner/deferred_work.h). OPENBLAS_THREAD_TIMEOUT=4: 2^4 cycles of spinning.
  sp.env = {{"OMP_NUM_THREADS", std::to_string(opt.threads)},
            {"OPENBLAS_NUM_THREADS", "1"},
            {"OMP_WAIT_POLICY", "passive"},
            {"OPENBLAS_THREAD_TIMEOUT", "4"}};
  if (trace_) sp.env.push_back({settings::kTrace.name, "1"});  // the runner adds its GPU mark
  // The one folder a runner on the host arena may write files in (runner/confine.h): a folder of its own, not
  // /tmp, where the judge's cache may be (HPCJUDGE_CACHE); the runner's user's as root (where that fails, root's,
  // and the runner writes no file at all). Under bubblewrap, its private /tmp instead (sandbox_wrapper).
  runner_tmp_ = std::make_unique<TempDir>(std::filesystem::perms::owner_all);
  if (sp.uid != 0) chown(runner_tmp_->path.c_str(), sp.uid, sp.uid);
  sp.env.push_back({settings::kTmpdir.name, runner_tmp_->path.string()});
  // That folder and /dev/shm tmpfs mounts of its own, as large as its memory limit, gone with it
  // (protocol/private_tmp.h): made by the judge's child as root, by the runner itself otherwise; under bubblewrap
  // the sandbox's own (sandbox_wrapper).
  const bool sandboxed = std::any_of(opt.wrapper.begin(), opt.wrapper.end(), [](const std::string& a) {
    return std::filesystem::path(a).filename() == "bwrap";
  });
  if (!sandboxed && geteuid() == 0) sp.private_tmp = private_tmp_for(runner_tmp_->path.string(), private_tmp_bytes_for(opt), sp.uid);
  else if (!sandboxed) sp.argv.insert(sp.argv.end(), {"--private-tmp", std::to_string(private_tmp_bytes_for(opt))});
  runner_uid_ = sp.uid;
  child_ = std::make_unique<Child>(sp);
  family_ = std::make_unique<ProcessFamily>(child_->pid());
  if (opt.judges_own) started_as_ = Scheduling::of(child_->pid());  // as forked: before any code of its own ran
  close(fds[1]);
  alive_ = true;
}

Session::~Session() {
  finish();
  close(channel_);
}

// How the child ended. Under a wrapper (bubblewrap) a runner killed by signal N
// comes back as exit status 128 + N, the shell's convention: named as the signal.
ExitStatus Session::reap() {
  ExitStatus st = child_->reap();
  if (wrapped_ && st.exited && st.code > 128 && st.code < 128 + 65) st = {false, 0, st.code - 128};
  return st;
}

void Session::ask_to_exit() {
  if (finished_ || asked_to_exit_ || !alive_) return;
  asked_to_exit_ = true;
  family_->resume();
  CallOutcome unlocked;
  if (!release_device_work(unlocked, "exiting")) return;  // killed
  Request q;
  q.op = Op::Exit;
  q.seq = ++seq_;
  try {
    send_message(channel_, q);
  } catch (const std::exception&) {
  }
}

void Session::finish() {
  if (finished_) return;
  const auto t0 = Clock::now();
  bool exited = true;
  if (alive_) {
    ask_to_exit();
    exited = child_->wait(-1, Clock::now() + std::chrono::seconds(2)) == Child::Wake::Exited;
    alive_ = false;
  }
  finished_ = true;
  if (trace_)
    std::fprintf(stderr, "hpcjudge trace: finished %s: %s after %.3f s\n", opt_.library.c_str(),
                 exited ? "exited" : "killed", seconds_between(t0, Clock::now()));
  // Whatever it left behind (a setsid grandchild, a stopped helper) goes with it.
  family_->kill();
  child_->kill();
  exit_ = reap();
  // And the files its user wrote where no mount of its own held them (as root: a user of its own).
  if (runner_uid_ != 0) remove_files_of_user(runner_uid_);
}

void Session::release() {
  finish();
  const auto t0 = Clock::now();
  device_.reset();
  const auto t1 = Clock::now();
  image_ = {};  // back to the pool, pinned as they are
  readback_ = {};
  if (trace_)
    std::fprintf(stderr, "hpcjudge trace: released %s: device buffers %.3f s, images %.3f s\n",
                 opt_.library.c_str(), seconds_between(t0, t1), seconds_between(t1, Clock::now()));
}

Ended finish_together(const std::vector<Session*>& sessions) {
  const auto t0 = Clock::now();
  for (Session* s : sessions) s->ask_to_exit();
  for (Session* s : sessions) s->finish();
  const auto t1 = Clock::now();
  std::vector<std::thread> freeing;
  for (Session* s : sessions) freeing.emplace_back([s] { s->release(); });
  for (std::thread& t : freeing) t.join();
  return {.exited_s = seconds_between(t0, t1), .freed_s = seconds_between(t1, Clock::now())};
}

void Session::ended(CallOutcome& o, const std::string& why, CallOutcome::Status status) {
  family_->kill();
  child_->kill();
  exit_ = reap();
  alive_ = false;
  o.status = status;
  o.message = why;
}

bool Session::hold_device_work(CallOutcome& o, const char* before, bool fresh) {
  if (!device_lock_ || !alive_) return true;
  if (device_lock_->held()) {
    if (!fresh) return true;
    family_->resume();  // unlocked (the process must run for it), then locked anew below
    if (!release_device_work(o, "its device work was locked anew")) return false;
  }
  const auto unlock_stopped = [&] {  // what was locked, unlocked (they must run for it) before a kill or a retreat
    family_->resume();
    std::string ignored;
    device_lock_->unlock(&ignored);
    std::string why;
    family_->stop(kStopLimit, &why);
  };
  for (int pass = 0; pass < kHoldPasses; ++pass) {
    family_->resume();
    std::string why;
    DeviceLock::Result r = device_lock_->lock(family_->members(), kDeviceWorkLimit, &why);
    if (r == DeviceLock::Result::Locked && !device_lock_->held()) {  // the runner itself is a CUDA process
      r = DeviceLock::Result::Failed;
      why = "no process of the runner's held the GPU's device files open";
    }
    std::string stop_why;
    if (!family_->stop(kStopLimit, &stop_why)) {
      ended(o, "the submission's processes could not be stopped before a call's buffers were written: " + stop_why,
            CallOutcome::Crashed);
      return false;
    }
    if (r == DeviceLock::Result::Busy) {
      char buf[300];
      std::snprintf(buf, sizeof buf,
                    "device work of the submission's did not end within %.3g s when the judge waited for it, outside "
                    "its calls, %s (",
                    std::chrono::duration<double>(kDeviceWorkLimit).count(), before);
      unlock_stopped();
      ended(o, buf + why +
                   "): work launched after solve() returned (a kernel left running, or work queued behind a wait) "
                   "would run beside the judge's loading of the next inputs",
            CallOutcome::Crashed);
      return false;
    }
    if (r == DeviceLock::Result::Failed) {
      unlock_stopped();
      if (!loaded_) {  // no code of the submission's has run: this machine's driver cannot do it
        device_work_note_ = "not held between calls: " + why;
        device_lock_.reset();
        return true;
      }
      ended(o, "the judge could not hold the submission's device work between calls: " + why, CallOutcome::Crashed);
      return false;
    }
    bool all = true;  // every process the stop found was looked at (none started since the lock began)
    for (pid_t pid : family_->known()) all = all && device_lock_->looked_at().count(pid) > 0;
    if (all) return true;
  }
  unlock_stopped();
  ended(o, "the submission's processes kept starting new ones while the judge waited for their device work",
        CallOutcome::Crashed);
  return false;
}

std::string Session::emulated_stall() {
  // Only a line that comes after the signal counts (the submission's own output before it cannot pose as one); the
  // emulator's handler runs in the submission's process, so the line is evidence for the student, never a verdict.
  constexpr auto kWait = std::chrono::milliseconds(500);
  const size_t from = child_->output().size();
  ::kill(-child_->pid(), hpcjudge_emu::kStallSignal);
  for (pid_t p : family_->members()) ::kill(p, hpcjudge_emu::kStallSignal);  // a sandbox's runner: a session of its own
  const auto until = Clock::now() + kWait;
  for (;;) {
    if (std::string line = child_->take_line(from, hpcjudge_emu::kStallMark); !line.empty())
      return "under CPU emulation, " + line.substr(0, 600);
    if (Clock::now() >= until || child_->wait(-1, std::min(until, Clock::now() + std::chrono::milliseconds(20))) ==
                                     Child::Wake::Exited)
      return "";
  }
}

bool Session::release_device_work(CallOutcome& o, const char* during) {
  if (!device_lock_ || !device_lock_->held()) return true;
  std::string why;
  if (device_lock_->unlock(&why)) return true;
  // A runner that dies as it is resumed (the submission's first instruction faults, with no CUDA call, which the
  // lock does not hold back) fails the driver's unlock as it exits: its own end is the cause, as in any call.
  if (child_->wait(-1, Clock::now() + kDeathGrace) == Child::Wake::Exited) {
    runner_gone(during, o);
    return false;
  }
  ended(o, std::string("before ") + during + ", " + why, CallOutcome::Crashed);
  return false;
}

Session::Exchange Session::exchange(Request q, double timeout_s, const char* during, CallOutcome& o, int pass_fd) {
  Exchange x;
  if (!alive_) {
    o.status = CallOutcome::Crashed;
    o.message = std::string("the process had ended before ") + during;
    return x;
  }
  q.seq = ++seq_;
  const std::string wire = nlohmann::json(q).dump();  // serialised before the clock starts
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  // A timed GPU exchange's reply is awaited on a core that does not sleep: on the H200's host the reply
  // reached a sleeping judge about 117 us after the call synchronised, a polling one 69-85 us after.
  // A launch's ping (the runner's first answer) measures nothing, and may go on beside other runners' launches
  // (Session::launch): no CPU kept awake, no spinning wait.
  const bool timed = measuring_ && (q.op == Op::Call || q.op == Op::Ping);
  const Clock::duration spin = timed && spin_replies_ ? kReplySpin : Clock::duration{};
  // No CPU halted when the runner is resumed or the judge woken: the spinners run for their window, or until
  // the call's end.
  struct Awake {
    CpuSpinners* s;
    ~Awake() {
      if (s) s->release();
    }
  } awake{timed ? opt_.keep_awake : nullptr};
  if (awake.s) awake.s->hold();
  // The request waits in the channel while the runner is stopped: resumed, it finds it at once. The clock
  // starts once it is written, just before the resume: nothing of the runner's runs before that.
  x.sent = Clock::now();
  bool sent = true;
  try {
    send_bytes(channel_, wire, pass_fd);
  } catch (const std::exception&) {
    sent = false;  // the runner is gone: its exit says how
  }
  Moments m;
  m.handed = x.start = Clock::now();
  family_->resume();
  m.resumed = Clock::now();
  // Its CUDA calls go on from here (the runner's first waits for this): inside the interval, as in the pings.
  if (!release_device_work(o, during)) return x;
  m.unlocked = Clock::now();
  x.reply = await_reply(q.seq, sent ? channel_ : -1, deadline, spin, timeout_s, during, o, m);
  if (!x.reply) return x;
  m.parsed = Clock::now();
  x.replied = m.arrived;
  if (awake.s) std::exchange(awake.s, nullptr)->release();  // the call is over: they sleep while it is stopped
  if (!stop_after_reply(x, m, q.op == Op::Call || q.op == Op::CallSetup, during, o)) {
    x.reply.reset();
    return x;
  }
  if (trace_ && (q.op == Op::Call || q.op == Op::Ping))
    print_trace(q.op == Op::Call, child_->pid(),
                {x.sent, m.resumed, m.handed, m.parsed, m.fenced, x.stopped, m.unlocked, m.arrived},
                x.cpu_after_ns == UINT64_MAX ? -1.0 : static_cast<double>(x.cpu_after_ns) / 1e3, *x.reply);
  if (!x.reply->ok) failed_reply(*x.reply, during, o);
  return x;
}

// The call ends when its reply is there to read, not once it is read and parsed (10-33 us of the judge's
// own on the H200's host): at each message's arrival the judge takes the time, the CPU the family has used and,
// on a GPU, its fence, and keeps them where the message is the reply.
std::optional<Reply> Session::await_reply(uint64_t seq, int channel, Clock::time_point deadline,
                                          Clock::duration spin, double timeout_s, const char* during, CallOutcome& o,
                                          Moments& m) {
  m.arrived = m.fenced = m.unlocked;
  for (;;) {
    const Child::Wake w = child_->wait(channel, deadline, channel >= 0 ? spin : Clock::duration{});
    if (w == Child::Wake::Timeout) {
      timed_out(timeout_s, during, o);
      return std::nullopt;
    }
    std::optional<Message> msg;
    if (w == Child::Wake::Readable) {
      m.arrived = m.fenced = Clock::now();
      m.cpu_ns = family_->cpu_ns();
      m.known = family_->known();
      // A GPU call ends on the device too: work of the judge's own, enqueued now, runs once the call's
      // kernels are over, or once they are preempted at a time slice's end; what such a kernel writes after
      // that is not in the outputs, which the judge reads back first (Session::call).
      if (device_) {
        device_->fence();
        m.fenced = Clock::now();
      }
      msg = receive(channel_);
    }
    if (!msg) {
      runner_gone(during, o);
      return std::nullopt;
    }
    if (msg->fd >= 0) close(msg->fd);
    if (msg->json.is_discarded()) continue;
    std::optional<Reply> r = protocol::parse_reply(msg->json);
    if (!r || r->seq != seq) continue;  // not the reply to this request: a stale or a forged message
    return r;
  }
}

// At the time limit: TLE, or RE for a fork bomb; under CPU emulation, with what the emulator says was running.
void Session::timed_out(double timeout_s, const char* during, CallOutcome& o) {
  const std::string stalled = opt_.emulate ? emulated_stall() : "";
  ::kill(-child_->pid(), SIGSTOP);  // a fork bomb stops growing while it is counted
  const size_t processes = std::max(child_->processes(), family_->members().size());
  char buf[200];
  std::snprintf(buf, sizeof buf, "%s did not return within %.3g s", during, timeout_s);
  CallOutcome::Status status = CallOutcome::TimedOut;
  if (processes > kForkBomb) {
    status = CallOutcome::Crashed;
    std::snprintf(buf, sizeof buf, "%s started %zu processes (a fork bomb) and did not return within %.3g s",
                  during, processes, timeout_s);
  }
  ended(o, stalled.empty() || status != CallOutcome::TimedOut ? std::string(buf) : buf + ("; " + stalled), status);
}

// The channel closed before the reply: the runner ended (RE), could not start (JE: no code of the submission's
// had run), or was killed for a file past its memory limit (MLE).
void Session::runner_gone(const char* during, CallOutcome& o) {
  // Under a wrapper (bubblewrap) the runner's end comes back as the wrapper's exit status (a SIGSYS from the
  // syscall filter as 159): let the wrapper pass it on, briefly, before the family's kill ends the wrapper too.
  if (wrapped_) child_->wait(-1, Clock::now() + std::chrono::milliseconds(500));
  family_->kill();
  const ExitStatus st = exit_ = reap();
  alive_ = false;
  o.status = CallOutcome::Crashed;
  o.message = std::string("the process ended with ") + st.describe() + " during " + during;
  if (!loaded_) {
    o.judge_fault = true;
    o.message = "the runner could not start here (" + st.describe() + " during " + during + ")";
    if (const std::string cause = first_line(child_->output()); !cause.empty()) o.message += ": " + cause;
  }
  if (auto over = file_past_limit(!st.exited, st.signal, opt_.memory_limit, during)) {
    o.status = CallOutcome::OutOfMemory;
    o.message = *over;
  }
}

// The family stopped after the reply, and the interval's end (judge/timing/interval.h): the reply (and on a GPU
// the fence after it), unless the submission's processes went on working after it (more CPU than the runner
// needs to go back to waiting): then only when they were all stopped. False (`o` says why) where the family
// would not stop or, after a call, held more memory than its limit.
bool Session::stop_after_reply(Exchange& x, const Moments& m, bool call, const char* during, CallOutcome& o) {
  std::string why;
  if (!family_->stop(kStopLimit, &why)) {
    ended(o, std::string("after ") + during + ", the submission's processes could not be stopped: " + why,
          CallOutcome::Crashed);
    return false;
  }
  const uint64_t cpu_stopped = family_->known() == m.known ? family_->cpu_ns() : UINT64_MAX;
  x.stopped = Clock::now();
  x.cpu_after_ns = cpu_stopped == UINT64_MAX ? UINT64_MAX : cpu_stopped - m.cpu_ns;
  x.late_work = worked_late(x.cpu_after_ns, late_work_ns_);
  if (x.late_work && device_) {
    device_->fence();
    x.stopped = Clock::now();
  }
  x.end = interval_end(m.fenced, x.stopped, x.late_work);
  if (call)
    if (const std::string over = over_memory_limit(during); !over.empty()) {
      ended(o, over, CallOutcome::OutOfMemory);
      return false;
    }
  return true;
}

// A reply that says the request failed: its error (MLE where the runner refused memory); a fatal one ends the
// runner, which is let end itself.
void Session::failed_reply(const Reply& r, const char* during, CallOutcome& o) {
  o.status = failed_reply_status(r.memory_limit);
  o.message = r.error.empty() ? std::string(during) + " failed" : r.error;
  if (!r.fatal) return;
  family_->resume();
  child_->wait(-1, Clock::now() + std::chrono::seconds(10));
  family_->kill();
  child_->kill();
  exit_ = reap();
  alive_ = false;
}

// The host memory of the whole family, counted while it is stopped: each process's own limit (the runner's
// --memory-limit) does not bound children that each stay under it, or shared-memory files that each stay under the
// file-size limit. Resident memory on CPU problems only: a CUDA process's resident figure has not been measured
// against the limit on a GPU machine. The files it wrote in its TMPDIR and /dev/shm count on every problem: they
// are memory (tmpfs) or the judge's disk, and no process's limit sees a file once it is closed.
std::string Session::over_memory_limit(const char* during) const {
  if (opt_.memory_limit == 0) return "";
  std::vector<dev_t> mounts;
  const std::vector<int> family = family_->known();
  const size_t files = private_tmp_bytes(family, {runner_tmp_->path.string(), "/tmp", "/dev/shm"}, &mounts) +
                       folder_bytes(runner_tmp_->path.string());
  const size_t held = files + (problem_.info().kind == Kind::CPU ? family_memory_bytes(family, mounts) : 0);
  return family_past_limit(held, files, family.size(), opt_.memory_limit, during).value_or("");
}

bool Session::simple(Request q, double timeout_s, const char* during, CallOutcome& o) {
  const Exchange x = exchange(std::move(q), timeout_s, during, o);
  return x.reply && x.reply->ok;
}

std::optional<std::string> Session::slowed_from_outside() const {
  if (!started_as_ || !child_ || !alive_) return std::nullopt;
  // The runner's own process (a reference starts none): without a wrapper, the process another of the user's may
  // reach; under bubblewrap's PID namespace no submission sees it.
  return slowed_thread(child_->pid(), *started_as_, host_arena());
}

// Where solve()'s buffers will be. A GPU problem's belong to the judge's own
// context where this machine can share device memory, else to the runner.
void Session::setup_buffers(double timeout_s, CallOutcome& o) {
  Request q;
  q.op = Op::Setup;
  if (problem_.info().kind == Kind::CPU) {
    mode_ = "host";
    buffers_note_ = "host arena shared with the runner";
  } else if (opt_.emulate) {
    mode_ = "emulate";
    buffers_note_ = "host arena shared with the runner, as the emulated GPU's memory (CPU emulation)";
  } else if (opt_.exact_buffers) {
    mode_ = "exact";
    buffers_note_ = "the runner's own device memory, one allocation per buffer (compute-sanitizer)";
    device_work_note_ = "not held between calls: compute-sanitizer's runs are not timed";
  } else {
    std::string why;
    try {
      device_ = make_judge_device(opt_.device);
      mode_ = "judge";
    } catch (const std::exception& e) {
      why = e.what();
    }
    if (device_) {
      q.mode = mode_;
      if (!simple(q, timeout_s, "setting up the device buffers", o)) return;
      Request map;
      map.op = Op::MapDevice;
      const int fd = device_->reserve(1);
      map.bytes = device_->size();
      CallOutcome probe;
      const Exchange x = exchange(map, timeout_s, "mapping the judge's device buffers", probe, fd);
      if (fd >= 0) close(fd);
      if (!alive_) {
        o = probe;
        return;
      }
      if (x.reply && x.reply->ok) {
        buffers_note_ = "the judge's device buffers, shared with the runner";
        mapped_ = device_->size();
        if (const std::string no = DeviceLock::unavailable();
            !no.empty()) {
          device_work_note_ = "not held between calls: " + no;
        } else {
          device_lock_ = std::make_unique<DeviceLock>();
          device_work_note_ = "held between calls: each CUDA process of the runner locked by the driver "
                              "(cuCheckpointProcessLock) before its buffers are written";
        }
        return;
      }
      why = probe.message;
      device_.reset();
    }
    mode_ = "runner";
    buffers_note_ = "the runner's own device memory: this machine could not share the judge's (" + why +
                    "); inputs and outputs pass through the submission's process";
    device_work_note_ = "not held between calls: the inputs pass through the submission's process";
  }
  q.mode = mode_;
  simple(q, timeout_s, "setting up the buffers", o);
}

// The same exchange as a call's, before any submission code has run: what the
// judge's clock takes beyond the call itself. After a cache flush the runner
// wakes up colder (its CPU idle, its kernel paths evicted), so a timed call is
// corrected by pings that follow a flush too.
RoundTrip Session::measure_round_trip(bool flush, double timeout_s, CallOutcome& o) {
  std::vector<double> samples;
  std::vector<uint64_t> after;
  const int count = flush ? kColdSamples : kRoundTripSamples;
  for (int i = 0; i < kRoundTripWarmup + count; ++i) {
    if (!hold_device_work(o, "before a ping")) return {};  // as before a call: its unlock is in the interval
    if (flush) flush_caches();
    Request q;
    q.op = Op::Ping;
    const Exchange x = exchange(q, timeout_s, "measuring the channel", o);
    if (!x.reply || !x.reply->ok) return {};
    if (i >= kRoundTripWarmup) samples.push_back(seconds_between(x.start, x.end)), after.push_back(x.cpu_after_ns);
  }
  return round_trip_of(std::move(samples), std::move(after));
}

void Session::flush_caches() {
  if (device_) device_->flush_caches();
  else if (host_arena()) (opt_.flusher ? *opt_.flusher : flusher_).flush();
}

CallOutcome Session::start(double timeout_s) {
  launch(timeout_s);
  return ready(timeout_s);
}

CallOutcome Session::launch(double timeout_s) {
  CallOutcome o;
  Request ping;
  ping.op = Op::Ping;
  if (simple(ping, timeout_s, "starting", o)) setup_buffers(timeout_s, o);
  launched_ = o;
  return o;
}

CallOutcome Session::ready(double timeout_s) {
  if (launched_.status != CallOutcome::Ok) return launched_;
  measuring_ = true;
  CallOutcome o;
  warm_trip_ = measure_round_trip(false, timeout_s, o);
  if (o.status != CallOutcome::Ok) return o;
  if (opt_.timed_calls) {
    cold_trip_ = measure_round_trip(true, timeout_s, o);
    if (o.status != CallOutcome::Ok) return o;
  }
  late_work_ns_ = late_work_allowance_ns(warm_trip_, cold_trip_);  // before any of the submission's code ran
  Request load;
  load.op = Op::Load;
  load.library = opt_.library.string();
  loaded_ = true;  // its code may run from here on
  simple(load, timeout_s, "loading", o);
  return o;
}

void Session::reserve(size_t bytes) {
  PinnedImages& pool = opt_.images ? *opt_.images : *own_images_;
  // A block outgrown goes back first (a smaller call's may still serve another session).
  const auto grow = [&](PinnedImages::Lease& lease) {
    if (bytes <= lease.size()) return;
    lease = {};
    lease = pool.take(bytes);
  };
  grow(image_);
  if (device_) {
    grow(readback_);
  } else {
    if (common()) grow(readback_);
    arena_.reserve(bytes, !common());
  }
}

const std::byte* Session::result() const { return device_ || common() ? readback_.base() : arena_.base(); }

template <class Copy>
void Session::each_arena_part(size_t copied, size_t from, size_t to, Copy copy) const {
  const size_t split = common() ? std::clamp(copied, from, to) : from;
  if (from < split) copy(opt_.common_arena->base(), from, split - from);
  if (split < to) copy(arena_.base(), split, to - split);
}

bool Session::read_back_from(const Session& other, const Signature& sig, const ArenaLayout& layout) {
  // The outputs lie in [0, layout.copied), where the two layouts agree (a rival's workspaces may differ).
  if (!device_ || !other.device_ || other.device_->size() < layout.total || readback_.size() < layout.copied)
    return false;
  other.device_->download({readback_.base(), readback_.pinned()}, layout.copied, all_but_outputs(sig, layout));
  return true;
}

CallOutcome Session::load(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt) {
  // In the common arena only mapped now: call() copies the buffers in right before the call, as another
  // session's call may come in between (a rival's).
  if (common()) {
    CallOutcome o;
    map_for(layout, opt.timeout_s, o);
    return o;
  }
  return load_now(sig, layout, opt);
}

CallOutcome Session::load_now(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt) {
  CallOutcome o;
  const JudgeDevice::Spans scratch = scratch_spans(sig, layout);
  if (!map_for(layout, opt.timeout_s, o)) return o;
  // The inputs, the sentinels and the guards: into the runner's memory now, never earlier.
  const bool keep_workspace = keeps_workspace(sig, opt);
  if (device_ && !hold_device_work(o, "before writing a call's inputs")) return o;
  Stopwatch copy;
  if (device_) {
    // Pinned over what is copied (never a workspace), where the pool's block was not already.
    image_.pin(layout.copied);
    if (opt_.pin_read_back) readback_.pin(layout.copied);
    device_->upload({image_.base(), image_.pinned()}, layout.total, scratch, !keep_workspace,
                    repeating_sentinels(sig, layout));
  } else {
    // Into the runner's memory: every byte but the workspaces', which are never copied (the guard zones
    // around them are).
    around(layout.total, scratch, [&](size_t from, size_t to) {
      each_arena_part(layout.copied, from, to, [&](std::byte* arena, size_t at, size_t n) {
        parallel_copy(arena + at, image_.base() + at, n);
      });
    });
    if (host_arena() && !keep_workspace) {
      // A workspace in the host arena (a CPU problem's, or an emulated GPU problem's): garbage, as on a device,
      // and kept, as on a device, where it holds what setup() wrote for the case's calls.
      const int g = garbage_byte();
      for (const auto& [off, n] : scratch) std::memset(arena_.base() + off, g, n);
    }
    if (!host_arena()) {
      Request up;
      up.op = Op::Upload;
      up.args = call_args(sig, layout);
      up.bytes = layout.total;
      up.keep_workspace = keep_workspace;
      if (!simple(up, opt.timeout_s, "copying the inputs to the device", o)) return o;
    }
  }
  load_s_ = copy.lap();
  return o;
}

bool Session::load_from(const Session& from, const Signature& sig, const ArenaLayout& layout,
                        const CallOptions& opt, CallOutcome& o) {
  if (!device_ || !from.device_ || from.device_->size() < layout.copied) return false;
  copy_on_device(*from.device_, sig, layout, opt, o);
  return true;
}

bool Session::copy_on_device(const JudgeDevice& from, const Signature& sig, const ArenaLayout& layout,
                             const CallOptions& opt, CallOutcome& o) {
  // A staged call's lock taken anew, so that it is as recent on every side (CallOptions::stage).
  if (!map_for(layout, opt.timeout_s, o) || !hold_device_work(o, "before writing a call's inputs", opt.stage != nullptr))
    return false;
  Stopwatch copy;
  if (opt_.pin_read_back) readback_.pin(layout.copied);
  device_->copy_from(from, layout.copied, layout.total, scratch_spans(sig, layout), !keeps_workspace(sig, opt));
  load_s_ = copy.lap();
  return true;
}

bool Session::stage_image(JudgeDevice& stage, const Signature& sig, const ArenaLayout& layout) {
  if (!device_) return false;
  if (const int fd = stage.reserve(layout.copied); fd >= 0) close(fd);  // no runner maps it
  image_.pin(layout.copied);
  // The workspaces lie past `copied` and are never copied from it: neither uploaded nor filled here.
  stage.upload({image_.base(), image_.pinned()}, layout.copied, {}, false, repeating_sentinels(sig, layout));
  return true;
}

bool Session::map_for(const ArenaLayout& layout, double timeout_s, CallOutcome& o) {
  // The runner's memory for this layout, mapped while it is stopped.
  if (layout.total <= mapped_ && (!common() || layout.copied == common_mapped_)) return true;
  Request map;
  map.bytes = layout.total;
  int fd = -1;
  if (device_) {
    map.op = Op::MapDevice;
    fd = device_->reserve(layout.total);
    map.bytes = device_->size();
  } else {
    map.op = Op::MapArena;
    map.bytes = std::max(layout.total, mapped_);
    if (common()) {  // the common arena over the first `copied` bytes, its own file under the rest
      opt_.common_arena->reserve(layout.copied);
      fd = fcntl(opt_.common_arena->fd(), F_DUPFD_CLOEXEC, 0);
      if (fd < 0) throw std::system_error(errno, std::generic_category(), "dup of the common arena");
      map.common_bytes = layout.copied;
    }
  }
  const Exchange x = exchange(map, timeout_s, "mapping the buffers", o, fd);
  if (fd >= 0) close(fd);
  if (!x.reply || !x.reply->ok) return false;
  mapped_ = map.bytes;
  common_mapped_ = map.common_bytes;
  return true;
}

CallOutcome Session::call(const Signature& sig, const ArenaLayout& layout, const CallOptions& opt) {
  // In the common arena, loaded right before each call: another session's buffers may have come since (a rival's
  // call), or its own last call's.
  if (opt.stage && device_) {  // each side locked right before its own call (CallOptions::stage)
    CallOutcome loaded;
    if (!copy_on_device(*opt.stage, sig, layout, opt, loaded)) return loaded;
  } else if (!opt.loaded || common()) {
    CallOutcome loaded = load_now(sig, layout, opt);
    if (loaded.status != CallOutcome::Ok) return loaded;
  }
  CallOutcome o;
  const std::vector<protocol::CallArg> args = call_args(sig, layout);
  const JudgeDevice::Spans scratch = scratch_spans(sig, layout);
  std::optional<Paused> quiet;  // the judge's background work, off the CPUs from the flush to the reply
  if (opt.flush) quiet.emplace(opt.quiet);
  Stopwatch copy;
  // The runner's own buffers (mode runner) are flushed by the runner as it uploads.
  if (opt.flush && (device_ || host_arena())) flush_caches();
  const double flush_s = copy.lap();
  Request q;
  q.op = opt.setup ? Op::CallSetup : Op::Call;
  if (opt.setup) q.pick = sig.setup_args;
  q.args = args;
  q.device_memory_limit = opt.device_memory_limit;
  q.device_time = opt.device_time && !opt.setup;  // measured only where the runner's memory is on a device
  q.count_accesses = opt.count_accesses && !opt.setup;
  const Exchange x = exchange(q, opt.timeout_s, opt.setup ? "setup()" : "solve()", o);
  quiet.reset();
  if (!x.reply) return o;
  const CallTimes t = call_times(x.start, x.replied, x.end, round_trip(opt.flush).subtracted_s);
  o.interval_s = t.interval_s;
  o.seconds = t.seconds;
  o.replied_s = t.replied_s;
  o.reported_seconds = x.reply->seconds;
  if (q.device_time) o.device_seconds = x.reply->device_seconds;
  o.cpu_seconds = x.reply->cpu_seconds;
  o.body_seconds = x.reply->body_seconds;
  o.ready_seconds = x.reply->ready_seconds;
  o.ret = x.reply->ret;
  o.device_peak_bytes = x.reply->device_peak_bytes;
  o.device_held_bytes = x.reply->device_held_bytes;
  if (q.count_accesses) o.emulation_counts = x.reply->emulation_counts;
  if (o.status != CallOutcome::Ok) return o;
  // The buffers as they are now, read by the judge.
  if (device_) {
    copy.lap();
    const JudgeDevice::Host into{readback_.base(), readback_.pinned()};
    // The outputs first, right after the call's end: a kernel the fence did not wait for (preempted at a time
    // slice's end, past an early reply) must not go on writing them while the inputs come over the bus before
    // them (docs/design.md, "Who measures"); then the rest, inputs and guard zones.
    if (opt.read_back != ReadBack::None) device_->download(into, layout.total, all_but_outputs(sig, layout));
    if (opt.read_back == ReadBack::All) device_->download(into, layout.total, outputs_and(sig, layout, scratch));
    if (trace_)  // where a call's copies go, in µs (docs/design.md, "timing")
      std::fprintf(stderr, "trace copies runner %d bytes %zu load %.1f flush %.1f read-back %.1f\n",
                   static_cast<int>(child_->pid()), layout.total, 1e6 * load_s_, 1e6 * flush_s, 1e6 * copy.lap());
    // A staged call: its device work held from now to its next call, so that work launched after the reply runs
    // beside no other side's call (CallOptions::stage).
    if (opt.stage && !hold_device_work(o, "after a timed call")) return o;
  } else if (common() && opt.read_back != ReadBack::None) {
    // Into the read-back now, before another session's buffers take the common arena: all but the workspaces, or
    // the outputs alone.
    const JudgeDevice::Spans skip = opt.read_back == ReadBack::All ? scratch : all_but_outputs(sig, layout);
    around(layout.total, skip, [&](size_t from, size_t to) {
      each_arena_part(layout.copied, from, to, [&](const std::byte* arena, size_t at, size_t n) {
        parallel_copy(readback_.base() + at, arena + at, n);
      });
    });
  } else if (!host_arena() && opt.read_back != ReadBack::None) {
    Request down;
    down.op = Op::Download;
    down.args = args;
    down.bytes = layout.total;
    if (!simple(down, opt.timeout_s, "copying the outputs from the device", o)) return o;
  }
  if (const std::string resized = resized_arena(); !resized.empty()) {
    o.status = CallOutcome::Error;
    o.message = resized;
  }
  return o;
}

std::string Session::resized_arena() const {
  std::string why;
  for (const SharedArena* a : std::initializer_list<const SharedArena*>{&arena_, common() ? opt_.common_arena : nullptr})
    if (!device_ && a && a->file_size() != a->size())
      why = "the submission resized the shared memory file that holds its buffers (" + std::to_string(a->size()) +
            " bytes, now " + std::to_string(a->file_size()) + ")";
  return why;
}

CallOutcome Session::hold_between_calls(const char* before) {
  CallOutcome o;
  hold_device_work(o, before);
  return o;
}

CallOutcome Session::after_call(double timeout_s) {
  CallOutcome o;
  Request q;
  q.op = Op::AfterCall;
  simple(q, timeout_s, "after solve() returned", o);
  return o;
}

CallOutcome Session::workspace_size(const std::vector<int64_t>& args, double timeout_s) {
  CallOutcome o;
  Request q;
  q.op = Op::WorkspaceSize;
  for (int64_t a : args) {
    protocol::CallArg c;
    c.value = a;
    q.args.push_back(c);
  }
  const Exchange x = exchange(q, timeout_s, "workspace_size()", o);
  if (x.reply && x.reply->ok) o.ret = x.reply->ret;
  return o;
}

nlohmann::json Session::sensors() {
  CallOutcome o;
  Request q;
  q.op = Op::Sensors;
  const Exchange x = exchange(q, 10, "reading the GPU's sensors", o);
  if (!x.reply || !x.reply->ok || !x.reply->sensors.is_object()) return nlohmann::json::object();
  return x.reply->sensors;
}

}  // namespace hpcjudge
