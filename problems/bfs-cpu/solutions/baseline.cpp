// bfs-cpu baseline reference: what a beginner writes first, the textbook FIFO queue on one core (no OpenMP).
// Must get AC; sets the slow end of the score scale.
#include <cstddef>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::vector<int> queue(static_cast<size_t>(n));
    size_t head = 0, tail = 0;
    level[source] = 0;
    queue[tail++] = source;
    while (head < tail) {
        const int u = queue[head++];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
            const int w = col_idx[k];
            if (level[w] == -1) {
                level[w] = level[u] + 1;
                queue[tail++] = w;
            }
        }
    }
}
