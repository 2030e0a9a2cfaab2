// `judge serve --data DIR [...]`: the online judge (server/server.h); with --add-participant, --add-worker or
// --import-roster, accounts added to DIR's store instead (no server started), their tokens printed.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "judge/classroom/leaderboard.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/isolation/sandbox.h"
#include "judge/reports/text.h"
#include "server/server.h"

namespace hpcjudge::cli {

namespace {

namespace fs = std::filesystem;
using server::Policy;
using server::ServeOptions;
using server::Store;

// The policy flags; each unset keeps what the store has (the admin page may have changed it).
struct PolicyFlags {
  std::optional<int64_t> max_upload;
  std::optional<int> in_flight, per_hour;
  std::string counts;
};

// One roster row's name: the field as it is, or a quoted field ("a ""b"", c" is a "b", c) unquoted.
std::string roster_name(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  if (line.size() < 2 || line.front() != '"' || line.back() != '"') return line;
  std::string out;
  for (size_t i = 1; i + 1 < line.size(); ++i) {
    out += line[i];
    if (line[i] == '"' && line[i + 1] == '"') ++i;
  }
  return out;
}

// FILE.csv's names: a header line `name`, then one name per row (blank rows skipped). A UsageError for a roster
// without the header or with a name twice.
std::vector<std::string> read_roster(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw UsageError(file.string() + ": cannot read the roster");
  std::string line;
  std::getline(in, line);
  if (line.rfind("\xEF\xBB\xBF", 0) == 0) line.erase(0, 3);  // a spreadsheet's byte order mark
  if (roster_name(line) != "name") throw UsageError(file.string() + ": the roster's first line must be: name");
  std::vector<std::string> names;
  std::set<std::string> seen;
  while (std::getline(in, line)) {
    const std::string name = roster_name(line);
    if (name.empty()) continue;
    if (!seen.insert(name).second) throw UsageError(file.string() + ": " + terminal_safe(name) + " is listed twice");
    names.push_back(name);
  }
  return names;
}

// Adds one account to the store and returns its token; a UsageError for a name in use or not allowed.
std::string add_account(Store& store, const std::string& name, const std::string& role) {
  try {
    std::string token = store.add_account(name, role);
    store.audit("judge serve", "add " + role, name);
    return token;
  } catch (const std::invalid_argument& e) {
    throw UsageError(terminal_safe(name) + ": " + e.what());
  }
}

// --import-roster: every name checked first (none added where one is refused), then "name,token" on stdout.
int import_roster(Store& store, const fs::path& file) {
  const std::vector<std::string> names = read_roster(file);
  std::set<std::string> taken;
  for (const server::Account& a : store.accounts()) taken.insert(a.name);
  for (const std::string& n : names)
    if (taken.count(n)) throw UsageError(terminal_safe(n) + ": the name is in use; nothing was added");
  std::printf("name,token\n");
  for (const std::string& n : names)
    std::printf("%s,%s\n", csv_field(n).c_str(), add_account(store, n, "participant").c_str());
  std::fprintf(stderr, "%zu participant(s) added\n", names.size());
  return 0;
}

void apply_policy(Store& store, const PolicyFlags& f) {
  Policy p = store.policy();
  const nlohmann::json before = p.to_json();
  if (f.max_upload) p.max_upload_bytes = *f.max_upload;
  if (f.in_flight) p.in_flight = *f.in_flight;
  if (f.per_hour) p.per_hour = *f.per_hour;
  if (!f.counts.empty()) p.counts = f.counts;
  if (p.to_json() == before) return;
  store.set_policy(p);
  store.audit("judge serve", "policy", p.to_json().dump());
}

// The sandbox where bubblewrap is installed (or --sandbox asks for it); without it and without root, only
// --unsafe-no-isolation grades (as judge batch decides).
void settle_isolation(ServeOptions& opt, bool sandbox, bool no_sandbox) {
  if (sandbox && bubblewrap_path().empty())
    throw UsageError("--sandbox needs bubblewrap (apt-get install bubblewrap), which is not installed here");
  opt.sandbox = !no_sandbox && !bubblewrap_path().empty();
  if (!opt.sandbox && geteuid() != 0 && !opt.unisolated && opt.slurm_partition.empty())
    throw UsageError(std::string(no_sandbox ? "--no-sandbox" : "bubblewrap is not installed") +
                     " and the judge is not root: every submission would run as you, free to change the others' "
                     "files; install bubblewrap (apt-get install bubblewrap) or, knowing that, give "
                     "--unsafe-no-isolation");
  if (!no_sandbox && !opt.sandbox)
    std::fprintf(stderr, "warning: bubblewrap is not installed: submissions run without the sandbox\n");
}

// --seed-file read as a grade reads one (its real path hidden from submissions, its text the seed).
void settle_seed(ServeOptions& opt, GradingFlags& flags) {
  if (opt.seed_file.empty()) return;
  flags.seed_file = opt.seed_file.string();
  flags.per_file = false;
  flags.settle();
  flags.warn_if_seed_in_reach(opt.sandbox);
  opt.seed_file = flags.seed_file;
  opt.secret_seed = flags.opt.seed;
}

}  // namespace

int judge_serve(int argc, char** argv, const Paths& paths, GradingFlags& flags) {
  CLI::App app{"Serve the judge over HTTP: participants submit from a browser or `judge submit`, local workers "
               "grade each file as `judge SLUG FILE` would on this machine. DIR keeps everything (the database, "
               "the files, the reports).",
               "judge serve"};
  ServeOptions opt;
  PolicyFlags pf;
  std::string participant, worker;
  fs::path roster;
  bool sandbox = false, no_sandbox = false, no_bench = false;
  app.add_option("--data", opt.data, "the server's folder (made where missing)")->required();
  app.add_option("--listen", opt.listen, "HOST:PORT to listen on (default 127.0.0.1:8080; port 0: any free one)");
  app.add_option("--problems", opt.problems, "serve only these problems, comma-separated")->delimiter(',');
  app.add_option("--devices", opt.devices, "GPUs, comma-separated: one local worker each (default 0)")
      ->delimiter(',')->check(CLI::Range(0, 1024));
  app.add_option("--workers", opt.local_workers, "local workers (0: only remote `judge worker`s grade)")
      ->check(CLI::Range(0, 1024));
  app.add_flag("--no-bench", no_bench, "correctness only: no performance cases");
  app.add_flag("--sandbox", sandbox, "grade under bubblewrap (the default where it is installed)");
  app.add_flag("--no-sandbox", no_sandbox, "grade without bubblewrap")->excludes(app.get_option("--sandbox"));
  app.add_flag("--unsafe-no-isolation", opt.unisolated, "")->group("");
  app.add_option("--seed-file", opt.seed_file, "the secret seed of the final round (POST /api/admin/final)");
  app.add_option("--slurm", opt.slurm_partition, "run the workers as a Slurm job on this partition");
  app.add_option("--tls-cert", opt.tls_cert, "serve HTTPS with this certificate (PEM)");
  app.add_option("--tls-key", opt.tls_key, "and this private key (PEM)");
  app.add_option("--worker-lease", opt.worker_lease_s, "a remote worker silent this long loses its job, in seconds "
                 "(180)")->check(CLI::Range(2, 86400));
  app.add_option("--request-timeout", opt.request_timeout_s, "drop a client silent this long, in seconds (10)")
      ->check(CLI::Range(1, 3600));
  app.add_option("--max-upload", pf.max_upload, "largest file accepted, in bytes")->check(CLI::Range(1, 64 << 20));
  app.add_option("--in-flight", pf.in_flight, "a participant's submissions not yet graded, at most")
      ->check(CLI::Range(1, 1000));
  app.add_option("--per-hour", pf.per_hour, "a participant's uploads an hour, at most")->check(CLI::Range(1, 100000));
  app.add_option("--counts", pf.counts, "which submission counts: last or best")->check(CLI::IsMember({"last", "best"}));
  auto* add = app.add_option("--add-participant", participant, "add a participant, print the token, exit");
  app.add_option("--add-worker", worker, "add a remote worker's account (judge worker), print the token, exit")
      ->excludes(add);
  app.add_option("--import-roster", roster, "add participants from a CSV file (header: name); print name,token")
      ->excludes(add)->excludes(app.get_option("--add-worker"));
  if (auto rc = parse(app, argc, argv)) return *rc;
  for (const std::string& slug : opt.problems) find_problem(slug);  // a UsageError with guesses for a misspelt one
  opt.bench = !no_bench;
  {
    Store store(opt.data);  // closed before the server opens its own
    if (!participant.empty() || !worker.empty()) {
      const bool p = !participant.empty();
      const std::string& name = p ? participant : worker;
      const std::string token = add_account(store, name, p ? "participant" : "worker");
      std::printf("%s %s added; token:\n%s\n", p ? "participant" : "worker", terminal_safe(name).c_str(),
                  token.c_str());
      return 0;
    }
    if (!roster.empty()) return import_roster(store, roster);
    apply_policy(store, pf);
  }
  settle_isolation(opt, sandbox, no_sandbox);
  settle_seed(opt, flags);
  return server::run_server(paths, opt);
}

}  // namespace hpcjudge::cli
