// The server's own workers: one thread per local worker (--devices: one per GPU, default one on device 0; --workers
// N), each claiming the oldest queued job it can take (Store::claim), grading it with the grader (server/grader.h)
// and finishing it (Store::finish), or giving it back (Store::lost: requeued once, then JE) where the child judge
// did not finish or the worker failed.
//
// Fairness, so that a grade here scores as `judge SLUG FILE` on this machine: no two timed runs share a GPU or a
// CPU core. Each worker has its own cores (this process's CPUs split evenly among the workers) and its GPU; a GPU
// grade holds its device alone and runs on its worker's cores; a CPU problem's timed grade takes the whole machine
// (every core, no other grade at once: a shared lock for GPU grades, an exclusive one for CPU grades, a waiting
// CPU grade let in before later GPU grades). Under --no-bench nothing is timed: a CPU grade runs on its worker's
// cores beside the others.
//
// Besides the workers, a keeper gives back the jobs of remote workers whose lease ran out (server/worker_api.h), and
// with --slurm PARTITION the Slurm workers' job is submitted (server/slurm_workers.h; the nodes reach the server at
// --listen's address, a wildcard address as this host's name) and cancelled by stop_workers.
#pragma once
#include <map>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "server/context.h"
#include "server/grader.h"

namespace hpcjudge::server {

// One local worker: its name (who holds a job: "local:gpu0"), its GPU and its cores.
struct LocalWorker {
  std::string name;
  int device = 0;
  std::vector<int> cores;
};

// Who may grade at once (the fairness rule above). enter() waits until the grade may start; the Hold keeps its
// place until destroyed. A waiting whole-machine grade passes the turnstile first, so later grades queue behind it.
class GradeGate {
 public:
  explicit GradeGate(const std::vector<int>& devices);
  struct Hold {
    std::unique_lock<std::shared_mutex> alone;
    std::shared_lock<std::shared_mutex> beside;
    std::unique_lock<std::mutex> device;
  };
  // A timed CPU grade: the whole machine alone. Any other: beside the others; a timed GPU grade its device alone.
  Hold enter(bool cpu_problem, bool timed, int device);

 private:
  std::shared_mutex grades_;
  std::mutex turnstile_;
  std::map<int, std::mutex> devices_;  // one per local worker's device, made at the start
};

// The local workers the options ask for, over `cores` (this process's CPUs).
std::vector<LocalWorker> plan_workers(const ServeOptions& opt, const std::vector<int>& cores);

// The URL the Slurm workers reach this server at: --listen's host (0.0.0.0 or ::, this host's name) and port, https
// with --tls-cert. Empty for port 0 (the port is not known here).
std::string worker_url(const ServeOptions& opt);

// How this server's grades are made (the options, the data folder and seed file hidden from submissions).
GraderOptions grader_options(const Context& ctx);

// Starts the local workers and the lease keeper; stop_workers kills the grades in progress (their jobs stay held
// by the dead worker, so the next start's Store::recover_after_restart requeues them) and joins every thread.
void start_workers(Context& ctx);
void stop_workers();

}  // namespace hpcjudge::server
