// An emulated grade's estimate of the GPU (judge --emulate): the submission's time on the modelled GPU
// (kernel_time.h) for the largest performance case, scaled from what the emulator counted on a smaller case, and
// the score that time would give against the judge's references estimated alike: the same ratio-to-fraction
// mapping as the measured score (judge/timing/score.h: performance_estimate), its ± from the model's stated
// uncertainty. Labelled an estimate everywhere: it is the report's `emulation.estimate` alone, never its `score`,
// a leaderboard's, Gradescope's or JUnit's.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "judge/estimate/estimate_case.h"
#include "judge/estimate/gpu_model.h"
#include "judge/estimate/kernel_time.h"
#include "protocol/json.h"

namespace hpcjudge {

struct Estimate {
  const GpuModel* gpu = nullptr;
  EstimateCases cases;
  CallEstimate submission;
  std::optional<double> fast_s, baseline_s;  // the references' estimated times on the modelled case
  // The estimated score in points (correctness + performance) and its interval; none where a reference had no
  // estimate (`note` says why).
  std::optional<double> score, score_lo, score_hi;
  std::string note;
  // Where the kernels' registers came from ("ptxas, nvcc -arch=sm_90"), or why none (the occupancy then counts
  // threads, blocks and shared memory only).
  std::string registers_from;
  nlohmann::json to_json() const;
};

// The submission's estimate from its counts on cases.emulated; `registers` by kernel name where nvcc reported them.
Estimate estimate_submission(const Problem& p, const GpuModel& gpu, const EstimateCases& cases,
                             const protocol::EmulationCounts& counts,
                             const std::vector<std::pair<std::string, int>>& registers = {});

// One reference's estimated seconds on the modelled case, from its counts (and its kernels' registers).
double estimate_reference(const GpuModel& gpu, const EstimateCases& cases, const protocol::EmulationCounts& counts,
                          const std::vector<std::pair<std::string, int>>& registers = {});

// The estimated score from the three times, as the measured score maps a ratio to points (correctness points
// included: the submission passed every test), into e.score.
void estimate_score(const Problem& p, Estimate& e);

// The human report's lines for a report's `emulation.estimate` (an object to_json() wrote): the estimated score
// line, then per kernel its time, bound and figures, and its `top_lines` worst source lines (by wasted bytes, then
// conflict cycles).
std::vector<std::string> estimate_lines(const nlohmann::json& estimate, size_t top_lines = 3);

}  // namespace hpcjudge
