// Block 0 waits for a flag that the grid's last block sets: on a GPU both are resident and it ends; under emulation
// it ends only where blocks run side by side (two CPUs or more), and spins for ever on one worker.
// (tests/emulate/check_blocks.py, through hpcjudge-count-probe.)
constexpr int kBlocks = 2;

__global__ void wait_for_last(volatile int* flag, int* out) {
  if (blockIdx.x == kBlocks - 1 && threadIdx.x == 0) *flag = 1;
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*flag == 0) {
    }
    out[0] = 1;
  }
}

extern "C" void solve(const float*, const float*, float*, int) {}

extern "C" void hpcjudge_probe() {
  int *flag, *out;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  wait_for_last<<<kBlocks, 32>>>(flag, out);
  cudaDeviceSynchronize();
  cudaFree(flag);
  cudaFree(out);
}
