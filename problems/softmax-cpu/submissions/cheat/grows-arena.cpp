// expect: RE
// Cheat on the shared memory: the buffers of a CPU problem live in one memory file that the judge shares with the
// runner (its fd 4). This solution computes a correct softmax and then makes that file larger. The file is sealed
// against shrinking, so the judge can never be made to read past its end, and a size the judge did not set is RE:
// the submission has no business with the file itself.
// hpcjudge-test: message=resized the shared memory file
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
    struct stat st {};
    if (fstat(4, &st) == 0) ftruncate(4, st.st_size + (1 << 20));
}
