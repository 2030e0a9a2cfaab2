// Seeded generators of sparse patterns in CSR, for spmv's matrices and bfs's
// graphs: row_ptr (rows + 1 entries, row_ptr[0] = 0, row_ptr[rows] = nnz) and
// col_idx (nnz entries). Integer arithmetic and Philox only, so the same
// pattern on every machine and thread count (parallel steps end in a sort).
// Every generator's nnz is a function of its sizes alone, so a problem's
// signature knows it before the pattern is drawn.
#pragma once
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace hpcjudge::gen {

// R-MAT's quadrant probabilities (Chakrabarti et al.) as Graph500 sets them: a, b, c; d = 1 - a - b - c.
inline constexpr double kRmatA = 0.57, kRmatB = 0.19, kRmatC = 0.19;

// --- Matrices: each row's columns distinct and ascending --------------------

// Distinct columns in [0, cols) drawn uniformly for every row, its length given
// by row_ptr (already filled; no row longer than cols).
void csr_random_columns(std::span<const int32_t> row_ptr, std::span<int32_t> col_idx, int64_t cols, uint64_t seed,
                        uint32_t stream);

// nnz = col_idx.size() entries spread uniformly over the rows (each row's length
// close to binomial, none past cols), then csr_random_columns. With dense_row >= 0
// that row holds every column and the other nnz - cols entries go to the other rows.
void csr_uniform(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t cols, uint64_t seed,
                 uint32_t stream, int64_t dense_row = -1);

// The band |i - j| <= half_width of an n x n matrix (n = row_ptr.size() - 1).
int64_t band_nnz(int64_t n, int64_t half_width);
void csr_band(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t half_width);

// The 5-point stencil of a w x h grid (rows numbered row-major, y * w + x): each
// point and its 4 neighbours inside the grid. Without the diagonal: the grid graph.
int64_t grid_nnz(int64_t w, int64_t h, bool diagonal);
void csr_grid(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t w, int64_t h, bool diagonal);

// R-MAT in a 2^scale square: exactly nnz = col_idx.size() distinct entries, the
// first nnz distinct ones of the edge stream (quadrants by Graph500's a, b, c at
// each of `scale` levels), row and column ids scrambled by one random
// permutation, as Graph500 does, so the heavy rows are spread out. At most
// 1/16 of the square (denser, R-MAT's rare cells would take endless draws).
void csr_rmat(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int scale, uint64_t seed, uint32_t stream);

// --- Graphs: undirected edges stored both ways -------------------------------

// `edges` R-MAT edges of a 2^scale-vertex graph (Graph500's parameters and
// scrambling), self-loops and duplicates kept, as Graph500's generator emits
// them.
std::vector<std::pair<int32_t, int32_t>> rmat_edges(int scale, int64_t edges, uint64_t seed, uint32_t stream);

// Edges with both ends uniform in [first, first + count).
std::vector<std::pair<int32_t, int32_t>> uniform_edges(int64_t first, int64_t count, int64_t edges, uint64_t seed,
                                                       uint32_t stream);

// The CSR of the undirected edges, each stored as u->v and v->u (a self-loop
// twice): col_idx.size() must be 2 * edges.size(); each row's neighbours ascending.
void csr_of_edges(std::span<const std::pair<int32_t, int32_t>> edges, std::span<int32_t> row_ptr,
                  std::span<int32_t> col_idx);

// bfs's other graph kinds, as edge lists for csr_of_edges. A path 0 - 1 - ... - n-1
// (n - 1 edges; from vertex 0 its far end is n - 1 levels away).
std::vector<std::pair<int32_t, int32_t>> chain_edges(int64_t n);
// bfs's grid: the w x h grid graph (vertex y w + x joined to its 4 neighbours), w (h - 1) + h (w - 1) edges as the
// grid's, but with no formula for its levels: each edge, with probability 1/16, keeps its near end (left or above)
// and has its far end moved to a diagonal neighbour of the near end, drawn (Watts and Strogatz's rewiring, kept
// local: a removed edge and a diagonal shortcut each time, so that the levels are no distance of the coordinates
// while the diameter stays near w + h). A grid one vertex wide or high stays a path. Ids still y w + x: the problem
// relabels them with shuffled_ids.
std::vector<std::pair<int32_t, int32_t>> rewired_grid_edges(int64_t w, int64_t h, uint64_t seed, uint32_t stream);
// A seeded bijection of [0, n) as a table (id[v]: vertex v's new id), computed in parallel: Graph500's scramble of
// the next power of two, walked along its cycle until it lands below n.
std::vector<int32_t> shuffled_ids(int64_t n, uint64_t seed, uint32_t stream);
// Each end u of each edge replaced by id[u].
void relabel(std::span<std::pair<int32_t, int32_t>> edges, std::span<const int32_t> id);
// A star: `hub` joined to each of the other n - 1 vertices.
std::vector<std::pair<int32_t, int32_t>> star_edges(int64_t n, int32_t hub);
// Two halves with no edge between them: the even vertices and the odd ones (n >= 2), the
// first edges / 2 uniform among the even ones, the rest among the odd ones.
std::vector<std::pair<int32_t, int32_t>> split_edges(int64_t n, int64_t edges, uint64_t seed, uint32_t stream);
// `edges` edges on n vertices with self-loops and duplicates, in groups of four: a uniform
// edge, the same edge again, a self-loop on a uniform vertex, another uniform edge.
std::vector<std::pair<int32_t, int32_t>> loopy_edges(int64_t n, int64_t edges, uint64_t seed, uint32_t stream);

// bfs's source for input set `set` of a graph: the set-th vertex of a seeded bijection
// (i -> a i + b mod count, a coprime to count) over the vertices with at least one
// out-edge (over all vertices where none has one), so that sets below that count never
// share a source and a source is never isolated while the graph has an edge.
int32_t pick_source(std::span<const int32_t> row_ptr, uint64_t seed, uint32_t stream, uint64_t set);

}  // namespace hpcjudge::gen
