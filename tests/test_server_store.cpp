// The server's store (server/store.h), its tokens, its policies and its exports, on a temporary data folder.
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/reports/text.h"
#include "server/exports.h"
#include "server/policy.h"
#include "server/store.h"
#include "server/tokens.h"

namespace fs = std::filesystem;
using namespace hpcjudge::server;
using nlohmann::json;

namespace {

// A fresh data folder under TMPDIR for this user alone, removed at the end (its submissions folder writable
// again first: a case makes it read-only).
struct DataDir : hpcjudge::TempDir {
  DataDir() : TempDir(fs::perms::owner_all) {}
  ~DataDir() {
    std::error_code ec;
    fs::permissions(path / "submissions", fs::perms::owner_all, ec);
  }
};

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Every byte SQLite keeps: the database, its WAL and its shared memory.
std::string db_bytes(const fs::path& data) {
  std::string all;
  for (const char* suffix : {"", "-wal", "-shm"}) {
    const fs::path f = data / (std::string("hpcjudge.db") + suffix);
    if (fs::exists(f)) all += slurp(f);
  }
  return all;
}

json grade(const std::string& verdict, double total) {
  return {{"problem", "softmax-cpu"}, {"verdict", verdict}, {"message", verdict == "AC" ? "" : "a cause"},
          {"score", {{"total", total}, {"max", 100}, {"plus_minus", 1.5}, {"correctness", std::min(total, 40.0)},
                     {"performance", std::max(0.0, total - 40)}}},
          {"server", {{"device", -1}, {"cores", "0-1"}}}};
}

// Claims `id` (the oldest queued job must be it) and finishes it with `report`.
void grade_next(Store& s, int64_t id, const json& report) {
  const auto job = s.claim("local:test", nullptr, nullptr);
  REQUIRE(job);
  REQUIRE(job->id == id);
  s.finish(id, report, "text of " + std::to_string(id) + "\n");
}

int64_t counted_id(const fs::path& file) { return json::parse(slurp(file))["server"]["id"].get<int64_t>(); }

}  // namespace

