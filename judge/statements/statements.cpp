#include "judge/statements/statements.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "sdk/arena.h"
#include "sdk/timing.h"
#include "judge/grading/libraries.h"
#include "judge/timing/budget.h"
#include "judge/timing/score.h"
#include "judge/machine/calibration.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

// The sections every statement has, and the one only a GPU problem's has.
const std::vector<std::string> kEverySection = {"timing", "scoring", "rules", "running"};
const std::string kGpuSection = "emulation";

std::string read_file(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + f.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// 33554432 -> "33,554,432".
std::string grouped(int64_t n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return n < 0 ? "-" + out : out;
}

// 3 -> "3", 0.5 -> "0.5", 1.2 -> "1.2".
std::string number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// `A`, `B` and `C`: a list in the language's words.
std::string listed(const std::vector<std::string>& items, const std::string& lang, bool code = true, bool any = false) {
  const bool en = lang == "en";
  const std::string sep = en ? ", " : "、", last = any ? (en ? " or " : " 或 ") : (en ? " and " : " 和 ");
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += i + 1 == items.size() ? last : sep;
    out += code ? "`" + items[i] + "`" : items[i];
  }
  return out;
}

const char* sentinel(DType t) {
  switch (t) {
    case DType::F32: return "NaN";
    case DType::I32: return "INT32_MIN";
    default: return "0xFF";
  }
}

// The performance cases as a Markdown table: the case's name, each size, and the cores it needs where a case
// needs more than one.
std::string cases_table(const Problem& p, const std::string& lang) {
  const std::vector<Case> cases = p.benchmarks();
  std::vector<std::string> keys;
  bool cores = false;
  for (const Case& c : cases) {
    for (const auto& [k, v] : c.sizes)
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
    cores = cores || c.min_cores > 1;
  }
  const bool en = lang == "en";
  std::string t = en ? "| case |" : "| 性能用例 |", rule = "| --- |";
  for (const std::string& k : keys) t += " " + k + " |", rule += " ---: |";
  if (cores) t += en ? " runs on |" : " 运行于 |", rule += " --- |";
  t += "\n" + rule + "\n";
  for (const Case& c : cases) {
    t += "| " + c.name + " |";
    for (const std::string& k : keys) {
      const auto it = std::find_if(c.sizes.begin(), c.sizes.end(), [&](const auto& s) { return s.first == k; });
      t += " " + (it == c.sizes.end() ? std::string() : grouped(it->second)) + " |";
    }
    if (cores) {
      const std::string n = std::to_string(c.min_cores);
      t += c.min_cores > 1 ? (en ? " machines with at least " + n + " cores |" : " 至少 " + n + " 核的机器 |")
                           : (en ? " any machine |" : " 任何机器 |");
    }
    t += "\n";
  }
  t.pop_back();
  return t;
}

// The libraries a submission may use beyond the standard ones, by their titles ("CUB and Thrust").
std::string library_titles(const Problem& p, const std::string& lang) {
  std::vector<std::string> titles;
  for (const std::string& name : p.info().allowed_libraries)
    for (const LibraryFamily& f : library_families())
      if (f.name == name) titles.push_back(f.title);
  std::sort(titles.begin(), titles.end());
  return listed(titles, lang, false);
}

// The signature's buffers: inputs, and outputs with the value each is reset to.
void buffer_values(const Problem& p, const std::string& lang, StatementValues& v) {
  const std::vector<Case> tests = p.tests();
  const Signature sig = p.signature(tests.empty() ? p.benchmarks().front() : tests.front());
  std::vector<std::string> inputs, outputs, reset;
  for (size_t k = 0; k < sig.buffers.size(); ++k) {
    const BufferSpec& b = sig.buffers[k];
    const bool scalar = std::any_of(sig.generated.begin(), sig.generated.end(),
                                    [&](const GeneratedScalar& g) { return g.buffer == static_cast<int>(k); });
    if (b.role == Role::In && !scalar) inputs.push_back(b.name);
    if (b.role != Role::Out) continue;
    outputs.push_back(b.name);
    reset.push_back("`" + b.name + "` = " + sentinel(b.type));
  }
  v.values["inputs"] = listed(inputs, lang, true, true);
  v.values["outputs"] = listed(outputs, lang);
  v.values["reset"] = listed(reset, lang, false);
  if (sig.workspace_index() >= 0) v.flags.insert("workspace");
}

