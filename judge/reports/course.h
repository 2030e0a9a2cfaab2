// Reports in the formats course tools read, made from a report's JSON (what
// Report::to_json() writes and `judge batch` keeps):
//   Gradescope's autograder results (results.json): the total score, and one test
//     entry per functional test and per performance case of the problem, each with its
//     score, max_score, status ("passed"/"failed") and output text. The correctness
//     points are shared equally by the functional tests and given only with AC on all
//     of them (so a test that passed shows 0 when another failed, and says why); the
//     performance points are shared equally by the performance cases run on this
//     machine, each given the share the score earned (a bonus shows as a score above
//     max_score). The entries' scores add up to the top-level score.
//   JUnit XML (GitHub Classroom, CI systems): a <testsuite> per problem with a
//     testcase "compile", one per functional test and one per performance case; a
//     wrong answer is a <failure>, a crash, time-out, memory limit or the judge's FAIL
//     an <error>, what was not run <skipped> (with the reason). Every text is valid
//     UTF-8 and escaped; control characters become U+FFFD.
#pragma once
#include "protocol/json.h"
#include <string>
#include <vector>

#include "sdk/problem.h"

namespace hpcjudge {

nlohmann::json gradescope_results(const Problem& p, const nlohmann::json& report);

// One <testsuite> element for a problem's report, and its counts.
struct JUnitSuite {
  std::string xml;
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  double time = 0;
};
JUnitSuite junit_testsuite(const Problem& p, const nlohmann::json& report);

// A whole document: <testsuites name="..."> around the suites, their counts added up.
std::string junit_document(const std::string& name, const std::vector<JUnitSuite>& suites);

}  // namespace hpcjudge