TEST_CASE("store: tokens are random, prefixed, URL-safe and kept only as their hash", "[server][store]") {
  const std::string a = new_token(), b = new_token();
  CHECK(a != b);
  CHECK(a.size() == 46);
  CHECK(a.rfind("hj_", 0) == 0);
  CHECK(a.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", 3) == std::string::npos);
  CHECK(token_hash(a).size() == 64);
  CHECK(token_hash(a) == token_hash(a));
  CHECK(token_hash(a) != token_hash(b));
  CHECK(same_hash(token_hash(a), token_hash(a)));
  CHECK_FALSE(same_hash(token_hash(a), token_hash(b)));
  CHECK_FALSE(same_hash(token_hash(a), token_hash(a).substr(1)));
  CHECK(random_secret().size() == 43);
  CHECK(random_secret() != random_secret());

  DataDir d;
  std::string token;
  {
    Store s(d.path);
    token = s.add_account("ada", "participant");
    const auto who = s.account_by_token(token);
    REQUIRE(who);
    CHECK(who->name == "ada");
    CHECK(who->role == "participant");
    std::string wrong = token;
    wrong.back() = wrong.back() == 'A' ? 'B' : 'A';
    CHECK_FALSE(s.account_by_token(wrong));
    CHECK_FALSE(s.account_by_token(""));
    CHECK_FALSE(s.account_by_token(token_hash(token)));  // the stored hash is no token
  }
  const std::string bytes = db_bytes(d.path);
  CHECK(bytes.find(token) == std::string::npos);
  CHECK(bytes.find(token.substr(3)) == std::string::npos);
  CHECK(bytes.find(token_hash(token)) != std::string::npos);  // the check above reads the right bytes
}

TEST_CASE("store: account names and roles are checked; a new token replaces the old", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const std::string old = s.add_account("grace", "participant");
  CHECK_THROWS_AS(s.add_account("grace", "participant"), std::invalid_argument);
  CHECK_THROWS_AS(s.add_account("", "participant"), std::invalid_argument);
  CHECK_THROWS_AS(s.add_account(std::string(65, 'x'), "participant"), std::invalid_argument);
  CHECK_THROWS_AS(s.add_account("tab\there", "participant"), std::invalid_argument);
  CHECK_THROWS_AS(s.add_account("root", "superuser"), std::invalid_argument);
  CHECK_NOTHROW(s.add_account("<b>x</b>", "admin"));  // shown escaped by the pages, kept as given
  const auto who = s.account_by_token(old);
  REQUIRE(who);
  const std::string fresh = s.new_token(who->id);
  CHECK_FALSE(s.account_by_token(old));
  REQUIRE(s.account_by_token(fresh));
  CHECK(s.account_by_token(fresh)->id == who->id);
  CHECK(s.accounts().size() == 2);
}

TEST_CASE("store: a submission's file is kept, its row queued, and found again by a reopened store",
          "[server][store]") {
  DataDir d;
  std::vector<int64_t> ids;
  int64_t ada = 0;
  {
    Store s(d.path);
    ada = s.account_by_token(s.add_account("ada", "participant"))->id;
    for (int i = 0; i < 3; ++i) ids.push_back(s.add_submission(ada, "softmax-cpu", "mine.cpp", "// " + std::to_string(i)));
    ids.push_back(s.add_submission(ada, "vector-add", "va.cu", "// gpu"));
    CHECK_THROWS_AS(s.add_submission(ada, "no-such-problem", "x.cpp", ""), std::invalid_argument);
  }
  Store s(d.path);
  const auto q = s.queue();
  REQUIRE(q.size() == 4);
  for (size_t i = 0; i < q.size(); ++i) {
    CHECK(q[i].id == ids[i]);
    CHECK(s.queue_position(ids[i]) == int(i) + 1);
  }
  const auto first = s.submission(ids[0]);
  REQUIRE(first);
  CHECK(first->participant == "ada");
  CHECK(first->state == "queued");
  CHECK(first->source == d.path / "submissions" / std::to_string(ids[0]) / "softmax-cpu.cpp");
  CHECK(slurp(first->source) == "// 0");
  CHECK(s.submission(ids[3])->source.extension() == ".cu");
  CHECK(s.in_flight(ada) == 4);
  CHECK(s.uploads_since(ada, "2000-01-01T00:00:00Z") == 4);
  CHECK(s.uploads_since(ada, "2999-01-01T00:00:00Z") == 0);
  CHECK(s.submissions_of(ada).size() == 4);
  CHECK(s.submissions_of(ada + 1).empty());

  // Claimed: no longer in line; the others move up.
  const auto job = s.claim("local:cpu", nullptr, nullptr);
  REQUIRE(job);
  CHECK(job->id == ids[0]);
  CHECK(job->attempts == 1);
  CHECK(s.queue_position(ids[0]) == 0);
  CHECK(s.queue_position(ids[1]) == 1);
  // A worker that takes only GPU problems skips the CPU ones.
  auto gpu_only = [](const std::string& slug, void*) { return slug == "vector-add"; };
  const auto gpu = s.claim("local:gpu0", gpu_only, nullptr);
  REQUIRE(gpu);
  CHECK(gpu->id == ids[3]);
  s.set_state(ids[3], "testing");
  CHECK(s.submission(ids[3])->state == "testing");
  CHECK_THROWS_AS(s.set_state(ids[3], "done"), std::invalid_argument);
  s.set_state(ids[1], "timing");  // a queued job is no worker's to move
  CHECK(s.submission(ids[1])->state == "queued");
}

TEST_CASE("store: 8 workers claiming 50 queued jobs at once take each exactly once", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  std::set<int64_t> queued;
  for (int i = 0; i < 50; ++i) queued.insert(s.add_submission(ada, "softmax-cpu", "f.cpp", std::to_string(i)));
  std::mutex m;
  std::vector<int64_t> taken;
  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w)
    workers.emplace_back([&, w] {
      while (auto job = s.claim("local:w" + std::to_string(w), nullptr, nullptr)) {
        std::lock_guard<std::mutex> lock(m);
        taken.push_back(job->id);
      }
    });
  for (auto& t : workers) t.join();
  CHECK(taken.size() == 50);
  CHECK(std::set<int64_t>(taken.begin(), taken.end()) == queued);
  for (int64_t id : queued) CHECK(s.submission(id)->attempts == 1);
}

