// Keeps its own visited flags and writes a level only where it reaches a vertex, as if level started at -1. It
// starts as garbage (the judge fills it with INT32_MIN), so every unreachable vertex is wrong. Must get WA on the
// test m-0 (1,000 vertices, no edges: all but the source unreachable).
#include <cstddef>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    std::vector<char> seen(static_cast<size_t>(n), 0);
    std::vector<int> queue{source};
    seen[static_cast<size_t>(source)] = 1;
    level[source] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
            const int w = col_idx[k];
            if (!seen[static_cast<size_t>(w)]) seen[static_cast<size_t>(w)] = 1, level[w] = level[u] + 1, queue.push_back(w);
        }
    }
}
