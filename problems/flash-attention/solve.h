// flash-attention: the one function your solution.cu must define.
// The judge force-includes this header when it compiles your file.
#pragma once
extern "C" void solve(const float* Q, const float* K, const float* V, float* output, int N, int d_model, int h);
#ifdef HPCJUDGE_SUBMISSION
// Makes the link fail with "undefined reference to `solve'" when solve() is missing.
__attribute__((used)) static void* const hpcjudge_solve_anchor = (void*)&solve;
#endif
