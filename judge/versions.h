// The versions compiled into the judge, made at build time by cmake/versions.cmake
// (which says exactly which files each is a digest of):
//   judge_version()      "<project version>+<12 hex digits>": the project's version and a
//                        digest of the code that decides every problem's verdicts and times
//   problem_version(s)   the SHA-256 of problem s's statement, signature, description (tests,
//                        cases, generator, tolerance, points), the CPU reference code it
//                        includes and its baseline and fast reference solutions; "" for no
//                        such problem
// A report records both (judge/reports/record.h): a result graded by another judge or
// against another version of its problem is regraded by `judge batch`.
#pragma once
#include <string>
#include <string_view>

namespace hpcjudge {

const char* judge_version();
std::string problem_version(std::string_view slug);

}  // namespace hpcjudge
