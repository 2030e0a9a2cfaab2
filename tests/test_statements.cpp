// The statements' shared sections: the template language, the blocks in a README, and that a figure changed by
// hand in a README (or a problem whose description says otherwise) is found.
#include <catch2/catch_test_macros.hpp>

#include "sdk/problem.h"
#include "judge/statements/statements.h"

using namespace hpcjudge;

namespace {

StatementValues values() {
  StatementValues v;
  v.values = {{"slug", "demo"}, {"budget", "3"}};
  v.flags = {"gpu"};
  return v;
}

const std::map<std::string, std::string> kSections = {
    {"timing", "budget {{budget}} s{{#gpu}} on a GPU{{/gpu}}{{^gpu}} on a CPU{{/gpu}}"},
    {"scoring", "s"}, {"rules", "r"}, {"running", "./judge/judge {{slug}}"}, {"emulation", "e"}};

std::string readme(const std::string& timing) {
  std::string r = "# demo\n\nThe task.\n\n## How it is timed\n\n<!-- shared:timing -->\n" + timing +
                  "\n<!-- /shared:timing -->\n\n- the problem's own note\n";
  for (const char* s : {"scoring", "rules", "running", "emulation"})
    r += std::string("<!-- shared:") + s + " -->\nold\n<!-- /shared:" + s + " -->\n";
  return r;
}

}  // namespace

TEST_CASE("render_statement fills figures and keeps a flag's text only where it is set", "[statements]") {
  CHECK(render_statement("budget {{budget}} s{{#gpu}} on a GPU{{/gpu}}{{^gpu}} on a CPU{{/gpu}}", values()) ==
        "budget 3 s on a GPU");
  StatementValues cpu = values();
  cpu.flags = {};
  CHECK(render_statement("{{#gpu}}G {{slug}}{{/gpu}}{{^gpu}}C {{slug}}{{/gpu}}", cpu) == "C demo");
  CHECK_THROWS(render_statement("{{no_such_figure}}", values()));
  CHECK_THROWS(render_statement("{{#gpu}} never closed", values()));
}

TEST_CASE("statement_sections splits a source at its section lines", "[statements]") {
  const auto s = statement_sections("preamble {{x}}\n<!-- section:a -->\n\nA text\n\n<!-- section:b -->\nB\n");
  REQUIRE(s.size() == 2);
  CHECK(s.at("a") == "A text");
  CHECK(s.at("b") == "B");
}

TEST_CASE("fill_statement rewrites the blocks and keeps the README's own text", "[statements]") {
  std::vector<std::string> problems;
  const std::string filled = fill_statement(readme("budget 2 s on a GPU"), kSections, values(), problems);
  CHECK(problems.empty());
  CHECK(filled.find("budget 3 s on a GPU") != std::string::npos);     // the stale figure replaced
  CHECK(filled.find("budget 2 s") == std::string::npos);
  CHECK(filled.find("- the problem's own note") != std::string::npos);  // outside the markers: kept
  CHECK(filled.find("./judge/judge demo") != std::string::npos);
  std::vector<std::string> again;
  CHECK(fill_statement(filled, kSections, values(), again) == filled);  // up to date: unchanged
}

TEST_CASE("fill_statement names a missing, unclosed or unknown block", "[statements]") {
  std::vector<std::string> problems;
  std::string r = readme("x");
  fill_statement(r.substr(0, r.find("<!-- /shared:emulation -->")), kSections, values(), problems);
  CHECK(problems == std::vector<std::string>{"a block <!-- shared:emulation --> never closed"});
  problems.clear();
  r.erase(r.find("<!-- shared:emulation -->"));
  fill_statement(r + "<!-- shared:nosuch -->\n<!-- /shared:nosuch -->\n", kSections, values(), problems);
  CHECK(problems == std::vector<std::string>{"a block names no section of the source: nosuch",
                                             "no <!-- shared:emulation --> block"});
}

TEST_CASE("statement_values takes each problem's figures from its description", "[statements]") {
  const Paths paths{.root = HPCJUDGE_SOURCE_DIR};
  const Problem* fix = Registry::find("shared-memory-fix");
  REQUIRE(fix);
  const StatementValues v = statement_values(*fix, paths, "en");
  CHECK(v.values.at("correctness") == "70");
  CHECK(v.values.at("performance") == "30");
  CHECK(v.values.at("bonus") == "6");
  CHECK(v.flags.count("gpu") == 1);
  const Problem* bfs = Registry::find("bfs-cpu");
  REQUIRE(bfs);
  const StatementValues b = statement_values(*bfs, paths, "en");
  CHECK(b.values.at("budget") == "2");
  CHECK(b.flags.count("cpu") == 1);
  CHECK(b.values.at("baseline").find("bfs-cpu") != std::string::npos);
  CHECK(b.values.at("cases").find("| case |") == 0);
}
