#include "settings/settings.h"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "judge/reports/report.h"

namespace settings = hpcjudge::settings;
namespace fs = std::filesystem;

namespace {

// The registry's variables as the environment has them now, put back as they were when it goes.
class SavedEnvironment {
 public:
  SavedEnvironment() {
    for (const settings::Variable* v : settings::kAll)
      if (const std::optional<std::string> value = settings::Settings::read().get(*v)) saved_[v->name] = *value;
  }
  ~SavedEnvironment() {
    for (const settings::Variable* v : settings::kAll) {
      if (auto it = saved_.find(v->name); it != saved_.end()) setenv(v->name, it->second.c_str(), 1);
      else unsetenv(v->name);
    }
  }
  SavedEnvironment(const SavedEnvironment&) = delete;
  SavedEnvironment& operator=(const SavedEnvironment&) = delete;

 private:
  std::map<std::string, std::string> saved_;
};

void unset_all() {
  for (const settings::Variable* v : settings::kAll) unsetenv(v->name);
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

}  // namespace

TEST_CASE("settings: each variable is declared once, with a meaning", "[settings]") {
  std::set<std::string> names;
  for (const settings::Variable* v : settings::kAll) {
    INFO(v->name);
    CHECK(names.insert(v->name).second);
    CHECK(!v->meaning.empty());
  }
  CHECK(names.size() == std::size(settings::kAll));
}

TEST_CASE("settings: the registry reads each of its variables, set and unset, an empty value as set", "[settings]") {
  const SavedEnvironment saved;
  unset_all();
  for (const settings::Variable* v : settings::kAll) setenv(v->name, (std::string("value of ") + v->name).c_str(), 1);
  const settings::Settings all = settings::Settings::read();
  for (const settings::Variable* v : settings::kAll) {
    INFO(v->name);
    CHECK(all.is_set(*v));
    CHECK(all.get(*v) == std::string("value of ") + v->name);
  }
  unset_all();
  setenv(settings::kTrace.name, "", 1);
  const settings::Settings none = settings::Settings::read();
  for (const settings::Variable* v : settings::kAll) {
    INFO(v->name);
    if (v == &settings::kTrace) {
      CHECK(none.is_set(*v));
      CHECK(none.get(*v) == "");
    } else {
      CHECK_FALSE(none.is_set(*v));
      CHECK(none.get(*v) == std::nullopt);
    }
  }
}

TEST_CASE("settings: what may change a grade is listed where not its default, the secret seed without its value",
          "[settings]") {
  const SavedEnvironment saved;
  unset_all();
  CHECK(settings::Settings::read().grade_changing().empty());
  setenv(settings::kTrace.name, "1", 1);
  setenv(settings::kOmpWaitPolicy.name, "passive", 1);  // the judge's own default: not listed
  setenv(settings::kOpenblasThreadTimeout.name, "8", 1);
  setenv(settings::kSecretSeed.name, "271828", 1);
  setenv(settings::kCache.name, "/somewhere/cache", 1);  // where files are kept: no grade changes with it
  setenv(settings::kNoColor.name, "1", 1);
  setenv(settings::kRoot.name, "/another/tree", 1);
  CHECK(settings::Settings::read().grade_changing() == Pairs{{"HPCJUDGE_ROOT", "/another/tree"},
                                                             {"HPCJUDGE_SECRET_SEED", "secret"},
                                                             {"HPCJUDGE_TRACE", "1"},
                                                             {"OPENBLAS_THREAD_TIMEOUT", "8"}});
  setenv(settings::kOmpWaitPolicy.name, "active", 1);
  const Pairs listed = settings::Settings::read().grade_changing();
  CHECK(std::find(listed.begin(), listed.end(), Pairs::value_type{"OMP_WAIT_POLICY", "active"}) != listed.end());
}

TEST_CASE("settings: a report records them in its settings object, and has none where none was set",
          "[settings][report]") {
  hpcjudge::Report r;
  CHECK_FALSE(r.to_json().contains("settings"));
  r.settings = {{"HPCJUDGE_SECRET_SEED", "secret"}, {"HPCJUDGE_TRACE", "1"}};
  const nlohmann::json j = r.to_json();
  REQUIRE(j.contains("settings"));
  CHECK(j["settings"] == nlohmann::json{{"HPCJUDGE_SECRET_SEED", "secret"}, {"HPCJUDGE_TRACE", "1"}});
}

TEST_CASE("settings: put sets a variable for the process and its children; take scrubs it but says it was set",
          "[settings]") {
  const SavedEnvironment saved;
  settings::put(settings::kSecretSeed, "314159");
  CHECK(settings::Settings::at_start().get(settings::kSecretSeed) == "314159");
  CHECK(settings::Settings::read().get(settings::kSecretSeed) == "314159");  // in the environment
  CHECK(settings::take(settings::kSecretSeed) == "314159");
  CHECK(std::getenv(settings::kSecretSeed.name) == nullptr);
  CHECK(settings::Settings::at_start().is_set(settings::kSecretSeed));
  CHECK(settings::Settings::at_start().get(settings::kSecretSeed) == "");
  const Pairs listed = settings::Settings::at_start().grade_changing();
  CHECK(std::find(listed.begin(), listed.end(), Pairs::value_type{"HPCJUDGE_SECRET_SEED", "secret"}) != listed.end());
}

TEST_CASE("settings: PATH's folders in order, an empty entry kept", "[settings]") {
  const SavedEnvironment saved;
  // at_start() was read at its first use: its PATH is the environment's then, split here as a lookup splits it.
  const std::optional<std::string> path = settings::Settings::at_start().get(settings::kPath);
  std::vector<std::string> expected;
  std::stringstream ss(path.value_or(""));
  for (std::string d; std::getline(ss, d, ':');) expected.push_back(d);
  CHECK(settings::path_folders() == expected);
}
TEST_CASE("settings: no product source but the registry's reads the environment", "[settings]") {
  // Every C++ source of the tree but the tests', the lab's, the registry's own, a build's and the problems'
  // solutions and submissions (files the judge grades, never product code): none calls getenv.
  const fs::path root = HPCJUDGE_SOURCE_DIR;
  const std::set<std::string> outside = {"tests", "lab", "settings", "docs", ".git", ".deps", "solutions", "submissions"};
  std::vector<std::string> found;
  size_t scanned = 0;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied);
       it != fs::recursive_directory_iterator(); ++it) {
    const fs::path& p = it->path();
    if (it->is_directory() && (outside.count(p.filename().string()) || fs::exists(p / "CMakeCache.txt"))) {
      it.disable_recursion_pending();
      continue;
    }
    const std::string ext = p.extension().string();
    if (!it->is_regular_file() || (ext != ".cpp" && ext != ".h" && ext != ".cu" && ext != ".cuh")) continue;
    ++scanned;
    std::ifstream in(p);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (text.find("getenv") != std::string::npos) found.push_back(fs::relative(p, root).string());
  }
  INFO("scanned " << scanned << " files");
  CHECK(scanned > 100);
  CHECK(found == std::vector<std::string>{});
}
