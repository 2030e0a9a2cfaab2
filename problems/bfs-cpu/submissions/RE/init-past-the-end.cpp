// Initialises the levels with `v <= n`: one element past the end of level, into the judge's guard zone after it.
// Must get RE on the first test ("write past the end of level").
#include <cstddef>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    for (int v = 0; v <= n; ++v) level[v] = -1;  // the bug
    std::vector<int> queue{source};
    level[source] = 0;
    for (size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k)
            if (level[col_idx[k]] == -1) level[col_idx[k]] = level[u] + 1, queue.push_back(col_idx[k]);
    }
}
