// Enqueues every neighbour, visited or not, and sets a level only where none was set: on a graph with a cycle (the
// test pair: 0 -> 1 and 1 -> 0) the two vertices enqueue each other for ever. Must get TLE on that test.
#include <deque>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::deque<int> queue{source};
    level[source] = 0;
    while (!queue.empty()) {
        const int u = queue.front();
        queue.pop_front();
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
            const int w = col_idx[k];
            if (level[w] == -1) level[w] = level[u] + 1;
            queue.push_back(w);  // the bug: visited or not
        }
    }
}
