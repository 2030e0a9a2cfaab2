#include "judge/classroom/leaderboard_html.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string_view>
#include <vector>

#include "judge/reports/tolerant_json.h"
#include "judge/reports/text.h"

namespace hpcjudge {

namespace {

using nlohmann::json;

// ---- text -----------------------------------------------------------------

// For text content and attribute values alike.
std::string esc(std::string_view s) { return markup_escape(s); }

// ---- reading the model, tolerantly (judge/reports/tolerant_json.h) ----------

using tolerant::field;
using tolerant::num;
using tolerant::str;

// ---- numbers ---------------------------------------------------------------

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// Scores and points: one decimal, without a trailing ".0".
std::string fmt_points(double v) {
  std::string s = fmt("%.1f", v);
  if (s == "-0.0") s = "0.0";
  if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) s.resize(s.size() - 2);
  return s;
}

// Exact, for data-sort.
std::string fmt_exact(double v) { return fmt("%.17g", v); }

std::string fmt_coord(double v) { return fmt("%.1f", v); }

std::string fmt_decade(int k) {
  static const char* const kUnits[] = {"ns", "\xC2\xB5s", "ms", "s"};
  if (k < -9 || k > 3) return "1e" + std::to_string(k) + " s";
  const int unit = k >= 0 ? 3 : (k + 9) / 3;  // -9..-7 ns, -6..-4 µs, -3..-1 ms
  const int exp = k >= 0 ? k : (k + 9) % 3;
  static const char* const kMant[] = {"1", "10", "100", "1000"};
  return std::string(kMant[exp]) + " " + kUnits[unit];
}

// ---- verdicts ----------------------------------------------------------------

const char* verdict_class(const std::string& v) {
  if (v == "AC") return "v v-ac";
  if (v == "WA" || v == "RE" || v == "TLE" || v == "MLE" || v == "CE") return "v v-bad";
  if (v == "SKIP") return "v v-skip";
  if (v == "FAIL") return "v v-fail";
  if (v == "JE") return "v v-je";
  return "v v-other";
}

std::string verdict_badge(const std::string& v) {
  return std::string("<span class=\"") + verdict_class(v) + "\">" + esc(v.empty() ? "?" : v) + "</span>";
}

// A result of the judge's own fault (JE): never a verdict on the submission, never points.
bool judge_error(const json& r) { return str(r, "verdict") == "JE"; }

// A score as shown: "71.1 ± 12.4", or "71.1" without an interval.
std::string score_shown(const json& r, double score) {
  std::string s = fmt_points(score);
  if (const auto pm = num(r, "plus_minus")) s += " \xC2\xB1 " + fmt("%.1f", *pm);
  return s;
}

// The marks beside a score: noisy (the cause in its title) and emulated.
std::string marks_html(const json& r) {
  std::string h;
  if (field(r, "noisy") == true)
    h += " <span class=\"mark mark-noisy\" title=\"" +
         esc("the machine was noisy: " + str(r, "noise") + " (judge batch --regrade-noisy grades it again)") +
         "\">noisy</span>";
  if (field(r, "emulated") == true)
    h += " <span class=\"mark mark-emulated\" title=\"the CUDA code ran under CPU emulation: correctness only, no "
         "timing\">emulated</span>";
  return h;
}

std::string pretty_time(const std::string& iso) {
  // "2026-11-30T06:10:00Z" -> "2026-11-30 06:10:00 UTC"; anything else as given.
  if (iso.size() == 20 && iso[10] == 'T' && iso[19] == 'Z') return iso.substr(0, 10) + " " + iso.substr(11, 8) + " UTC";
  return iso;
}

// ---- the page's fixed parts ---------------------------------------------------

// First script in <head>: counts every error from the very start of the page.
constexpr const char* kHeadScript = R"JS(
window.__hpcjudgeErrors = 0;
window.__hpcjudgeErrorLog = [];
(function () {
  function note(m) {
    window.__hpcjudgeErrors++;
    if (window.__hpcjudgeErrorLog.length < 20) window.__hpcjudgeErrorLog.push(String(m));
  }
  window.addEventListener('error', function (e) {
    var t = e.target;
    note(e.message || (t && (t.src || t.href) ? 'failed to load ' + (t.src || t.href) : 'error'));
  }, true);
  window.addEventListener('unhandledrejection', function (e) { note('unhandled rejection: ' + e.reason); });
  document.addEventListener('securitypolicyviolation', function (e) { note('blocked ' + e.blockedURI); });
  var original = console.error;
  console.error = function () {
    note(Array.prototype.join.call(arguments, ' '));
    return original.apply(console, arguments);
  };
})();
)JS";

