// RE found by compute-sanitizer (memcheck, racecheck, synccheck) or, under CPU emulation, by the emulator's
// checks that stand for memcheck's: the messages that name the tool.
#pragma once
#include <optional>
#include <string>

#include "judge/verdicts/outcome.h"

namespace hpcjudge {

// A racecheck or synccheck report (`why`) from `tool`.
std::string race_message(const std::string& why, const std::string& tool);

// A memcheck report on the functional tests.
std::string memcheck_message(const std::string& why);

// Emulated --sanitize on one functional test: device memory solve() left allocated (`held_bytes`) is a leak, as
// memcheck's leak check says; an RE of the emulator's bounds checks, which run anyway, stands for memcheck's
// and is named so. `ck` as it is otherwise.
Checked emulated_memcheck(Checked ck, const std::optional<size_t>& held_bytes);

}  // namespace hpcjudge
