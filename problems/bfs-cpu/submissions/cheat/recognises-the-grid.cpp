// expect: WA
// A closed form in place of the search: where n and m are a w x h grid's (n = w h, m = 2 (w (h - 1) + h (w - 1)), as
// every grid case's sizes are) and no vertex has more than 8 edges (a grid's have 4 at most; this turns away the
// star, whose sizes are a 1 x n grid's), write the Manhattan distance |x - sx| + |y - sy| of vertex y w + x from the
// source: O(1) a vertex, no level searched. Any other graph gets the honest queue BFS of honest-twin.cpp. On a plain
// 4-neighbour grid numbered row by row this is exact (on the grid performance case such a file ran at 0.3x the fast
// reference's time). The bfs family's grids have rewired edges and shuffled vertex ids, so that no formula of the
// ids gives their levels: WA on the first grid test (grid-100x90). Without the rewiring and the shuffle: AC.
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <vector>

namespace {

// The w of a w x h grid with these sizes, or 0: w + h = (4n - m) / 2 and w h = n give w and h as the roots of
// t^2 - (w + h) t + n. Which root is the width: the one that is a neighbour of vertex 0 (vertex 0's down
// neighbour is vertex w), else the larger.
long long grid_width(long long n, long long m, const int* row_ptr, const int* col_idx) {
    if (n < 2 || (4 * n - m) % 2 != 0 || 4 * n - m <= 0) return 0;
    const long long s = (4 * n - m) / 2, disc = s * s - 4 * n;
    if (disc < 0) return 0;
    long long r = std::llround(std::sqrt(static_cast<double>(disc)));
    while (r * r > disc) --r;
    while ((r + 1) * (r + 1) <= disc) ++r;
    if (r * r != disc || (s + r) % 2 != 0) return 0;
    const long long big = (s + r) / 2, small = (s - r) / 2;
    if (small < 1 || big * small != n) return 0;
    for (long long v = 0; v < n; ++v)
        if (row_ptr[v + 1] - row_ptr[v] > 8) return 0;
    for (int k = row_ptr[0]; k < row_ptr[1]; ++k)
        if (col_idx[k] == small && small > 1) return small;
    return big;
}

}  // namespace

extern "C" void solve(int n, int m, const int* row_ptr, const int* col_idx, int source, int* level) {
    if (const long long w = grid_width(n, m, row_ptr, col_idx); w > 0) {
        const long long sx = source % w, sy = source / w;
        for (long long v = 0; v < n; ++v) level[v] = static_cast<int>(std::llabs(v % w - sx) + std::llabs(v / w - sy));
        return;
    }
    for (int v = 0; v < n; ++v) level[v] = -1;
    std::vector<int> queue{source};
    level[source] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const int u = queue[head];
        for (int k = row_ptr[u]; k < row_ptr[u + 1]; ++k)
            if (level[col_idx[k]] == -1) level[col_idx[k]] = level[u] + 1, queue.push_back(col_idx[k]);
    }
}
