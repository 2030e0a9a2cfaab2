// The store (server/store.h): SQLite through its C API, one connection per thread, WAL, every change one
// BEGIN IMMEDIATE transaction (so a claim is never taken twice); the files beside the database written whole.
#include "server/store.h"

#include <fcntl.h>
#include <cstring>
#include <cstdio>
#include <sqlite3.h>
#include <unistd.h>

#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/reports/human.h"
#include "judge/reports/report.h"
#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/tokens.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace hpcjudge::server {

namespace {

// The schema. A submission's verdict, score and report stay while it is queued again (a rejudge), until the new
// grade replaces them; `queued_seq` orders the queue (a rejudge goes to its end, a lost job keeps its place);
// `origin` is the public submission a final-round row was copied from. Foreign keys are checked at the commit.
constexpr const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS accounts(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, role TEXT NOT NULL, token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS requests(
  id INTEGER PRIMARY KEY, kind TEXT NOT NULL, detail TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS submissions(
  id INTEGER PRIMARY KEY,
  account INTEGER NOT NULL REFERENCES accounts(id) DEFERRABLE INITIALLY DEFERRED,
  problem TEXT NOT NULL, filename TEXT NOT NULL, source TEXT NOT NULL, round TEXT NOT NULL,
  state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, worker TEXT NOT NULL DEFAULT '',
  verdict TEXT NOT NULL DEFAULT '', score REAL NOT NULL DEFAULT 0, plus_minus REAL, message TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL, started_at TEXT NOT NULL DEFAULT '', finished_at TEXT NOT NULL DEFAULT '',
  request INTEGER NOT NULL DEFAULT 0, queued_seq INTEGER NOT NULL DEFAULT 0, origin INTEGER);
CREATE INDEX IF NOT EXISTS submissions_queue ON submissions(state, queued_seq);
CREATE INDEX IF NOT EXISTS submissions_of ON submissions(account, problem, round);
CREATE TABLE IF NOT EXISTS policy(id INTEGER PRIMARY KEY CHECK (id = 1), json TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS audit(
  id INTEGER PRIMARY KEY, at TEXT NOT NULL, actor TEXT NOT NULL, action TEXT NOT NULL, detail TEXT NOT NULL);
)sql";

constexpr const char* kColumns =
    "s.id, s.account, a.name, s.problem, s.filename, s.source, s.round, s.state, s.attempts, s.worker, s.verdict, "
    "s.score, s.plus_minus, s.message, s.created_at, s.started_at, s.finished_at, s.request "
    "FROM submissions s JOIN accounts a ON a.id = s.account";

constexpr const char* kHeld = "('compiling', 'testing', 'timing')";

[[noreturn]] void refuse(sqlite3* db, const std::string& what) {
  throw StoreFull("the database refused " + what + ": " + sqlite3_errmsg(db));
}

void exec(sqlite3* db, const char* sql) {
  char* err = nullptr;
  if (sqlite3_exec(db, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    const std::string why = err ? err : sqlite3_errmsg(db);
    sqlite3_free(err);
    throw StoreFull("the database refused (" + why + ")");
  }
}

// One prepared statement: bind(), then step() through its rows.
class Stmt {
 public:
  template <class... Args>
  Stmt(sqlite3* db, const std::string& sql, const Args&... args) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st_, nullptr) != SQLITE_OK) refuse(db, "a query");
    int i = 0;
    (bind(++i, args), ...);
  }
  ~Stmt() { sqlite3_finalize(st_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  bool step() {
    const int rc = sqlite3_step(st_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    refuse(db_, "a change");
  }
  void run() {
    while (step()) {
    }
  }
  int64_t i64(int c) const { return sqlite3_column_int64(st_, c); }
  double real(int c) const { return sqlite3_column_double(st_, c); }
  bool null(int c) const { return sqlite3_column_type(st_, c) == SQLITE_NULL; }
  std::string text(int c) const {
    const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(st_, c));
    return p ? std::string(p, sqlite3_column_bytes(st_, c)) : std::string();
  }

 private:
  void bind(int i, int64_t v) { sqlite3_bind_int64(st_, i, v); }
  void bind(int i, int v) { sqlite3_bind_int64(st_, i, v); }
  void bind(int i, double v) { sqlite3_bind_double(st_, i, v); }
  void bind(int i, const std::string& v) { sqlite3_bind_text(st_, i, v.data(), int(v.size()), SQLITE_TRANSIENT); }
  void bind(int i, const char* v) { sqlite3_bind_text(st_, i, v, -1, SQLITE_TRANSIENT); }
  void bind(int i, const std::optional<double>& v) {
    if (v) sqlite3_bind_double(st_, i, *v);
    else sqlite3_bind_null(st_, i);
  }
  void bind(int i, const std::optional<int64_t>& v) {
    if (v) sqlite3_bind_int64(st_, i, *v);
    else sqlite3_bind_null(st_, i);
  }
  sqlite3* db_;
  sqlite3_stmt* st_ = nullptr;
};

// BEGIN IMMEDIATE (the write lock taken at once, so two writers never both read and then both write); rolled back
// unless committed.
class Tx {
 public:
  explicit Tx(sqlite3* db) : db_(db) { exec(db, "BEGIN IMMEDIATE"); }
  ~Tx() {
    if (!done_) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  void commit() {
    exec(db_, "COMMIT");
    done_ = true;
  }

 private:
  sqlite3* db_;
  bool done_ = false;
};

Submission read_submission(const Stmt& q) {
  Submission s;
  s.id = q.i64(0);
  s.account = q.i64(1);
  s.participant = q.text(2);
  s.problem = q.text(3);
  s.filename = q.text(4);
  s.source = q.text(5);
  s.round = q.text(6);
  s.state = q.text(7);
  s.attempts = int(q.i64(8));
  s.worker = q.text(9);
  s.verdict = q.text(10);
  s.score = q.real(11);
  if (!q.null(12)) s.plus_minus = q.real(12);
  s.message = q.text(13);
  s.created_at = q.text(14);
  s.started_at = q.text(15);
  s.finished_at = q.text(16);
  s.request = q.i64(17);
  return s;
}

std::vector<Submission> read_all(Stmt& q) {
  std::vector<Submission> out;
  while (q.step()) out.push_back(read_submission(q));
  return out;
}

void check_name(const std::string& name, const std::string& role) {
  if (name.empty() || name.size() > 64) throw std::invalid_argument("a name is 1 to 64 bytes");
  for (unsigned char c : name)
    if (c < 0x20 || c == 0x7f) throw std::invalid_argument("a name holds no control character");
  if (role != "participant" && role != "admin" && role != "worker")
    throw std::invalid_argument("a role is participant, admin or worker, not '" + role + "'");
}

const Problem& problem_of(const std::string& slug) {
  const Problem* p = Registry::find(slug);
  if (!p) throw std::invalid_argument("no problem '" + slug + "'");
  return *p;
}

// Writes `bytes` to `file` whole: a temporary file beside it, fsynced, renamed over it, the folder fsynced.
void write_durably(const fs::path& file, const std::string& bytes) {
  const fs::path part = file.string() + ".part";
  const int fd = ::open(part.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0640);
  if (fd < 0) throw StoreFull("cannot write " + part.string() + ": " + std::strerror(errno));
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += size_t(n);
  }
  const bool ok = done == bytes.size() && ::fsync(fd) == 0;
  const int err = errno;
  ::close(fd);
  if (!ok || ::rename(part.c_str(), file.c_str()) != 0) {
    ::unlink(part.c_str());
    throw StoreFull("cannot write " + file.string() + ": " + std::strerror(ok ? errno : err));
  }
  const int dir = ::open(file.parent_path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

std::string dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace) + "\n"; }

}  // namespace

nlohmann::json Policy::to_json() const {
  return {{"max_upload_bytes", max_upload_bytes}, {"in_flight", in_flight}, {"per_hour", per_hour},
          {"opens_at", opens_at},                 {"closes_at", closes_at}, {"frozen_at", frozen_at},
          {"counts", counts}};
}

Policy Policy::from_json(const nlohmann::json& j) {
  Policy p;
  if (!j.is_object()) return p;
  auto num = [&](const char* k, auto& v) {
    if (j.contains(k) && j[k].is_number_integer()) v = j[k].get<std::decay_t<decltype(v)>>();
  };
  auto str = [&](const char* k, std::string& v) {
    if (j.contains(k) && j[k].is_string()) v = j[k].get<std::string>();
  };
  num("max_upload_bytes", p.max_upload_bytes);
  num("in_flight", p.in_flight);
  num("per_hour", p.per_hour);
  str("opens_at", p.opens_at);
  str("closes_at", p.closes_at);
  str("frozen_at", p.frozen_at);
  str("counts", p.counts);
  if (p.counts != "best") p.counts = "last";
  return p;
}

struct Store::Impl {
  fs::path db_file, data;
  std::mutex m;  // guards conns
  std::map<std::thread::id, sqlite3*> conns;
  std::mutex results_m;  // one results copy at a time, so an older grade never lands after a newer one
  std::vector<std::string> problems;

  sqlite3* conn();
  sqlite3* open();
  fs::path results_root(const std::string& round) const { return data / (round == "final" ? "final" : "results"); }
  std::optional<int64_t> counting(sqlite3* db, int64_t account, const std::string& problem,
                                  const std::string& round, const std::string& counts);
  void update_counting(sqlite3* db, int64_t account, const std::string& problem, const std::string& round);
  void write_batch_records();
  struct NewRow {
    int64_t account;
    std::string problem, filename, round;
    int64_t request;
    std::optional<int64_t> origin;
  };
  std::pair<int64_t, fs::path> insert(sqlite3* db, const NewRow& row, const std::string& bytes);
  std::optional<fs::path> copy_to_final(sqlite3* db, int64_t origin, int64_t request);
  int64_t new_request(sqlite3* db, const std::string& kind, const std::string& detail);
  int requeue(sqlite3* db, const std::string& where, int64_t request, const std::string& arg = "");
};

sqlite3* Store::Impl::open() {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(db_file.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                                 nullptr);
  if (rc != SQLITE_OK) {
    const std::string why = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw StoreFull("cannot open " + db_file.string() + ": " + why);
  }
  sqlite3_busy_timeout(db, 30000);
  try {
    exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON");
  } catch (...) {
    sqlite3_close(db);
    throw;
  }
  return db;
}

sqlite3* Store::Impl::conn() {
  std::lock_guard<std::mutex> lock(m);
  sqlite3*& db = conns[std::this_thread::get_id()];
  if (!db) db = open();
  return db;
}

Store::Store(const fs::path& data) : data_(data), impl_(new Impl) {
  impl_->data = data;
  impl_->db_file = data / "hpcjudge.db";
  try {
    for (const char* sub : {"", "submissions", "reports", "results", "final"}) make_private_folder(data / sub);
    sqlite3* db = impl_->conn();
    Tx tx(db);
    exec(db, kSchema);
    Stmt(db, "INSERT OR IGNORE INTO policy(id, json) VALUES (1, ?)", Policy{}.to_json().dump()).run();
    tx.commit();
  } catch (...) {
    delete impl_;
    throw;
  }
}

Store::~Store() {
  for (auto& [id, db] : impl_->conns) sqlite3_close(db);
  delete impl_;
}

// --- accounts

std::string Store::add_account(const std::string& name, const std::string& role) {
  check_name(name, role);
  const std::string token = server::new_token();
  sqlite3* db = impl_->conn();
  Tx tx(db);
  Stmt exists(db, "SELECT 1 FROM accounts WHERE name = ?", name);
  if (exists.step()) throw std::invalid_argument("the name '" + name + "' is in use");
  Stmt(db, "INSERT INTO accounts(name, role, token_hash, created_at) VALUES (?, ?, ?, ?)", name, role,
       token_hash(token), utc_now())
      .run();
  tx.commit();
  if (role == "participant") impl_->write_batch_records();
  return token;
}

std::optional<Account> Store::account_by_token(const std::string& token) {
  const std::string hash = token_hash(token);
  sqlite3* db = impl_->conn();
  Stmt q(db, "SELECT id, name, role, token_hash FROM accounts WHERE token_hash = ?", hash);
  if (!q.step() || !same_hash(q.text(3), hash)) return std::nullopt;
  return Account{q.i64(0), q.text(1), q.text(2)};
}

std::vector<Account> Store::accounts() {
  Stmt q(impl_->conn(), "SELECT id, name, role FROM accounts ORDER BY id");
  std::vector<Account> out;
  while (q.step()) out.push_back({q.i64(0), q.text(1), q.text(2)});
  return out;
}

std::string Store::new_token(int64_t account) {
  const std::string token = server::new_token();
  sqlite3* db = impl_->conn();
  Tx tx(db);
  Stmt(db, "UPDATE accounts SET token_hash = ? WHERE id = ?", token_hash(token), account).run();
  if (sqlite3_changes(db) != 1) throw std::invalid_argument("no account " + std::to_string(account));
  tx.commit();
  return token;
}

// --- submissions

// A new queued row and its file, written durably, inside the caller's transaction (committed after the file is
// whole); where the file cannot be written, what was written is removed and StoreFull thrown.
std::pair<int64_t, fs::path> Store::Impl::insert(sqlite3* db, const NewRow& row, const std::string& bytes) {
  const Problem& p = problem_of(row.problem);
  if (row.round != "public" && row.round != "final") throw std::invalid_argument("a round is public or final");
  Stmt(db,
       "INSERT INTO submissions(account, problem, filename, source, round, state, created_at, request, origin, "
       "queued_seq) VALUES (?, ?, ?, '', ?, 'queued', ?, ?, ?, "
       "(SELECT coalesce(max(queued_seq), 0) + 1 FROM submissions))",
       row.account, row.problem, row.filename, row.round, utc_now(), row.request, row.origin)
      .run();
  const int64_t id = sqlite3_last_insert_rowid(db);
  const fs::path folder = data / "submissions" / std::to_string(id);
  const fs::path file = folder / (row.problem + "." + p.info().source_ext);
  std::error_code ec;
  // A folder of this id is left from a run that stopped before its commit (the id is free under the write lock).
  if (fs::is_directory(fs::symlink_status(folder, ec))) fs::remove_all(folder, ec);
  const bool made = fs::create_directories(folder, ec);
  if (ec || !made) throw StoreFull("cannot make " + folder.string() + ": " + (ec ? ec.message() : "it exists"));
  try {
    write_durably(file, bytes);
    Stmt(db, "UPDATE submissions SET source = ? WHERE id = ?", file.string(), id).run();
  } catch (...) {
    fs::remove_all(folder, ec);
    throw;
  }
  return {id, file};
}

int64_t Store::add_submission(int64_t account, const std::string& problem, const std::string& filename,
                              const std::string& bytes, const std::string& round) {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  const auto [id, file] = impl_->insert(db, {account, problem, filename, round, 0, std::nullopt}, bytes);
  try {
    tx.commit();
  } catch (...) {
    std::error_code ec;
    fs::remove_all(file.parent_path(), ec);
    throw;
  }
  return id;
}

// The final round's copy of public submission `origin` (its file copied), unless one was made already.
std::optional<fs::path> Store::Impl::copy_to_final(sqlite3* db, int64_t origin, int64_t request) {
  Stmt made(db, "SELECT 1 FROM submissions WHERE round = 'final' AND origin = ?", origin);
  if (made.step()) return std::nullopt;
  Stmt q(db, "SELECT account, problem, filename, source FROM submissions WHERE id = ?", origin);
  if (!q.step()) return std::nullopt;
  std::string bytes;
  try {
    bytes = read_regular_file(q.text(3), 64 << 20);
  } catch (const FileRefused& e) {
    throw StoreFull(e.what());
  }
  return insert(db, {q.i64(0), q.text(1), q.text(2), "final", request, origin}, bytes).second;
}

std::optional<Submission> Store::submission(int64_t id) {
  Stmt q(impl_->conn(), std::string("SELECT ") + kColumns + " WHERE s.id = ?", id);
  if (!q.step()) return std::nullopt;
  return read_submission(q);
}

std::vector<Submission> Store::submissions_of(int64_t account) {
  Stmt q(impl_->conn(), std::string("SELECT ") + kColumns + " WHERE s.account = ? ORDER BY s.id DESC", account);
  return read_all(q);
}

std::vector<Submission> Store::queue() {
  Stmt q(impl_->conn(), std::string("SELECT ") + kColumns +
                            " WHERE s.state <> 'done' ORDER BY s.queued_seq, s.id");
  return read_all(q);
}

int Store::queue_position(int64_t id) {
  Stmt q(impl_->conn(),
         "SELECT count(*) FROM submissions o, submissions s WHERE s.id = ? AND s.state = 'queued' "
         "AND o.state = 'queued' AND (o.queued_seq, o.id) <= (s.queued_seq, s.id)",
         id);
  return q.step() ? int(q.i64(0)) : 0;
}

int Store::in_flight(int64_t account) {
  Stmt q(impl_->conn(),
         "SELECT count(*) FROM submissions WHERE account = ? AND round = 'public' AND state <> 'done'", account);
  return q.step() ? int(q.i64(0)) : 0;
}

int Store::uploads_since(int64_t account, const std::string& since_iso) {
  Stmt q(impl_->conn(),
         "SELECT count(*) FROM submissions WHERE account = ? AND round = 'public' AND created_at >= ?", account,
         since_iso);
  return q.step() ? int(q.i64(0)) : 0;
}

// --- workers

std::optional<Submission> Store::claim(const std::string& worker, bool (*accepts)(const std::string&, void*),
                                       void* ctx) {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  std::optional<Submission> job;
  {
    Stmt q(db, std::string("SELECT ") + kColumns + " WHERE s.state = 'queued' ORDER BY s.queued_seq, s.id");
    while (!job && q.step())
      if (!accepts || accepts(q.text(3), ctx)) job = read_submission(q);
  }
  if (!job) return std::nullopt;
  job->state = "compiling";
  job->attempts += 1;
  job->worker = worker;
  job->started_at = utc_now();
  Stmt(db, "UPDATE submissions SET state = 'compiling', attempts = ?, worker = ?, started_at = ? WHERE id = ?",
       job->attempts, worker, job->started_at, job->id)
      .run();
  tx.commit();
  return job;
}

void Store::set_state(int64_t id, const std::string& state) {
  if (state != "compiling" && state != "testing" && state != "timing")
    throw std::invalid_argument("a held job's state is compiling, testing or timing");
  sqlite3* db = impl_->conn();
  Tx tx(db);
  Stmt(db, std::string("UPDATE submissions SET state = ? WHERE id = ? AND state IN ") + kHeld, state, id).run();
  tx.commit();
}

// --- grades

namespace {

// The report as kept: the grade's own, with the participant named and "server" (the grader's device and cores kept)
// saying which submission, round, worker and request it was.
json kept_report(const json& report, const Submission& s) {
  json kept = report.is_object() ? report : json::object();
  if (!kept.contains("participant") || !kept["participant"].is_string() || kept["participant"].get<std::string>().empty())
    kept["participant"] = s.participant;
  if (!kept.contains("server") || !kept["server"].is_object()) kept["server"] = json::object();
  kept["server"].update(json{{"id", s.id},         {"round", s.round},       {"worker", s.worker},
                             {"request", s.request}, {"attempts", s.attempts}, {"created_at", s.created_at}});
  return kept;
}

std::string string_field(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string();
}

std::optional<double> score_field(const json& report, const char* key) {
  if (!report.is_object() || !report.contains("score") || !report["score"].is_object()) return std::nullopt;
  const json& s = report["score"];
  return s.contains(key) && s[key].is_number() ? std::optional<double>(s[key].get<double>()) : std::nullopt;
}

void write_kept(const fs::path& file, const std::string& text) {
  try {
    write_file_atomically(file, text);
  } catch (const FileRefused& e) {
    throw StoreFull(e.what());
  }
}

// The judge's own report for a job it lost twice: JE, no points, the cause; never a student's verdict.
std::pair<json, std::string> lost_report(const Submission& s, const std::string& message) {
  Report r;
  r.problem = s.problem;
  r.file = s.filename;
  r.verdict = Verdict::JE;
  r.message = message;
  r.seed_secret = s.round == "final";
  r.score.max = problem_of(s.problem).info().points.total();
  r.participant = s.participant;
  r.graded_at = utc_now();
  return {r.to_json(), summary_line(r, Style{}) + "\n" + message + "\n"};
}

}  // namespace

void Store::finish(int64_t id, const nlohmann::json& report, const std::string& text) {
  sqlite3* db = impl_->conn();
  Submission s;
  {
    Tx tx(db);
    Stmt q(db, std::string("SELECT ") + kColumns + " WHERE s.id = ? AND s.state IN " + kHeld, id);
    if (!q.step()) throw std::invalid_argument("submission " + std::to_string(id) + " is not being graded");
    s = read_submission(q);
    write_kept(data_ / "reports" / (std::to_string(id) + ".json"), dump(kept_report(report, s)));
    write_kept(data_ / "reports" / (std::to_string(id) + ".txt"), text);
    const std::string verdict = string_field(report, "verdict");
    Stmt(db,
         "UPDATE submissions SET state = 'done', verdict = ?, score = ?, plus_minus = ?, message = ?, "
         "finished_at = ? WHERE id = ?",
         verdict.empty() ? std::string("JE") : verdict, score_field(report, "total").value_or(0.0),
         score_field(report, "plus_minus"), one_line(string_field(report, "message"), 300), utc_now(), id)
        .run();
    tx.commit();
  }
  impl_->update_counting(db, s.account, s.problem, s.round);
}

void Store::lost(int64_t id, const std::string& why) {
  sqlite3* db = impl_->conn();
  std::optional<Submission> s;
  {
    Tx tx(db);
    Stmt q(db, std::string("SELECT ") + kColumns + " WHERE s.id = ? AND s.state IN " + kHeld, id);
    if (!q.step()) return;  // not held: finished, or already lost by another's call
    s = read_submission(q);
    if (s->attempts < 2) {
      Stmt(db, "UPDATE submissions SET state = 'queued', worker = '', started_at = '' WHERE id = ?", id).run();
      tx.commit();
      return;
    }
  }
  const auto [report, text] = lost_report(*s, "the judge lost this job twice: " + why);
  finish(id, report, text);
}

int Store::recover_after_restart() {
  std::vector<int64_t> held;
  {
    Stmt q(impl_->conn(), std::string("SELECT id FROM submissions WHERE state IN ") + kHeld + " ORDER BY id");
    while (q.step()) held.push_back(q.i64(0));
  }
  for (int64_t id : held) lost(id, "the server stopped while it was graded");
  return int(held.size());
}

std::optional<nlohmann::json> Store::report(int64_t id) {
  const fs::path file = data_ / "reports" / (std::to_string(id) + ".json");
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  try {
    return json::parse(read_regular_file(file, 64 << 20));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::optional<std::string> Store::report_text(int64_t id) {
  const fs::path file = data_ / "reports" / (std::to_string(id) + ".txt");
  std::error_code ec;
  if (!fs::exists(file, ec)) return std::nullopt;
  try {
    return read_regular_file(file, 64 << 20);
  } catch (const FileRefused&) {
    return std::nullopt;
  }
}

// --- what counts: DATA/results and DATA/final

// The submission that counts for (account, problem, round) among those graded (a report kept): "last" the newest,
// "best" the highest score (ties: the earlier); a JE grade only where every grade is JE.
std::optional<int64_t> Store::Impl::counting(sqlite3* db, int64_t account, const std::string& problem,
                                             const std::string& round, const std::string& counts) {
  const std::string order = counts == "best" ? "score DESC, id ASC" : "id DESC";
  Stmt q(db,
         "SELECT id FROM submissions WHERE account = ? AND problem = ? AND round = ? AND verdict <> '' "
         "ORDER BY verdict = 'JE', " + order + " LIMIT 1",
         account, problem, round);
  if (!q.step()) return std::nullopt;
  return q.i64(0);
}

// A participant's counting report copied to RESULTS/<results_folder(name)>/<slug>.json. The grade is kept already:
// a copy that fails is said on stderr and made again by the next grade.
void Store::Impl::update_counting(sqlite3* db, int64_t account, const std::string& problem,
                                  const std::string& round) {
  std::lock_guard<std::mutex> lock(results_m);
  try {
    Stmt who(db, "SELECT name FROM accounts WHERE id = ? AND role = 'participant'", account);
    if (!who.step()) return;  // an admin's or a worker's test grade is no one's result
    Stmt pol(db, "SELECT json FROM policy WHERE id = 1");
    const std::string counts = pol.step() ? Policy::from_json(json::parse(pol.text(0), nullptr, false)).counts : "last";
    const std::optional<int64_t> id = counting(db, account, problem, round, counts);
    if (!id) return;
    const fs::path folder = results_root(round) / results_folder(who.text(0));
    fs::create_directories(folder);
    write_file_atomically(folder / (problem + ".json"),
                          read_regular_file(data / "reports" / (std::to_string(*id) + ".json"), 64 << 20));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "warning: the results of account %lld, %s: %s\n", static_cast<long long>(account),
                 problem.c_str(), e.what());
  }
}

// RESULTS/batch.json and FINAL/batch.json: the served problems fix the leaderboard's columns.
void Store::Impl::write_batch_records() {
  std::vector<std::string> names;
  {
    Stmt q(conn(), "SELECT name FROM accounts WHERE role = 'participant' ORDER BY name");
    while (q.step()) names.push_back(q.text(0));
  }
  std::lock_guard<std::mutex> lock(results_m);
  const json batch = {{"problems", problems.empty() ? json(nullptr) : json(problems)},
                      {"participants", names},
                      {"not_graded", json::array()},
                      {"packs", json::object()},
                      {"written_at", utc_now()}};
  for (const char* round : {"public", "final"}) write_kept(results_root(round) / kBatchFile, dump(batch));
}

void Store::set_problems(const std::vector<std::string>& slugs) {
  {
    std::lock_guard<std::mutex> lock(impl_->results_m);
    impl_->problems = slugs;
  }
  impl_->write_batch_records();
}

// --- rejudge and the final round

int64_t Store::Impl::new_request(sqlite3* db, const std::string& kind, const std::string& detail) {
  Stmt(db, "INSERT INTO requests(kind, detail, created_at) VALUES (?, ?, ?)", kind, detail, utc_now()).run();
  return sqlite3_last_insert_rowid(db);
}

// The rows `where` names (one `?`: arg) queued again under `request`: a graded row at the queue's end, attempts 0,
// its report kept until the new grade; a queued row keeps its place under the new request; a held row is left to
// its worker. Returns how many.
int Store::Impl::requeue(sqlite3* db, const std::string& where, int64_t request, const std::string& arg) {
  Stmt(db, "UPDATE submissions SET request = ? WHERE state = 'queued' AND (" + where + ")", request, arg).run();
  const int n = sqlite3_changes(db);
  Stmt(db,
       "UPDATE submissions SET state = 'queued', attempts = 0, worker = '', started_at = '', request = ?, "
       "queued_seq = (SELECT coalesce(max(queued_seq), 0) + 1 FROM submissions) WHERE state = 'done' AND (" +
           where + ")",
       request, arg)
      .run();
  return n + sqlite3_changes(db);
}

int Store::rejudge(int64_t id) {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  const int n = impl_->requeue(db, "id = ?", impl_->new_request(db, "rejudge", std::to_string(id)),
                               std::to_string(id));
  tx.commit();
  return n;
}

int Store::rejudge_problem(const std::string& problem) {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  const int n = impl_->requeue(db, "problem = ?", impl_->new_request(db, "rejudge problem", problem), problem);
  tx.commit();
  return n;
}

int Store::rejudge_all() {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  const std::string counts = policy().counts;
  std::vector<int64_t> ids;
  {
    Stmt q(db, "SELECT DISTINCT account, problem, round FROM submissions WHERE verdict <> ''");
    while (q.step())
      if (auto id = impl_->counting(db, q.i64(0), q.text(1), q.text(2), counts)) ids.push_back(*id);
  }
  const int64_t request = impl_->new_request(db, "rejudge all", "");
  int n = 0;
  for (int64_t id : ids) n += impl_->requeue(db, "id = ?", request, std::to_string(id));
  tx.commit();
  return n;
}

int Store::start_final_round() {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  const std::string counts = policy().counts;
  const int64_t request = impl_->new_request(db, "final round", "");
  std::vector<fs::path> written;
  try {
    std::vector<int64_t> origins;
    {
      Stmt q(db,
             "SELECT DISTINCT s.account, s.problem FROM submissions s JOIN accounts a ON a.id = s.account "
             "WHERE a.role = 'participant' AND s.round = 'public' AND s.verdict <> '' ORDER BY s.account, s.problem");
      while (q.step())
        if (auto id = impl_->counting(db, q.i64(0), q.text(1), "public", counts)) origins.push_back(*id);
    }
    for (int64_t origin : origins)
      if (auto file = impl_->copy_to_final(db, origin, request)) written.push_back(*file);
    tx.commit();
  } catch (...) {
    std::error_code ec;
    for (const fs::path& f : written) fs::remove_all(f.parent_path(), ec);
    throw;
  }
  return int(written.size());
}

// --- policy and audit

Policy Store::policy() {
  Stmt q(impl_->conn(), "SELECT json FROM policy WHERE id = 1");
  return q.step() ? Policy::from_json(json::parse(q.text(0), nullptr, false)) : Policy{};
}

void Store::set_policy(const Policy& p) {
  sqlite3* db = impl_->conn();
  const std::string before = policy().counts;
  {
    Tx tx(db);
    Stmt(db, "INSERT OR REPLACE INTO policy(id, json) VALUES (1, ?)", p.to_json().dump()).run();
    tx.commit();
  }
  if (Policy::from_json(p.to_json()).counts == before) return;
  // Which submission counts changed: every participant's counting copy made again.
  std::vector<std::tuple<int64_t, std::string, std::string>> pairs;
  {
    Stmt q(db, "SELECT DISTINCT account, problem, round FROM submissions WHERE verdict <> ''");
    while (q.step()) pairs.emplace_back(q.i64(0), q.text(1), q.text(2));
  }
  for (const auto& [account, problem, round] : pairs) impl_->update_counting(db, account, problem, round);
}

void Store::audit(const std::string& actor, const std::string& action, const std::string& detail) {
  sqlite3* db = impl_->conn();
  Tx tx(db);
  Stmt(db, "INSERT INTO audit(at, actor, action, detail) VALUES (?, ?, ?, ?)", utc_now(), actor, action, detail).run();
  tx.commit();
}

std::vector<nlohmann::json> Store::audit_log(int limit) {
  Stmt q(impl_->conn(), "SELECT at, actor, action, detail FROM audit ORDER BY id DESC LIMIT ?", limit);
  std::vector<json> out;
  while (q.step()) out.push_back({{"at", q.text(0)}, {"actor", q.text(1)}, {"action", q.text(2)}, {"detail", q.text(3)}});
  return out;
}

}  // namespace hpcjudge::server
