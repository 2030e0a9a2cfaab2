#include "judge/classroom/noisy.h"

#include <cmath>
#include <cstdio>
#include <set>

#include "judge/classroom/child_judge.h"
#include "judge/reports/text.h"
#include "judge/reports/tolerant_json.h"

namespace hpcjudge {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Why a report's score is uncertain (its "score"."noise": the machine was busy while it was timed), or "".
std::string noise_of(const json& report) { return tolerant::str(tolerant::field(report, "score"), "noise"); }

// The half-width of a report's score interval, in points (infinity where it has none).
double plus_minus_of(const json& report) {
  return tolerant::num(tolerant::field(report, "score"), "plus_minus").value_or(HUGE_VAL);
}

}  // namespace

// The jobs whose report is noisy.
std::vector<BatchJob> noisy_jobs(const std::vector<BatchJob>& jobs) {
  std::vector<BatchJob> out;
  for (const BatchJob& j : jobs)
    if (j.refused.empty() && !noise_of(tolerant::read_file(j.report, 64 << 20)).empty()) out.push_back(j);
  return out;
}

// Grades each noisy job once more, one at a time, at the end of the batch: the regrade replaces the first
// grade unless it is noisy too with a wider interval. Says which stay noisy.
void regrade_noisy(const Paths& paths, const BatchOptions& opt, const std::vector<BatchJob>& noisy) {
  if (noisy.empty()) return;
  std::printf("grade %zu noisy grade(s) again (the machine was busy while they were timed):\n", noisy.size());
  Progress progress(noisy.size());
  std::vector<std::string> still;
  for (const BatchJob& j : noisy) {
    const json first = tolerant::read_file(j.report, 64 << 20);
    grade_job_alone(paths, opt, j, GradedFrom{}, 0, progress);
    const json again = tolerant::read_file(j.report, 64 << 20);
    const bool keep_first = !noise_of(again).empty() && plus_minus_of(again) > plus_minus_of(first);
    if (keep_first) write_report(j, first);
    const json& kept = keep_first ? first : again;
    if (const std::string noise = noise_of(kept); !noise.empty()) {
      char pm[32];
      std::snprintf(pm, sizeof pm, "\xC2\xB1 %.1f", plus_minus_of(kept));
      still.push_back(job_name(j) + " (" + pm + ": " + terminal_safe(one_line(noise, 160)) + ")");
    }
  }
  progress.end();
  if (still.empty()) {
    std::printf("no grade is noisy now\n");
    return;
  }
  std::printf("still noisy after a second grade (%zu; the leaderboard marks them; judge batch --regrade-noisy on a "
              "quiet machine grades them again):\n", still.size());
  for (const std::string& s : still) std::printf("  %s\n", s.c_str());
}

// The noisy reports kept from an earlier batch, which only --regrade-noisy grades again.
void say_kept_noisy(const std::vector<BatchJob>& jobs, const std::vector<BatchJob>& graded) {
  std::set<fs::path> now;
  for (const BatchJob& j : graded) now.insert(j.report);
  std::vector<BatchJob> kept;
  for (const BatchJob& j : jobs)
    if (!now.count(j.report)) kept.push_back(j);
  const size_t n = noisy_jobs(kept).size();
  if (n)
    std::printf("kept %zu noisy report(s) of an earlier batch (the leaderboard marks them): --regrade-noisy grades "
                "them again\n", n);
}

}  // namespace hpcjudge
