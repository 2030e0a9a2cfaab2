#include "problems/families/sparse/generators.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>
#include <utility>

#include <omp.h>

#include "sdk/philox.h"

namespace hpcjudge::gen {

namespace {

// SplitMix64's finaliser (Steele et al.): a 64-bit mix, many times cheaper than Philox.
uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// 64 random bits for element `index` of a stream: one Philox call keys the stream, then a
// counter hash per element (patterns take hundreds of millions of draws).
uint64_t bits64(uint64_t seed, uint32_t stream, uint64_t index) {
  thread_local uint64_t key_seed = 0, key = 0;
  thread_local uint32_t key_stream = 0;
  thread_local bool keyed = false;
  if (!keyed || key_seed != seed || key_stream != stream) {
    const Philox4x32 r = philox_bits(seed, stream, 0);
    key = (static_cast<uint64_t>(r.v[1]) << 32) | r.v[0];
    key_seed = seed, key_stream = stream, keyed = true;
  }
  return mix64(key + 0x9E3779B97F4A7C15ull * (index + 1));
}

// row_ptr from per-row counts (row_ptr[i + 1] = count of row i on entry).
void prefix(std::span<int32_t> row_ptr) {
  row_ptr[0] = 0;
  int64_t at = 0;
  for (size_t i = 1; i < row_ptr.size(); ++i) {
    at += row_ptr[i];
    if (at > INT32_MAX) throw std::length_error("a CSR pattern with more than 2^31 - 1 entries");
    row_ptr[i] = static_cast<int32_t>(at);
  }
}

// Payloads grouped by row and sorted within each row: start has rows + 1 entries.
// Two passes that stream rather than scatter at random (a scatter of 10^8 entries over 2^22 rows is a cache miss
// and an atomic each): each thread's own stretch of entries counted by block of 2^shift rows (at most 4096
// blocks) and placed block by block, then within each block (thousands of rows, its entries in the caches) each
// entry placed at its row, and each row sorted. The placing order depends on the threads; the sort makes the
// result not.
template <class RowOf, class PayloadOf>
void bucket(int64_t rows, int64_t count, RowOf row_of, PayloadOf payload_of, std::vector<int64_t>& start,
            std::vector<uint64_t>& out) {
  start.assign(static_cast<size_t>(rows) + 1, 0);
  out.resize(static_cast<size_t>(count));
  if (rows == 0 || count == 0) return;
  int shift = 0;
  while (((rows - 1) >> shift) >= 4096) ++shift;
  const int64_t blocks = ((rows - 1) >> shift) + 1;
  const int threads = count > (1 << 16) ? omp_get_max_threads() : 1;
  // Each thread's count of entries per block, then its cursor in the block (blocks in order, threads in order).
  std::vector<int64_t> at(static_cast<size_t>(threads * blocks), 0);
  std::vector<uint32_t> local(static_cast<size_t>(count));  // an entry's row within its block
  const auto stretch = [&](int t) { return std::pair{count * t / threads, count * (t + 1) / threads}; };
#pragma omp parallel num_threads(threads)
  {
    int64_t* mine = at.data() + omp_get_thread_num() * blocks;
    const auto [lo, hi] = stretch(omp_get_thread_num());
    for (int64_t k = lo; k < hi; ++k) ++mine[row_of(k) >> shift];
  }
  std::vector<int64_t> block_start(static_cast<size_t>(blocks) + 1, 0);
  int64_t sum = 0;
  for (int64_t b = 0; b < blocks; ++b) {
    block_start[b] = sum;
    for (int t = 0; t < threads; ++t) {
      const int64_t n = at[t * blocks + b];
      at[t * blocks + b] = sum;
      sum += n;
    }
  }
  block_start[blocks] = sum;
#pragma omp parallel num_threads(threads)
  {
    int64_t* mine = at.data() + omp_get_thread_num() * blocks;
    const auto [lo, hi] = stretch(omp_get_thread_num());
    const int64_t mask = (int64_t{1} << shift) - 1;
    for (int64_t k = lo; k < hi; ++k) {
      const int64_t r = row_of(k);
      const int64_t j = mine[r >> shift]++;
      out[j] = payload_of(k);
      local[j] = static_cast<uint32_t>(r & mask);
    }
  }
#pragma omp parallel for schedule(dynamic, 1) if (count > (1 << 16))
  for (int64_t b = 0; b < blocks; ++b) {
    const int64_t lo = block_start[b], hi = block_start[b + 1], first = b << shift;
    const int64_t n = std::min(rows - first, int64_t{1} << shift);
    thread_local std::vector<int64_t> ends;
    thread_local std::vector<uint64_t> placed;
    ends.assign(static_cast<size_t>(n) + 1, 0);  // ends[i + 1]: entries of rows up to i, in the block
    for (int64_t j = lo; j < hi; ++j) ++ends[local[j] + 1];
    for (int64_t i = 0; i < n; ++i) ends[i + 1] += ends[i];
    placed.resize(static_cast<size_t>(hi - lo));
    for (int64_t j = lo; j < hi; ++j) placed[ends[local[j]]++] = out[j];  // ends[i] moves to row i's end
    std::copy(placed.begin(), placed.end(), out.begin() + lo);
    int64_t row_lo = lo;
    for (int64_t i = 0; i < n; ++i) {
      start[first + i + 1] = lo + ends[i];
      std::sort(out.begin() + row_lo, out.begin() + lo + ends[i]);
      row_lo = lo + ends[i];
    }
  }
}

// A random bijection of [0, 2^scale), computed rather than looked up (a table of 2^21
// ids costs a cache miss per edge): rounds of an odd multiply and an xor-shift, each
// invertible modulo 2^scale, with constants from the seed.
class Scramble {
 public:
  Scramble(int scale, uint64_t seed, uint32_t stream) : mask_((uint64_t{1} << scale) - 1), shift_(std::max(1, scale / 2)) {
    for (int r = 0; r < kRounds; ++r) {
      mul_[r] = (bits64(seed, stream, 2 * static_cast<uint64_t>(r)) | 1) & mask_;
      add_[r] = bits64(seed, stream, 2 * static_cast<uint64_t>(r) + 1) & mask_;
    }
  }
  int32_t operator()(int64_t v) const {
    uint64_t x = static_cast<uint64_t>(v);
    for (int r = 0; r < kRounds; ++r) {
      x = (x * mul_[r] + add_[r]) & mask_;
      x ^= x >> shift_;
    }
    return static_cast<int32_t>(x);
  }

