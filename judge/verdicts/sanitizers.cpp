#include "judge/verdicts/sanitizers.h"

namespace hpcjudge {

std::string race_message(const std::string& why, const std::string& tool) {
  return "race: " + why + " (" + tool + ")";
}

std::string memcheck_message(const std::string& why) { return "memcheck: " + why; }

Checked emulated_memcheck(Checked ck, const std::optional<size_t>& held_bytes) {
  if (ck.verdict == Verdict::AC && held_bytes && *held_bytes > 0)
    return {Verdict::RE, "memcheck: solve() left " + std::to_string(*held_bytes) +
                             " bytes of device memory allocated that it never freed (a leak; CPU emulation's leak check)"};
  if (ck.verdict == Verdict::RE) ck.message = "memcheck: " + ck.message + " (CPU emulation's checks)";
  return ck;
}

}  // namespace hpcjudge
