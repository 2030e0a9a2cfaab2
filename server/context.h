// What every part of `judge serve` shares: its settings (the command line), the store, and the signal that wakes
// the workers when a job is queued. The HTTP API (server/api.h), the pages (server/pages.h) and the local workers
// (server/workers.h) each take a Context&; none of them includes another.
#pragma once
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "judge/paths.h"
#include "server/store.h"

namespace hpcjudge::server {

struct ServeOptions {
  std::filesystem::path data;           // --data DIR
  std::string listen = "127.0.0.1:8080";  // --listen HOST:PORT
  std::vector<std::string> problems;    // --problems a,b (empty: every problem)
  std::vector<int> devices;             // --devices 0,1: one local worker per GPU (empty: GPU 0 where there is one)
  int local_workers = -1;               // --workers N (0: only remote workers grade; -1: one per device, or 1)
  bool bench = true;                    // --no-bench: correctness only (a class without timing)
  bool sandbox = false;                 // each grade under bubblewrap (the default where it is installed)
  bool unisolated = false;              // --unsafe-no-isolation (tests only)
  std::filesystem::path seed_file;      // --seed-file: the secret seed of the final round
  std::optional<uint64_t> secret_seed;  // and the seed read from it (as `judge batch --seed-file` reads one)
  std::string slurm_partition;          // --slurm PARTITION: workers as a Slurm job
  std::filesystem::path tls_cert, tls_key;  // --tls-cert/--tls-key: HTTPS
  int request_timeout_s = 10;           // a client that sends nothing for this long is dropped
  // A remote worker's hold on a job: given back (Store::lost) when its worker posts nothing for this long (each
  // post on the job renews it; `judge worker` re-posts its state every lease_s / 6 as a heartbeat).
  int worker_lease_s = 180;
};

struct Context {
  ServeOptions opt;
  Paths paths;
  Store& store;
  // Signalled when a job is queued (upload, rejudge, final round); the local workers wait on it.
  std::mutex m;
  std::condition_variable queued;
  void notify() { queued.notify_all(); }
  // Whether this server grades `slug` (--problems).
  bool serves(const std::string& slug) const;
};

}  // namespace hpcjudge::server
