// hpcjudge-runner: the child process the judge starts for one submission. It
// serves the requests of protocol/protocol.h, one handler each: before the
// submission is loaded, pings (the judge measures the channel's round trip);
// then Load, and calls of solve() on pointers into the buffers the judge laid
// out (runner/runner_memory.h says where they are). The judge stops every
// process of the runner between requests and times each call on its own clock;
// what this process reports is never the evidence.
//
// A problem with a setup() (sdk/problem.h) gets CallSetup once per case,
// untimed, before its calls.
//
//   hpcjudge-runner --problem SLUG --channel FD --arena FD [--device N] [--memory-limit BYTES] [--not-dumpable] [--confine | --confine-under-tool] [--hide PATH]... [--private-tmp BYTES]
//   hpcjudge-runner --probe [--device N]      prints the GPU's description as JSON
//   hpcjudge-runner --check                   exits 0: the runner starts (as the user asked)
//   hpcjudge-runner --landlock                prints the kernel's Landlock version (0: none; runner/confine.h)
//   hpcjudge-runner --calibrate [--threads T] [--gpu] [--device N]
//                                             prints the machine's measured peaks as JSON
#include <dlfcn.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runner/calibrate.h"
#include "protocol/channel.h"
#include "runner/confine.h"
#include "runner/deferred_work.h"
#include "protocol/private_tmp.h"
#include "protocol/profiler_range.h"
#include "sdk/problem.h"
#include "protocol/protocol.h"
#include "runner/runner_memory.h"
#include "settings/settings.h"
#ifdef HPCJUDGE_HAVE_CUDA
#include "runner/device.h"
#endif

using namespace hpcjudge;
using nlohmann::json;
using protocol::Op;
using protocol::Reply;
using protocol::Request;

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string slug;
  int channel = -1;
  int arena_fd = -1;
  int device = 0;
  unsigned long long memory_limit = 0;  // bytes of host memory (0: none)
  bool confine = false;                 // --confine: confined before the submission is loaded (runner/confine.h)
  bool confine_under_tool = false;      // --confine-under-tool: so, under compute-sanitizer or ncu
  std::vector<std::string> hidden;      // --hide PATH: not to be read once confined (runner/confine.h)
};