 private:
  static constexpr int kRounds = 3;
  uint64_t mask_;
  int shift_;
  uint64_t mul_[kRounds], add_[kRounds];
};

// One R-MAT edge: at each of `scale` levels a quadrant, 16 random bits a level.
std::pair<int64_t, int64_t> rmat_edge(int scale, uint64_t seed, uint32_t stream, uint64_t k) {
  constexpr uint32_t ta = static_cast<uint32_t>(kRmatA * 65536), tb = static_cast<uint32_t>((kRmatA + kRmatB) * 65536),
                     tc = static_cast<uint32_t>((kRmatA + kRmatB + kRmatC) * 65536);
  int64_t u = 0, v = 0;
  uint64_t word = 0;
  for (int level = 0; level < scale; ++level) {
    if (level % 4 == 0) word = bits64(seed, stream, k * 8 + static_cast<uint64_t>(level / 4));
    const auto q = static_cast<uint32_t>((word >> (16 * (level % 4))) & 0xFFFFu);
    // Quadrant a (q < ta): neither bit; b: v's; c: u's; d (q >= tc): both. Without branches: a random
    // quadrant a level is a mispredicted branch or two, most of an edge's cost.
    const int64_t past_a = q >= ta, past_b = q >= tb, past_c = q >= tc;
    u |= past_b << level;
    v |= (past_a ^ past_b ^ past_c) << level;
  }
  return {u, v};
}

}  // namespace

void csr_random_columns(std::span<const int32_t> row_ptr, std::span<int32_t> col_idx, int64_t cols, uint64_t seed,
                        uint32_t stream) {
  const int64_t rows = static_cast<int64_t>(row_ptr.size()) - 1;
  // Rows in chunks of up to 256, smaller where the rows are few (spmv's long-rows: 32 rows of 200,000, which one
  // chunk of 256 gave to one thread): each row's columns depend on its own draws alone, so any split gives the same.
  const int64_t chunk = std::clamp<int64_t>(rows / (64 * omp_get_max_threads()), 1, 256);
#pragma omp parallel for schedule(dynamic, chunk) if (col_idx.size() > (1 << 16))
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t len = row_ptr[r + 1] - row_ptr[r];
    int32_t* out = col_idx.data() + row_ptr[r];
    if (len == 0) continue;
    const uint64_t base = static_cast<uint64_t>(r) << 32;
    if (2 * len > cols) {  // selection sampling (Knuth's algorithm S): len of cols, ascending
      int64_t need = len;
      for (int64_t c = 0, k = 0; c < cols && need > 0; ++c) {
        const uint64_t left = static_cast<uint64_t>(cols - c);
        if (bits64(seed, stream, base | static_cast<uint64_t>(c)) % left < static_cast<uint64_t>(need))
          out[k++] = static_cast<int32_t>(c), --need;
      }
      continue;
    }
    // Rejection: draw, drop repeats, draw the missing ones, until len distinct; ascending.
    if (cols <= 256 * len) {  // a long row: the columns drawn so far as a bitmap, not sorted again every round
      static thread_local std::vector<uint64_t> seen;
      seen.assign(static_cast<size_t>(cols / 64 + 1), 0);
      int64_t have = 0;
      uint64_t draw = 0;
      while (have < len) {
        const int64_t missing = len - have;  // the same rounds as the sorting way below, so the same columns
        for (int64_t k = 0; k < missing; ++k) {
          const uint64_t c = bits64(seed, stream, base | draw++) % static_cast<uint64_t>(cols);
          const uint64_t bit = uint64_t{1} << (c % 64);
          if (!(seen[c / 64] & bit)) seen[c / 64] |= bit, ++have;
        }
      }
      int64_t k = 0;
      for (size_t w = 0; w < seen.size(); ++w)
        for (uint64_t m = seen[w]; m; m &= m - 1) out[k++] = static_cast<int32_t>(64 * w + std::countr_zero(m));
      continue;
    }
    static thread_local std::vector<int32_t> got;
    got.clear();
    uint64_t draw = 0;
    while (static_cast<int64_t>(got.size()) < len) {
      const int64_t missing = len - static_cast<int64_t>(got.size());
      for (int64_t k = 0; k < missing; ++k)
        got.push_back(static_cast<int32_t>(bits64(seed, stream, base | draw++) % static_cast<uint64_t>(cols)));
      std::sort(got.begin(), got.end());
      got.erase(std::unique(got.begin(), got.end()), got.end());
    }
    std::copy(got.begin(), got.end(), out);
  }
}