// Flags of the cases: a spot-checked performance case, a device-memory limit of the problem's own.
void case_flags(const Problem& p, StatementValues& v) {
  std::vector<Case> cases = p.tests();
  for (const Case& c : p.benchmarks()) {
    if (p.spot_checked(c)) v.flags.insert("spot");
    cases.push_back(c);
  }
  for (const Case& c : cases) {
    const Signature sig = p.signature(c);
    if (p.device_memory_limit(c, sig) != p.Problem::device_memory_limit(c, sig)) v.flags.insert("own_device_limit");
  }
}

// The comments of a shell block's commands ("cmd  # what it does") in one column.
std::string align_comments(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  size_t column = 0;
  for (const std::string& l : lines)
    if (l.rfind("./", 0) == 0 && l.find("  # ") != std::string::npos) column = std::max(column, l.find("  # "));
  std::string out;
  for (std::string& l : lines) {
    const size_t at = l.rfind("./", 0) == 0 ? l.find("  # ") : std::string::npos;
    if (at != std::string::npos) l.insert(at, column - at, ' ');
    out += l + "\n";
  }
  if (!text.empty() && text.back() != '\n') out.pop_back();
  return out;
}

std::string repo_path(const fs::path& f, const Paths& paths) { return fs::relative(f, paths.root).generic_string(); }

}  // namespace

const std::vector<StatementLanguage>& statement_languages() {
  static const std::vector<StatementLanguage> languages = {{"en", "README.md"}, {"zh-CN", "README.zh-CN.md"}};
  return languages;
}

StatementValues statement_values(const Problem& p, const Paths& paths, const std::string& lang) {
  const ProblemInfo& i = p.info();
  StatementValues v;
  v.flags.insert(i.kind == Kind::GPU ? "gpu" : "cpu");
  if (!i.allowed_libraries.empty()) v.flags.insert("libraries");
  if (p.has_setup()) v.flags.insert("setup");
  auto& s = v.values;
  s["slug"] = i.slug;
  s["ext"] = i.source_ext;
  s["correctness"] = number(i.points.correctness);
  s["performance"] = number(i.points.performance);
  s["total"] = number(i.points.total());
  s["max_fraction"] = number(kMaxFraction);
  s["bonus"] = number(i.points.performance * (kMaxFraction - 1));
  s["example_points"] = number(0.8 * i.points.performance);  // the worked example's s = 0.8
  s["min_span"] = number(kMinScaleSpan);
  s["guard_kib"] = number(kGuardBytes / 1024.0);
  s["bytes_slack"] = number(kBytesSlack);
  s["flops_slack"] = number(kFlopsSlack);
  s["baseline"] = repo_path(reference_solution(p, paths, "baseline"), paths);
  s["fast"] = repo_path(reference_solution(p, paths, "fast"), paths);
  s["test_limit"] = number(i.test_time_limit_s);
  s["bench_limit"] = number(i.bench_time_limit_s);
  s["tests_limit"] = number(i.tests_time_limit_s);
  s["setup_limit"] = number(i.setup_time_limit_s);
  s["warmups"] = number(i.timing.warmup_runs);
  s["min_runs"] = number(i.timing.min_runs);
  s["side_min_runs"] = number(kSideBySideMinRuns);
  s["rel_sem"] = number(100 * i.timing.target_rel_sem) + "%";
  s["budget"] = number(i.timing.budget_s);
  s["gpu_budget"] = number(kGpuTimingBudgetS);
  s["libraries"] = library_titles(p, lang);
  s["cases"] = cases_table(p, lang);
  buffer_values(p, lang, v);
  case_flags(p, v);
  return v;
}