class Runner {
 public:
  static int64_t ns(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
  }
  static int64_t now_ns() { return ns(Clock::now()); }
  // The CPU time of every thread of this process, those that ended included.
  static double process_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  }
  // Each live thread's time spent ready to run but waiting for a CPU (schedstat's second field, ns), by thread id.
  static std::map<std::string, double> threads_ready_seconds() {
    std::map<std::string, double> out;
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator("/proc/self/task", ec)) {
      std::ifstream in(e.path() / "schedstat");
      double run_ns = 0, wait_ns = 0;
      if (in >> run_ns >> wait_ns) out[e.path().filename().string()] = 1e-9 * wait_ns;
    }
    return out;
  }
  Runner(const Options& o, const Problem& p) : opt_(o), problem_(p) {}

  // Serves requests until Exit, or until the judge goes away.
  int serve() {
    while (auto m = receive(opt_.channel)) {
      received_ns_ = now_ns();
      received_cpu_ = sched_getcpu();
      const std::optional<Request> req = m->json.is_discarded() ? std::nullopt : protocol::parse_request(m->json);
      if (!req) {
        if (m->fd >= 0) close(m->fd);
        continue;  // not a request: nothing to answer
      }
      if (req->op == Op::Exit) return 0;
      Reply r;
      try {
        r = handle(*req, m->fd);
      } catch (const std::exception& e) {
        r = {};
        r.error = std::string("runner: ") + e.what();
      }
      if (m->fd >= 0) close(m->fd);
      r.seq = req->seq;
      // This thread's CPU time brought up to date before the reply: the judge counts the CPU the runner's
      // processes use from the reply to their stop (work done after a reply is timed), and the kernel adds
      // a running thread's time to the count another process reads only at a tick or a switch. On the H200
      // the runner's spin in its synchronise was so counted after the reply in 5-50% of calls by
      // their place in a run, each then timed to the stop, about 0.25 ms more. Reading its own clock makes
      // the kernel account it (task_sched_runtime).
      timespec own{};
      clock_gettime(CLOCK_THREAD_CPUTIME_ID, &own);
      send_message(opt_.channel, r);
      if (r.fatal) return 3;  // a lost CUDA context ends the process, never the judge
    }
    return 0;
  }

 private:
  Reply handle(const Request& q, int fd) {
    switch (q.op) {
      case Op::Ping:
        // Before the submission is loaded: a GPU runner touches the device, so that the
        // round trip holds the switch between the judge's CUDA context and this one, as a call does.
        if (memory_ && !solve_) memory_->touch();
        return ok();
      case Op::Setup: return setup(q);
      case Op::Load: return load(q);
      case Op::MapArena:
        memory().map_arena(q.bytes);
        if (fd >= 0) memory().map_common(fd, q.common_bytes);
        return ok();
      case Op::MapDevice: return memory().map_device(fd, q.bytes), ok();
      case Op::Upload: return memory().upload(q.args, q.bytes, q.keep_workspace), ok();
      case Op::Download: return memory().download(q.args, q.bytes), ok();
      case Op::WorkspaceSize: return workspace_size(q);
      case Op::Call: return call(q);
      case Op::CallSetup: return call_setup(q);
      case Op::AfterCall: return after_call();
      case Op::Sensors: {
        Reply r = ok();
        r.sensors = memory_ ? memory_->sensors() : json::object();
        return r;
      }
      case Op::Exit: break;
    }
    return error("unknown request");
  }

  static Reply ok() {
    Reply r;
    r.ok = true;
    return r;
  }
  static Reply error(std::string why) {
    Reply r;
    r.error = std::move(why);
    return r;
  }

  RunnerMemory& memory() {
    if (!memory_) throw std::runtime_error("the submission is not loaded");
    return *memory_;
  }

  // Where solve()'s buffers will be; a GPU mode creates the device context. Asked
  // again, it replaces the first choice (the judge falls back to runner-held
  // device buffers where its own cannot be shared).
  Reply setup(const Request& q) {
    if (solve_) return error("the submission is loaded already");
    memory_.reset();
    if (q.mode == "host") {
      memory_ = host_memory(opt_.arena_fd);
      return ok();
    }
    if (q.mode == "emulate") {
#ifdef HPCJUDGE_HAVE_EMULATOR
      memory_ = emulated_memory(opt_.arena_fd);
      return ok();
#else
      return error("this runner was built without the CUDA emulator");
#endif
    }
#ifdef HPCJUDGE_HAVE_CUDA
    if (q.mode == "judge") memory_ = judge_device(opt_.device, opt_.arena_fd);
    else if (q.mode == "runner" || q.mode == "exact") memory_ = runner_device(opt_.device, opt_.arena_fd, q.mode == "exact");
    else return error("unknown buffer mode " + q.mode);
    exact_ = q.mode == "exact";
    return ok();
#else
    return error("this runner was built without CUDA");
#endif
  }

  // Sets the memory limit, then loads the submission (its static initialisers count too).
  Reply load(const Request& q) {
    if (!memory_) return error("no buffer mode set up");
    if (solve_) return error("loaded already");
    // A CPU problem's limit is on the address space (RLIMIT_AS). The CUDA driver
    // reserves far more address space than it uses, so a GPU problem's is on the
    // private writable memory instead (RLIMIT_DATA: heap and anonymous maps, what
    // a malloc or a std::vector takes), which the driver's reservations do not count in.
    if (opt_.memory_limit > 0) {
      const rlimit lim{opt_.memory_limit, opt_.memory_limit};
      setrlimit(problem_.info().kind == Kind::GPU ? RLIMIT_DATA : RLIMIT_AS, &lim);
    }
    // Confined before any of its code runs (runner/confine.h), its static initialisers included, where the
    // judge asks: every runner but one under a tool that writes files of its own (compute-sanitizer, ncu).
    // A GPU's context exists by now (setup()): the driver has opened its devices.
    if (opt_.confine || opt_.confine_under_tool)
      confine_runner({.under_tool = opt_.confine_under_tool, .hidden = opt_.hidden, .library = q.library});
    void* lib = dlopen(q.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!lib) return error(std::string("cannot load the submission: ") + dlerror());
    solve_ = dlsym(lib, "solve");
    workspace_size_ = dlsym(lib, "workspace_size");
    if (problem_.has_setup()) setup_ = dlsym(lib, "setup");
    if (!solve_) return error("the submission defines no extern \"C\" solve()");
    return ok();
  }

  std::vector<ArgValue> arguments(const Request& q) {
    std::vector<ArgValue> args;
    size_t buffer = 0;
    for (const protocol::CallArg& a : q.args) {
      ArgValue v;
      if (a.buffer) v.ptr = memory().pointer(a, buffer++);
      else v.integer = a.value;
      args.push_back(v);
    }
    return args;
  }

  Reply workspace_size(const Request& q) {
    // Where setup() is part of the problem, both are optional: without them, no workspace.
    if (!workspace_size_ && problem_.has_setup()) return ok();
    if (!workspace_size_) return error("the submission defines no extern \"C\" workspace_size()");
    std::vector<ArgValue> args;
    for (const protocol::CallArg& a : q.args) args.push_back(ArgValue{.integer = a.value});
    try {
      Reply r = ok();
      r.ret = problem_.invoke_workspace_size(workspace_size_, args);
      return r;
    } catch (const std::exception& e) {
      return error(std::string("workspace_size() threw an exception: ") + e.what());
    }
  }

  // The call, and on a GPU the synchronisation after it: the reply goes as soon
  // as it is done (the judge's clock runs until it has the reply).
  Reply call(const Request& q) {
    const std::vector<ArgValue> args = arguments(q);
    const ProfileRange range(profile_range_);  // `judge profile`: its kernels, not setup()'s
    return run("solve()",
               {.device_memory_limit = q.device_memory_limit, .device_time = q.device_time,
                .count_accesses = q.count_accesses},
               [&] { return problem_.invoke(solve_, args); });
  }

  // setup() with its pick of the call's arguments, under the same rules as a
  // call (device memory counted, errors collected). Not defined: nothing to do.
  Reply call_setup(const Request& q) {
    if (!setup_) return ok();
    const std::vector<ArgValue> all = arguments(q);
    std::vector<ArgValue> args;
    for (int i : q.pick) {
      if (i < 0 || static_cast<size_t>(i) >= all.size()) return error("setup() argument out of range");
      args.push_back(all[static_cast<size_t>(i)]);
    }
    return run("setup()", {.device_memory_limit = q.device_memory_limit}, [&] {
      problem_.invoke_setup(setup_, args);
      return int64_t{0};
    });
  }

  template <class Body>
  Reply run(const std::string& what, const CallStart& start, Body body) {
    Reply r;
    try {
      memory().begin_call(start);
      const int body_cpu = sched_getcpu();
      const double cpu0 = profile_range_ ? process_cpu_seconds() : 0;  // system calls: only where profiled
      const std::map<std::string, double> ready0 = profile_range_ ? threads_ready_seconds() : std::map<std::string, double>{};
      const auto t0 = Clock::now();
      const int64_t ret = body();
      const auto returned = Clock::now();
      if (profile_range_) {
        r.cpu_seconds = process_cpu_seconds() - cpu0;
        r.body_seconds = std::chrono::duration<double>(returned - t0).count();
        double ready = 0;  // threads started in the call count from 0
        for (const auto& [tid, s] : threads_ready_seconds()) ready += s - (ready0.count(tid) ? ready0.at(tid) : 0.0);
        r.ready_seconds = std::max(0.0, ready);
      }
      const int returned_cpu = sched_getcpu();
      const CallEnd end = memory().end_call();
      const auto t1 = Clock::now();
      r.marks = {received_ns_, ns(t0), ns(returned), ns(t1)};
      r.cpus = {received_cpu_, body_cpu, returned_cpu};
      if (end.gpu_began_ns) r.marks.push_back(*end.gpu_began_ns);
      r.device_peak_bytes = end.device_peak_bytes;
      r.device_held_bytes = end.device_held_bytes;
      r.emulation_counts = end.emulation_counts;
      r.fatal = end.fatal;
      if (end.memory_refused) {
        r.error = end.memory_message;
        r.memory_limit = true;
      } else if (!end.error.empty()) {
        r.error = end.error + " during " + what;
      } else {
        r.ok = true;
        r.ret = ret;
        r.seconds = std::chrono::duration<double>(t1 - t0).count();
        r.device_seconds = end.device_seconds;
      }
    } catch (const std::bad_alloc&) {
      r.error = what + " ran out of memory: it asked for more host memory than the limit allows";
      r.memory_limit = true;
    } catch (const std::exception& e) {
      r.error = what + " threw an exception: " + e.what();
    } catch (...) {
      r.error = what + " threw an exception";
    }
    return r;
  }

  // After the judge has read the outputs: the submission's buffered output goes
  // to the judge's pipe, and a thread still working is reported (it gained
  // nothing: it was stopped with the rest of the process, but its author should know).
  Reply after_call() {
    std::fflush(stdout);
    std::fflush(stderr);
    if (exact_) return ok();  // compute-sanitizer's own threads work in the process
    const std::string deferred = deferred_host_work();
    return deferred.empty() ? ok() : error(deferred);
  }

  const Options& opt_;
  const bool profile_range_ = profile_range_wanted();
  const Problem& problem_;
  int64_t received_ns_ = 0;  // when the request being served was read (Reply::marks)
  int received_cpu_ = -1;    // and on which CPU (Reply::cpus)
  std::unique_ptr<RunnerMemory> memory_;
  void* solve_ = nullptr;
  void* workspace_size_ = nullptr;  // where the submission defines one
  void* setup_ = nullptr;           // likewise (problems with a setup() only)
  bool exact_ = false;              // under compute-sanitizer
};

}  // namespace

