// One file of a class graded by a child judge of its own (`judge SLUG FILE --json ...` with the batch's options,
// isolation and hidden paths), so that a submission that crashes, hangs or floods its output costs only its own
// verdict; the batch's own reports (a refused file, a judge that did not finish) and its progress line.
#pragma once
#include <filesystem>
#include <mutex>
#include <string>

#include "protocol/json.h"
#include "judge/classroom/batch_options.h"
#include "judge/classroom/class_folder.h"
#include "judge/paths.h"
#include "judge/grading/grade.h"
#include "judge/isolation/process.h"
#include "judge/reports/record.h"
#include "judge/reports/report.h"

namespace hpcjudge {

// The participant and file, for a line on the terminal.
std::string job_name(const BatchJob& j);

// A line per graded file and, on a terminal, a progress bar with the time left.
class Progress {
 public:
  explicit Progress(size_t total);
  void started(const BatchJob& j);
  void finished(const BatchJob& j, const std::string& verdict, double score);
  void end();

 private:
  void draw();
  std::mutex m_;
  size_t total_, done_ = 0;
  bool tty_;
  Clock::time_point start_;
  std::string current_;
};

// The options a child judge grades with, as a grading's own options (for the record).
GradeOptions child_options(const BatchOptions& opt);

// A report the batch writes itself, for a file that no child judge graded: the same
// Report every grading writes, with the batch's verdict and message.
Report own_report(const BatchJob& j, Verdict verdict, const std::string& message, const BatchOptions& opt);

void write_report(const BatchJob& j, const nlohmann::json& report);

// The child judge that grades `file` (a participant's, or a canary's in the same place) into `json_out`: the
// batch's options, isolation and hidden paths alike for every file.
SpawnOptions child_judge(const Paths& paths, const BatchOptions& opt, const std::filesystem::path& file,
                         const std::string& who, const std::filesystem::path& json_out, int device);

// A child judge's report, or a JE report of the batch's own where the judge did not finish (no record: the next
// batch grades the file again).
nlohmann::json child_report(const BatchJob& j, const BatchOptions& opt, const RunResult& r,
                            const std::filesystem::path& part);

// Grades one file in a child judge, always leaving a report behind; whatever goes wrong costs that file alone: a
// JE report saying why, and the batch goes on.
void grade_job_alone(const Paths& paths, const BatchOptions& opt, const BatchJob& j, const GradedFrom& record,
                     int device, Progress& progress);

}  // namespace hpcjudge