TEST_CASE("store: a job lost once is queued again, lost twice is JE; a restart loses what was held",
          "[server][store]") {
  DataDir d;
  int64_t id = 0;
  {
    Store s(d.path);
    const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
    id = s.add_submission(ada, "softmax-cpu", "f.cpp", "x");
    REQUIRE(s.claim("local:cpu", nullptr, nullptr));
    CHECK(s.submission(id)->state == "compiling");
  }  // the server stops while the job is held
  {
    Store s(d.path);
    CHECK(s.recover_after_restart() == 1);
    CHECK(s.recover_after_restart() == 0);
    const auto again = s.submission(id);
    CHECK(again->state == "queued");
    CHECK(again->attempts == 1);
    CHECK(s.queue_position(id) == 1);
    CHECK_THROWS_AS(s.finish(id, grade("AC", 100), "late"), std::invalid_argument);  // not held: no grade kept
    REQUIRE(s.claim("local:cpu", nullptr, nullptr));
  }
  Store s(d.path);
  CHECK(s.recover_after_restart() == 1);
  const auto je = s.submission(id);
  CHECK(je->state == "done");
  CHECK(je->verdict == "JE");
  CHECK(je->attempts == 2);
  CHECK(je->score == 0);
  CHECK(je->message == "the judge lost this job twice: the server stopped while it was graded");
  const auto report = s.report(id);
  REQUIRE(report);
  CHECK((*report)["verdict"] == "JE");
  CHECK((*report)["problem"] == "softmax-cpu");
  CHECK((*report)["score"]["total"] == 0);
  CHECK((*report)["score"]["max"].get<double>() > 0);
  REQUIRE(s.report_text(id));
  CHECK_THAT(*s.report_text(id), Catch::Matchers::ContainsSubstring("lost this job twice"));
  CHECK(s.queue().empty());
  s.lost(id, "again");  // a done job is no longer anyone's to lose
  CHECK(s.submission(id)->verdict == "JE");
}

TEST_CASE("store: a worker's loss requeues the job at its place", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  const int64_t a = s.add_submission(ada, "softmax-cpu", "a.cpp", "a");
  const int64_t b = s.add_submission(ada, "softmax-cpu", "b.cpp", "b");
  REQUIRE(s.claim("remote:x", nullptr, nullptr)->id == a);
  s.lost(a, "the worker stopped answering");
  CHECK(s.submission(a)->state == "queued");
  CHECK(s.queue_position(a) == 1);
  CHECK(s.queue_position(b) == 2);
}

