// Spins forever on a volatile counter. Must get TLE: the call never returns and the judge kills it after 5 s.
// hpcjudge-test: message=did not return within 5 s
extern "C" void solve(const float* input, float* output, int N) {
    (void)input;
    (void)output;
    (void)N;
    volatile unsigned long counter = 0;
    for (;;) counter = counter + 1;  // volatile access is observable, so the optimiser cannot delete the loop
}
