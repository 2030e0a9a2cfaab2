#include "judge/reports/record.h"

#include "judge/sha256.h"

namespace hpcjudge {

using nlohmann::json;

json GradedFrom::to_json() const {
  return {{"source_sha256", source_sha256}, {"problem_version", problem_version}, {"judge_version", judge_version},
          {"seed_id", seed_id},             {"bench", bench},                     {"side_by_side", side_by_side}, {"sandbox", sandbox},
          {"isolated", isolated},           {"machine", machine}};
}

GradedFrom GradedFrom::from_json(const json& j) {
  GradedFrom g;
  if (!j.is_object()) return g;
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  const auto flag = [&](const char* key, bool fallback) {
    const auto it = j.find(key);
    return it != j.end() && it->is_boolean() ? it->get<bool>() : fallback;
  };
  g.source_sha256 = text("source_sha256");
  g.problem_version = text("problem_version");
  g.judge_version = text("judge_version");
  g.seed_id = text("seed_id");
  g.bench = flag("bench", true);
  g.side_by_side = flag("side_by_side", true);
  g.sandbox = flag("sandbox", false);
  g.isolated = flag("isolated", true);
  g.machine = text("machine");
  return g;
}

std::vector<std::string> GradedFrom::differences(const GradedFrom& now) const {
  std::vector<std::string> d;
  if (source_sha256 != now.source_sha256) {
    if (source_sha256.starts_with("refused: ") && !now.source_sha256.starts_with("refused: "))
      d.push_back("the file is now a regular file");
    else if (now.source_sha256.starts_with("refused: "))
      d.push_back(now.source_sha256.substr(0, 200));
    else
      d.push_back("the source changed");
  }
  if (problem_version != now.problem_version) d.push_back("the problem changed (statement, tests or reference)");
  if (judge_version != now.judge_version)
    d.push_back("graded by judge " + (judge_version.empty() ? std::string("?") : judge_version) + ", this is " +
                now.judge_version);
  if (seed_id != now.seed_id) d.push_back("the seed changed");
  if (bench != now.bench) d.push_back(bench ? "graded with timing, now --no-bench" : "graded with --no-bench, now with timing");
  if (side_by_side != now.side_by_side)
    d.push_back(side_by_side ? "graded with the fast reference beside, now --no-side-by-side"
                             : "graded with --no-side-by-side, now with the fast reference beside");
  if (sandbox != now.sandbox) d.push_back(sandbox ? "graded in the sandbox, now without" : "graded without the sandbox, now in it");
  if (isolated != now.isolated)
    d.push_back(isolated ? "graded isolated, now with --unsafe-no-isolation" : "graded with --unsafe-no-isolation, now isolated");
  if (machine != now.machine) d.push_back("graded on another machine (" + machine.substr(0, 120) + ")");
  return d;
}

std::string seed_identity(uint64_t seed) {
  const std::string text = "hpcjudge seed identity v1\n" + std::to_string(seed);
  std::string h = sha256_hex(text);
  for (int i = 1; i < 4096; ++i) h = Sha256().update(h).update(text).hex();
  return h;
}

}  // namespace hpcjudge
