// The judge's human output: one line per test as it finishes, the
// performance table, the verdict and the score. Colour only on a terminal
// (and never with NO_COLOR set).
#pragma once
#include <cstdio>
#include <string>

#include "judge/grading/grade.h"

namespace hpcjudge {

struct Style {
  bool color = false;
  bool tty = false;
  static Style detect(FILE* f);
  std::string paint(Verdict v, const std::string& text) const;
  std::string dim(const std::string& text) const;
};

std::string format_seconds(double s);  // "412 us", "1.23 ms", "2.35 s"

class HumanPrinter : public Listener {
 public:
  HumanPrinter(const Problem& p, Style style) : problem_(p), style_(style) {}
  void compiled(const Report& r) override;
  void test_done(const TestResult& t) override;
  void bench_start(const Case& c) override;
  void bench_done(const BenchResult& b) override;
  void note(const std::string& text) override;
  void finished(const Report& r);

 private:
  const Problem& problem_;
  Style style_;
  bool bench_header_ = false;
  bool progress_ = false;  // a progress line is on screen
  void clear_progress();
};

// One line per problem, for `judge all`.
std::string summary_line(const Report& r, const Style& style);

}  // namespace hpcjudge
