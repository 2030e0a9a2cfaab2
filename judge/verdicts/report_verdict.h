// A report's verdict over a grade: the first of the worst (judge/verdicts/verdict.h: worst()) is kept, with the
// message of the step that gave it; and which verdicts let the grade go on.
#pragma once
#include <string>

#include "judge/reports/report.h"
#include "judge/verdicts/verdict.h"

namespace hpcjudge {

// `v` with `message`, prefixed by `where` ("test n1M", "performance case n16M") where not empty, unless the
// report already holds a verdict other than AC at least as bad.
void set_verdict(Report& r, Verdict v, const std::string& where, const std::string& message);

// Whether a functional test's verdict ends the functional tests (Kattis-style): a run-time error or a kill
// does; wrong answers do not.
bool ends_the_tests(Verdict v);

// Whether a sanitizer's finding (RE) still counts: over AC and WA only (a race is worse than the wrong answer
// it may cause).
bool open_to_sanitizers(Verdict v);

}  // namespace hpcjudge
