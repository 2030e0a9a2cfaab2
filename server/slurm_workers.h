// `judge serve --slurm PARTITION`: the workers as one Slurm job on the cluster, each a `judge worker` pulling jobs
// from this server over the API (server/remote_worker.h). One worker per GPU that --devices names (sbatch
// --gres=gpu:N; the workers on devices 0..N-1 of the GPUs Slurm gives the job), or one worker without a GPU. They
// authenticate as the worker account "slurm-workers", whose token is renewed at each start and handed over in a
// file (DATA/slurm/worker-token, mode 0600; never on a command line): the judge and DATA must be on a file system
// the node sees, as for `judge batch --slurm`. Scripts and logs are in DATA/slurm/.
#pragma once
#include <filesystem>
#include <string>

#include "server/context.h"

namespace hpcjudge::server {

struct SlurmWorkers {
  std::string job;               // the Slurm job id
  std::filesystem::path folder;  // DATA/slurm: the script, the token file, logs/worker-<job>.out
};

// Submits the workers' job; `server_url` is how the nodes reach this server. SlurmError (judge/classroom/slurm.h)
// where sbatch is missing or refuses.
SlurmWorkers start_slurm_workers(Context& ctx, const std::string& server_url);

// Cancels the workers' job (scancel): the server is stopping. Their jobs in progress go back at the next start.
void stop_slurm_workers(const SlurmWorkers& w);

}  // namespace hpcjudge::server
