// The cheat: remembers the last (input, output, N) and, called again with the same pointers and size, copies the
// remembered answer without looking at the input. Must get WA: the last functional test runs again with new
// inputs in the same buffers (and timed runs alternate two input sets), so the repeat gets a stale answer.
// hpcjudge-test: message=(new inputs)
#include <algorithm>
#include <cmath>
#include <vector>

static const float* last_input = nullptr;
static float* last_output = nullptr;
static int last_n = -1;
static std::vector<float> remembered;

extern "C" void solve(const float* input, float* output, int N) {
    if (input == last_input && output == last_output && N == last_n) {
        std::copy(remembered.begin(), remembered.end(), output);
        return;
    }
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::max(m, input[i]);
    double s = 0.0;
    for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
    last_input = input;
    last_output = output;
    last_n = N;
    remembered.assign(output, output + N);
}
