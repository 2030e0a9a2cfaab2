// `judge worker` (judge/cli/worker.cpp): a worker on another host (the judgehost model). It claims a job over the
// API (server/worker_api.h), writes the file into a private temporary folder as <slug>.<ext>, grades it with the
// same grader as the server's own workers (server/grader.h), posts each stage (and re-posts the current one as a
// heartbeat, renewing its lease), then the result {"report", "text"}; a grade that did not finish is posted as lost
// (requeued once, then JE). A stop (SIGINT, SIGTERM: scancel) kills the grade in progress and gives its job back.
#pragma once
#include <stop_token>
#include <string>
#include <vector>

#include "judge/paths.h"
#include "server/grader.h"

namespace hpcjudge::server {

struct RemoteWorkerOptions {
  std::string server;                 // http://HOST:PORT or https://...
  std::string token;                  // a worker account's token
  std::string name;                   // this worker's own name (default: host name and device)
  int device = 0;                     // --device
  std::vector<std::string> kinds = {"gpu", "cpu"};  // the problems it takes
  bool once = false;                  // one claim: grade the job (if any), then return
  double poll_s = 5;                  // the wait between claims while nothing is queued
  GraderOptions grader;               // sandbox, isolation, what to hide (bench: as the server says)
};

// Claims and grades until stopped (or once); returns 0, or 1 where --once met an error. Errors are told on stderr.
int run_remote_worker(const Paths& paths, const RemoteWorkerOptions& opt, std::stop_token stop);

}  // namespace hpcjudge::server
