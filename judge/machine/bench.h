// `judge bench` (make bench): for every problem this machine can run, the
// baseline and fast reference solutions and the vendor anchor
// (problems/<slug>/solutions/{baseline,fast,vendor}.*) graded and timed side
// by side in one run, as one table: each case's times, the fast reference's
// rate and share of the measured peak, and its speed against the anchor (the
// vendor's time where there is a vendor anchor, else the peak itself). Also
// written as JSON and Markdown under bench/results/.
#pragma once
#include <string>
#include <vector>

#include "judge/grading/grade.h"

namespace hpcjudge {

struct BenchOptions {
  std::vector<std::string> slugs;  // empty: every problem
  std::string out = "bench/results";
  std::string name;  // the results' file name (default: from the GPU or CPU model)
};

int run_bench_table(const Paths& paths, const GradeOptions& opt, const BenchOptions& b);

}  // namespace hpcjudge
