// hpcjudge-runner: the child process the judge starts for one submission.
// It loads the compiled submission, then serves "call" requests from the
// judge over the channel: pointers into the shared arena (CPU problems) or
// into its device mirror (GPU problems) are passed to solve(), the call is
// timed, and the reply carries the time, the return value and (GPU) the
// device memory the submission held at most. A "workspace_size" request
// calls the submission's workspace_size(). Checking is the judge's, in its
// own process.
//
//   hpcjudge-runner --problem SLUG --library SO --channel FD --arena FD [--device N] [--exact-buffers]
//                   [--memory-limit BYTES]
//   hpcjudge-runner --probe [--device N]      prints the GPU's description as JSON
//   hpcjudge-runner --check                   exits 0: the runner starts (as the user asked)
//   hpcjudge-runner --calibrate [--threads T] [--gpu] [--device N]
//                                             prints the machine's measured peaks as JSON
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "calibrate.h"
#include "channel.h"
#include "deferred_work.h"
#include "cpu_cache.h"
#include "problem.h"
#ifdef HPCJUDGE_HAVE_CUDA
#include "device.h"
#include "device_memory.h"
#endif

using namespace hpcjudge;
using nlohmann::json;

namespace {

struct Mapping {
  int fd = -1;
  std::byte* base = nullptr;
  size_t size = 0;
  std::byte* ensure(size_t bytes) {
    if (bytes <= size) return base;
    if (base) munmap(base, size);
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) throw std::runtime_error(std::string("mmap arena: ") + std::strerror(errno));
    base = static_cast<std::byte*>(p);
    size = bytes;
    return base;
  }
};

using Clock = std::chrono::steady_clock;

struct Target {
  const Problem* problem = nullptr;
  void* solve = nullptr;
  void* workspace_size = nullptr;  // where the submission defines one
  int device = 0;
  bool exact_buffers = false;  // one device allocation per buffer (under compute-sanitizer)
};