TEST_CASE("store: the counting report is the last or the best, and JE replaces neither", "[server][store]") {
  DataDir d;
  Store s(d.path);
  s.set_problems({"softmax-cpu", "vector-add"});
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  const int64_t boss = s.account_by_token(s.add_account("boss", "admin"))->id;
  const fs::path counted = d.path / "results" / "ada" / "softmax-cpu.json";
  const int64_t one = s.add_submission(ada, "softmax-cpu", "1.cpp", "1");
  const int64_t two = s.add_submission(ada, "softmax-cpu", "2.cpp", "2");
  const int64_t three = s.add_submission(ada, "softmax-cpu", "3.cpp", "3");
  const int64_t four = s.add_submission(ada, "softmax-cpu", "4.cpp", "4");
  const int64_t admin = s.add_submission(boss, "softmax-cpu", "x.cpp", "x");
  grade_next(s, one, grade("AC", 80));
  CHECK(counted_id(counted) == one);
  grade_next(s, two, grade("WA", 40));
  CHECK(counted_id(counted) == two);  // the last, though worse
  grade_next(s, three, grade("JE", 0));
  CHECK(counted_id(counted) == two);  // the judge's fault never replaces a grade
  grade_next(s, four, grade("AC", 80));
  grade_next(s, admin, grade("AC", 100));
  CHECK_FALSE(fs::exists(d.path / "results" / "boss"));  // an admin's test is no one's result
  CHECK(counted_id(counted) == four);
  CHECK(s.in_flight(ada) == 0);
  const auto done = s.submission(four);
  CHECK(done->verdict == "AC");
  CHECK(done->score == 80);
  CHECK(done->plus_minus == 1.5);
  CHECK(*s.report_text(four) == "text of " + std::to_string(four) + "\n");
  CHECK((*s.report(four))["participant"] == "ada");
  CHECK((*s.report(four))["server"]["id"] == four);
  CHECK((*s.report(four))["server"]["worker"] == "local:test");
  CHECK((*s.report(four))["server"]["cores"] == "0-1");  // the grader's own entries kept

  Policy p = s.policy();
  p.counts = "best";
  s.set_policy(p);
  CHECK(s.policy().counts == "best");
  CHECK(counted_id(counted) == one);  // 80 twice: the earlier

  // The results folder is a batch's: the leaderboard reads it, the served problems its columns.
  const json batch = json::parse(slurp(d.path / "results" / "batch.json"));
  CHECK(batch["problems"] == json({"softmax-cpu", "vector-add"}));
  CHECK(batch["participants"] == json({"ada"}));
  const json model = hpcjudge::leaderboard_model(d.path / "results");
  REQUIRE(model["participants"].size() == 1);
  CHECK(model["participants"][0]["name"] == "ada");
  CHECK(model["problems"].size() == 2);
}

TEST_CASE("store: a rejudge queues the row again and keeps its old report until the new one", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  const int64_t id = s.add_submission(ada, "softmax-cpu", "1.cpp", "1");
  grade_next(s, id, grade("WA", 40));
  CHECK(s.rejudge(id) == 1);
  const auto again = s.submission(id);
  CHECK(again->state == "queued");
  CHECK(again->attempts == 0);
  CHECK(again->request > 0);
  CHECK((*s.report(id))["verdict"] == "WA");
  CHECK(s.rejudge(id) == 1);  // queued already: the newer request, graded once
  CHECK(s.submission(id)->request > again->request);
  CHECK(s.queue().size() == 1);
  grade_next(s, id, grade("AC", 90));
  CHECK((*s.report(id))["verdict"] == "AC");
  CHECK(s.rejudge_problem("softmax-cpu") == 1);
  CHECK(s.rejudge_problem("vector-add") == 0);
  grade_next(s, id, grade("AC", 90));
  CHECK(s.rejudge_all() == 1);
}

