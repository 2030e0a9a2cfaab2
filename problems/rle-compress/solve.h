// rle-compress: the two functions your solution.cu must define.
// The judge force-includes this header when it compiles your file.
#pragma once
#include <cstddef>
#include <cstdint>
// Bytes of device scratch memory solve() needs for raw_count input bytes (at most 16 * raw_count).
extern "C" size_t workspace_size(uint32_t raw_count);
// Returns the number of runs; run i is compressed_lengths[i] copies of compressed_data[i].
extern "C" uint32_t solve(uint32_t raw_count, const char* raw, void* workspace, char* compressed_data,
                          uint32_t* compressed_lengths);
#ifdef HPCJUDGE_SUBMISSION
// Makes the link fail with "undefined reference to ..." when one of them is missing.
__attribute__((used)) static void* const hpcjudge_solve_anchor = (void*)&solve;
__attribute__((used)) static void* const hpcjudge_workspace_anchor = (void*)&workspace_size;
#endif
