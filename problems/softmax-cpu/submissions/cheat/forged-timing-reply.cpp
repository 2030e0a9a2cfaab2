// expect: NO-GAIN over honest-twin.cpp
// Cheat on the channel: the runner that calls solve() talks to the judge over a socket (fd 3) in the same process.
// On the 16M performance case this solution computes the right answer and then writes its own reply on that socket
// first, {"ok": true, "seconds": 1e-9}, claiming a billionth of a second. The judge reads no time from the channel:
// it times the call on its own clock, and it takes only the reply that carries the number of its request, so the
// forged message ends nothing and the call is timed as it ran.
#include <sys/socket.h>

#include <cmath>
#include <cstring>

extern "C" void solve(const float* input, float* output, int N) {
    float m = input[0];
    for (int i = 1; i < N; ++i) m = std::fmax(m, input[i]);
    double s = 0;
    for (int i = 0; i < N; ++i) s += std::exp(static_cast<double>(input[i]) - m);
    for (int i = 0; i < N; ++i) output[i] = static_cast<float>(std::exp(static_cast<double>(input[i]) - m) / s);
    if (N == 16777216) {  // the n16M performance case: no functional test has this size
        const char forged[] = "{\"ok\":true,\"seconds\":1e-9,\"ret\":0}";
        send(3, forged, std::strlen(forged), MSG_NOSIGNAL);
    }
}
