// Asks for a workspace of 32 bytes per input byte, twice the limit of 16: must get MLE at the first test with input
// (the judge asks workspace_size() before every test and refuses more than 16 x raw_count), whatever solve() does.
// hpcjudge-test: message=workspace_size(1) asked for 32 bytes
#include <cstddef>
#include <cstdint>

extern "C" size_t workspace_size(uint32_t raw_count) { return 32 * static_cast<size_t>(raw_count); }

extern "C" uint32_t solve(uint32_t, const char*, void*, char*, uint32_t*) { return 0; }
