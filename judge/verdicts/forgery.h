// FAIL: a time that cannot be trusted, never a score. Each rule gives the case's (or the grade's) message, or
// none: a time faster than the hardware allows, the submission's own figure disagreeing with the judge's clock,
// and the judge or a rival slowed while only the submission's code ran as the judge's user.
#pragma once
#include <optional>
#include <string>

#include "sdk/problem.h"
#include "judge/isolation/scheduling.h"
#include "judge/machine/calibration.h"
#include "judge/timing/interval.h"

namespace hpcjudge {

// The runner's own figure may only confirm the judge's clock, which is what is
// scored. The judge's interval also holds the wake-ups of the runner and of the
// judge, which a busy machine makes long (its run queue), so the two figures
// agree only loosely, and the judge's fastest run up to the reply is the one to
// compare (CallOutcome::replied_s: what the runner's figure claims ends there; the
// stop that ends a call whose threads went on past the reply is not the runner's
// to see): a median the runner reports below half of it (and below it by three
// times the round trip's spread) is a time the submission's process made up, and
// the case is FAIL. On the H200's 16-core host, against the whole interval,
// softmax-cpu's fast reference was FAIL at n1M (296 us reported, 632 us at the
// fastest): its pool of 16 OpenMP threads going back to sleep after the reply
// moved each call's end to the stop.
std::optional<std::string> disagreement(double reported_s, double judged_s, const RoundTrip& rt);

// A case whose calls the judge could not resolve (judge_error.h's unresolved_timing: its median 0 past the round
// trip) while a reference timed beside it, on the same inputs and in the same runs, took `rival_median_s` past it:
// the machine resolved the reference's calls, so the submission's ended before work the reference's take time for
// (a reply sent while its kernel still runs, which the judge's clock cannot follow into another process's device
// context: vector-add's early-reply-kernel-in-flight on an H100, 0.0 us at n32M beside the fast reference's
// 239 us). The rival's median must stand clear of the round trip's noise (3 x its interquartile range), else both
// are unresolved alike and the case stays JE. FAIL's message, or none.
std::optional<std::string> early_reply_forgery(double median_s, double rival_median_s, const std::string& rival,
                                               const RoundTrip& rt);

// A call's whole interval (nothing subtracted) under the case's physical floor (judge/machine/calibration.h:
// `floor_s` for `model` at `peaks`): the time reported cannot be real.
std::optional<std::string> faster_than_hardware_forgery(double interval_s, const Model& model, double floor_s,
                                                        const Peaks& peaks);

// The judge's own thread (the one that times every call) slowed since the grade began
// (judge/isolation/scheduling.h): fewer CPUs than it may have (its CPUs are put back as they were, which any
// process may do for its own threads, and what the machine then gives it is what it may have: a cpuset made
// smaller is no one's forgery), a higher nice value or SCHED_IDLE.
std::optional<std::string> judge_slowed(const std::optional<Scheduling>& started);

// The judge (`judge_why`) or a rival waiting beside it (`rival_why`) slowed: only the submission's code ran as
// the judge's user meanwhile, so a judge slowed on every call blurs every side's time into its own. The
// submission's FAIL message, or none.
std::optional<std::string> slowing_forgery(std::optional<std::string> judge_why, std::optional<std::string> rival_why);

}  // namespace hpcjudge
