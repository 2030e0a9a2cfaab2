// One case laid out for calls, and what the judge verifies after each call:
// the per-call mechanics of grading, apart from its flow (judge/grading/grade.cpp).
//
// The case's buffers live in the session's image (memory of the judge's own):
// the generator writes the inputs there, the reference reads them there, and
// prepare() adds the sentinels and guard zones. The session copies the image
// into the runner's memory just before the call and reads the buffers back
// after it (Session::result()); check_call compares what came back with the
// image (guards, inputs) and the reference (outputs).
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "sdk/arena.h"
#include "sdk/problem.h"
#include "judge/verdicts/outcome.h"
#include "judge/isolation/session.h"

namespace hpcjudge {

struct LaidCase {
  Signature sig;
  ArenaLayout layout;
  std::vector<BufferView> views;   // into the session's image
  size_t device_memory_limit = 0;  // GPU problems: what solve() may allocate itself
  std::optional<Checked> failure;  // workspace_size() failed or asked for too much
  // prepare() laid the sentinels and guards in the image: nothing writes there after (the runner's
  // memory and the read-back are other copies), so the next input sets of the case keep them.
  bool sentinels_laid = false;
  double inputs_s = 0, setup_s = 0;  // lay_out()'s per-case inputs (generated, read or copied), and setup()
  Buffers buffers() const { return Buffers(views); }
  // The same buffers in another copy of the arena (the one read back after a call).
  Buffers buffers_at(const std::byte* base) const;
};

struct LayOut {
  uint64_t seed = 0;                      // of the per-case inputs
  const LaidCase* same_inputs = nullptr;  // the same case laid out for another session: its inputs copied
  std::filesystem::path inputs_cache;     // where slow per-case inputs are kept (case_inputs_cache.h); "": none
  // A rival's (the judge's own reference solution): its setup()'s buffers are not read back or checked. On the
  // H200 the unpinned read-back of spmv's uniform-2^22 case took 238 ms of each grade's lay-out.
  bool rival = false;
};

// Sizes the workspace (asking the submission's workspace_size(), untimed), plans
// the arena and makes room for it in the session, and generates the case's
// per-case inputs from `how.seed` (or reads them from the inputs cache), or copies them from
// `how.same_inputs`, the same case laid out for another session (a rival beside the submission:
// generating a case's matrix or graph again would cost as much as the first time). Where the
// signature has a setup(), calls it (untimed, under the problem's setup limit)
// with the per-call inputs still sentinels, and checks the guard zones and
// inputs after it (not a rival's: LayOut::rival): a crash or a write past a buffer is RE, its time limit TLE,
// the failure is in `failure`.
LaidCase lay_out(const Problem& p, const Case& c, Session& s, const LayOut& how);

// The largest of the cases' layouts before anything is asked of a submission: the most any of them copies
// (ArenaLayout::copied, whatever the workspace), and the most any holds with its workspace at the problem's
// limit. What a grade's pool of pinned memory prepares while the submission compiles (PinnedImages::prepare).
struct LargestLayout {
  size_t total = 0;
  size_t copied = 0;
};
LargestLayout largest_layout(const Problem& p, const std::vector<Case>& cases);

// Copies the inputs of `from` into the same buffers of `to`, the same case laid
// out for another session (whose workspace may place the buffers elsewhere):
// the per-case inputs, or else each call's.
void copy_inputs(const LaidCase& from, const LaidCase& to, bool per_case);

// Outputs to their sentinel and every byte between buffers to the guard byte, in
// the image (once per laid-out case: LaidCase::sentinels_laid); the generated scalars
// (Signature::generated) take their values from it, at every call.
void prepare(LaidCase& l, std::byte* image);

// What a call's outputs are checked against: the reference's answer, or (for a
// spot-checked case) a randomised check seeded by `draw`.
struct Against {
  const Expected* expected = nullptr;
  uint64_t draw = 0;
};

// The call's verdict: how it ended, else the guard zones, the inputs, then the
// return value and outputs (sdk/verify.h, or the problem's spot check).
Checked judge_call(const Problem& p, const Case& c, const LaidCase& l, const Against& against, const CallOutcome& o,
                   const std::byte* image, const std::byte* result);
// judge_call() without the guard zones and inputs: how it ended, the return value and the outputs alone (a
// rival's call, read back with ReadBack::Outputs).
Checked check_outputs(const Problem& p, const Case& c, const LaidCase& l, const Against& against,
                      const CallOutcome& o, const std::byte* result);

}  // namespace hpcjudge
