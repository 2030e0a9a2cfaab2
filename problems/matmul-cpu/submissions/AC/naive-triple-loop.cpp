// The textbook i-j-k triple loop, B read down its columns: seconds a run at 1024^3. Must get AC; at 1024^3 its
// timing loop runs long enough that the judge's output, piped, shows how many runs are done and the time left.
// hpcjudge-test: bench
// hpcjudge-test: args=--no-side-by-side
// hpcjudge-test: output-matches=timing 1024\^3 \([^)]*\): [0-9]+ runs? done, [^,]+ so far, about [0-9.]+ [^ ]+ left
extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    for (int i = 0; i < M; ++i)
        for (int j = 0; j < K; ++j) {
            float sum = 0.0f;
            for (int k = 0; k < N; ++k) sum += A[(long)i * N + k] * B[(long)k * K + j];
            C[(long)i * K + j] = sum;
        }
}
