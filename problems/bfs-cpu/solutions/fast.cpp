// bfs-cpu fast reference: direction-optimising BFS (Beamer, Asanovic and Patterson, 2012) with OpenMP. Each level
// is expanded either top-down (the frontier's vertices claim their unvisited neighbours with a compare-and-swap,
// into per-thread lists joined in thread order) or bottom-up (every unvisited vertex looks for any neighbour on the
// frontier and stops at the first: on a power-law graph the middle levels hold most vertices, and most of their
// edges are never read). The graphs are symmetric, so a vertex's out-edges are its in-edges. The switch follows
// the paper's rule: bottom-up once the frontier's edges exceed the unvisited vertices' edges / 14, top-down again
// once the frontier shrinks below n / 24; and bottom-up only for a frontier of at least n / 24, or the last levels
// of a grid, whose few unvisited edges make any frontier look large, would sweep all n vertices each. A level with little work runs on one thread, so a graph of thousands of
// thin levels (a grid, a chain) does not pay a parallel region per level. Must get AC; sets the fast end of the
// score scale.
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace {

constexpr int64_t kAlpha = 14, kBeta = 24;
// Frontier edges below which a top-down level runs on one thread: a parallel level costs the threads' wake-up and
// a barrier, tens of microseconds where idle threads sleep (as the judge has them do), more than 65,536 edges of
// work shared by a few threads saves. A 1024 x 1024 grid's levels (about 11,000 edges at most) all run on one thread.
constexpr int64_t kSerialWork = 1 << 16;

// level[] as atomics for the claims of the top-down steps (the same layout as int).
std::atomic<int>* as_atomic(int* p) { return reinterpret_cast<std::atomic<int>*>(p); }

}  // namespace

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    (void)m;
    std::atomic<int>* lv = as_atomic(level);
#pragma omp parallel for schedule(static)
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::vector<int> frontier{source}, next;
    level[source] = 0;
    const int threads = omp_get_max_threads();
    std::vector<std::vector<int>> found(static_cast<size_t>(threads));
    int64_t unvisited_edges = row_ptr[n];
    bool bottom_up = false;
    for (int depth = 0; !frontier.empty(); ++depth) {
        int64_t frontier_edges = 0;
        for (int u : frontier) frontier_edges += row_ptr[u + 1] - row_ptr[u];
        unvisited_edges -= frontier_edges;
        const bool large = static_cast<int64_t>(frontier.size()) >= n / kBeta;
        if (!bottom_up && large && frontier_edges > unvisited_edges / kAlpha) bottom_up = true;
        else if (bottom_up && static_cast<int64_t>(frontier.size()) < n / kBeta) bottom_up = false;
        next.clear();
        if (bottom_up) {
#pragma omp parallel
            {
                std::vector<int>& mine = found[static_cast<size_t>(omp_get_thread_num())];
                mine.clear();
#pragma omp for schedule(dynamic, 1024) nowait
                for (int v = 0; v < n; ++v) {
                    if (level[v] != -1) continue;
                    for (int k = row_ptr[v]; k < row_ptr[v + 1]; ++k)
                        if (lv[col_idx[k]].load(std::memory_order_relaxed) == depth) {
                            mine.push_back(v);
                            break;
                        }
                }
            }
            // Written after the sweep: a vertex found at this level must not count as on the frontier yet.
            for (const auto& mine : found)
                for (int v : mine) level[v] = depth + 1, next.push_back(v);
        } else if (frontier_edges < kSerialWork) {
            for (int u : frontier)
                for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
                    const int w = col_idx[k];
                    if (level[w] == -1) level[w] = depth + 1, next.push_back(w);
                }
        } else {
#pragma omp parallel
            {
                std::vector<int>& mine = found[static_cast<size_t>(omp_get_thread_num())];
                mine.clear();
#pragma omp for schedule(dynamic, 64) nowait
                for (size_t i = 0; i < frontier.size(); ++i) {
                    const int u = frontier[i];
                    for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k) {
                        const int w = col_idx[k];
                        int unseen = -1;
                        if (lv[w].load(std::memory_order_relaxed) == -1 &&
                            lv[w].compare_exchange_strong(unseen, depth + 1, std::memory_order_relaxed))
                            mine.push_back(w);
                    }
                }
            }
            for (const auto& mine : found) next.insert(next.end(), mine.begin(), mine.end());
        }
        frontier.swap(next);
    }
}
