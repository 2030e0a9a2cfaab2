// Asks for a workspace of 32 bytes per input byte, twice the limit of 16: must get MLE at the first test whose input
// is past the limit's 4 MiB floor (the judge asks workspace_size() before every test and refuses more than
// 16 x raw_count + 4 MiB), whatever solve() does.
// hpcjudge-test: message-matches=workspace_size\([0-9]+\) asked for [0-9]+ bytes; the limit is [0-9]+ \(16 bytes per input byte plus 4 MiB\)
#include <cstddef>
#include <cstdint>

extern "C" size_t workspace_size(uint32_t raw_count) { return 32 * static_cast<size_t>(raw_count); }

extern "C" uint32_t solve(uint32_t, const char*, void*, char*, uint32_t*) { return 0; }