void csr_uniform(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t cols, uint64_t seed,
                 uint32_t stream, int64_t dense_row) {
  const int64_t rows = static_cast<int64_t>(row_ptr.size()) - 1;
  int64_t spread = static_cast<int64_t>(col_idx.size());
  std::fill(row_ptr.begin(), row_ptr.end(), 0);
  if (dense_row >= 0) {
    row_ptr[dense_row + 1] = static_cast<int32_t>(cols);
    spread -= cols;
  }
  const int64_t others = dense_row >= 0 ? rows - 1 : rows;
  if (spread > others * cols) throw std::invalid_argument("more entries than the rows can hold");
  auto row_of = [&](uint64_t k) {
    int64_t r = static_cast<int64_t>(bits64(seed, stream ^ 0x0F0F0000u, k) % static_cast<uint64_t>(others));
    return dense_row >= 0 && r >= dense_row ? r + 1 : r;
  };
  std::vector<int64_t> count(static_cast<size_t>(rows), 0);
#pragma omp parallel for schedule(static) if (spread > (1 << 16))
  for (int64_t k = 0; k < spread; ++k) std::atomic_ref<int64_t>(count[row_of(static_cast<uint64_t>(k))]).fetch_add(1);
  // Rows past cols (only where cols is small) give their excess to rows drawn further on the stream.
  int64_t excess = 0;
  for (int64_t r = 0; r < rows; ++r)
    if (r != dense_row && count[r] > cols) excess += count[r] - cols, count[r] = cols;
  for (uint64_t k = static_cast<uint64_t>(spread); excess > 0; ++k) {
    const int64_t r = row_of(k);
    if (count[r] < cols) ++count[r], --excess;
  }
  for (int64_t r = 0; r < rows; ++r)
    if (r != dense_row) row_ptr[r + 1] = static_cast<int32_t>(count[r]);
  prefix(row_ptr);
  csr_random_columns(row_ptr, col_idx, cols, seed, stream);
}

int64_t band_nnz(int64_t n, int64_t w) {
  int64_t z = 0;
  for (int64_t i = 0; i < n; ++i) z += std::min(n - 1, i + w) - std::max<int64_t>(0, i - w) + 1;
  return z;
}

