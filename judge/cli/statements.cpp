// `judge statements`: the statements' shared sections (problems/statements/<lang>.md, filled from each problem's
// description) against every problems/<slug>/README*.md. For the problems' authors: not in the students' help.
#include <cstdio>

#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/statements/statements.h"

namespace hpcjudge::cli {

int judge_statements(int argc, char** argv, const Paths& paths, GradingFlags&) {
  CLI::App app{"The statements' shared sections (problems/statements/<lang>.md, filled from each problem's "
               "description) against every problems/<slug>/README*.md: --check lists the READMEs that differ "
               "(exit 1), --write rewrites their shared blocks.",
               "judge statements"};
  bool write = false, check = false;
  app.add_flag("--check", check, "compare only (the default)");
  app.add_flag("--write", write, "rewrite every README's shared blocks from the sources");
  if (auto rc = parse(app, argc, argv)) return *rc;
  std::vector<std::string> lines;
  const int wrong = check_statements(paths, write, lines);
  for (const std::string& line : lines) std::printf("%s\n", line.c_str());
  if (wrong == 0 && !write) std::printf("every statement's shared sections match their sources\n");
  return wrong == 0 ? 0 : 1;
}

}  // namespace hpcjudge::cli