// --private-tmp BYTES: its TMPDIR and /dev/shm mounts of its own (protocol/private_tmp.h), made first, while it is
// still dumpable and has one thread, where the judge's child did not make them already (as root).
static void enter_private_tmp_if_asked(int argc, char** argv) {
  const std::optional<std::string> tmpdir = settings::Settings::at_start().get(settings::kTmpdir);
  if (private_tmp_made() || !tmpdir) return;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--private-tmp" && enter_private_tmp(private_tmp_for(*tmpdir, std::stoull(argv[i + 1]), 0)))
      settings::put(settings::kPrivateTmp, "1");
}

int main(int argc, char** argv) {
  settings::Settings::at_start();  // every variable it reads, read now (settings/settings.h)
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the judge
  enter_private_tmp_if_asked(argc, argv);
  Options o;
  bool probe = false, calibrate = false, calibrate_gpu = false;
  int threads = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const std::string v = i + 1 < argc ? argv[i + 1] : "";
    if (k == "--check") return 0;  // the judge asks whether the runner starts (as another user)
    if (k == "--landlock") return std::printf("%d\n", landlock_version()), 0;  // the confinement this kernel allows
    // The judge's own reference: no other process of the user may read or write its memory or files
    // (judge/isolation/session.h, SessionOptions::judges_own), from before any of its code runs.
    else if (k == "--not-dumpable") prctl(PR_SET_DUMPABLE, 0);
    else if (k == "--confine") o.confine = true;
    else if (k == "--confine-under-tool") o.confine_under_tool = true;
    else if (k == "--hide") o.hidden.push_back(v), ++i;
    else if (k == "--probe") probe = true;
    else if (k == "--calibrate") calibrate = true;
    else if (k == "--gpu") calibrate_gpu = true;
    else if (k == "--threads") threads = std::stoi(v), ++i;
    else if (k == "--problem") o.slug = v, ++i;
    else if (k == "--channel") o.channel = std::stoi(v), ++i;
    else if (k == "--arena") o.arena_fd = std::stoi(v), ++i;
    else if (k == "--device") o.device = std::stoi(v), ++i;
    else if (k == "--memory-limit") o.memory_limit = std::stoull(v), ++i;
    else if (k == "--private-tmp") ++i;  // done first (enter_private_tmp_if_asked)
  }
  if (probe) {
#ifdef HPCJUDGE_HAVE_CUDA
    std::printf("%s\n", device::probe(o.device).dump().c_str());
#else
    std::printf("%s\n", json{{"devices", 0}, {"error", "the judge was built without the CUDA toolkit"}}.dump().c_str());
#endif
    return 0;
  }
  if (calibrate) {
    json j;
    if (calibrate_gpu) {
#ifdef HPCJUDGE_HAVE_CUDA
      j["gpu"] = calibrate::gpu(o.device);
#else
      j["gpu"] = {{"error", "the judge was built without the CUDA toolkit"}};
#endif
    } else {
      j["cpu"] = calibrate::cpu(threads);
    }
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  if (o.channel < 0 || o.arena_fd < 0) {
    std::fprintf(stderr, "hpcjudge-runner is started by the judge, not by hand\n");
    return 2;
  }
  const Problem* p = Registry::find(o.slug);
  if (!p) {
    std::fprintf(stderr, "runner: unknown problem %s\n", o.slug.c_str());
    return 2;
  }
  Runner runner(o, *p);
  return runner.serve();
}