void csr_band(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t w) {
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  int64_t at = 0;
  row_ptr[0] = 0;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = std::max<int64_t>(0, i - w); j <= std::min(n - 1, i + w); ++j) col_idx[at++] = static_cast<int32_t>(j);
    row_ptr[i + 1] = static_cast<int32_t>(at);
  }
}

int64_t grid_nnz(int64_t w, int64_t h, bool diagonal) {
  if (w == 0 || h == 0) return 0;
  return 2 * ((w - 1) * h + (h - 1) * w) + (diagonal ? w * h : 0);
}

void csr_grid(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int64_t w, int64_t h, bool diagonal) {
  row_ptr[0] = 0;
  int64_t at = 0;
  for (int64_t y = 0; y < h; ++y)
    for (int64_t x = 0; x < w; ++x) {
      const int64_t i = y * w + x;
      if (y > 0) col_idx[at++] = static_cast<int32_t>(i - w);  // ascending: up, left, self, right, down
      if (x > 0) col_idx[at++] = static_cast<int32_t>(i - 1);
      if (diagonal) col_idx[at++] = static_cast<int32_t>(i);
      if (x + 1 < w) col_idx[at++] = static_cast<int32_t>(i + 1);
      if (y + 1 < h) col_idx[at++] = static_cast<int32_t>(i + w);
      row_ptr[i + 1] = static_cast<int32_t>(at);
    }
}

void csr_rmat(std::span<int32_t> row_ptr, std::span<int32_t> col_idx, int scale, uint64_t seed, uint32_t stream) {
  const int64_t n = int64_t{1} << scale;
  const auto target = static_cast<int64_t>(col_idx.size());
  // R-MAT's cells are far from equally likely: a pattern denser than 1/16 would take endless draws.
  if (target > n * n / 16) throw std::invalid_argument("an R-MAT pattern denser than 1/16 of its square");
  const Scramble perm(scale, seed, stream ^ 0x7E7E0000u);
  // Draw `drawn` edges; their first `target` distinct (row, column) pairs in stream order are the
  // pattern. Too few distinct: draw more (the stream's prefix is the same, so the result is too).
  int64_t drawn = target + target / 8 + 64;
  for (;;) {
    std::vector<std::pair<int32_t, int32_t>> e(static_cast<size_t>(drawn));
#pragma omp parallel for schedule(static) if (drawn > (1 << 14))
    for (int64_t k = 0; k < drawn; ++k) {
      const auto [u, v] = rmat_edge(scale, seed, stream, static_cast<uint64_t>(k));
      e[k] = {perm(u), perm(v)};
    }
    // Payload: column (up to 2^31) above the stream index (below 2^32... kept under 2^32 entries).
    std::vector<int64_t> start;
    std::vector<uint64_t> sorted;
    bucket(
        n, drawn, [&](int64_t k) { return e[k].first; },
        [&](int64_t k) { return (static_cast<uint64_t>(e[k].second) << 32) | static_cast<uint64_t>(k); }, start,
        sorted);
    // Each distinct pair once: its first index in the stream (the smallest, sorted first).
    std::vector<uint8_t> first(sorted.size(), 0);
    int64_t distinct = 0;
#pragma omp parallel for schedule(dynamic, 1024) reduction(+ : distinct) if (n > 1024)
    for (int64_t r = 0; r < n; ++r)
      for (int64_t k = start[r]; k < start[r + 1]; ++k)
        if (k == start[r] || (sorted[k] >> 32) != (sorted[k - 1] >> 32)) first[k] = 1, ++distinct;
    if (distinct < target) {
      // Distinct pairs grow more slowly than draws: scale by the shortfall, and some more.
      const double ratio = static_cast<double>(target) / static_cast<double>(std::max<int64_t>(distinct, 1));
      drawn = std::max(drawn + 64, static_cast<int64_t>(static_cast<double>(drawn) * std::min(ratio * 1.1, 4.0)));
      continue;
    }
    // The target-th smallest first index: keep the distinct pairs that appeared up to it.
    std::vector<uint32_t> order;
    order.reserve(static_cast<size_t>(distinct));
    for (size_t k = 0; k < sorted.size(); ++k)
      if (first[k]) order.push_back(static_cast<uint32_t>(sorted[k]));
    uint32_t last = 0;
    if (target > 0) {
      std::nth_element(order.begin(), order.begin() + (target - 1), order.end());
      last = order[target - 1];
    }
    int64_t at = 0;
    row_ptr[0] = 0;
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t k = start[r]; k < start[r + 1]; ++k)
        if (first[k] && target > 0 && static_cast<uint32_t>(sorted[k]) <= last)
          col_idx[at++] = static_cast<int32_t>(sorted[k] >> 32);
      row_ptr[r + 1] = static_cast<int32_t>(at);
    }
    if (at != target) throw std::logic_error("R-MAT pattern: wrong entry count");
    return;
  }
}

