#include "judge/isolation/session.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "judge/measure/gpu.h"
#include "harness/channel.h"

namespace hpcjudge {

namespace {
// More processes than this in the runner's group or user at a timeout: a fork bomb (RE, not TLE).
constexpr size_t kForkBomb = 16;

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

// Whether the runner starts as user `uid` with `groups`: the user must reach
// its folder and its shared libraries (a checkout under /root does not let it).
// Asked once per judge process, with `hpcjudge-runner --check`.
bool runner_starts_as(const std::filesystem::path& runner, unsigned uid, const std::vector<unsigned>& groups) {
  static const bool starts = [&] {
    SpawnOptions opt;
    opt.argv = {runner.string(), "--check"};
    opt.uid = uid;
    opt.groups = groups;
    Child c(opt);
    c.wait(-1, Clock::now() + std::chrono::seconds(30));
    const ExitStatus st = c.reap();
    return st.exited && st.code == 0;
  }();
  return starts;
}
}  // namespace

Session::Session(const Paths& paths, const Problem& problem, const std::filesystem::path& library, int threads,
                 int device, const std::vector<std::string>& wrapper, bool exact, size_t memory_limit) {
  int fds[2];
  make_channel(fds);
  channel_ = fds[0];
  SpawnOptions opt;
  opt.argv = wrapper;
  wrapped_ = !wrapper.empty();
  for (std::string a : {paths.runner.string(), std::string("--problem"), problem.info().slug, std::string("--library"),
                        library.string(), std::string("--channel"), std::string("3"), std::string("--arena"),
                        std::string("4"), std::string("--device"), std::to_string(device)})
    opt.argv.push_back(a);
  if (exact) opt.argv.push_back("--exact-buffers");
  if (memory_limit > 0) opt.argv.insert(opt.argv.end(), {"--memory-limit", std::to_string(memory_limit)});
  opt.pass_fds = {{3, fds[1]}, {4, arena_.fd()}};
  // Memory held in a file (a memfd grown by ftruncate or fallocate, /dev/shm)
  // is in no address space: no file of the runner's may outgrow the limit.
  opt.file_size = memory_limit;
  memory_limit_ = memory_limit;
  // Processes and threads: a fork bomb stops at a limit and is killed whole.
  // Run as root, the runner gets a user id of its own, so the limit binds (it
  // never binds root) and the kill reaches every process it started. A GPU
  // problem's runner gets the groups of the device nodes too. Where a node is
  // closed to every other user, or that user cannot start the runner, it stays
  // root, with no limit but the fork-bomb count and kill at a timeout. Not
  // root, the limit is the user's tasks now plus room.
  constexpr unsigned long kRoom = 64;
  if (geteuid() == 0) {
    const auto groups = problem.info().kind == Kind::GPU ? gpu_node_groups() : std::vector<unsigned>{};
    const unsigned own_uid = fresh_runner_uid();
    if (groups && runner_starts_as(paths.runner, own_uid, *groups)) {
      opt.uid = own_uid;
      opt.groups = *groups;
      opt.max_tasks = static_cast<unsigned long>(threads) + kRoom;
    }
  } else {
    opt.max_tasks = tasks_of_user(geteuid()) + static_cast<unsigned long>(threads) + kRoom;
  }
  // The runner links the problem descriptions, and with them OpenBLAS: keep its
  // thread pool out of the submission's process.
  // OpenMP's (and OpenBLAS's) idle threads sleep rather than spin, so a thread
  // still running after solve() returns is work deferred past the timer
  // (harness/deferred_work.h). OPENBLAS_THREAD_TIMEOUT=4: 2^4 cycles of spinning.
  opt.env = {{"OMP_NUM_THREADS", std::to_string(threads)},
             {"OPENBLAS_NUM_THREADS", "1"},
             {"OMP_WAIT_POLICY", "passive"},
             {"OPENBLAS_THREAD_TIMEOUT", "4"}};
  child_ = std::make_unique<Child>(opt);
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

void Session::finish() {
  if (finished_) return;
  finished_ = true;
  if (alive_) {
    request({{"op", "exit"}});
    child_->wait(-1, Clock::now() + std::chrono::seconds(2));
    child_->kill();
    alive_ = false;
  }
  exit_ = reap();
}

CallOutcome Session::wait_reply(double timeout_s, const char* during) {
  CallOutcome o;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  const Child::Wake w = child_->wait(channel_, deadline);
  if (w == Child::Wake::Timeout) {
    const size_t processes = child_->processes();
    child_->kill();
    child_->reap();
    alive_ = false;
    o.status = CallOutcome::TimedOut;
    char buf[160];
    std::snprintf(buf, sizeof buf, "%s did not return within %.3g s", during, timeout_s);
    o.message = buf;
    if (processes > kForkBomb) {
      o.status = CallOutcome::Crashed;
      std::snprintf(buf, sizeof buf, "%s started %zu processes (a fork bomb) and did not return within %.3g s", during,
                    processes, timeout_s);
      o.message = buf;
    }
    return o;
  }
  std::optional<nlohmann::json> reply;
  if (w == Child::Wake::Readable) reply = receive_message(channel_);
  if (!reply) {
    const ExitStatus st = exit_ = reap();
    alive_ = false;
    o.status = CallOutcome::Crashed;
    o.message = std::string("the process ended with ") + st.describe() + " during " + during;
    if (!st.exited && st.signal == SIGXFSZ && memory_limit_ > 0) {
      o.status = CallOutcome::OutOfMemory;
      o.message = std::string("grew a file (a memfd or shared memory) past the memory limit of ") +
                  std::to_string(memory_limit_) + " bytes during " + during;
    }
    return o;
  }
  if (reply->contains("device_peak_bytes")) o.device_peak_bytes = (*reply)["device_peak_bytes"].get<size_t>();
  if (reply->contains("error")) {
    o.status = reply->value("memory_limit", false) ? CallOutcome::OutOfMemory : CallOutcome::Error;
    o.message = (*reply)["error"].get<std::string>();
    if (reply->value("fatal", false)) {  // the child ends itself: wait for it
      child_->wait(-1, Clock::now() + std::chrono::seconds(10));
      child_->kill();
      exit_ = reap();
      alive_ = false;
    }
    return o;
  }
  o.seconds = reply->value("seconds", 0.0);
  o.ret = reply->value("ret", int64_t{0});
  return o;
}

// A request to the runner. False when it is gone (the channel is closed): the
// reply that never comes then says how it ended (wait_reply).
bool Session::request(const nlohmann::json& message) {
  try {
    send_message(channel_, message);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

CallOutcome Session::start(double timeout_s) { return wait_reply(timeout_s, "loading"); }

CallOutcome Session::workspace_size(const std::vector<int64_t>& args, double timeout_s) {
  request({{"op", "workspace_size"}, {"args", args}});
  return wait_reply(timeout_s, "workspace_size()");
}

CallOutcome Session::call(const Signature& sig, const ArenaLayout& layout, bool flush, double timeout_s,
                          size_t device_memory_limit) {
  nlohmann::json args = nlohmann::json::array();
  for (const Arg& a : sig.args) {
    if (a.buffer >= 0) {
      nlohmann::json b = {{"offset", layout.offset[a.buffer]}, {"bytes", layout.bytes[a.buffer]}};
      if (sig.buffers[a.buffer].role == Role::Workspace) b["workspace"] = true;
      args.push_back(b);
    } else {
      args.push_back({{"value", a.scalar}});
    }
  }
  request({{"op", "call"},
           {"arena_bytes", layout.total},
           {"args", args},
           {"flush", flush},
           {"device_memory_limit", device_memory_limit}});
  return wait_reply(timeout_s, "solve()");
}

}  // namespace hpcjudge

namespace hpcjudge {

nlohmann::json Session::sensors() {
  if (!alive_) return nlohmann::json::object();
  if (!request({{"op", "sensors"}})) return nlohmann::json::object();
  if (child_->wait(channel_, Clock::now() + std::chrono::seconds(10)) != Child::Wake::Readable) return {};
  auto reply = receive_message(channel_);
  return reply ? reply->value("sensors", nlohmann::json::object()) : nlohmann::json::object();
}

}  // namespace hpcjudge
