// Submitting from the browser, the viewer's submissions, and one submission's report, live until it is done.
#include <httplib.h>

#include <regex>

#include "judge/reports/text.h"
#include "sdk/problem.h"
#include "server/pages_internal.h"
#include "server/policy.h"
#include "server/report_html.h"

namespace hpcjudge::server {
namespace {

using httplib::Request;
using httplib::Response;

// The one script of the pages: polls the API with the session cookie and writes the state into the page without
// reloading it. On a submission's page (#live data-kind="one") it swaps in the report when the grade is done; on
// the list (data-kind="list") it updates each row. It sets data-done="true" on #live when nothing is left to wait
// for. Static text, so the Content-Security-Policy allows it by its hash.
constexpr const char* kLiveScript = R"((function () {
  'use strict';
  var live = document.getElementById('live');
  if (!live) return;
  function get(url) {
    return fetch(url, {credentials: 'same-origin', cache: 'no-store'}).then(function (r) {
      if (!r.ok) throw new Error(url + ': ' + r.status);
      return r;
    });
  }
  function set(root, selector, text) { var e = root.querySelector(selector); if (e) e.textContent = text; }
  function score(s) {
    if (s.state !== 'done' || typeof s.score !== 'number') return '';
    return s.score.toFixed(1) + (typeof s.plus_minus === 'number' ? ' \u00b1 ' + s.plus_minus.toFixed(1) : '');
  }
  function verdict(cell, v) {
    var e = cell && cell.querySelector('.verdict');
    if (!e || !v) return;
    e.textContent = v;
    e.className = 'verdict ' + (v === 'AC' ? 'ok' : v === 'CE' || v === 'SKIP' ? 'grey' : v === 'JE' ? 'warn' : 'bad');
  }
  function one(id) {
    get('/api/submissions/' + id).then(function (r) { return r.json(); }).then(function (s) {
      set(document, '#state', s.state);
      set(document, '#queue-position', s.queue_position > 0 ? String(s.queue_position) : '\u2014');
      if (s.state !== 'done') { setTimeout(function () { one(id); }, 1000); return; }
      return get('/submissions/' + id + '/report').then(function (r) { return r.text(); }).then(function (html) {
        document.getElementById('report').innerHTML = html;
        live.setAttribute('data-done', 'true');
      });
    }).catch(function () { setTimeout(function () { one(id); }, 3000); });
  }
  function list() {
    get('/api/submissions').then(function (r) { return r.json(); }).then(function (rows) {
      var waiting = false;
      rows.forEach(function (s) {
        var tr = document.getElementById('sub-' + s.id);
        if (!tr) return;
        set(tr, '.state', s.state);
        verdict(tr, s.verdict);
        set(tr, '.score', score(s));
        if (s.state !== 'done') waiting = true;
      });
      if (waiting) setTimeout(list, 1500); else live.setAttribute('data-done', 'true');
    }).catch(function () { setTimeout(list, 3000); });
  }
  if (live.getAttribute('data-kind') === 'one') one(live.getAttribute('data-id')); else list();
})();
)";

std::string live_block(const std::string& kind, int64_t id) {
  return "<div id=\"live\" data-kind=\"" + kind + "\" data-id=\"" + std::to_string(id) + "\"></div>\n<script>" +
         kLiveScript + "</script>\n";
}

// Drops the terminal's colour and cursor sequences (ESC [ ... letter) from the child judge's text.
std::string without_ansi(const std::string& text) {
  static const std::regex csi("\x1b\\[[0-9;?]*[A-Za-z]");
  return std::regex_replace(text, csi, "");
}

void submit(Pages& p, const Request& req, Response& res) {
  auto s = p.posted(req, res);
  if (!s) return;
  std::string slug = form_value(req, "problem");
  httplib::MultipartFormData file = req.get_file_value("file");
  if (!Registry::find(slug) || !p.ctx.serves(slug))
    return send_message(res, 400, "Not submitted", "No such problem on this server.", s->viewer());
  if (file.content.empty()) return send_message(res, 400, "Not submitted", "The file is empty.", s->viewer());
  if (auto refusal = check_upload(p.ctx.store, s->account, file.content.size(), utc_now()))
    return send_message(res, refusal->status, "Not submitted", refusal->message, s->viewer());
  int64_t id = 0;
  try {
    id = p.ctx.store.add_submission(s->account.id, slug, file.filename.empty() ? "upload" : file.filename,
                                    file.content);
  } catch (const StoreFull& e) {
    return send_message(res, 503, "Not submitted", std::string("The server cannot keep the file now: ") + e.what(),
                        s->viewer());
  }
  p.ctx.notify();
  redirect(res, "/submissions/" + std::to_string(id));
}

std::string score_of(const Submission& sub) {
  return sub.state == "done" ? score_text(sub.score, sub.plus_minus, std::nullopt) : "";
}

