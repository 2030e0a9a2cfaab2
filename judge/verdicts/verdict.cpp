#include "judge/verdicts/verdict.h"

namespace hpcjudge {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::AC: return "AC";
    case Verdict::WA: return "WA";
    case Verdict::MLE: return "MLE";
    case Verdict::TLE: return "TLE";
    case Verdict::RE: return "RE";
    case Verdict::CE: return "CE";
    case Verdict::SKIP: return "SKIP";
    case Verdict::FAIL: return "FAIL";
    case Verdict::JE: return "JE";
  }
  return "?";
}

namespace {
int rank(Verdict v) {
  switch (v) {
    case Verdict::AC: return 0;
    case Verdict::SKIP: return 1;
    case Verdict::WA: return 2;
    case Verdict::MLE: return 3;
    case Verdict::TLE: return 4;
    case Verdict::RE: return 5;
    case Verdict::CE: return 6;
    case Verdict::FAIL: return 7;
    case Verdict::JE: return 8;
  }
  return 8;
}
}  // namespace

Verdict worst(Verdict a, Verdict b) { return rank(a) >= rank(b) ? a : b; }

}  // namespace hpcjudge