constexpr const char* kStyle = R"CSS(
:root { --fg: #1f2328; --muted: #656d76; --line: #d0d7de; --head: #f6f8fa; --accent: #0969da; }
* { box-sizing: border-box; }
body { margin: 0; padding: 24px 32px 48px; color: var(--fg); background: #fff;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Helvetica Neue", Arial,
        "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 36px 0 4px; padding-top: 12px; border-top: 1px solid var(--line); }
h2 small, h3 small { font-weight: 400; color: var(--muted); font-size: 13px; }
h3 { font-size: 14px; margin: 18px 0 4px; }
a { color: var(--accent); }
.meta { color: var(--muted); margin: 0 0 6px; }
.machines { margin: 0 0 6px; }
.machines ul { margin: 2px 0 0; padding-left: 22px; }
.scroll { width: fit-content; max-width: 100%; overflow-x: auto; border: 1px solid var(--line); border-radius: 6px; margin: 16px 0 6px; }
table.board { border-collapse: collapse; font-variant-numeric: tabular-nums; }
.board th, .board td { padding: 6px 12px; border-bottom: 1px solid var(--line); text-align: left; white-space: nowrap; }
.board tbody tr:last-child td { border-bottom: 0; }
.board thead th { background: var(--head); vertical-align: bottom; }
.board th button { all: unset; cursor: pointer; display: block; font-weight: 600; }
.board th button:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.board th button:hover { color: var(--accent); }
.board th small { display: block; font-weight: 400; color: var(--muted); font-size: 11px; }
.board th .dir { display: inline-block; min-width: 1em; margin-left: 3px; color: var(--accent); }
.board th[aria-sort] { background: #eaeef2; }
.board tbody tr:hover { background: #f6f8fa; }
.board .num { text-align: right; }
.board td.rank { font-weight: 600; }
.board td.total b { font-weight: 600; }
.board .of { color: var(--muted); }
.board td.participant { font-weight: 500; max-width: 28em; overflow: hidden; text-overflow: ellipsis; }
.missing { color: #8c959f; }
.board small.why, .board small.note { display: block; color: var(--muted); font-size: 11.5px; max-width: 24em;
  white-space: normal; overflow-wrap: anywhere; }
.board small.note { color: #9a6700; }
.v { display: inline-block; min-width: 2.9em; padding: 0 6px; border-radius: 4px; font-weight: 600; font-size: 12px;
  text-align: center; line-height: 18px; }
.v-ac { background: #dafbe1; color: #116329; }
.v-bad { background: #ffebe9; color: #b3261e; }
.v-skip { background: #eaeef2; color: #57606a; }
.v-fail { background: #f3e8ff; color: #6e2fc2; }
.v-other { background: #fff8c5; color: #7d4e00; }
.v-je { background: #eaeef2; color: #1f2328; border: 1px dashed #8c959f; }
.mark { display: inline-block; padding: 0 5px; border-radius: 4px; font-size: 11px; line-height: 16px; }
.mark-noisy { background: #fff1e5; color: #9a3f00; } .mark-emulated { background: #ddf4ff; color: #0a3069; }
.board td.unranked { font-weight: 400; color: var(--muted); }
.hint, .legend, .absent, footer { color: var(--muted); font-size: 12.5px; }
.legend { margin: 6px 0 0; }
.sw { display: inline-block; width: 14px; height: 10px; margin: 0 4px 0 10px; vertical-align: baseline; }
.sw-fast { background: #2da44e; } .sw-mid { background: #54aeff; } .sw-slow { background: #fb8f44; }
.sw-base { border-left: 2px dashed #cf222e; width: 2px; } .sw-ref { border-left: 2px solid #6639ba; width: 2px; }
nav.problems a { margin-right: 12px; }
.notiming { margin: 10px 0; }
.notiming .msg { display: block; color: var(--muted); font-size: 12.5px; margin: 2px 0 0 1px; white-space: pre-wrap;
  word-break: break-word; }
.who { font-weight: 600; }
svg.chart { display: block; max-width: 100%; height: auto; margin: 2px 0 8px; }
.chart text { font-size: 11px; fill: #1f2328; }
.chart .tick { fill: #656d76; font-size: 10px; }
.chart .grid { stroke: #e4e7eb; stroke-width: 1; }
.chart .sizes { fill: #656d76; font-size: 10px; }
.chart .none { fill: #8c959f; font-style: italic; }
.chart .bar-fast { fill: #2da44e; } .chart .bar-mid { fill: #54aeff; } .chart .bar-slow { fill: #fb8f44; }
.chart .bar-plain { fill: #afb8c1; }
.chart .ref { stroke-width: 2; }
.chart .ref-base { stroke: #cf222e; stroke-dasharray: 4 3; }
.chart .ref-fast { stroke: #6639ba; }
.chart .reflabel { font-size: 9px; }
.chart .reflabel-base { fill: #cf222e; } .chart .reflabel-fast { fill: #6639ba; }
footer { margin-top: 40px; border-top: 1px solid var(--line); padding-top: 8px; }
#selftest-result { background: var(--head); padding: 8px; border: 1px solid var(--line); }
)CSS";

// The sorting, and the ?selftest= hook.
constexpr const char* kMainScript = R"JS(
(function () {
  'use strict';
  var table = document.getElementById('leaderboard');
  var tbody = table.tBodies[0];
  var heads = Array.prototype.slice.call(table.tHead.rows[0].cells);
  var collator = new Intl.Collator('en', {numeric: true, sensitivity: 'base'});
  var state = {col: 'rank', dir: 1};

  function key(row, idx, type) {
    var cell = row.cells[idx];
    if (!cell) return null;
    if (type === 'text') return cell.textContent;
    var s = cell.getAttribute('data-sort');
    if (s === null || s === '') return null;
    var v = Number(s);
    return isNaN(v) ? null : v;
  }
  function compare(a, b, type) {  // a missing value is the lowest
    if (a === null || b === null) return a === null ? (b === null ? 0 : -1) : 1;
    if (type === 'text') {
      var c = collator.compare(a, b);
      return c !== 0 ? c : (a < b ? -1 : a > b ? 1 : 0);
    }
    return a < b ? -1 : a > b ? 1 : 0;
  }
  function sortBy(th, dir) {
    var idx = th.cellIndex, type = th.getAttribute('data-type');
    var rows = Array.prototype.map.call(tbody.rows, function (r) {
      return {row: r, key: key(r, idx, type), index: Number(r.getAttribute('data-index'))};
    });
    // Ties keep the model's (ranked) order, whichever the direction.
    rows.sort(function (a, b) { return dir * compare(a.key, b.key, type) || a.index - b.index; });
    rows.forEach(function (x) { tbody.appendChild(x.row); });
    heads.forEach(function (h) {
      var d = h.querySelector('.dir');
      if (h === th) {
        h.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
        if (d) d.textContent = dir > 0 ? '\u25B2' : '\u25BC';
      } else {
        h.removeAttribute('aria-sort');
        if (d) d.textContent = '';
      }
    });
    state.col = th.getAttribute('data-col');
    state.dir = dir;
  }
  heads.forEach(function (th) {
    if (!th.hasAttribute('data-col')) return;
    th.addEventListener('click', function () {
      var col = th.getAttribute('data-col');
      var dir = col === state.col ? -state.dir : (th.getAttribute('data-first') === 'asc' ? 1 : -1);
      sortBy(th, dir);
    });
  });

  var selftest = new URLSearchParams(window.location.search).get('selftest');
  if (selftest === null) return;
  window.addEventListener('load', function () {
    var th = heads.filter(function (h) { return h.getAttribute('data-col') === selftest; })[0];
    if (th) {
      var target = th.querySelector('button') || th;
      target.dispatchEvent(new MouseEvent('click', {bubbles: true, cancelable: true, view: window}));
    } else {
      console.error('selftest: no column "' + selftest + '"');
    }
    var names = Array.prototype.map.call(tbody.rows, function (r) {
      var n = r.querySelector('.lb-name');
      return n ? n.textContent : '';
    });
    var lines = ['order: ' + names.join('|'), 'errors: ' + window.__hpcjudgeErrors];
    window.__hpcjudgeErrorLog.forEach(function (m) { lines.push('error: ' + m); });
    var pre = document.createElement('pre');
    pre.id = 'selftest-result';
    pre.textContent = lines.join('\n') + '\n';
    document.body.appendChild(pre);
  });
})();
)JS";

// ---- the charts -------------------------------------------------------------

struct Case {
  std::string name, sizes;
  std::optional<double> median, baseline, fast;
  // The case's share of the performance points as the score takes it, and its time over the fast reference's,
  // from the ratios to the references timed beside it (judge/classroom/leaderboard.h).
  std::optional<double> share, ratio_to_fast;
};

// A bar's colour: the score's own measure of the case (its share of the points), not its time against the
// references' medians, which may come from another run.
const char* bar_class(const Case& c) {
  if (!c.share) return "bar-plain";
  if (*c.share >= 1) return "bar-fast";
  return *c.share > 0 ? "bar-mid" : "bar-slow";
}

std::vector<Case> cases_of(const json& result) {
  std::vector<Case> out;
  const json& bench = field(result, "bench");
  if (!bench.is_array()) return out;
  for (const json& b : bench) {
    Case c{str(b, "name"), str(b, "sizes"), num(b, "median_s"), num(b, "baseline_s"), num(b, "fast_s"),
           num(b, "share"), num(b, "ratio_to_fast")};
    for (auto* v : {&c.median, &c.baseline, &c.fast})
      if (*v && !(**v > 0)) v->reset();
    out.push_back(std::move(c));
  }
  return out;
}

bool has_timing(const std::vector<Case>& cases) {
  return std::any_of(cases.begin(), cases.end(), [](const Case& c) { return c.median.has_value(); });
}

struct Axis {
  int lo = -6, hi = -3;  // decades of seconds
  void fit(const std::vector<double>& values) {
    if (values.empty()) return;
    const auto [mn, mx] = std::minmax_element(values.begin(), values.end());
    lo = static_cast<int>(std::floor(std::log10(*mn)));
    hi = static_cast<int>(std::ceil(std::log10(*mx)));
    if (hi <= lo) hi = lo + 1;
  }
};

constexpr double kLabelW = 190, kPlotW = 540, kValueW = 100, kTop = 22, kRowH = 46;

std::string chart_svg(const std::string& who, const std::vector<Case>& cases, const Axis& axis) {
  const double height = kTop + kRowH * static_cast<double>(cases.size()) + 4;
  const double width = kLabelW + kPlotW + kValueW;
  auto x_of = [&](double s) {
    const double t = (std::log10(s) - axis.lo) / (axis.hi - axis.lo);
    return kLabelW + std::clamp(t, 0.0, 1.0) * kPlotW;
  };
  auto label_x = [&](double x) { return std::clamp(x, kLabelW + 42, kLabelW + kPlotW - 42); };

  std::string o;
  o += "<svg class=\"chart\" viewBox=\"0 0 " + fmt_coord(width) + " " +
       fmt_coord(height) + "\" width=\"" + fmt_coord(width) + "\" height=\"" + fmt_coord(height) +
       "\" role=\"img\" aria-label=\"" + esc(who) + ": median time per performance case, log scale\">\n";
  for (int k = axis.lo; k <= axis.hi; ++k) {
    const double x = kLabelW + kPlotW * (k - axis.lo) / (axis.hi - axis.lo);
    o += "<line class=\"grid\" x1=\"" + fmt_coord(x) + "\" y1=\"" + fmt_coord(kTop - 5) + "\" x2=\"" + fmt_coord(x) +
         "\" y2=\"" + fmt_coord(height - 2) + "\"/>";
    o += "<text class=\"tick\" x=\"" + fmt_coord(x) + "\" y=\"12\" text-anchor=\"middle\">" + esc(fmt_decade(k)) +
         "</text>\n";
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const double y0 = kTop + kRowH * static_cast<double>(i);
    std::string tip = c.name + (c.sizes.empty() ? "" : " (" + c.sizes + ")") + ": median " +
                      (c.median ? format_seconds(*c.median, TimeStyle::Short) : "none");
    if (c.baseline) tip += "; baseline " + format_seconds(*c.baseline, TimeStyle::Short);
    if (c.fast) tip += "; fast reference " + format_seconds(*c.fast, TimeStyle::Short);
    if (c.ratio_to_fast) tip += "; " + fmt("%.3g", *c.ratio_to_fast) + "\xC3\x97 the fast reference's time, side by side";
    if (c.share) tip += "; " + fmt("%.0f", 100 * *c.share) + "% of the case's performance points";
    o += "<g class=\"case\"><title>" + esc(tip) + "</title>";
    o += "<text x=\"" + fmt_coord(kLabelW - 8) + "\" y=\"" + fmt_coord(y0 + 22) + "\" text-anchor=\"end\">" +
         esc(truncate_chars(c.name, 26)) + "</text>";
    o += "<text class=\"sizes\" x=\"" + fmt_coord(kLabelW - 8) + "\" y=\"" + fmt_coord(y0 + 35) +
         "\" text-anchor=\"end\">" + esc(truncate_chars(c.sizes, 32)) + "</text>";
    if (c.median) {
      const char* cls = bar_class(c);
      const double w = std::max(2.0, x_of(*c.median) - kLabelW);
      o += "<rect class=\"" + std::string(cls) + "\" x=\"" + fmt_coord(kLabelW) + "\" y=\"" + fmt_coord(y0 + 15) +
           "\" width=\"" + fmt_coord(w) + "\" height=\"16\" rx=\"2\"/>";
      o += "<text x=\"" + fmt_coord(kLabelW + kPlotW + 8) + "\" y=\"" + fmt_coord(y0 + 27) + "\">" +
           esc(format_seconds(*c.median, TimeStyle::Short)) + "</text>";
    } else {
      o += "<text class=\"none\" x=\"" + fmt_coord(kLabelW + 6) + "\" y=\"" + fmt_coord(y0 + 27) +
           "\">no time</text>";
    }
    // A reference time: a vertical line across the bar, labelled above (baseline) or below (fast).
    const auto reference = [&](double t, const std::string& kind, const std::string& label, double label_y) {
      const double x = x_of(t);
      o += "<line class=\"ref ref-" + kind + "\" x1=\"" + fmt_coord(x) + "\" y1=\"" + fmt_coord(y0 + 11) +
           "\" x2=\"" + fmt_coord(x) + "\" y2=\"" + fmt_coord(y0 + 35) + "\"/>";
      o += "<text class=\"reflabel reflabel-" + kind + "\" x=\"" + fmt_coord(label_x(x)) + "\" y=\"" +
           fmt_coord(y0 + label_y) + "\" text-anchor=\"middle\">" + label + " " + esc(format_seconds(t, TimeStyle::Short)) + "</text>";
    };
    if (c.baseline) reference(*c.baseline, "base", "baseline", 9);
    if (c.fast) reference(*c.fast, "fast", "fast", 44);
    o += "</g>\n";
  }
  o += "</svg>\n";
  return o;
}

// The model, for scripts and tools: no '<', '>' or '&' inside, so nothing in a
// string can end the <script> element or open a comment in it.
std::string embedded_json(const json& model) {
  const std::string dumped = model.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(dumped.size() + 64);
  for (char c : dumped) {
    if (c == '<') out += "\\u003c";
    else if (c == '>') out += "\\u003e";
    else if (c == '&') out += "\\u0026";
    else out += c;
  }
  return out;
}

// ---- the page, part by part ---------------------------------------------------

struct BoardProblem {
  std::string slug, title, kind;
  std::optional<double> max;
};

// The model's parts the page is made of, read tolerantly.
struct Board {
  std::string title, generated;
  std::vector<BoardProblem> problems;
  std::vector<const json*> participants;
  std::vector<std::string> machines;
  double max = 0;  // the sum of the problems' maximums
};

Board read_board(const json& model) {
  Board b;
  b.title = str(model, "title").empty() ? "hpcjudge leaderboard" : str(model, "title");
  b.generated = str(model, "generated_at");
  if (const json& ps = field(model, "problems"); ps.is_array())
    for (const json& p : ps) b.problems.push_back({str(p, "slug"), str(p, "title"), str(p, "kind"), num(p, "max")});
  if (const json& ps = field(model, "participants"); ps.is_array())
    for (const json& p : ps) b.participants.push_back(&p);
  if (const json& ms = field(model, "machines"); ms.is_array())
    for (const json& m : ms)
      if (m.is_string()) b.machines.push_back(m.get<std::string>());
  for (const BoardProblem& p : b.problems) b.max += p.max.value_or(0);
  return b;
}

// <!DOCTYPE> to <body>: the policy that keeps the page off the network, the error counter, the style.
std::string page_head(const Board& b) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'unsafe-inline'; "
       "style-src 'unsafe-inline'; img-src data:\">\n";
  h += "<script>" + std::string(kHeadScript) + "</script>\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<meta name=\"generator\" content=\"hpcjudge\">\n";
  h += "<title>" + esc(b.title) + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n";
  return h;
}

// The title, when it was made, how many took part, and the machines it was graded on.
std::string page_header(const Board& b) {
  std::string h = "<header>\n<h1>" + esc(b.title) + "</h1>\n<p class=\"meta\">";
  if (!b.generated.empty())
    h += "Generated <time datetime=\"" + esc(b.generated) + "\">" + esc(pretty_time(b.generated)) + "</time> \xC2\xB7 ";
  const size_t people = b.participants.size(), problems = b.problems.size();
  h += std::to_string(people) + (people == 1 ? " participant" : " participants") + " \xC2\xB7 " +
       std::to_string(problems) + (problems == 1 ? " problem" : " problems") + "</p>\n";
  h += "<div class=\"machines\">Graded on";
  if (b.machines.empty()) {
    h += ": <span class=\"missing\">unknown machine</span></div>\n";
  } else if (b.machines.size() == 1) {
    h += ": <span class=\"machine\">" + esc(b.machines[0]) + "</span></div>\n";
  } else {
    h += " " + std::to_string(b.machines.size()) + " machines:<ul>";
    for (const std::string& m : b.machines) h += "<li class=\"machine\">" + esc(m) + "</li>";
    h += "</ul></div>\n";
  }
  h += "</header>\n<main>\n";
  return h;
}

// The table's opening and its header row: rank, participant, total, a column per problem, each a sort button.
std::string table_head(const Board& b) {
  std::string h = "<div class=\"scroll\">\n<table id=\"leaderboard\" class=\"board\">\n<thead><tr>";
  h += "<th class=\"num\" data-col=\"rank\" data-type=\"num\" data-first=\"asc\" aria-sort=\"ascending\">"
       "<button type=\"button\" title=\"Sort by rank\">#<span class=\"dir\" aria-hidden=\"true\">\xE2\x96\xB2"
       "</span></button></th>";
  h += "<th data-col=\"participant\" data-type=\"text\" data-first=\"asc\"><button type=\"button\" "
       "title=\"Sort by name\">Participant<span class=\"dir\" aria-hidden=\"true\"></span></button></th>";
  h += "<th class=\"num\" data-col=\"total\" data-type=\"num\" data-first=\"desc\"><button type=\"button\" "
       "title=\"Sort by total score\">Total<span class=\"dir\" aria-hidden=\"true\"></span><small>of " +
       esc(fmt_points(b.max)) + "</small></button></th>";
  for (const BoardProblem& p : b.problems) {
    h += "<th data-col=\"" + esc(p.slug) + "\" data-type=\"num\" data-first=\"desc\" title=\"" +
         esc(p.title.empty() ? p.slug : p.title) + "\"><button type=\"button\">" + esc(p.slug) +
         "<span class=\"dir\" aria-hidden=\"true\"></span><small>" + esc(p.kind) +
         (p.kind.empty() ? "" : " \xC2\xB7 ") + "of " + esc(p.max ? fmt_points(*p.max) : "?") + "</small></button></th>";
  }
  h += "</tr></thead>\n<tbody>\n";
  return h;
}

// The rank cell of the i-th participant: the rank, or why unranked (sorted after every rank, a judge error
// before no submission, whichever the model's order).
std::string rank_cell(const json& p, size_t i, size_t participants) {
  if (const std::string unranked = str(p, "unranked"); !unranked.empty()) {
    const double after = static_cast<double>(participants) + (unranked == "judge error" ? 1 : 2);
    return "<td class=\"num rank unranked\" data-sort=\"" + fmt_exact(after) + "\">" + esc(unranked) + "</td>";
  }
  const double rank = num(p, "rank").value_or(static_cast<double>(i + 1));
  return "<td class=\"num rank\" data-sort=\"" + fmt_exact(rank) + "\">" + esc(fmt_points(rank)) + "</td>";
}

// The participant's name, with why unranked and the pack's note beneath.
std::string name_cell(const json& p) {
  std::string note = str(p, "unranked_why");
  if (const std::string pack = str(p, "note"); !pack.empty()) note += (note.empty() ? "" : "; ") + pack;
  return "<td class=\"participant\"><span class=\"lb-name\">" + esc(str(p, "name")) + "</span>" +
         (note.empty() ? "" : "<small class=\"note\">" + esc(truncate_chars(note, 300)) + "</small>") + "</td>";
}

std::string total_cell(const json& p, double board_max) {
  const auto total = num(p, "total");
  const auto pmax = num(p, "max");
  return "<td class=\"num total\" data-sort=\"" + (total ? fmt_exact(*total) : "") + "\"><b>" +
         (total ? esc(fmt_points(*total)) : "\xE2\x80\x94") + "</b> <span class=\"of\">/ " +
         esc(fmt_points(pmax.value_or(board_max))) + "</span></td>";
}

// A result's tooltip: verdict and score, noise, message, when and where it was graded.
std::string result_tip(const json& r, const BoardProblem& pr) {
  const auto score = num(r, "score");
  std::string tip = str(r, "verdict");
  if (score) {
    tip += ' ';  // appended apart: `" " + std::string` sets off g++ 12's false -Wrestrict
    tip += score_shown(r, *score) + " / " + fmt_points(num(r, "max").value_or(pr.max.value_or(0)));
  }
  if (field(r, "noisy") == true) tip += "\nnoisy: " + str(r, "noise");
  if (const std::string m = str(r, "message"); !m.empty()) tip += "\n" + truncate_chars(m, 400);
  if (const std::string g = str(r, "graded_at"); !g.empty()) tip += "\ngraded " + pretty_time(g);
  if (const std::string m = str(r, "machine"); !m.empty()) tip += "\non " + m;
  return tip;
}

// One participant's cell for one problem: not submitted, a judge error (no points), or verdict and score.
std::string result_cell(const json& r, const BoardProblem& pr) {
  if (!r.is_object()) return "<td class=\"res missing\" data-sort=\"\" title=\"not submitted\">\xE2\x80\x94</td>";
  const std::string verdict = str(r, "verdict");
  if (judge_error(r))
    return "<td class=\"res je\" data-sort=\"\" title=\"" + esc("judge error (the judge's fault, not the "
           "submission's): " + truncate_chars(str(r, "message"), 400)) + "\">" + verdict_badge(verdict) +
           " judge error<small class=\"why\">" + esc(truncate_chars(str(r, "reason"), 120)) + "</small></td>";
  const auto score = num(r, "score");
  const std::string why = str(r, "reason");
  return "<td class=\"res\" data-sort=\"" + (score ? fmt_exact(*score) : "") + "\" title=\"" + esc(result_tip(r, pr)) +
         "\">" + verdict_badge(verdict) + " " + (score ? esc(score_shown(r, *score)) : "\xE2\x80\x94") + marks_html(r) +
         (why.empty() ? "" : "<small class=\"why\">" + esc(truncate_chars(why, 120)) + "</small>") + "</td>";
}

std::string participant_row(const Board& b, size_t i) {
  const json& p = *b.participants[i];
  std::string h = "<tr data-index=\"" + std::to_string(i) + "\">";
  h += rank_cell(p, i, b.participants.size());
  h += name_cell(p);
  h += total_cell(p, b.max);
  const json& results = field(p, "results");
  for (const BoardProblem& pr : b.problems) h += result_cell(field(results, pr.slug.c_str()), pr);
  return h + "</tr>\n";
}

// The table's end, the hint on sorting, and the links to each problem's timings.
std::string table_end(const Board& b) {
  std::string h = "</tbody>\n</table>\n</div>\n";
  h += "<p class=\"hint\">Click a column header to sort; click again to reverse. Hover a result for its message.";
  if (b.problems.empty()) return h + "</p>\n";
  h += "</p>\n<nav class=\"problems\">Timings: ";
  for (const BoardProblem& p : b.problems) h += "<a href=\"#problem-" + esc(p.slug) + "\">" + esc(p.slug) + "</a>";
  return h + "</nav>\n";
}

// One time axis for a problem's charts: every participant's medians and reference times fit on it.
Axis problem_axis(const Board& b, const BoardProblem& pr) {
  std::vector<double> values;
  for (const json* pp : b.participants) {
    for (const Case& c : cases_of(field(field(*pp, "results"), pr.slug.c_str())))
      for (const auto& v : {c.median, c.baseline, c.fast})
        if (v) values.push_back(*v);
  }
  Axis axis;
  axis.fit(values);
  return axis;
}

std::string problem_heading(const BoardProblem& pr) {
  std::string h = "<section class=\"problem\" id=\"problem-" + esc(pr.slug) + "\">\n<h2>" +
                  esc(pr.title.empty() ? pr.slug : pr.title) + " <small>" + esc(pr.slug);
  if (!pr.kind.empty()) h += " \xC2\xB7 " + esc(pr.kind);
  if (pr.max) h += " \xC2\xB7 " + esc(fmt_points(*pr.max)) + " points";
  h += "</small></h2>\n";
  h += "<p class=\"legend\">Median time per performance case, log scale, coloured by the case's share of the "
       "performance points as the score takes it (its time against the references timed beside it):"
       "<span class=\"sw sw-fast\"></span>all (at least the fast reference's speed)"
       "<span class=\"sw sw-mid\"></span>part"
       "<span class=\"sw sw-slow\"></span>none (the baseline's speed or slower)"
       "<span class=\"sw sw-base\"></span>baseline<span class=\"sw sw-ref\"></span>fast reference</p>\n";
  return h;
}

// A participant's entry in a problem's section: its chart, or a line saying why it has no timing.
std::string problem_entry(const std::string& name, const json& r, const BoardProblem& pr, const Axis& axis) {
  const std::string verdict = str(r, "verdict");
  const auto score = num(r, "score");
  const std::string score_text =
      judge_error(r) ? "judge error: " + str(r, "reason")
                     : (score ? score_shown(r, *score) : "\xE2\x80\x94") + " / " +
                           fmt_points(num(r, "max").value_or(pr.max.value_or(0)));
  const std::vector<Case> cases = cases_of(r);
  std::string h;
  if (has_timing(cases)) {
    h += "<div class=\"entry\">\n<h3><span class=\"who\">" + esc(name) + "</span> " + verdict_badge(verdict) + " " +
         esc(score_text) + marks_html(r);
    if (const std::string g = str(r, "graded_at"); !g.empty()) h += " <small>graded " + esc(pretty_time(g)) + "</small>";
    return h + "</h3>\n" + chart_svg(name, cases, axis) + "</div>\n";
  }
  std::string reason = " \xE2\x80\x94 no timing";
  if (judge_error(r)) reason = " \xE2\x80\x94 the judge failed, not the submission";
  else if (field(r, "emulated") == true) reason += " (CPU emulation: correctness only)";
  else if (verdict == "AC") reason += " (not benchmarked)";
  h += "<p class=\"notiming\"><span class=\"who\">" + esc(name) + "</span> " + verdict_badge(verdict) + esc(reason) +
       " \xC2\xB7 " + esc(score_text) + marks_html(r);
  if (const std::string m = str(r, "message"); !m.empty())
    h += "<span class=\"msg\">" + esc(truncate_chars(m, 600)) + "</span>";
  return h + "</p>\n";
}

// A problem's section: each participant's chart or line, then who did not submit.
std::string problem_section(const Board& b, const BoardProblem& pr) {
  const Axis axis = problem_axis(b, pr);
  std::string h = problem_heading(pr);
  std::vector<std::string> absent;
  for (const json* pp : b.participants) {
    const std::string name = str(*pp, "name");
    const json& r = field(field(*pp, "results"), pr.slug.c_str());
    if (r.is_object()) h += problem_entry(name, r, pr, axis);
    else absent.push_back(name);
  }
  if (!absent.empty()) {
    h += "<p class=\"absent\">Not submitted: ";
    for (size_t i = 0; i < absent.size(); ++i) h += (i ? ", " : "") + esc(absent[i]);
    h += "</p>\n";
  }
  return h + "</section>\n";
}

// What no one was graded on: files named after no problem, or after one not on the class's list.
std::string not_graded_section(const json& model) {
  std::string h = "<section class=\"not-graded\" id=\"not-graded\">\n<h2>Not graded</h2>\n";
  const json& ng = field(model, "not_graded");
  if (!ng.is_array() || ng.empty()) {
    h += "<p class=\"absent\">Nothing: every file was graded.</p>\n";
  } else {
    h += "<table class=\"board\"><thead><tr><th>Participant</th><th>File</th><th>Why</th></tr></thead><tbody>\n";
    for (const json& n : ng) {
      const std::string who = str(n, "participant");
      h += "<tr><td>" + (who.empty() ? std::string("<span class=\"missing\">the class folder</span>") : esc(who)) +
           "</td><td>" + esc(str(n, "file")) + "</td><td>" + esc(str(n, "reason")) + "</td></tr>\n";
    }
    h += "</tbody></table>\n";
  }
  return h + "</section>\n";
}

// The footer, the model embedded for scripts and tools, and the sorting script.
std::string page_end(const json& model) {
  std::string h = "</main>\n<footer>Made by hpcjudge. A problem's points need AC on every test; the rest of its score "
                  "compares the submission's times with the problem's baseline and fast reference solutions on the "
                  "same machine.</footer>\n";
  h += "<script type=\"application/json\" id=\"model\">" + embedded_json(model) + "</script>\n";
  h += "<script>" + std::string(kMainScript) + "</script>\n</body>\n</html>\n";
  return h;
}

}  // namespace

std::string leaderboard_html(const nlohmann::json& model) {
  const Board b = read_board(model);
  std::string h;
  h.reserve(64 * 1024);
  h += page_head(b);
  h += page_header(b);
  h += table_head(b);
  for (size_t i = 0; i < b.participants.size(); ++i) h += participant_row(b, i);
  h += table_end(b);
  for (const BoardProblem& pr : b.problems) h += problem_section(b, pr);
  h += not_graded_section(model);
  h += page_end(model);
  return h;
}

}  // namespace hpcjudge
