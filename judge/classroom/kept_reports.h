// Which reports in RESULTS a batch keeps: a report is kept while it is current (its record is what this batch
// would grade the file from, and it is no JE, and no SKIP this machine can run); a report whose file is gone is
// removed.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "judge/classroom/batch_options.h"
#include "judge/classroom/class_folder.h"
#include "judge/paths.h"
#include "judge/reports/record.h"

namespace hpcjudge {

// Why a file's report is not current, or "" when it is (or there is none yet).
std::string regrade_reason(const Paths& paths, const BatchJob& j, const GradedFrom& now, const BatchOptions& opt);

// Reports in RESULTS with no file behind them any more (the file deleted, the participant's
// folder gone, the file no longer graded): removed, each listed. With `only` (a
// --participant batch) only that participant's folder is looked at.
std::vector<std::string> remove_stale_reports(const std::filesystem::path& out, const ClassList& c,
                                              const std::optional<std::string>& only);

}  // namespace hpcjudge
