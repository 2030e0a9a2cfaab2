// The material's vertex-parallel BFS: at each level every vertex is looked at (in parallel), and those on the
// current level mark their unvisited neighbours with the next one; the search stops after a level that marked
// nothing. Simple, but every level scans all n vertices: a graph with thousands of levels pays n each time.
// The marks are atomic writes of the same value, so the threads may race to write a neighbour harmlessly.
// Must get AC.
#include <omp.h>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
#pragma omp parallel for
    for (int v = 0; v < n; ++v) level[v] = -1;
    level[source] = 0;
    for (int depth = 0;; ++depth) {
        bool marked = false;
#pragma omp parallel for reduction(|| : marked) schedule(dynamic, 1024)
        for (int v = 0; v < n; ++v) {
            int lv;
#pragma omp atomic read
            lv = level[v];
            if (lv != depth) continue;
            for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k) {
                const int w = col_idx[k];
                int lw;
#pragma omp atomic read
                lw = level[w];
                if (lw == -1) {
#pragma omp atomic write
                    level[w] = depth + 1;
                    marked = true;
                }
            }
        }
        if (!marked) break;
    }
}