std::vector<std::pair<int32_t, int32_t>> rmat_edges(int scale, int64_t edges, uint64_t seed, uint32_t stream) {
  const Scramble perm(scale, seed, stream ^ 0x7E7E0000u);
  std::vector<std::pair<int32_t, int32_t>> e(static_cast<size_t>(edges));
#pragma omp parallel for schedule(static) if (edges > (1 << 14))
  for (int64_t k = 0; k < edges; ++k) {
    const auto [u, v] = rmat_edge(scale, seed, stream, static_cast<uint64_t>(k));
    e[k] = {perm(u), perm(v)};
  }
  return e;
}

std::vector<std::pair<int32_t, int32_t>> uniform_edges(int64_t first, int64_t count, int64_t edges, uint64_t seed,
                                                       uint32_t stream) {
  std::vector<std::pair<int32_t, int32_t>> e(static_cast<size_t>(edges));
#pragma omp parallel for schedule(static) if (edges > (1 << 14))
  for (int64_t k = 0; k < edges; ++k) {
    const uint64_t a = bits64(seed, stream, 2 * static_cast<uint64_t>(k)),
                   b = bits64(seed, stream, 2 * static_cast<uint64_t>(k) + 1);
    e[k] = {static_cast<int32_t>(first + static_cast<int64_t>(a % static_cast<uint64_t>(count))),
            static_cast<int32_t>(first + static_cast<int64_t>(b % static_cast<uint64_t>(count)))};
  }
  return e;
}

void csr_of_edges(std::span<const std::pair<int32_t, int32_t>> edges, std::span<int32_t> row_ptr,
                  std::span<int32_t> col_idx) {
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  const auto m = static_cast<int64_t>(edges.size()) * 2;
  if (static_cast<int64_t>(col_idx.size()) != m) throw std::logic_error("csr_of_edges: col_idx is not 2 * edges");
  std::vector<int64_t> start;
  std::vector<uint64_t> sorted;
  bucket(
      n, m, [&](int64_t k) { return k % 2 ? edges[k / 2].second : edges[k / 2].first; },
      [&](int64_t k) { return static_cast<uint64_t>(k % 2 ? edges[k / 2].first : edges[k / 2].second); }, start, sorted);
  for (int64_t i = 0; i <= n; ++i) row_ptr[i] = static_cast<int32_t>(start[i]);
#pragma omp parallel for schedule(static) if (m > (1 << 16))
  for (int64_t k = 0; k < m; ++k) col_idx[k] = static_cast<int32_t>(sorted[k]);
}

std::vector<std::pair<int32_t, int32_t>> chain_edges(int64_t n) {
  std::vector<std::pair<int32_t, int32_t>> e;
  if (n > 1) e.reserve(static_cast<size_t>(n - 1));
  for (int64_t i = 0; i + 1 < n; ++i) e.emplace_back(static_cast<int32_t>(i), static_cast<int32_t>(i + 1));
  return e;
}

std::vector<std::pair<int32_t, int32_t>> rewired_grid_edges(int64_t w, int64_t h, uint64_t seed, uint32_t stream) {
  std::vector<std::pair<int32_t, int32_t>> e(static_cast<size_t>(w * (h - 1) + h * (w - 1)));
  const auto id = [w](int64_t x, int64_t y) { return static_cast<int32_t>(y * w + x); };
  // Edge k from (x, y) to (fx, fy), or with probability 1/16 from (x, y) to a diagonal neighbour (x +- 1, y +- 1),
  // each sign drawn and turned back where it would leave the grid. A grid one vertex wide or high has no diagonal.
  const auto edge = [&](int64_t k, int64_t x, int64_t y, int64_t fx, int64_t fy) {
    const uint64_t b = bits64(seed, stream, static_cast<uint64_t>(k));
    if ((b & 15) == 0 && w > 1 && h > 1) {
      const int64_t dx = (b >> 8) & 1 ? 1 : -1, dy = (b >> 9) & 1 ? 1 : -1;
      fx = x + dx >= 0 && x + dx < w ? x + dx : x - dx;
      fy = y + dy >= 0 && y + dy < h ? y + dy : y - dy;
    }
    e[k] = {id(x, y), id(fx, fy)};
  };
  // Row y's edges from k = y (2w - 1): its w - 1 edges right, then its w edges down (none below the last row).
#pragma omp parallel for schedule(static) if (w * h > (1 << 16))
  for (int64_t y = 0; y < h; ++y) {
    int64_t k = y * (2 * w - 1);
    for (int64_t x = 0; x + 1 < w; ++x) edge(k++, x, y, x + 1, y);
    if (y + 1 < h)
      for (int64_t x = 0; x < w; ++x) edge(k++, x, y, x, y + 1);
  }
  return e;
}

