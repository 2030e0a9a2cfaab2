// Level-synchronous top-down BFS with OpenMP: the frontier's vertices are shared among the threads, each claims an
// unvisited neighbour with a compare-and-swap on its level (so two threads never both enqueue it) and appends it
// to its own list; the lists are joined into the next frontier. Must get AC.
#include <omp.h>

#include <atomic>
#include <vector>

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    auto* lv = reinterpret_cast<std::atomic<int>*>(level);
    for (int v = 0; v < n; ++v) level[v] = -1;
    level[source] = 0;
    std::vector<int> frontier{source};
    for (int depth = 0; !frontier.empty(); ++depth) {
        std::vector<int> next;
#pragma omp parallel
        {
            std::vector<int> mine;
#pragma omp for schedule(dynamic, 64)
            for (size_t i = 0; i < frontier.size(); ++i)
                for (int k = row_ptr[frontier[i]]; k < row_ptr[frontier[i] + 1]; ++k) {
                    int unseen = -1;
                    if (lv[col_idx[k]].compare_exchange_strong(unseen, depth + 1)) mine.push_back(col_idx[k]);
                }
#pragma omp critical
            next.insert(next.end(), mine.begin(), mine.end());
        }
        frontier.swap(next);
    }
}
