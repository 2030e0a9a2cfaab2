// Verdicts, worst first: CE, RE, TLE, MLE, WA, AC. SKIP: this machine cannot
// run the problem. FAIL: a time that cannot be trusted (faster than the hardware,
// a timing slowed or forged). JE: the judge's own fault (a runner or compiler that
// could not start here, a child judge that did not finish, an exception in the
// judge), never the submission's: never kept as current, never ranked.
#pragma once
#include <string>

namespace hpcjudge {

enum class Verdict { AC, WA, MLE, TLE, RE, CE, SKIP, FAIL, JE };

const char* verdict_name(Verdict v);
// The worse of two verdicts (JE over everything, then FAIL; SKIP over AC only).
Verdict worst(Verdict a, Verdict b);

}  // namespace hpcjudge
