// prefix-sum: the one function your solution.cu must define.
// The judge force-includes this header when it compiles your file.
#pragma once
// output[i] = input[0] + ... + input[i] for 0 <= i < N (inclusive scan); device pointers.
extern "C" void solve(const int* input, int* output, int N);
#ifdef HPCJUDGE_SUBMISSION
// Makes the link fail with "undefined reference to `solve'" when solve() is missing.
__attribute__((used)) static void* const hpcjudge_solve_anchor = (void*)&solve;
#endif
