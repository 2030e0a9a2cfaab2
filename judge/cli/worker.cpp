// `judge worker --server URL (--worker-token T | --worker-token-file F) [--device N] [--once]`: grades the
// server's queued jobs on this host (server/remote_worker.h), until stopped (SIGINT, SIGTERM) or, with --once,
// after one claim.
#include <csignal>
#include <cstdio>
#include <fstream>
#include <thread>

#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/files.h"
#include "server/remote_worker.h"

namespace hpcjudge::cli {

namespace {

volatile std::sig_atomic_t signalled = 0;
extern "C" void on_stop_signal(int) { signalled = 1; }

// The token from its file (the first line), which is then hidden from every submission this worker grades.
std::string read_token_file(const std::string& file) {
  std::string text;
  try {
    text = read_regular_file(file, 4096);
  } catch (const FileRefused& e) {
    throw UsageError(std::string("--worker-token-file: ") + e.what());
  }
  text = text.substr(0, text.find_first_of("\r\n"));
  if (text.empty()) throw UsageError("--worker-token-file " + file + ": the file is empty");
  return text;
}

}  // namespace

int judge_worker(int argc, char** argv, const Paths& paths, GradingFlags&) {
  CLI::App app{"Grade a judge server's queued submissions on this host (a worker account's token: judge serve "
               "--add-worker NAME).", "judge worker"};
  server::RemoteWorkerOptions opt;
  std::string token_file;
  app.add_option("--server", opt.server, "the server, http://HOST:PORT or https://HOST:PORT")->required();
  auto* token = app.add_option("--worker-token", opt.token, "the worker account's token (visible to ps: prefer "
                                                            "--worker-token-file)");
  app.add_option("--worker-token-file", token_file, "a file holding the token on its first line")->excludes(token);
  app.add_option("--device", opt.device, "the CUDA device to grade on (default 0)")->check(CLI::Range(0, 1024));
  app.add_option("--name", opt.name, "this worker's name on the server (default: HOST-gpuN)");
  app.add_option("--kinds", opt.kinds, "the problems it takes: gpu, cpu or both (default)")
      ->delimiter(',')->check(CLI::IsMember({"gpu", "cpu"}));
  app.add_flag("--once", opt.once, "claim once: grade the job if one is queued, then exit");
  app.add_option("--poll", opt.poll_s, "seconds between claims while nothing is queued (default 5)")
      ->check(CLI::Range(0.1, 3600.0));
  app.add_flag("--sandbox", opt.grader.sandbox, "grade each submission under bubblewrap");
  app.add_flag("--unsafe-no-isolation", opt.grader.unisolated, "grade without root and without the sandbox "
                                                               "(tests only; every report says so)");
  if (auto rc = parse(app, argc, argv)) return *rc;
  if (!token_file.empty()) {
    opt.token = read_token_file(token_file);
    opt.grader.hide.push_back(std::filesystem::absolute(token_file));
  }
  if (opt.token.empty()) throw UsageError("--worker-token or --worker-token-file is required");

  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  std::stop_source stop;
  std::jthread watch([&stop](std::stop_token done) {  // a signal handler may only set a flag: this hands it on
    while (!done.stop_requested() && !signalled) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.request_stop();
  });
  return server::run_remote_worker(paths, opt, stop.get_token());
}

}  // namespace hpcjudge::cli
