// Noisy grades (the machine was busy while they were timed: a report's "score"."noise"): graded once more at the
// end of a batch, and the noisy reports kept from an earlier batch said.
#pragma once
#include <vector>

#include "judge/classroom/batch_options.h"
#include "judge/classroom/class_folder.h"
#include "judge/paths.h"

namespace hpcjudge {

// The jobs whose report is noisy.
std::vector<BatchJob> noisy_jobs(const std::vector<BatchJob>& jobs);

// Grades each noisy job once more, one at a time, at the end of the batch: the regrade replaces the first
// grade unless it is noisy too with a wider interval. Says which stay noisy.
void regrade_noisy(const Paths& paths, const BatchOptions& opt, const std::vector<BatchJob>& noisy);

// The noisy reports kept from an earlier batch (of `jobs`, those not `graded` now), which only --regrade-noisy
// grades again.
void say_kept_noisy(const std::vector<BatchJob>& jobs, const std::vector<BatchJob>& graded);

}  // namespace hpcjudge