std::string render_statement(const std::string& text, const StatementValues& v) {
  std::string out;
  size_t at = 0;
  while (true) {
    const size_t open = text.find("{{", at);
    out += text.substr(at, open == std::string::npos ? std::string::npos : open - at);
    if (open == std::string::npos) return out;
    const size_t close = text.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("a '{{' never closed");
    const std::string tag = text.substr(open + 2, close - open - 2);
    at = close + 2;
    if (!tag.empty() && (tag[0] == '#' || tag[0] == '^')) {
      const std::string name = tag.substr(1), end = "{{/" + name + "}}";
      const size_t stop = text.find(end, at);
      if (stop == std::string::npos) throw std::runtime_error("{{" + tag + "}} never closed");
      if (v.flags.count(name) == (tag[0] == '#' ? 1u : 0u)) out += render_statement(text.substr(at, stop - at), v);
      at = stop + end.size();
      continue;
    }
    const auto it = v.values.find(tag);
    if (it == v.values.end()) throw std::runtime_error("no value for {{" + tag + "}}");
    out += it->second;
  }
}

std::map<std::string, std::string> statement_sections(const std::string& source) {
  static const std::string kOpen = "<!-- section:", kClose = " -->";
  std::map<std::string, std::string> sections;
  std::string* current = nullptr;
  std::istringstream in(source);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(kOpen, 0) == 0 && line.size() > kOpen.size() + kClose.size() &&
        line.compare(line.size() - kClose.size(), kClose.size(), kClose) == 0) {
      current = &sections[line.substr(kOpen.size(), line.size() - kOpen.size() - kClose.size())];
      continue;
    }
    if (current) *current += line + "\n";
  }
  for (auto& [name, text] : sections) {  // no blank lines at either end: the README's own spacing holds
    text.erase(0, std::min(text.find_first_not_of('\n'), text.size()));
    text.erase(text.find_last_not_of('\n') + 1);
  }
  return sections;
}

std::string fill_statement(const std::string& readme, const std::map<std::string, std::string>& sections,
                           const StatementValues& v, std::vector<std::string>& problems) {
  static const std::string kOpen = "<!-- shared:", kEnd = " -->";
  std::string out;
  std::set<std::string> seen;
  size_t at = 0;
  for (size_t open; (open = readme.find(kOpen, at)) != std::string::npos;) {
    const size_t name_end = readme.find(kEnd, open);
    const std::string name = readme.substr(open + kOpen.size(), name_end - open - kOpen.size());
    const std::string close = "<!-- /shared:" + name + kEnd;
    const size_t stop = name_end == std::string::npos ? name_end : readme.find(close, name_end);
    if (stop == std::string::npos) {
      problems.push_back("a block <!-- shared:" + name + " --> never closed");
      return readme;
    }
    const auto section = sections.find(name);
    if (section == sections.end()) problems.push_back("a block names no section of the source: " + name);
    seen.insert(name);
    out += readme.substr(at, name_end + kEnd.size() - at) + "\n";
    out += section == sections.end() ? std::string() : align_comments(render_statement(section->second, v)) + "\n";
    out += close;
    at = stop + close.size();
  }
  out += readme.substr(at);
  std::vector<std::string> wanted = kEverySection;
  if (v.flags.count("gpu")) wanted.push_back(kGpuSection);
  for (const std::string& name : wanted)
    if (!seen.count(name)) problems.push_back("no <!-- shared:" + name + " --> block");
  return out;
}

int check_statements(const Paths& paths, bool write, std::vector<std::string>& lines) {
  int wrong = 0;
  for (const StatementLanguage& lang : statement_languages()) {
    const auto sections = statement_sections(read_file(paths.root / "problems" / "statements" / (lang.code + ".md")));
    for (const Problem* p : Registry::all()) {
      const fs::path file = paths.problem_dir(p->info().slug) / lang.readme;
      const std::string shown = repo_path(file, paths), readme = read_file(file);
      std::vector<std::string> problems;
      const std::string filled = fill_statement(readme, sections, statement_values(*p, paths, lang.code), problems);
      for (const std::string& what : problems) lines.push_back(shown + ": " + what);
      if (filled != readme) {
        if (write) std::ofstream(file, std::ios::binary) << filled;
        lines.push_back(shown + (write ? ": rewritten" : ": differs from problems/statements/" + lang.code +
                                                             ".md and its problem.cpp (judge statements --write)"));
      }
      wrong += !problems.empty() || (filled != readme && !write);
    }
  }
  return wrong;
}

}  // namespace hpcjudge