// Serves requests until "exit" or until the judge goes away. For a GPU
// problem each call uploads the arena, calls solve() on device pointers,
// synchronises (so the time covers every stream's work), checks for CUDA
// errors and downloads the arena.
int serve(const Target& t, int channel, Mapping& arena) {
  const bool gpu = t.problem->info().kind == Kind::GPU;
  CacheFlusher flusher;
#ifdef HPCJUDGE_HAVE_CUDA
  std::unique_ptr<device::DeviceArena> dev;
  if (gpu) dev = std::make_unique<device::DeviceArena>(t.device);
#else
  if (gpu) throw std::runtime_error("this runner was built without CUDA");
#endif
  send_message(channel, {{"ready", true}});
  while (auto req = receive_message(channel)) {
    const std::string op = req->value("op", "");
    if (op == "exit") return 0;
#ifdef HPCJUDGE_HAVE_CUDA
    if (op == "sensors") {
      send_message(channel, {{"sensors", gpu ? device::sensors(t.device) : json::object()}});
      continue;
    }
#endif
    if (op == "workspace_size") {
      if (!t.workspace_size) {
        send_message(channel, {{"error", "the submission defines no extern \"C\" workspace_size()"}});
        continue;
      }
      std::vector<ArgValue> args;
      for (const auto& a : req->at("args")) args.push_back(ArgValue{.integer = a.get<int64_t>()});
      json reply;
      try {
        reply = {{"ok", true}, {"ret", t.problem->invoke_workspace_size(t.workspace_size, args)}};
      } catch (const std::exception& e) {
        reply = {{"error", std::string("workspace_size() threw an exception: ") + e.what()}};
      }
      send_message(channel, reply);
      continue;
    }
    if (op != "call") {
      send_message(channel, {{"error", "unknown request " + op}});
      continue;
    }
    const size_t bytes = req->at("arena_bytes").get<size_t>();
    std::byte* host = arena.ensure(bytes);
    std::byte* base = host;
#ifdef HPCJUDGE_HAVE_CUDA
    device::DeviceArena::Spans spans, scratch;
    std::vector<bool> is_scratch;
    for (const auto& a : req->at("args"))
      if (a.contains("offset")) {
        spans.push_back({a["offset"].get<size_t>(), a["bytes"].get<size_t>()});
        is_scratch.push_back(a.value("workspace", false));
        if (is_scratch.back()) scratch.push_back(spans.back());
      }
    if (gpu && t.exact_buffers) dev->upload_exact(host, spans, is_scratch);
    else if (gpu) dev->upload(host, bytes, scratch);
    if (gpu) base = dev->base();
#endif
    std::vector<ArgValue> args;
    size_t buffer = 0;
    for (const auto& a : req->at("args")) {
      ArgValue v;
      if (a.contains("offset")) {
        v.ptr = base + a["offset"].get<size_t>();
#ifdef HPCJUDGE_HAVE_CUDA
        if (gpu && t.exact_buffers) v.ptr = dev->exact(buffer);
#endif
        ++buffer;
      } else {
        v.integer = a["value"].get<int64_t>();
      }
      args.push_back(v);
    }
    const bool flush = req->value("flush", false);
#ifdef HPCJUDGE_HAVE_CUDA
    if (gpu) {
      if (flush) dev->flush_l2();
      device::synchronize();
    }
#endif
    if (flush && !gpu) flusher.flush();
    json reply;
    try {
#ifdef HPCJUDGE_HAVE_CUDA
      if (gpu) device::begin_call(req->value("device_memory_limit", size_t{0}));
#endif
      const auto t0 = Clock::now();
      const int64_t ret = t.problem->invoke(t.solve, args);
      std::string cuda_error;
      bool sticky = false;
#ifdef HPCJUDGE_HAVE_CUDA
      if (gpu) cuda_error = device::finish_call(sticky);
#endif
      const auto t1 = Clock::now();
#ifdef HPCJUDGE_HAVE_CUDA
      const device::MemoryAccount mem = gpu ? device::end_call() : device::MemoryAccount{};
      if (mem.refused > 0) {
        // The refusal is the cause, whatever the submission did with the error afterwards.
        reply = {{"error", "solve() asked for " + std::to_string(mem.refused) + " bytes of device memory while holding " +
                               std::to_string(mem.refused_at) + "; the limit for this case is " +
                               std::to_string(mem.limit) + " bytes"},
                 {"memory_limit", true},
                 {"fatal", sticky},
                 {"device_peak_bytes", mem.refused_at + mem.refused}};
      } else
#endif
      if (!cuda_error.empty()) {
        reply = {{"error", cuda_error + " during solve()"}, {"fatal", sticky}};
      } else if (const std::string deferred = t.exact_buffers ? "" : deferred_host_work(); !deferred.empty()) {
        // (Not under compute-sanitizer, whose own threads work in the process.)
        reply = {{"error", deferred}};
      } else {
#ifdef HPCJUDGE_HAVE_CUDA
        if (gpu && t.exact_buffers) dev->download_exact(host, spans, is_scratch);
        else if (gpu) dev->download(host, bytes, scratch);
#endif
        reply = {{"ok", true}, {"seconds", std::chrono::duration<double>(t1 - t0).count()}, {"ret", ret}};
#ifdef HPCJUDGE_HAVE_CUDA
        if (gpu) reply["device_peak_bytes"] = mem.peak;
#endif
      }
    } catch (const std::bad_alloc&) {
      reply = {{"error", "solve() ran out of memory: it asked for more host memory than the limit allows"},
               {"memory_limit", true}};
    } catch (const std::exception& e) {
      reply = {{"error", std::string("solve() threw an exception: ") + e.what()}};
    } catch (...) {
      reply = {{"error", "solve() threw an exception"}};
    }
    std::fflush(stdout);
    std::fflush(stderr);
    send_message(channel, reply);
    if (reply.value("fatal", false)) return 3;  // a sticky error ends the process, never the judge
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the judge
  std::string slug, library;
  int channel = -1;
  bool probe = false, calibrate = false, calibrate_gpu = false;
  int threads = 0;
  unsigned long long memory_limit = 0;  // bytes of host memory (0: none)
  Target t;
  Mapping arena;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    const std::string v = i + 1 < argc ? argv[i + 1] : "";
    if (k == "--check") return 0;  // the judge asks whether the runner starts (as another user)
    else if (k == "--probe") probe = true;
    else if (k == "--calibrate") calibrate = true;
    else if (k == "--gpu") calibrate_gpu = true;
    else if (k == "--threads") threads = std::stoi(v), ++i;
    else if (k == "--problem") slug = v, ++i;
    else if (k == "--library") library = v, ++i;
    else if (k == "--channel") channel = std::stoi(v), ++i;
    else if (k == "--arena") arena.fd = std::stoi(v), ++i;
    else if (k == "--device") t.device = std::stoi(v), ++i;
    else if (k == "--exact-buffers") t.exact_buffers = true;
    else if (k == "--memory-limit") memory_limit = std::stoull(v), ++i;
  }
  if (probe) {
#ifdef HPCJUDGE_HAVE_CUDA
    std::printf("%s\n", device::probe(t.device).dump().c_str());
#else
    std::printf("%s\n", json{{"devices", 0}, {"error", "the judge was built without the CUDA toolkit"}}.dump().c_str());
#endif
    return 0;
  }
  if (calibrate) {
    json j;
    if (calibrate_gpu) {
#ifdef HPCJUDGE_HAVE_CUDA
      j["gpu"] = calibrate::gpu(t.device);
#else
      j["gpu"] = {{"error", "the judge was built without the CUDA toolkit"}};
#endif
    } else {
      j["cpu"] = calibrate::cpu(threads);
    }
    std::printf("%s\n", j.dump().c_str());
    return 0;
  }
  if (channel < 0 || arena.fd < 0) {
    std::fprintf(stderr, "hpcjudge-runner is started by the judge, not by hand\n");
    return 2;
  }
  t.problem = Registry::find(slug);
  if (!t.problem) {
    send_message(channel, {{"error", "runner: unknown problem " + slug}});
    return 2;
  }
  // Before the submission is loaded: its static initialisers count too. A CPU
  // problem's limit is on the address space (RLIMIT_AS). The CUDA driver
  // reserves far more address space than it uses, so a GPU problem's is on the
  // private writable memory instead (RLIMIT_DATA: heap and anonymous maps, what
  // a malloc or a std::vector takes), which the driver's reservations do not count in.
  if (memory_limit > 0) {
    const rlimit lim{memory_limit, memory_limit};
    setrlimit(t.problem->info().kind == Kind::GPU ? RLIMIT_DATA : RLIMIT_AS, &lim);
  }
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    send_message(channel, {{"error", std::string("cannot load the submission: ") + dlerror()}});
    return 2;
  }
  t.solve = dlsym(lib, "solve");
  t.workspace_size = dlsym(lib, "workspace_size");
  if (!t.solve) {
    send_message(channel, {{"error", "the submission defines no extern \"C\" solve()"}});
    return 2;
  }
  try {
    return serve(t, channel, arena);
  } catch (const std::exception& e) {
    send_message(channel, {{"error", std::string("runner: ") + e.what()}});
    return 2;
  }
}
