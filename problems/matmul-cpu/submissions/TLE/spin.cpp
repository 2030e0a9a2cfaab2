// Spins forever on a volatile flag. Must get TLE: the call never returns and the judge kills it after 5 s.
// hpcjudge-test: message=did not return within 5 s
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    (void)A; (void)B; (void)C; (void)M; (void)N; (void)K;
    volatile int running = 1;
    while (running) {  // volatile read each iteration: the optimiser cannot delete the loop
    }
}
