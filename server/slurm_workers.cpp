#include "server/slurm_workers.h"

#include <sys/stat.h>

#include <fstream>

#include "judge/classroom/slurm.h"
#include "judge/isolation/process.h"

namespace hpcjudge::server {

namespace fs = std::filesystem;

namespace {

constexpr const char* kAccount = "slurm-workers";

// Starts a `judge worker` per device and waits for them all; a stop (scancel's SIGTERM) is handed to each.
constexpr const char* kWorkersScript = R"(#!/bin/bash
# Written by `judge serve --slurm`: the server's workers on this node.
# Arguments: JUDGE SERVER_URL TOKEN_FILE WORKERS [EXTRA...] (WORKERS 0: one worker without a GPU)
set -uo pipefail
judge=$1 url=$2 token=$3 n=$4
shift 4
pids=()
trap 'kill -TERM "${pids[@]}" 2>/dev/null; wait' TERM INT
if [ "$n" -eq 0 ]; then
  "$judge" worker --server "$url" --worker-token-file "$token" --name "$(hostname)-cpu" "$@" &
  pids+=($!)
fi
for ((d = 0; d < n; d++)); do
  "$judge" worker --server "$url" --worker-token-file "$token" --device "$d" --name "$(hostname)-gpu$d" "$@" &
  pids+=($!)
done
echo "hpcjudge: ${#pids[@]} worker(s) on $(hostname) for $url"
wait
)";

void write_file(const fs::path& p, const std::string& text, fs::perms mode) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  fs::permissions(p, fs::perms::owner_read | fs::perms::owner_write);  // before the text: a token is never readable
  f << text;
  f.close();
  if (!f) throw SlurmError("cannot write " + p.string());
  fs::permissions(p, mode);
}

// The worker account's token, new at each start (the last start's workers are cancelled or lost anyway).
std::string worker_token(Store& store) {
  for (const Account& a : store.accounts())
    if (a.name == kAccount) {
      if (a.role != "worker") throw SlurmError(std::string("the account '") + kAccount + "' is not a worker's");
      return store.new_token(a.id);
    }
  return store.add_account(kAccount, "worker");
}

}  // namespace

SlurmWorkers start_slurm_workers(Context& ctx, const std::string& server_url) {
  SlurmWorkers w;
  w.folder = fs::absolute(ctx.store.data()) / "slurm";
  std::error_code ec;
  fs::create_directories(w.folder / "logs", ec);
  if (ec) throw SlurmError("cannot create " + (w.folder / "logs").string() + ": " + ec.message());
  const fs::path token = w.folder / "worker-token", script = w.folder / "workers.sh";
  write_file(token, worker_token(ctx.store) + "\n", fs::perms::owner_read | fs::perms::owner_write);
  write_file(script, kWorkersScript, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  const size_t gpus = ctx.opt.devices.size();
  std::vector<std::string> args = {"--chdir=" + w.folder.string(), "--job-name=hpcjudge-workers",
                                   "--output=logs/worker-%j.out", "--nodes=1"};
  if (!ctx.opt.slurm_partition.empty()) args.push_back("--partition=" + ctx.opt.slurm_partition);
  if (gpus) args.insert(args.end(), {"--gres=gpu:" + std::to_string(gpus), "--exclusive"});
  args.insert(args.end(), {script.string(), fs::absolute(ctx.paths.judge).string(), server_url, token.string(),
                           std::to_string(gpus)});
  if (ctx.opt.sandbox) args.push_back("--sandbox");
  if (ctx.opt.unisolated) args.push_back("--unsafe-no-isolation");
  w.job = sbatch_job(args, "workers' job");
  return w;
}

void stop_slurm_workers(const SlurmWorkers& w) {
  if (!w.job.empty()) run_command({"scancel", w.job}, 30);
}

}  // namespace hpcjudge::server
