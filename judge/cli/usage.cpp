#include "judge/cli/usage.h"

#include <unistd.h>

#include <cstdio>
#include <vector>

#include "judge/files.h"
#include "judge/grading/grade.h"
#include "judge/reports/text.h"
#include "judge/suggest.h"

namespace hpcjudge::cli {

namespace fs = std::filesystem;

namespace {

// "unknown option '--threds'; did you mean --threads?" for each of `extras` that is a misspelt option of `app`
// (joined by "; "), or "".
std::string option_guesses(const CLI::App& app, const std::vector<std::string>& extras) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    if (o->get_group().empty()) continue;  // hidden: what a batch tells its child judges
    for (const std::string& l : o->get_lnames()) names.push_back("--" + l);
    for (const std::string& s : o->get_snames()) names.push_back("-" + s);
  }
  std::string out;
  for (const std::string& e : extras) {
    if (e.size() < 2 || e[0] != '-') continue;
    const std::string word = e.substr(0, e.find('='));
    if (const auto near = closest(word, names); !near.empty())
      out += (out.empty() ? "" : "; ") + ("unknown option '" + word + "'; did you mean ") + one_of(near) + "?";
  }
  return out;
}

}  // namespace

std::optional<int> parse(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
    return std::nullopt;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ExtrasError& e) {  // a misspelt option: the likely one named
    const std::string guesses = option_guesses(app, app.remaining());
    std::fprintf(stderr, "judge: %s (see %s --help)\n", terminal_text(guesses.empty() ? e.what() : guesses).c_str(),
                 app.get_name().c_str());
    return 2;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "judge: %s (see %s --help)\n", terminal_text(e.what()).c_str(), app.get_name().c_str());
    return 2;
  }
}

const Problem& find_problem(const std::string& slug) {
  if (const Problem* p = Registry::find(slug)) return *p;
  std::vector<std::string> slugs;
  for (const Problem* p : Registry::all()) slugs.push_back(p->info().slug);
  std::string msg = "unknown problem '" + slug + "'";
  if (const auto near = closest(slug, slugs); !near.empty()) msg += "; did you mean " + one_of(near) + "?";
  throw UsageError(msg + " ('judge list' shows them all)");
}

fs::path default_solution(const Problem& p, const Paths& paths) {
  return paths.problem_dir(p.info().slug) / ("solution." + p.info().source_ext);
}

void check_source(const Problem& p, const fs::path& file, const fs::path& folder) {
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)) || (folder.empty() && !fs::exists(file, ec)))
    throw UsageError(file.string() + ": no such file");
  if (fs::is_directory(file, ec)) throw UsageError(file.string() + ": is a directory, not a source file");
  std::string why = folder.empty() ? unfollowed_link(file) : not_a_regular_file(file, folder);
  if (why.empty() && folder.empty()) why = not_a_regular_file(fs::canonical(file, ec));
  if (!why.empty()) throw UsageError(why);
  if (access(file.c_str(), R_OK) != 0) throw UsageError(file.string() + ": cannot be read (permission denied)");
  if (fs::file_size(file, ec) == 0) throw UsageError(file.string() + ": is empty");
  if (fs::file_size(file, ec) > kMaxSourceBytes)
    throw UsageError(file.string() + ": is larger than a source file may be (" + std::to_string(kMaxSourceBytes >> 20) +
                     " MiB)");
  const std::string ext = file.extension().string();
  const bool cpp = ext == ".cpp" || ext == ".cc" || ext == ".cxx";
  if (p.info().source_ext == "cpp" && !cpp)
    throw UsageError(p.info().slug + " takes a C++ file (.cpp), not " + file.filename().string());
  if (p.info().source_ext == "cu" && ext != ".cu")
    throw UsageError(p.info().slug + " takes a CUDA file (.cu), not " + file.filename().string());
}

}  // namespace hpcjudge::cli
