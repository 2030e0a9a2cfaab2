// `judge submit SLUG FILE --server URL [--token T | $HPCJUDGE_TOKEN] [--json F]`: the file uploaded to a
// `judge serve` (POST /api/submissions), its progress shown on stderr as it changes (queued with its position,
// compiling, testing, timing), then the report on stdout as a local grade prints it. Exit status as a local grade:
// 0 on AC, 1 on another verdict, 2 on a bad command line, a refused upload or a server that cannot be reached.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include <httplib.h>

#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/files.h"
#include "judge/reports/text.h"
#include "protocol/json.h"
#include "settings/settings.h"

namespace hpcjudge::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr size_t kMaxFileBytes = 64 << 20;
constexpr auto kPollEvery = std::chrono::milliseconds(400);
constexpr int kRetries = 20;  // consecutive failed polls (the server restarting) before giving up

// The server's {"error"} of a response, or its status where it sent none.
std::string server_error(const httplib::Result& r) {
  if (!r && r.error() == httplib::Error::SSLServerVerification)
    return "cannot trust the server's certificate (--ca-cert FILE names the one to trust)";
  if (!r) return "cannot reach the server: " + httplib::to_string(r.error());
  const json j = json::parse(r->body, nullptr, false);
  if (j.is_object() && j.contains("error") && j["error"].is_string()) return j["error"].get<std::string>();
  return "the server answered HTTP " + std::to_string(r->status);
}

// The progress line of a poll's answer: "queued (position 3)", "compiling", "testing", "timing".
std::string progress(const json& j) {
  const std::string state = j.value("state", "");
  if (state == "queued") return "queued (position " + std::to_string(j.value("queue_position", 0)) + ")";
  return state;
}

// Shows the progress as it changes: an updating line on a terminal, a line each otherwise.
class Progress {
 public:
  explicit Progress(int64_t id) : tty_(isatty(STDERR_FILENO)), id_(id) {}
  void show(const std::string& line) {
    if (line == last_) return;
    last_ = line;
    const std::string text = "submission " + std::to_string(id_) + ": " + terminal_safe(line);
    if (tty_) std::fprintf(stderr, "\r\x1b[K%s", text.c_str());
    else std::fprintf(stderr, "%s\n", text.c_str());
  }
  ~Progress() {
    if (tty_ && !last_.empty()) std::fprintf(stderr, "\n");
  }

 private:
  bool tty_;
  int64_t id_;
  std::string last_;
};

// Uploads the file: the submission's id, or a UsageError with the server's refusal.
int64_t upload(httplib::Client& cli, const std::string& slug, const fs::path& file, const std::string& bytes) {
  const httplib::MultipartFormDataItems items = {{"problem", slug, "", ""},
                                                 {"file", bytes, file.filename().string(), "text/plain"}};
  const httplib::Result r = cli.Post("/api/submissions", items);
  if (!r) throw UsageError(terminal_safe(server_error(r)));
  if (r->status != 202) throw UsageError("the server refused the submission: " + terminal_safe(server_error(r)));
  const json j = json::parse(r->body, nullptr, false);
  if (!j.is_object() || !j.contains("id") || !j["id"].is_number_integer())
    throw UsageError("the server's answer has no submission id");
  return j["id"].get<int64_t>();
}

// Polls the submission until it is done: its last answer (the report).
json wait_for_report(httplib::Client& cli, int64_t id) {
  Progress shown(id);
  const std::string path = "/api/submissions/" + std::to_string(id);
  for (int failed = 0;;) {
    const httplib::Result r = cli.Get(path);
    json j = r && r->status == 200 ? json::parse(r->body, nullptr, false) : json(json::value_t::discarded);
    if (!j.is_object()) {
      if (r && (r->status == 401 || r->status == 404)) throw UsageError(terminal_safe(server_error(r)));
      if (++failed > kRetries) throw UsageError("lost the server while waiting: " + terminal_safe(server_error(r)));
    } else {
      failed = 0;
      if (j.value("state", "") == "done") return j;
      shown.show(progress(j));
    }
    std::this_thread::sleep_for(kPollEvery);
  }
}

std::string token_or_environment(const std::string& token) {
  if (!token.empty()) return token;
  if (auto t = settings::Settings::at_start().get(settings::kToken); t && !t->empty()) return *t;
  throw UsageError("no token: give --token T or set HPCJUDGE_TOKEN (judge serve --add-participant prints one)");
}

}  // namespace

int judge_submit(int argc, char** argv, const Paths&, GradingFlags&) {
  CLI::App app{"Submit a file to a judge server (judge serve) and wait for its grade: the report a local grade "
               "prints, made on the server's machine.",
               "judge submit"};
  std::string slug, url, token, json_out, ca_cert;
  fs::path file;
  app.add_option("slug", slug, "the problem")->required();
  app.add_option("file", file, "the file to submit")->required();
  app.add_option("--server", url, "the server, http://HOST:PORT or https://HOST:PORT")->required();
  app.add_option("--token", token, "your token (default: $HPCJUDGE_TOKEN)");
  app.add_option("--json", json_out, "also write the report as JSON to this file");
  app.add_option("--ca-cert", ca_cert, "trust this certificate (PEM) for an HTTPS server's own");
  if (auto rc = parse(app, argc, argv)) return *rc;
  token = token_or_environment(token);
  std::string bytes;
  try {
    bytes = read_followed_file(file, kMaxFileBytes);
    if (!json_out.empty()) check_can_write(json_out);
  } catch (const FileRefused& e) {
    throw UsageError(terminal_safe(e.what()));
  }
  httplib::Client cli(url);
  if (!cli.is_valid()) throw UsageError("--server: not a URL: " + terminal_safe(url));
  cli.set_bearer_token_auth(token);
  cli.set_keep_alive(true);
  cli.set_tcp_nodelay(true);  // each poll answered at once, not after the delayed ACK of the one before
  cli.set_connection_timeout(10);
  cli.set_read_timeout(60);
  if (!ca_cert.empty()) cli.set_ca_cert_path(ca_cert.c_str());
  const int64_t id = upload(cli, slug, file, bytes);
  json report = wait_for_report(cli, id);
  const std::string text = report.value("text", "");
  if (text.empty())  // a grade with no terminal report (the judge's own fault: JE after a lost job)
    std::printf("%s: %s\n", terminal_safe(report.value("verdict", "JE")).c_str(),
                terminal_safe(report.value("message", "")).c_str());
  std::fputs(terminal_text(text).c_str(), stdout);
  std::fflush(stdout);
  if (!json_out.empty()) {
    for (const char* server_only : {"text", "state", "queue_position"}) report.erase(server_only);
    write_file_atomically(json_out, report.dump(2, ' ', false, json::error_handler_t::replace) + "\n");
  }
  return report.value("verdict", "") == "AC" ? 0 : 1;
}

}  // namespace hpcjudge::cli
