#include "server/workers.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <thread>

#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/slurm_workers.h"
#include "server/worker_api.h"

namespace hpcjudge::server {

namespace {

using namespace std::chrono_literals;

// The machine the local workers share: who may grade at once, and every core of this process.
struct Machine {
  Machine(const std::vector<int>& devices, std::vector<int> all) : gate(devices), cores(std::move(all)) {}
  GradeGate gate;
  std::vector<int> cores;
};

struct Running {
  Context* ctx = nullptr;
  std::unique_ptr<Machine> machine;
  std::vector<std::jthread> threads;
  SlurmWorkers slurm;
};
Running running;

bool accepts(const std::string& slug, void* ctx) {
  return static_cast<Context*>(ctx)->serves(slug) && Registry::find(slug) != nullptr;
}

void log(const std::string& who, const std::string& text) {
  std::fprintf(stderr, "worker %s: %s\n", terminal_safe(who).c_str(), terminal_safe(text).c_str());
}

// Grades one claimed job under the machine's rule, and finishes it or gives it back.
void grade_one(std::stop_token stop, Context& ctx, Machine& m, const LocalWorker& w, const Submission& s) {
  const bool cpu = Registry::find(s.problem)->info().kind == Kind::CPU;
  const bool whole_machine = cpu && ctx.opt.bench;
  const GradeGate::Hold hold = m.gate.enter(cpu, ctx.opt.bench, w.device);
  GradeRequest req{s.problem, s.source, s.participant, std::nullopt, w.device,
                   whole_machine ? m.cores : w.cores, w.name};
  if (s.round == "final") {
    if (!ctx.opt.secret_seed) return ctx.store.lost(s.id, "the server has no --seed-file for the final round");
    req.secret_seed = ctx.opt.secret_seed;
  }
  const Graded g = grade_submission(
      ctx.paths, grader_options(ctx), req, [&](const std::string& state) { ctx.store.set_state(s.id, state); }, stop);
  if (!g.finished && stop.stop_requested()) return;  // held: recover_after_restart requeues it at the next start
  if (!g.finished) {
    log(w.name, "#" + std::to_string(s.id) + " lost: " + g.why);
    return ctx.store.lost(s.id, g.why);
  }
  try {
    ctx.store.finish(s.id, g.report, g.text);
  } catch (const std::invalid_argument& e) {  // no longer this worker's: its grade is not kept twice
    log(w.name, "#" + std::to_string(s.id) + " not kept: " + e.what());
  }
}

void work(std::stop_token stop, Context& ctx, Machine& m, LocalWorker w) {
  while (!stop.stop_requested()) {
    std::optional<Submission> s;
    try {
      s = ctx.store.claim(w.name, accepts, &ctx);
    } catch (const std::exception& e) {
      log(w.name, std::string("claim failed: ") + e.what());
    }
    if (!s) {
      std::unique_lock lock(ctx.m);
      if (!stop.stop_requested()) ctx.queued.wait_for(lock, 2s);  // woken by an upload; the timeout a fallback poll
      continue;
    }
    try {
      grade_one(stop, ctx, m, w, *s);
    } catch (const std::exception& e) {
      log(w.name, "#" + std::to_string(s->id) + " lost: " + e.what());
      try {
        ctx.store.lost(s->id, std::string("the worker failed: ") + e.what());
      } catch (const std::exception& e2) {
        log(w.name, std::string("could not give the job back: ") + e2.what());
      }
    }
  }
}

// Gives back the jobs of remote workers that posted nothing for a lease.
void keep_leases(std::stop_token stop, Context& ctx) {
  const auto every = std::chrono::seconds(std::max(1, ctx.opt.worker_lease_s / 6));
  while (!stop.stop_requested()) {
    try {
      expire_leases(ctx);
    } catch (const std::exception& e) {
      log("lease keeper", e.what());
    }
    std::unique_lock lock(ctx.m);
    if (!stop.stop_requested()) ctx.queued.wait_for(lock, every);
  }
}

// Submits the Slurm workers' job; where it cannot, says why (the local workers, if any, grade all the same).
void start_slurm(Context& ctx) {
  try {
    const std::string url = worker_url(ctx.opt);
    if (url.empty()) throw std::runtime_error("--slurm needs --listen with a port of its own (not 0)");
    running.slurm = start_slurm_workers(ctx, url);
    std::printf("slurm workers: job %s on partition %s, reaching %s (logs in %s)\n", running.slurm.job.c_str(),
                terminal_safe(ctx.opt.slurm_partition).c_str(), terminal_safe(url).c_str(),
                terminal_safe((running.slurm.folder / "logs").string()).c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "judge serve: --slurm: no Slurm workers: %s\n", terminal_safe(e.what()).c_str());
  }
}

}  // namespace

GradeGate::GradeGate(const std::vector<int>& devices) {
  for (int d : devices) devices_[d];
}

GradeGate::Hold GradeGate::enter(bool cpu_problem, bool timed, int device) {
  Hold h;
  {
    std::lock_guard turn(turnstile_);
    if (cpu_problem && timed) h.alone = std::unique_lock(grades_);
    else h.beside = std::shared_lock(grades_);
  }
  if (!cpu_problem && timed) h.device = std::unique_lock(devices_.at(device));
  return h;
}

std::string worker_url(const ServeOptions& opt) {
  const size_t colon = opt.listen.rfind(':');
  if (colon == std::string::npos || opt.listen.substr(colon + 1) == "0") return "";
  std::string host = opt.listen.substr(0, colon);
  if (host == "0.0.0.0" || host == "::" || host == "[::]" || host.empty()) {
    char name[256] = {};
    gethostname(name, sizeof name - 1);
    host = name;
  } else if (host.find(':') != std::string::npos && host.front() != '[') {
    host = "[" + host + "]";
  }
  return (opt.tls_cert.empty() ? "http://" : "https://") + host + opt.listen.substr(colon);
}

std::vector<LocalWorker> plan_workers(const ServeOptions& opt, const std::vector<int>& cores) {
  const std::vector<int> devices = opt.devices.empty() ? std::vector<int>{0} : opt.devices;
  const size_t n = opt.local_workers < 0 ? devices.size() : static_cast<size_t>(opt.local_workers);
  std::vector<LocalWorker> out;
  for (size_t i = 0; i < n; ++i) {
    LocalWorker w;
    w.device = devices[i % devices.size()];
    w.name = "local:gpu" + std::to_string(w.device) + (n > devices.size() ? "-" + std::to_string(i) : "");
    // An even share of the cores each; with more workers than cores, each worker one core, shared round the ring.
    const size_t share = std::max<size_t>(1, cores.size() / n);
    for (size_t c = 0; c < share && !cores.empty(); ++c) w.cores.push_back(cores[(i * share + c) % cores.size()]);
    out.push_back(std::move(w));
  }
  return out;
}

GraderOptions grader_options(const Context& ctx) {
  GraderOptions g;
  g.bench = ctx.opt.bench;
  g.sandbox = ctx.opt.sandbox;
  g.unisolated = ctx.opt.unisolated;
  g.hide = {std::filesystem::absolute(ctx.store.data()).lexically_normal()};
  if (!ctx.opt.seed_file.empty()) g.hide.push_back(std::filesystem::absolute(ctx.opt.seed_file));
  return g;
}

void start_workers(Context& ctx) {
  running.ctx = &ctx;
  const std::vector<int> cores = thread_cores();
  const std::vector<LocalWorker> plan = plan_workers(ctx.opt, cores);
  std::vector<int> devices;
  for (const LocalWorker& w : plan) devices.push_back(w.device);
  running.machine = std::make_unique<Machine>(devices, cores);
  for (const LocalWorker& w : plan) running.threads.emplace_back(work, std::ref(ctx), std::ref(*running.machine), w);
  running.threads.emplace_back(keep_leases, std::ref(ctx));
  if (!ctx.opt.slurm_partition.empty()) start_slurm(ctx);
}

void stop_workers() {
  if (!running.ctx) return;
  for (std::jthread& t : running.threads) t.request_stop();
  {
    std::lock_guard lock(running.ctx->m);  // a worker between its stop check and its wait is waiting now
  }
  running.ctx->notify();
  stop_slurm_workers(running.slurm);
  running.slurm = {};
  running.threads.clear();  // joins each
  running.machine.reset();
  running.ctx = nullptr;
}

}  // namespace hpcjudge::server