std::vector<int32_t> shuffled_ids(int64_t n, uint64_t seed, uint32_t stream) {
  int scale = 0;
  while ((int64_t{1} << scale) < n) ++scale;
  const Scramble perm(scale, seed, stream);
  std::vector<int32_t> id(static_cast<size_t>(n));
#pragma omp parallel for schedule(static) if (n > (1 << 16))
  for (int64_t v = 0; v < n; ++v) {
    int64_t x = perm(v);
    while (x >= n) x = perm(x);  // v's cycle holds v itself, so the walk ends; under 2 steps on average
    id[v] = static_cast<int32_t>(x);
  }
  return id;
}

void relabel(std::span<std::pair<int32_t, int32_t>> edges, std::span<const int32_t> id) {
#pragma omp parallel for schedule(static) if (edges.size() > (1 << 16))
  for (size_t k = 0; k < edges.size(); ++k) edges[k] = {id[edges[k].first], id[edges[k].second]};
}

std::vector<std::pair<int32_t, int32_t>> star_edges(int64_t n, int32_t hub) {
  std::vector<std::pair<int32_t, int32_t>> e;
  if (n > 1) e.reserve(static_cast<size_t>(n - 1));
  for (int64_t i = 0; i < n; ++i)
    if (i != hub) e.emplace_back(hub, static_cast<int32_t>(i));
  return e;
}

std::vector<std::pair<int32_t, int32_t>> split_edges(int64_t n, int64_t edges, uint64_t seed, uint32_t stream) {
  if (n < 2) throw std::invalid_argument("split_edges: two halves need two vertices");
  const int64_t even = (n + 1) / 2, odd = n / 2;
  auto e = uniform_edges(0, even, edges / 2, seed, stream);
  const auto f = uniform_edges(0, odd, edges - edges / 2, seed, stream ^ 0x5A5A0000u);
  for (auto& [u, v] : e) u *= 2, v *= 2;
  for (const auto& [u, v] : f) e.emplace_back(2 * u + 1, 2 * v + 1);
  return e;
}

std::vector<std::pair<int32_t, int32_t>> loopy_edges(int64_t n, int64_t edges, uint64_t seed, uint32_t stream) {
  auto e = uniform_edges(0, n, edges, seed, stream);
  for (int64_t k = 0; k < edges; ++k) {
    if (k % 4 == 1) e[k] = e[k - 1];                // a duplicate of the edge before it
    else if (k % 4 == 2) e[k].second = e[k].first;  // a self-loop
  }
  return e;
}

int32_t pick_source(std::span<const int32_t> row_ptr, uint64_t seed, uint32_t stream, uint64_t set) {
  const int64_t n = static_cast<int64_t>(row_ptr.size()) - 1;
  if (n <= 0) throw std::invalid_argument("pick_source: a graph without vertices");
  int64_t count = 0;
  for (int64_t v = 0; v < n; ++v) count += row_ptr[v + 1] > row_ptr[v];
  const bool any = count > 0;
  if (!any) count = n;
  const auto c = static_cast<uint64_t>(count);
  uint64_t a = bits64(seed, stream, 0) % c, b = bits64(seed, stream, 1) % c;
  auto gcd = [](uint64_t x, uint64_t y) {
    while (y != 0) x = std::exchange(y, x % y);
    return x;
  };
  if (a == 0) a = 1;
  while (gcd(a, c) != 1) a = a + 1 < c ? a + 1 : 1;
  const uint64_t k = (a * (set % c) + b) % c;  // a, set % c < 2^31: no overflow
  if (!any) return static_cast<int32_t>(k);
  for (int64_t v = 0, seen = 0; v < n; ++v)
    if (row_ptr[v + 1] > row_ptr[v] && static_cast<uint64_t>(seen++) == k) return static_cast<int32_t>(v);
  throw std::logic_error("pick_source: fewer vertices with out-edges than counted");
}

}  // namespace hpcjudge::gen
