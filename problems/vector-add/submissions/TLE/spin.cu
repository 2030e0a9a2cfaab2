// A kernel that spins forever on a volatile device flag that nothing ever sets. Must get TLE: solve returns at once,
// but the judge's cudaDeviceSynchronize() after it never does, and the call is killed after 5 s.
// hpcjudge-test: message=did not return within

__device__ volatile int g_go = 0;  // never set

__global__ void spin(float* C) {
    while (g_go == 0) {  // volatile load each iteration: the loop cannot be optimised away
    }
    C[threadIdx.x] = 0.0f;  // unreachable
}

extern "C" void solve(const float* A, const float* B, float* C, int N) {
    (void)A;
    (void)B;
    (void)N;
    spin<<<1, 1>>>(C);
}