TEST_CASE("store: the final round copies each counting submission and keeps DATA/final apart", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  const int64_t bob = s.account_by_token(s.add_account("bob", "participant"))->id;
  const int64_t a1 = s.add_submission(ada, "softmax-cpu", "a1.cpp", "ada 1");
  const int64_t a2 = s.add_submission(ada, "softmax-cpu", "a2.cpp", "ada 2");
  const int64_t b1 = s.add_submission(bob, "softmax-cpu", "b1.cpp", "bob 1");
  grade_next(s, a1, grade("AC", 70));
  grade_next(s, a2, grade("AC", 75));
  grade_next(s, b1, grade("WA", 30));
  CHECK(s.start_final_round() == 2);
  CHECK(s.start_final_round() == 0);  // made once
  const auto q = s.queue();
  REQUIRE(q.size() == 2);
  for (const auto& f : q) {
    CHECK(f.round == "final");
    CHECK(f.state == "queued");
    CHECK(f.source.parent_path().filename() == std::to_string(f.id));
  }
  CHECK(slurp(q[0].source) == "ada 2");  // the last counts
  CHECK(slurp(q[1].source) == "bob 1");
  CHECK(s.in_flight(ada) == 0);  // the staff's round, not the participant's
  grade_next(s, q[0].id, grade("AC", 60));
  grade_next(s, q[1].id, grade("WA", 30));
  CHECK(counted_id(d.path / "final" / "ada" / "softmax-cpu.json") == q[0].id);
  CHECK(counted_id(d.path / "results" / "ada" / "softmax-cpu.json") == a2);
  CHECK(json::parse(slurp(d.path / "final" / "ada" / "softmax-cpu.json"))["server"]["round"] == "final");
  CHECK(counted_id(d.path / "final" / "bob" / "softmax-cpu.json") == q[1].id);
  CHECK(s.submission(a2)->round == "public");
}

TEST_CASE("store: a submission the disk or the database refuses leaves no file and no row", "[server][store]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  SECTION("the submission's folder cannot be made") {
    // The next submission's folder is taken by a file: the disk refuses, as a full one would.
    std::ofstream(d.path / "submissions" / "1") << "blocker";
    CHECK_THROWS_AS(s.add_submission(ada, "softmax-cpu", "f.cpp", "x"), StoreFull);
    CHECK(s.submissions_of(ada).empty());
    CHECK(s.queue().empty());
    CHECK(slurp(d.path / "submissions" / "1") == "blocker");
    fs::remove(d.path / "submissions" / "1");
    CHECK(s.add_submission(ada, "softmax-cpu", "f.cpp", "x") == 1);  // the id was never kept
  }
  SECTION("a folder left by a run that stopped before its commit is no refusal") {
    fs::create_directories(d.path / "submissions" / "1");
    std::ofstream(d.path / "submissions" / "1" / "softmax-cpu.cpp.part") << "half";
    CHECK(s.add_submission(ada, "softmax-cpu", "f.cpp", "whole") == 1);
    CHECK(slurp(s.submission(1)->source) == "whole");
    CHECK_FALSE(fs::exists(d.path / "submissions" / "1" / "softmax-cpu.cpp.part"));
  }
  SECTION("the database refuses after the file is written") {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open((d.path / "hpcjudge.db").c_str(), &db) == SQLITE_OK);
    REQUIRE(sqlite3_exec(db,
                         "CREATE TRIGGER refuse BEFORE UPDATE OF source ON submissions "
                         "BEGIN SELECT RAISE(ABORT, 'injected'); END",
                         nullptr, nullptr, nullptr) == SQLITE_OK);
    CHECK_THROWS_AS(s.add_submission(ada, "softmax-cpu", "f.cpp", "x"), StoreFull);
    CHECK(s.submissions_of(ada).empty());
    CHECK(fs::is_empty(d.path / "submissions"));
    sqlite3_exec(db, "DROP TRIGGER refuse", nullptr, nullptr, nullptr);
    sqlite3_close(db);
    CHECK(s.add_submission(ada, "softmax-cpu", "f.cpp", "x") == 1);
  }
}

// Apart from the case above, whose sections run as root too: a skipped section makes its whole case read as skipped.
TEST_CASE("store: a read-only submissions folder refuses the submission, leaving no row (not as root)", "[server][store]") {
  if (::geteuid() == 0) SKIP("root writes into a read-only folder");
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  fs::permissions(d.path / "submissions", fs::perms::owner_read | fs::perms::owner_exec);
  CHECK_THROWS_AS(s.add_submission(ada, "softmax-cpu", "f.cpp", "x"), StoreFull);
  CHECK(s.submissions_of(ada).empty());
  CHECK(fs::is_empty(d.path / "submissions"));
}

