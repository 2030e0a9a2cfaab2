// Many blocks side by side, each filling its static and dynamic shared memory with its own index and reading it
// back across several barriers, and every thread counting itself into one global counter: a block that saw another
// block's shared memory, or a lost atomic, is reported (an exit with status 3).
// (tests/emulate/check_blocks.py, through hpcjudge-count-probe.)
#include <cstdio>
#include <unistd.h>

constexpr int kBlocks = 96, kThreads = 128;

__global__ void own_shared(unsigned* counter, int* wrong) {
  __shared__ int tile[kThreads];
  extern __shared__ int dyn[];
  const int t = threadIdx.x;
  for (int round = 0; round < 8; ++round) {
    tile[t] = blockIdx.x * 1000 + round;
    dyn[t] = blockIdx.x * 1000 + round;
    __syncthreads();
    for (int k = 0; k < kThreads; ++k)
      if (tile[(t + k) % kThreads] != static_cast<int>(blockIdx.x) * 1000 + round ||
          dyn[(t + k) % kThreads] != static_cast<int>(blockIdx.x) * 1000 + round)
        atomicAdd(wrong, 1);
    __syncthreads();
  }
  atomicAdd(counter, 1u);
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  unsigned* counter;
  int* wrong;
  cudaMalloc(&counter, sizeof(unsigned));
  cudaMalloc(&wrong, sizeof(int));
  cudaMemset(counter, 0, sizeof(unsigned));
  cudaMemset(wrong, 0, sizeof(int));
  own_shared<<<kBlocks, kThreads, kThreads * sizeof(int)>>>(counter, wrong);
  unsigned count = 0;
  int bad = 0;
  cudaMemcpy(&count, counter, sizeof count, cudaMemcpyDeviceToHost);
  cudaMemcpy(&bad, wrong, sizeof bad, cudaMemcpyDeviceToHost);
  if (count != kBlocks * kThreads || bad != 0) {
    std::fprintf(stderr, "blocks-apart: %u of %d threads counted, %d reads of another block's shared memory\n", count,
                 kBlocks * kThreads, bad);
    _exit(3);
  }
  cudaFree(counter);
  cudaFree(wrong);
}
