// The emulator's counts of a call (emulate/runtime/runner.h) as the protocol carries them
// (protocol/emulation_counts.h): the same figures under the same names.
#pragma once
#include "emulate/runtime/runner.h"
#include "protocol/emulation_counts.h"

namespace hpcjudge {

protocol::EmulationCounts to_protocol(const hpcjudge_emu::runner::Counts& c);

}  // namespace hpcjudge
