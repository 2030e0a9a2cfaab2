// `judge pack [SLUG | SLUG=FILE ...] -o FILE`: the student's files bundled to hand in (judge/classroom/pack.h).
#include <cstdio>

#include "judge/classroom/pack.h"
#include "judge/cli/commands.h"
#include "judge/cli/usage.h"
#include "judge/reports/text.h"

namespace hpcjudge::cli {

int judge_pack(int argc, char** argv, const Paths& paths, GradingFlags&) {
  CLI::App app{"Bundle, for each problem, the file you last judged (or SLUG=FILE), named by slug, with its "
               "report and a manifest into FILE, in the layout `judge batch` reads.",
               "judge pack"};
  PackOptions p;
  app.add_option("slugs", p.slugs,
                 "the problems, each SLUG (the file you last judged for it) or SLUG=FILE (default: every problem "
                 "you have judged)");
  app.add_option("-o,--output", p.out, "the archive to write, e.g. alice.tar.gz")->required();
  app.add_option("--name", p.name, "your name as staff will see it (default: git user.name, else $USER)");
  if (auto rc = parse(app, argc, argv)) return *rc;
  try {
    std::printf("%s\n", terminal_text(make_pack(paths, p)).c_str());
  } catch (const std::exception& e) {
    throw UsageError(e.what());
  }
  return 0;
}

}  // namespace hpcjudge::cli
