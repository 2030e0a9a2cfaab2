// What `judge serve` keeps: one SQLite database in WAL mode (DATA/hpcjudge.db) and the files beside it
//   DATA/submissions/<id>/<slug>.<ext>   each submitted file, written (and fsynced) before its row is committed
//   DATA/reports/<id>.json               each finished grade's report (the --json schema, plus "server")
//   DATA/results/<participant>/<slug>.json   each participant's counting public grade: a results folder as
//   DATA/final/<participant>/<slug>.json     `judge batch` writes one, so the leaderboard and the exports are
//                                            the batch's own (final/: the secret-seed round, kept apart)
// Every change is one transaction; every read sees a committed state. A Store is safe to use from many threads
// (one connection each, opened on first use; SQLite's busy timeout waits out a writer).
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "protocol/json.h"

namespace hpcjudge::server {

// Who a token belongs to. Roles: "participant" (submits, sees only their own), "admin" (everything, the admin
// page), "worker" (claims jobs and posts results over /api/worker/, nothing else).
struct Account {
  int64_t id = 0;
  std::string name;
  std::string role;
};

// A submission's state: queued -> compiling -> testing -> timing -> done. A job that a worker held when it (or
// the server) died goes back to queued once (attempts 1 -> 2); a second loss makes it done with JE, the judge's
// fault, never a student's verdict.
inline constexpr const char* kStates[] = {"queued", "compiling", "testing", "timing", "done"};

struct Submission {
  int64_t id = 0;
  int64_t account = 0;
  std::string participant;  // the account's name
  std::string problem;      // slug
  std::string filename;     // as uploaded (shown, never used as a path)
  std::filesystem::path source;  // DATA/submissions/<id>/<slug>.<ext>
  std::string round = "public";  // "public" or "final" (the secret-seed grading after the close)
  std::string state = "queued";
  int attempts = 0;         // times a worker claimed it
  std::string worker;       // who holds or held it: "local:gpu0", "remote:<name>"
  std::string verdict;      // when done
  double score = 0;
  std::optional<double> plus_minus;
  std::string message;      // the verdict's cause, one line
  std::string created_at, started_at, finished_at;  // ISO 8601 UTC
  int64_t request = 0;      // the rejudge request that queued it last (0: the upload)
};

// What the course decides (the admin page and `judge serve`'s flags set them; kept in the database).
struct Policy {
  int64_t max_upload_bytes = 256 * 1024;
  int in_flight = 1;        // a participant's submissions not yet done, at most
  int per_hour = 20;        // a participant's uploads in the last hour, at most
  std::string opens_at, closes_at, frozen_at;  // ISO 8601 UTC, empty: no bound
  std::string counts = "last";  // which submission counts on the leaderboard: "last" or "best"
  nlohmann::json to_json() const;
  static Policy from_json(const nlohmann::json& j);
};

class Store {
 public:
  explicit Store(const std::filesystem::path& data);  // creates DATA and the schema where missing
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;
  const std::filesystem::path& data() const { return data_; }

  // Accounts. add_account returns the new token (shown once; only its hash is kept); throws std::invalid_argument
  // on a name in use or a name that is empty, over 64 bytes or holds a control character.
  std::string add_account(const std::string& name, const std::string& role);
  std::optional<Account> account_by_token(const std::string& token);  // constant-time, by hash
  std::vector<Account> accounts();
  std::string new_token(int64_t account);  // replaces the account's token, returns the new one

  // Submissions. add_submission writes the file, then commits its row queued; throws StoreFull on a disk or
  // database error, with nothing half-kept.
  int64_t add_submission(int64_t account, const std::string& problem, const std::string& filename,
                         const std::string& bytes, const std::string& round = "public");
  std::optional<Submission> submission(int64_t id);
  std::vector<Submission> submissions_of(int64_t account);
  std::vector<Submission> queue();          // not done, oldest first
  int queue_position(int64_t id);           // 0: being graded or done; 1: next
  int in_flight(int64_t account);
  int uploads_since(int64_t account, const std::string& since_iso);

  // Workers. claim takes the oldest queued job whose problem `accepts` (called with the slug), marks it compiling,
  // attempts + 1, held by `worker`; atomically, so no two workers take one job.
  std::optional<Submission> claim(const std::string& worker, bool (*accepts)(const std::string& slug, void*),
                                  void* ctx);
  void set_state(int64_t id, const std::string& state);  // compiling, testing, timing (a held job only)
  // The grade's report (the --json schema) and its text (what the child judge printed: the terminal report a local
  // grade prints, byte for byte): kept in DATA/reports/<id>.json and <id>.txt, the row done with its verdict, and
  // the participant's counting report in DATA/results (or DATA/final) brought up to date (participants only: an
  // admin's or a worker's grade is no one's result). Throws std::invalid_argument where the job is not held (done,
  // or lost and queued again), so a grade is kept once per request.
  void finish(int64_t id, const nlohmann::json& report, const std::string& text);
  // A worker lost the job (crashed, killed, timed out): queued again on the first loss, JE on the second.
  void lost(int64_t id, const std::string& why);
  // At start: every job held by a worker of the previous run is lost (its worker died with the server).
  int recover_after_restart();
  std::optional<nlohmann::json> report(int64_t id);
  std::optional<std::string> report_text(int64_t id);

  // Rejudge (the admin page): one submission, every submission of a problem, or every counting submission
  // (problem empty): queued again under a new request; returns how many.
  int rejudge(int64_t id);
  int rejudge_problem(const std::string& problem);
  int rejudge_all();
  // The final round: every participant's counting public submission of each problem queued again as a new
  // "final" submission (same file), graded with the secret seed; its reports go to DATA/final.
  int start_final_round();

  // The problems this server serves (--problems; every problem where empty): written to DATA/results/batch.json
  // and DATA/final/batch.json, which fix the leaderboard's columns, with the participants (kept up to date as
  // participants are added).
  void set_problems(const std::vector<std::string>& slugs);

  Policy policy();
  void set_policy(const Policy& p);

  // Every admin action, with who did it: the audit log (newest first).
  void audit(const std::string& actor, const std::string& action, const std::string& detail);
  std::vector<nlohmann::json> audit_log(int limit = 200);

 private:
  struct Impl;
  std::filesystem::path data_;
  Impl* impl_;
};

// The database or the disk refused (full, read-only, corrupt): the request is refused with this message, nothing
// is half-kept.
struct StoreFull : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hpcjudge::server
