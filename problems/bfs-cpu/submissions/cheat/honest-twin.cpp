// expect: AC
// The honest twin of recognises-the-grid.cpp: the same serial queue BFS, used on every graph, with no shortcut for
// graphs whose sizes are a grid's. Must get AC, so that its twin's WA is the closed form's alone.
#include <cstddef>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::vector<int> queue{source};
    level[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k)
            if (level[col_idx[k]] == -1) level[col_idx[k]] = level[u] + 1, queue.push_back(col_idx[k]);
    }
}