TEST_CASE("store: the policy and the audit log are kept", "[server][store]") {
  DataDir d;
  {
    Store s(d.path);
    CHECK(s.policy().max_upload_bytes == 256 * 1024);
    Policy p;
    p.per_hour = 3;
    p.opens_at = "2026-01-01T00:00:00Z";
    p.counts = "best";
    s.set_policy(p);
    s.audit("boss", "rejudge", "submission 7");
    s.audit("boss", "freeze", "");
  }
  Store s(d.path);
  CHECK(s.policy().per_hour == 3);
  CHECK(s.policy().opens_at == "2026-01-01T00:00:00Z");
  CHECK(s.policy().counts == "best");
  const auto log = s.audit_log();
  REQUIRE(log.size() == 2);
  CHECK(log[0]["action"] == "freeze");
  CHECK(log[1]["detail"] == "submission 7");
  CHECK(s.audit_log(1).size() == 1);
}

TEST_CASE("policy: the size, the window and the rate limits refuse an upload with their status", "[server][policy]") {
  DataDir d;
  Store s(d.path);
  const Account ada = *s.account_by_token(s.add_account("ada", "participant"));
  const Account boss = *s.account_by_token(s.add_account("boss", "admin"));
  const std::string now = hpcjudge::utc_now();
  Policy p;
  p.max_upload_bytes = 100;
  p.in_flight = 0;
  p.per_hour = 0;
  s.set_policy(p);
  CHECK_FALSE(check_upload(s, ada, 100, now));
  REQUIRE(check_upload(s, ada, 101, now));
  CHECK(check_upload(s, ada, 101, now)->status == 413);
  REQUIRE(check_upload(s, boss, 101, now));  // the size binds the staff too
  CHECK(check_upload(s, boss, 101, now)->status == 413);

  SECTION("the contest window") {
    p.opens_at = "2026-06-01T00:00:00Z";
    p.closes_at = "2026-06-02T00:00:00Z";
    s.set_policy(p);
    const auto early = check_upload(s, ada, 10, "2026-05-31T23:59:59Z");
    REQUIRE(early);
    CHECK(early->status == 403);
    CHECK_THAT(early->message, Catch::Matchers::ContainsSubstring("opens at 2026-06-01T00:00:00Z"));
    CHECK_FALSE(check_upload(s, ada, 10, "2026-06-01T00:00:00Z"));
    CHECK_FALSE(check_upload(s, ada, 10, "2026-06-01T23:59:59Z"));
    const auto late = check_upload(s, ada, 10, "2026-06-02T00:00:00Z");
    REQUIRE(late);
    CHECK(late->status == 403);
    CHECK_THAT(late->message, Catch::Matchers::ContainsSubstring("closed"));
    CHECK_FALSE(check_upload(s, boss, 10, "2026-06-03T00:00:00Z"));  // the staff test after the close
  }
  SECTION("one in flight") {
    p.in_flight = 1;
    s.set_policy(p);
    const int64_t id = s.add_submission(ada.id, "softmax-cpu", "f.cpp", "x");
    const auto busy = check_upload(s, ada, 10, now);
    REQUIRE(busy);
    CHECK(busy->status == 429);
    CHECK(busy->retry_after > 0);
    CHECK_FALSE(check_upload(s, boss, 10, now));
    grade_next(s, id, grade("AC", 100));
    CHECK_FALSE(check_upload(s, ada, 10, now));
  }
  SECTION("N an hour") {
    p.per_hour = 2;
    s.set_policy(p);
    s.add_submission(ada.id, "softmax-cpu", "f.cpp", "1");
    CHECK_FALSE(check_upload(s, ada, 10, now));
    s.add_submission(ada.id, "softmax-cpu", "f.cpp", "2");
    const auto many = check_upload(s, ada, 10, hpcjudge::utc_now());
    REQUIRE(many);
    CHECK(many->status == 429);
    CHECK(many->retry_after > 3500);
    CHECK(many->retry_after <= 3600);
    const std::string later = format_utc(*parse_utc(hpcjudge::utc_now()) + 3601);
    CHECK_FALSE(check_upload(s, ada, 10, later));
  }
}

