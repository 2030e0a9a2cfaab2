// A grade's progress for a parent process (`judge serve`'s grader, judge/cli's hidden --progress FILE): one JSON
// line appended per stage change, flushed as written, so a parent reading the file sees the stage as it happens.
//   {"state":"testing"}   the file compiled: the functional tests run
//   {"state":"timing"}    the first performance case's timing began
// The parent reads the lines it has not read yet with read_progress_states.
#pragma once
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "judge/grading/grade_options.h"

namespace hpcjudge {

class ProgressFile : public Listener {
 public:
  explicit ProgressFile(const std::filesystem::path& file);  // opened for appending; std::runtime_error if it can't
  ~ProgressFile() override;
  ProgressFile(const ProgressFile&) = delete;
  ProgressFile& operator=(const ProgressFile&) = delete;
  void compiled(const Report& r) override;
  void bench_start(const Case& c) override;

 private:
  void write_state(const char* state);
  FILE* f_ = nullptr;
  bool timing_ = false;
};

// Every event handed to each listener in turn (the terminal's printer and a ProgressFile).
class FanOut : public Listener {
 public:
  explicit FanOut(std::vector<Listener*> to) : to_(std::move(to)) {}
  void compiled(const Report& r) override;
  void test_done(const TestResult& t) override;
  void bench_start(const Case& c) override;
  void bench_progress(const Case& c, const TimingLoop::Progress& p) override;
  void bench_done(const BenchResult& b) override;
  void note(const std::string& text) override;

 private:
  std::vector<Listener*> to_;
};

// The states of the whole lines written past byte `offset` of `file`, in order; `offset` moves past them (a line
// still being written is left for the next call). A missing file or an unreadable line: none.
std::vector<std::string> read_progress_states(const std::filesystem::path& file, size_t& offset);

}  // namespace hpcjudge
