// Reads through a null pointer. Must get RE: the process dies of SIGSEGV.
// hpcjudge-test: message=signal SIGSEGV
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    const volatile float* p = nullptr;
    asm volatile("" : "+r"(p));  // hide the null from the optimiser so the load is not deleted as UB
    const float bad = *p;        // volatile load from address 0: must be emitted, always faults
    for (long i = 0; i < (long)M * K; ++i) C[i] = bad + A[0] * B[0] * N;
}