TEST_CASE("policy: times, and the freeze", "[server][policy]") {
  CHECK(parse_utc("1970-01-01T00:01:40Z") == std::time_t(100));
  CHECK(parse_utc("1970-01-01T00:01:40") == std::time_t(100));
  CHECK(parse_utc("1970-01-02") == std::time_t(86400));
  CHECK_FALSE(parse_utc("soon"));
  CHECK_FALSE(parse_utc("1970-01-01T00:01:40Z trailing"));
  CHECK(format_utc(100) == "1970-01-01T00:01:40Z");
  Policy p;
  CHECK_FALSE(frozen(p, "2026-06-01T00:00:00Z"));
  p.frozen_at = "2026-06-01T12:00:00Z";
  CHECK_FALSE(frozen(p, "2026-06-01T11:59:59Z"));
  CHECK(frozen(p, "2026-06-01T12:00:00Z"));
  CHECK(frozen(p, "2026-06-03T00:00:00Z"));
}

TEST_CASE("exports: CSV, Gradescope and JUnit of a results folder", "[server][exports]") {
  DataDir d;
  Store s(d.path);
  const int64_t ada = s.account_by_token(s.add_account("ada", "participant"))->id;
  const int64_t eve = s.account_by_token(s.add_account("=HYPERLINK(\"x\")", "participant"))->id;
  const int64_t a = s.add_submission(ada, "softmax-cpu", "a.cpp", "a");
  const int64_t e = s.add_submission(eve, "softmax-cpu", "e.cpp", "e");
  grade_next(s, a, grade("AC", 80));
  grade_next(s, e, grade("WA", 0));
  const fs::path results = d.path / "results";

  const std::string csv = export_csv(results);
  CHECK(csv == hpcjudge::leaderboard_csv(hpcjudge::leaderboard_model(results)));
  CHECK_THAT(csv, Catch::Matchers::ContainsSubstring("ada"));
  CHECK_THAT(csv, Catch::Matchers::ContainsSubstring("'=HYPERLINK"));  // a formula stays text

  const json gs = export_gradescope(results);
  REQUIRE(gs.contains("ada"));
  REQUIRE(gs.contains("=HYPERLINK(\"x\")"));
  CHECK(gs["ada"]["score"] == 80.0);
  CHECK(gs["=HYPERLINK(\"x\")"]["score"] == 0.0);
  REQUIRE_FALSE(gs["ada"]["tests"].empty());
  double added = 0;
  for (const json& t : gs["ada"]["tests"]) {
    CHECK(t["name"].get<std::string>().rfind("softmax-cpu: ", 0) == 0);
    added += t["score"].get<double>();
  }
  CHECK(added == Catch::Approx(80.0));
  CHECK(gs["ada"]["extra_data"]["problems"]["softmax-cpu"]["verdict"] == "AC");
  CHECK(export_gradescope(results, "ada").size() == 1);

  const std::string junit = export_junit(results);
  CHECK(junit.rfind("<?xml", 0) == 0);
  CHECK_THAT(junit, Catch::Matchers::ContainsSubstring("<property name=\"participant\" value=\"ada\"/>"));
  CHECK_THAT(junit, Catch::Matchers::ContainsSubstring("value=\"=HYPERLINK(&quot;x&quot;)\""));
  const std::string mine = export_junit(results, "ada");
  CHECK_THAT(mine, Catch::Matchers::ContainsSubstring("hpcjudge: ada"));
  CHECK_THAT(mine, !Catch::Matchers::ContainsSubstring("HYPERLINK"));
}
