// Grading one file: compile, run every functional test in the runner child,
// check each output in the judge's own process, then time the performance
// cases and score. Listener hears each step as it happens (progress).
#pragma once
#include <filesystem>
#include <string>

#include "sdk/problem.h"
#include "judge/grading/grade_options.h"
#include "judge/paths.h"
#include "judge/reports/report.h"
#include "judge/timing/score.h"

namespace hpcjudge {

// Whether this judge was built with the CUDA emulator (x86-64).
bool emulator_built();

// The machine as problem p uses it (MachineInfo::fingerprint()): the CPU, cores,
// threads and compiler, and for a GPU problem on a machine that can run it, the GPU.
std::string machine_identity(const Problem& p, const Paths& paths, int threads, int device);

// The record a grading of p with these options, of a source with this SHA-256, on this
// machine, would have (what grade() writes into the report; what `judge batch` compares).
GradedFrom graded_from(const Problem& p, const std::string& source_sha256, const GradeOptions& opt,
                       const Paths& paths);

Report grade(const Problem& p, const std::filesystem::path& src, const GradeOptions& opt, const Paths& paths,
             Listener& listener);

// problems/<slug>/solutions/{baseline,fast}.<ext>, graded and timed once per machine and again whenever either
// file changes (the cache: judge/timing/score.h).
Scale load_or_measure_scale(const Problem& p, const Paths& paths, const GradeOptions& opt, const MachineInfo& m,
                            Listener& listener);

}  // namespace hpcjudge
