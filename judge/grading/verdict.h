// Verdicts, worst first: CE, RE, TLE, MLE, WA, AC. SKIP: this machine cannot
// run the problem. FAIL: the judge's own fault, never the submission's.
#pragma once
#include <string>

namespace hpcjudge {

enum class Verdict { AC, WA, MLE, TLE, RE, CE, SKIP, FAIL };

const char* verdict_name(Verdict v);
// The worse of two verdicts (FAIL over everything, SKIP over AC only).
Verdict worst(Verdict a, Verdict b);

}  // namespace hpcjudge
