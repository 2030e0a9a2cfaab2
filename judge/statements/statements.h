// The statements' shared sections (how a problem is timed and scored, its rules, CPU emulation, running the
// judge): written once per language in problems/statements/<lang>.md, filled with each problem's own figures
// from its registered description (points, time limits, timing budget, cases, inputs, outputs, libraries), and
// kept in each problems/<slug>/README*.md between markers:
//
//   <!-- shared:timing -->  ...generated text...  <!-- /shared:timing -->
//
// Everything outside the markers (the task, the signature, the hints, a problem's own notes) is the README's.
// `judge statements --check` reports every block that differs from what the source gives; `--write` rewrites them.
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sdk/problem.h"
#include "judge/paths.h"

namespace hpcjudge {

// A statement's language: its README's file name and its source in problems/statements/.
struct StatementLanguage {
  std::string code;    // "en", "zh-CN": problems/statements/<code>.md
  std::string readme;  // "README.md", "README.zh-CN.md"
};
const std::vector<StatementLanguage>& statement_languages();

// What a template is filled with: {{name}} takes values[name]; {{#flag}}...{{/flag}} keeps its text where the
// flag is set, {{^flag}}...{{/flag}} where it is not.
struct StatementValues {
  std::map<std::string, std::string> values;
  std::set<std::string> flags;
};

// The template filled in. An unknown {{name}} or an unclosed {{#flag}} throws: a misspelt placeholder must not
// reach a statement.
std::string render_statement(const std::string& text, const StatementValues& v);

// The sections of a source file: after each line "<!-- section:NAME -->", its text up to the next such line.
std::map<std::string, std::string> statement_sections(const std::string& source);

// One problem's figures, in one language.
StatementValues statement_values(const Problem& p, const Paths& paths, const std::string& lang);

// The README with every shared block replaced by its section rendered; `problems` collects what is wrong (a block
// naming no section, a block never closed, a section a GPU or CPU problem must have missing).
std::string fill_statement(const std::string& readme, const std::map<std::string, std::string>& sections,
                           const StatementValues& v, std::vector<std::string>& problems);

// Every problem's READMEs against the sources: one line per README that differs (or, with write, that was
// rewritten), and per fault. Returns the number of READMEs that differ or have faults.
int check_statements(const Paths& paths, bool write, std::vector<std::string>& lines);

}  // namespace hpcjudge
