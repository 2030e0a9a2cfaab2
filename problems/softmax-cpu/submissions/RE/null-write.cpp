// Writes through a null pointer. Must get RE: the process dies of SIGSEGV.
// hpcjudge-test: message=signal SIGSEGV
extern "C" void solve(const float* input, float* output, int N) {
    volatile float* p = nullptr;
    asm volatile("" : "+r"(p));  // hide the null from the optimiser so the store is not deleted as UB
    *p = input[0];               // volatile store to address 0: must be emitted, always faults
    for (int i = 0; i < N; ++i) output[i] = 1.0f / N;
}
