#include "judge/verdicts/report_verdict.h"

namespace hpcjudge {

void set_verdict(Report& r, Verdict v, const std::string& where, const std::string& message) {
  if (worst(r.verdict, v) == r.verdict && r.verdict != Verdict::AC) return;
  r.verdict = v;
  r.message = where.empty() ? message : where + ": " + message;
}

bool ends_the_tests(Verdict v) { return v != Verdict::AC && v != Verdict::WA; }

bool open_to_sanitizers(Verdict v) { return v == Verdict::AC || v == Verdict::WA; }

}  // namespace hpcjudge
