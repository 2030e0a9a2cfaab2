// An independent oracle for the tests: a plain queue BFS over CSR, levels from s (-1 unreachable).
#pragma once
#include <cstdint>
#include <queue>
#include <span>
#include <vector>

inline std::vector<int32_t> queue_bfs(std::span<const int32_t> rp, std::span<const int32_t> ci, int32_t s) {
  std::vector<int32_t> level(rp.size() - 1, -1);
  std::queue<int32_t> q;
  level[s] = 0;
  q.push(s);
  while (!q.empty()) {
    const int32_t u = q.front();
    q.pop();
    for (int32_t k = rp[u]; k < rp[u + 1]; ++k)
      if (level[ci[k]] < 0) level[ci[k]] = level[u] + 1, q.push(ci[k]);
  }
  return level;
}
