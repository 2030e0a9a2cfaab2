// Grading a whole class: `judge batch DIR`. DIR holds one folder per
// participant (the folder's name is the participant), each with solution
// files named by problem slug (softmax-cpu.cpp, vector-add.cu, ...). Every
// file is graded by its own child judge process, so a submission that
// crashes, hangs or floods its output costs only its own verdict. Reports go
// to RESULTS/<participant>/<slug>.json as they finish; then the leaderboard.
//
// A report is kept only while it is current: its record (judge/reports/record.h)
// is what this batch would grade the file from, and it is not a SKIP that this
// machine can run. Every other file is regraded, and the batch says why; a report
// whose source is gone is removed, and listed. A noisy grade (the machine was busy while it was timed: its
// score's "noise") is graded once more at the end of the batch, and the batch says which stay noisy. RESULTS/batch.json keeps the class's
// problem list, what was not graded and the packs' checks, for the leaderboard.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/paths.h"
#include "judge/classroom/batch_options.h"
#include "judge/classroom/class_folder.h"

namespace hpcjudge {



// Before a problem's files are graded, its canary (the fast reference graded as they would be, functional tests
// only); a problem whose canary is neither AC nor SKIP has none of its files graded. Returns the exit status: 0
// when every file got a report and none is JE; 1 when the sandbox cannot start (nothing graded), a canary failed
// or a file got JE.
int run_batch(const Paths& paths, const BatchOptions& opt);

}  // namespace hpcjudge
