// The judge's human output: one line per test as it finishes, the
// performance table, the verdict and the score. Colour only on a terminal
// (and never with NO_COLOR set).
#pragma once
#include <chrono>
#include <cstdio>
#include <set>
#include <string>

#include "judge/grading/grade_options.h"
#include "judge/reports/text.h"

namespace hpcjudge {

struct Style {
  bool color = false;
  bool tty = false;
  static Style detect(FILE* f);
  std::string paint(Verdict v, const std::string& text) const;
  std::string dim(const std::string& text) const;
};

// format_seconds (judge/reports/text.h): "412.0 us", "1.234 ms", "2.350 s" on the terminal.

struct HumanOptions {
  bool verbose = false;       // every listed mismatch of a wrong answer, not the concise block
  size_t output_lines = 20;   // of what the submission printed, shown on the terminal
};

class HumanPrinter : public Listener {
 public:
  HumanPrinter(const Problem& p, Style style, HumanOptions opt = {});
  void compiled(const Report& r) override;
  void test_done(const TestResult& t) override;
  void bench_start(const Case& c) override;
  void bench_progress(const Case& c, const TimingLoop::Progress& p) override;
  void bench_done(const BenchResult& b) override;
  void note(const std::string& text) override;
  void finished(const Report& r);

 private:
  const Problem& problem_;
  Style style_;
  HumanOptions opt_;
  size_t test_width_ = 22;   // the test-name column: the longest name, "(new inputs)" included
  size_t bench_width_ = 20;  // the case-name column
  bool bench_header_ = false;
  bool progress_ = false;  // a progress line is on screen
  std::set<std::string> hints_shown_;  // each "hint: ..." line once a grade (test_done)
  // When a line was last printed: a progress line comes once the output has been still for a while.
  std::chrono::steady_clock::time_point printed_at_ = std::chrono::steady_clock::now();
  void printed() { printed_at_ = std::chrono::steady_clock::now(); }
  void clear_progress();
};

// What the submission printed, for the terminal: the first `lines` lines, each
// marked "  | " (control characters shown as '?'), then a count of the rest.
std::string submission_output(const Report& r, size_t lines);

// One line per problem, for `judge all`.
std::string summary_line(const Report& r, const Style& style);

}  // namespace hpcjudge
