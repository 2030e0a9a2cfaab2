// What the GPU probes of lab/ share (switch_probe.cu, l2_probe.cu, busy_probe.cu, unlock_probe.cu): a CUDA call
// checked, a driver call's result by name, the monotonic clock in µs, and a sample's 10th percentile, median and
// 90th percentile.
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace probe {

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// A driver call's result by name (CUDA_ERROR_NOT_READY, ...); "?" for one the driver does not name.
inline const char* err_name(CUresult r) {
  const char* name = nullptr;
  cuGetErrorName(r, &name);
  return name ? name : "?";
}

inline double now_us() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return 1e6 * static_cast<double>(t.tv_sec) + 1e-3 * static_cast<double>(t.tv_nsec);
}

struct Quantiles {
  double p10, med, p90;
};

inline Quantiles quantiles(std::vector<double> v) {
  if (v.empty()) return {0, 0, 0};
  std::sort(v.begin(), v.end());
  const auto at = [&](double q) { return v[static_cast<size_t>(q * static_cast<double>(v.size() - 1))]; };
  return {at(0.1), at(0.5), at(0.9)};
}

// The runner's side, a child process forked before any CUDA call of the parent's (a context of its own): it
// runs `body(in, out)`, which reads one byte per request from `in`, writes one byte back on `out` once it is
// done (and one first, once it is ready), and never returns.
struct Child {
  pid_t pid = -1;
  int from = -1, to = -1;  // the parent's ends
  // One request, waited for.
  char ask(char c) const {
    if (write(to, &c, 1) != 1 || read(from, &c, 1) != 1) std::exit(1);
    return c;
  }
  // One request, not waited for (the child's 'q' ends it without a reply).
  void tell(char c) const {
    if (write(to, &c, 1) != 1) std::exit(1);
  }
};

template <class Body>
Child spawn(Body body) {
  int to_child[2], to_parent[2];
  if (pipe(to_child) || pipe(to_parent)) std::exit(1);
  const pid_t pid = fork();
  if (pid == 0) {
    body(to_child[0], to_parent[1]);
    std::exit(0);
  }
  char c = 0;
  if (read(to_parent[0], &c, 1) != 1) std::exit(1);  // ready
  return {pid, to_parent[0], to_child[1]};
}

}  // namespace probe
