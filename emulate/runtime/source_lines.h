// An instruction of the submission to its source line, from the submission library's DWARF line table (GCC's
// libbacktrace): for counts per line (counters.cpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace hpcjudge_emu {

struct SourceLine {
  std::string file;  // the submission's source file as compiled, its base name
  int line = 0;
};

// The line of the submission's own file that the instruction before `return_address` belongs to: of the frames
// inlined there, the innermost in that file (a helper of the emulator's headers, inlined, counts at its caller's
// line). The submission's file is the one its solve() is defined in. nullopt: no line in it (code of a header or
// library not inlined into the submission, or no line table).
std::optional<SourceLine> submission_line(uintptr_t return_address);

}  // namespace hpcjudge_emu
