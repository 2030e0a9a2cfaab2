#include "server/server.h"

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <thread>

#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/api.h"
#include "server/auth.h"
#include "server/pages.h"
#include "server/standings.h"
#include "server/worker_api.h"
#include "server/workers.h"

namespace hpcjudge::server {

namespace {

// Set by SIGINT or SIGTERM. A flag, not a blocked signal waited for: a signal mask or an ignored signal would be
// inherited by every child judge the workers start.
volatile std::sig_atomic_t g_stop = 0;
void on_stop_signal(int) { g_stop = 1; }

void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

// Enough threads that the pollers (each keep-alive connection holds a thread between its requests, up to the
// keep-alive timeout) never starve an upload or a worker's post.
constexpr size_t kHttpThreads = 64;
// What a multipart form adds to the file it carries (boundaries, the problem field, part headers).
constexpr size_t kFormSlack = 64 * 1024;

std::unique_ptr<httplib::Server> make_http(const ServeOptions& opt) {
  if (opt.tls_cert.empty() != opt.tls_key.empty())
    throw std::invalid_argument("--tls-cert and --tls-key go together");
  if (opt.tls_cert.empty()) return std::make_unique<httplib::Server>();
  auto https = std::make_unique<httplib::SSLServer>(opt.tls_cert.c_str(), opt.tls_key.c_str());
  if (!https->is_valid())
    throw std::invalid_argument("cannot use " + opt.tls_cert.string() + " and " + opt.tls_key.string() +
                                " as the TLS certificate and key");
  return https;
}

// Limits (a request's size and time, so a slow or large client cannot hold a thread), the threads, the headers
// every response carries, and an error body where a response has none (the API's in JSON).
void configure(httplib::Server& http, Context& ctx) {
  http.set_payload_max_length(static_cast<size_t>(ctx.store.policy().max_upload_bytes) + kFormSlack);
  http.set_read_timeout(ctx.opt.request_timeout_s, 0);
  http.set_write_timeout(ctx.opt.request_timeout_s, 0);
  http.set_keep_alive_timeout(5);
  // A response goes out at once: with Nagle's algorithm a kept-alive client's poll waited for the delayed ACK of the
  // previous one, 40 ms a request whatever the load (bench/results/server-*.md).
  http.set_tcp_nodelay(true);
  http.new_task_queue = [] { return new httplib::ThreadPool(kHttpThreads); };
  http.set_default_headers({{"X-Content-Type-Options", "nosniff"}, {"Referrer-Policy", "no-referrer"}});
  http.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req, httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    const std::string what = res.status == 413   ? "the request is larger than this server accepts"
                             : res.status == 404 ? "not found"
                                                 : "HTTP status " + std::to_string(res.status);
    if (req.path.rfind("/api/", 0) == 0)
      json_error(res, res.status, what);
    else
      res.set_content(what + "\n", "text/plain; charset=utf-8");
    return httplib::Server::HandlerResponse::Handled;
  }));
  http.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr ep) {
    std::string what = "unknown error";
    try {
      std::rethrow_exception(ep);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
    }
    std::fprintf(stderr, "judge serve: a request failed: %s\n", terminal_safe(what).c_str());
    json_error(res, 500, "the server failed on this request (its log says why)");
  });
}

// Until a stop signal: the frozen leaderboard's copy kept once a second, then the server stopped.
void watch(httplib::Server& http, Context& ctx) {
  while (!g_stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    static int ticks = 0;
    if (++ticks % 5 != 0) continue;
    try {
      keep_frozen_copy(ctx);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "judge serve: the frozen leaderboard: %s\n", terminal_safe(e.what()).c_str());
    }
  }
  http.stop();
}

// The slugs this server grades: --problems, else every registered problem.
std::vector<std::string> served_problems(const ServeOptions& opt) {
  if (!opt.problems.empty()) return opt.problems;
  std::vector<std::string> slugs;
  for (const Problem* p : Registry::all()) slugs.push_back(p->info().slug);
  return slugs;
}

}  // namespace

std::pair<std::string, int> parse_listen(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) throw std::invalid_argument("--listen: HOST:PORT, not " + listen);
  std::string host = listen.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = listen.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535)
    throw std::invalid_argument("--listen: the port is a number from 0 to 65535, not " + port);
  return {host, std::stoi(port)};
}

std::string make_first_admin(Store& store) {
  for (const Account& a : store.accounts())
    if (a.role == "admin") return "";
  for (const char* name : {"admin", "admin (staff)"}) {
    try {
      return store.add_account(name, "admin");
    } catch (const std::invalid_argument&) {  // a participant took the name: the next
    }
  }
  throw std::runtime_error("cannot make the admin account: the names admin and 'admin (staff)' are taken");
}

int run_server(const Paths& paths, const ServeOptions& opt) {
  Store store(opt.data);
  if (const int requeued = store.recover_after_restart())
    std::printf("%d job(s) held when the server last stopped: queued again\n", requeued);
  if (const std::string token = make_first_admin(store); !token.empty())
    std::printf("admin token (shown once): %s\n", token.c_str());
  store.set_problems(served_problems(opt));
  Context ctx{opt, paths, store, {}, {}};
  std::unique_ptr<httplib::Server> http = make_http(opt);
  configure(*http, ctx);
  add_api(*http, ctx);
  add_worker_api(*http, ctx);
  add_pages(*http, ctx);
  const auto [host, port] = parse_listen(opt.listen);
  const int bound = port == 0 ? http->bind_to_any_port(host) : (http->bind_to_port(host, port) ? port : -1);
  if (bound < 0) {
    std::fprintf(stderr, "judge serve: cannot listen on %s (in use, or not this machine's address)\n",
                 terminal_safe(opt.listen).c_str());
    return 1;
  }
  const bool v6 = host.find(':') != std::string::npos;
  std::printf("serving on %s://%s%s%s:%d\n", opt.tls_cert.empty() ? "http" : "https", v6 ? "[" : "",
              host.c_str(), v6 ? "]" : "", bound);
  std::fflush(stdout);
  catch_stop_signals();
  start_workers(ctx);
  std::thread watcher([&] { watch(*http, ctx); });
  http->listen_after_bind();
  g_stop = 1;
  watcher.join();
  stop_workers();
  std::printf("stopped\n");
  return 0;
}

}  // namespace hpcjudge::server