void list_page(Pages& p, const Session& s, Response& res) {
  std::string rows;
  bool waiting = false;
  for (const Submission& sub : p.ctx.store.submissions_of(s.account.id)) {
    waiting |= sub.state != "done";
    rows += "<tr id=\"sub-" + std::to_string(sub.id) + "\"><td><a href=\"/submissions/" + std::to_string(sub.id) +
            "\">#" + std::to_string(sub.id) + "</a></td><td>" + markup_escape(sub.problem) + "</td><td>" +
            markup_escape(sub.filename) + "</td><td>" + markup_escape(sub.round) + "</td><td class=\"state\">" +
            markup_escape(sub.state) + "</td><td class=\"v\">" + verdict_badge(sub.verdict) +
            "</td><td class=\"score\">" + score_of(sub) + "</td><td>" + markup_escape(sub.created_at) + "</td></tr>\n";
  }
  std::string body = submit_form_html(p, s, "");
  body += rows.empty() ? "<p>No submissions yet.</p>\n"
                       : "<table id=\"submissions\"><tr><th>#</th><th>problem</th><th>file</th><th>round</th>"
                         "<th>state</th><th>verdict</th><th>score</th><th>submitted</th></tr>\n" + rows + "</table>\n";
  if (waiting) body += live_block("list", 0);
  send_page(res, layout("Your submissions", s.viewer(), body));
}

// The report part of a submission's page: the report and the terminal text once done, else what it waits for.
std::string report_part(Pages& p, const Submission& sub) {
  if (sub.state != "done")
    return "<p class=\"note\">Not graded yet: the verdict appears here when it is done.</p>\n";
  std::string h;
  if (auto report = p.ctx.store.report(sub.id); report && report->is_object()) {
    h = report_html(*report);
  } else {
    h = "<section class=\"summary\"><h2>" + verdict_badge(sub.verdict) + " " + markup_escape(sub.problem) +
        "</h2><p class=\"cause\">" + markup_escape(sub.message) + "</p></section>\n";
  }
  if (auto text = p.ctx.store.report_text(sub.id); text && !text->empty())
    h += "<section><h3>The report as the terminal shows it</h3><pre class=\"terminal\" id=\"terminal\">" +
         markup_escape(without_ansi(*text)) + "</pre></section>\n";
  return h;
}

// The submission `id` where the viewer may see it (its owner, an admin); else 404 sent and none.
std::optional<Submission> visible(Pages& p, const Session& s, const std::string& id, Response& res) {
  std::optional<Submission> sub;
  try {
    sub = p.ctx.store.submission(std::stoll(id));
  } catch (const std::out_of_range&) {
  }
  if (!sub || (sub->account != s.account.id && !s.admin())) {
    send_message(res, 404, "Not found", "No such submission.", s.viewer());
    return std::nullopt;
  }
  return sub;
}

void submission_page(Pages& p, const Session& s, const Submission& sub, Response& res) {
  int position = sub.state == "done" ? 0 : p.ctx.store.queue_position(sub.id);
  std::string body = "<table class=\"meta\"><tr><th>problem</th><td><a href=\"/problems/" +
                     markup_escape(sub.problem) + "\">" + markup_escape(sub.problem) + "</a></td></tr><tr><th>file</th>"
                     "<td>" + markup_escape(sub.filename) + " (<a href=\"/api/submissions/" + std::to_string(sub.id) +
                     "/source\">source</a>)</td></tr><tr><th>participant</th><td>" + markup_escape(sub.participant) +
                     "</td></tr><tr><th>round</th><td>" + markup_escape(sub.round) + "</td></tr><tr><th>submitted</th>"
                     "<td>" + markup_escape(sub.created_at) + "</td></tr><tr><th>state</th><td id=\"state\">" +
                     markup_escape(sub.state) + "</td></tr><tr><th>queue position</th><td id=\"queue-position\">" +
                     (position > 0 ? std::to_string(position) : "—") + "</td></tr></table>\n<div id=\"report\">" +
                     report_part(p, sub) + "</div>\n";
  if (sub.state != "done") body += live_block("one", sub.id);
  send_page(res, layout("Submission #" + std::to_string(sub.id), s.viewer(), body));
}

}  // namespace

void add_submission_pages(httplib::Server& http, Pages& p) {
  http.Post("/submit", [&p](const Request& req, Response& res) { submit(p, req, res); });
  http.Get("/submissions", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res)) list_page(p, *s, res);
  });
  http.Get(R"(/submissions/(\d{1,18}))", [&p](const Request& req, Response& res) {
    if (auto s = p.signed_in(req, res))
      if (auto sub = visible(p, *s, req.matches[1], res)) submission_page(p, *s, *sub, res);
  });
  http.Get(R"(/submissions/(\d{1,18})/report)", [&p](const Request& req, Response& res) {
    auto s = p.session(req);
    if (!s) return send_message(res, 401, "Not signed in", "Sign in first.", {});
    if (auto sub = visible(p, *s, req.matches[1], res)) {
      send_page(res, report_part(p, *sub));
    }
  });
}

}  // namespace hpcjudge::server
