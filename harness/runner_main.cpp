// hpcjudge-runner: the child process the judge starts for one submission.
// It loads the compiled submission, then serves "call" requests from the
// judge over the channel: pointers into the shared arena are passed to
// solve(), the call is timed, and the reply carries the time and the return
// value. Checking is the judge's, in its own process.
//
//   hpcjudge-runner --problem SLUG --library SO --channel FD --arena FD
#include <dlfcn.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "channel.h"
#include "cpu_cache.h"
#include "problem.h"

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

int serve(const Problem& problem, void* solve, int channel, Mapping& arena) {
  CacheFlusher flusher;
  while (auto req = receive_message(channel)) {
    const std::string op = req->value("op", "");
    if (op == "exit") return 0;
    if (op != "call") {
      send_message(channel, {{"error", "unknown request " + op}});
      continue;
    }
    std::byte* base = arena.ensure(req->at("arena_bytes").get<size_t>());
    std::vector<ArgValue> args;
    for (const auto& a : req->at("args")) {
      ArgValue v;
      if (a.contains("offset"))
        v.ptr = base + a["offset"].get<size_t>();
      else
        v.integer = a["value"].get<int64_t>();
      args.push_back(v);
    }
    if (req->value("flush", false)) flusher.flush();
    json reply;
    try {
      const auto t0 = std::chrono::steady_clock::now();
      const int64_t ret = problem.invoke(solve, args);
      const auto t1 = std::chrono::steady_clock::now();
      reply = {{"ok", true}, {"seconds", std::chrono::duration<double>(t1 - t0).count()}, {"ret", ret}};
    } catch (const std::exception& e) {
      reply = {{"error", std::string("solve() threw an exception: ") + e.what()}};
    } catch (...) {
      reply = {{"error", "solve() threw an exception"}};
    }
    std::fflush(stdout);
    std::fflush(stderr);
    send_message(channel, reply);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlive the judge
  std::string slug, library;
  int channel = -1;
  Mapping arena;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--problem") slug = v;
    else if (k == "--library") library = v;
    else if (k == "--channel") channel = std::stoi(v);
    else if (k == "--arena") arena.fd = std::stoi(v);
  }
  if (channel < 0 || arena.fd < 0) {
    std::fprintf(stderr, "hpcjudge-runner is started by the judge, not by hand\n");
    return 2;
  }
  const Problem* problem = Registry::find(slug);
  if (!problem) {
    send_message(channel, {{"error", "runner: unknown problem " + slug}});
    return 2;
  }
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    send_message(channel, {{"error", std::string("cannot load the submission: ") + dlerror()}});
    return 2;
  }
  void* solve = dlsym(lib, "solve");
  if (!solve) {
    send_message(channel, {{"error", "the submission defines no extern \"C\" solve()"}});
    return 2;
  }
  send_message(channel, {{"ready", true}});
  try {
    return serve(*problem, solve, channel, arena);
  } catch (const std::exception& e) {
    send_message(channel, {{"error", std::string("runner: ") + e.what()}});
    return 2;
  }
}
