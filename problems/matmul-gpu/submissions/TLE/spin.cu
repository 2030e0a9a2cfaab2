// A kernel that spins forever on a volatile device flag that nothing ever sets. Must get TLE: solve returns at once,
// but the judge's cudaDeviceSynchronize() after it never does, and the call is killed after 5 s. Under CPU
// emulation (20 s) the TLE names the kernel and the thread still running in it.
// hpcjudge-test: message=did not return within
// hpcjudge-test: emulated-message=under CPU emulation, kernel spin (grid (1,1,1), blocks of (1,1,1) threads) was still running in block (0,0,0)
// hpcjudge-test: emulated-message=1 of its 1 threads had not ended: (0,0,0) running

__device__ volatile int g_go = 0;  // never set

__global__ void spin(float* C) {
    while (g_go == 0) {  // volatile load each iteration: the loop cannot be optimised away
    }
    C[threadIdx.x] = 0.0f;  // unreachable
}

extern "C" void solve(const float* A, const float* B, float* C, int M, int N, int K) {
    (void)A;
    (void)B;
    (void)M;
    (void)N;
    (void)K;
    spin<<<1, 1>>>(C);
}
