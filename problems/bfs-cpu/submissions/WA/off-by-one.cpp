// Counts vertices on the path instead of edges: the source gets level 1, and every level is one too many. Must get
// WA on the first test (n-1: the source alone, whose level is 0).
#include <cstddef>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::vector<int> queue{source};
    level[source] = 1;  // the bug: the source is 0 edges from itself
    for (size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k)
            if (level[col_idx[k]] == -1) level[col_idx[k]] = level[u] + 1, queue.push_back(col_idx[k]);
    }
}
