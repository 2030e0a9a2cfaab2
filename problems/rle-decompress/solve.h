// rle-decompress: the two functions your solution.cu must define.
// The judge force-includes this header when it compiles your file.
#pragma once
#include <cstddef>
#include <cstdint>
// Bytes of device scratch memory solve() needs for compressed_count runs (at most 16 * the input's bytes).
extern "C" size_t workspace_size(uint32_t compressed_count);
// Writes run i as compressed_lengths[i] copies of compressed_data[i], runs in order; returns the bytes written.
extern "C" uint32_t solve(uint32_t compressed_count, const char* compressed_data, const uint32_t* compressed_lengths,
                          void* workspace, char* raw, uint32_t raw_capacity);
#ifdef HPCJUDGE_SUBMISSION
// Makes the link fail with "undefined reference to ..." when one of them is missing.
__attribute__((used)) static void* const hpcjudge_solve_anchor = (void*)&solve;
__attribute__((used)) static void* const hpcjudge_workspace_anchor = (void*)&workspace_size;
#endif
