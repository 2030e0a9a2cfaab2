// spmv: the sparse generators give valid, deterministic CSR of the kinds the
// statement names; the reference is right; the per-row tolerance admits every
// FP32 summation order and rejects a dropped non-zero and the classic bugs.
#include <catch2/catch_test_macros.hpp>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "sdk/checker.h"
#include "sdk/generators.h"
#include "sdk/philox.h"
#include "sdk/problem.h"
#include "protocol/protocol.h"
#include "problems/families/sparse/generators.h"
#include "sdk/verify.h"
#include "host_case.h"
#include "problems/families/sparse/reference.h"

using namespace hpcjudge;

namespace {

const Problem& spmv() { return *Registry::find("spmv"); }

// Every row's columns in range, ascending and distinct; row_ptr from 0 to nnz, never falling.
// (One assertion per pattern, not per entry: Catch2's are too slow for millions.)
void require_valid_csr(std::span<const int32_t> row_ptr, std::span<const int32_t> col_idx, int64_t cols,
                       bool distinct = true) {
  REQUIRE(row_ptr.front() == 0);
  REQUIRE(static_cast<size_t>(row_ptr.back()) == col_idx.size());
  int64_t bad_row = -1;
  for (size_t i = 0; i + 1 < row_ptr.size() && bad_row < 0; ++i) {
    if (row_ptr[i] > row_ptr[i + 1]) bad_row = static_cast<int64_t>(i);
    for (int32_t k = row_ptr[i]; k < row_ptr[i + 1] && bad_row < 0; ++k) {
      const bool in_range = col_idx[k] >= 0 && col_idx[k] < cols;
      const bool ordered = k == row_ptr[i] || (distinct ? col_idx[k - 1] < col_idx[k] : col_idx[k - 1] <= col_idx[k]);
      if (!in_range || !ordered) bad_row = static_cast<int64_t>(i);
    }
  }
  INFO("first bad row " << bad_row);
  REQUIRE(bad_row == -1);
}

struct Filled {
  HostCase h;
  Filled(const Problem& p, const Case& c, uint64_t seed = 42, uint32_t set = 0) : h(p, c) {
    p.generate_case(c, seed, h.buffers());
    p.generate(c, seed, set, h.buffers());
  }
  Buffers b() const { return h.buffers(); }
};

// FP32 computations of y in the orders real kernels use.
using Order = float (*)(const std::vector<float>& products);
float sequential(const std::vector<float>& p) {
  float s = 0;
  for (float v : p) s += v;
  return s;
}
float reversed(const std::vector<float>& p) {
  float s = 0;
  for (size_t i = p.size(); i-- > 0;) s += p[i];
  return s;
}
float pairwise(const std::vector<float>& p) {  // a tree, as a block reduction
  std::vector<float> v = p;
  if (v.empty()) return 0;
  while (v.size() > 1) {
    std::vector<float> u((v.size() + 1) / 2);
    for (size_t i = 0; i < u.size(); ++i) u[i] = 2 * i + 1 < v.size() ? v[2 * i] + v[2 * i + 1] : v[2 * i];
    v.swap(u);
  }
  return v[0];
}
float warp_strided(const std::vector<float>& p) {  // 32 lanes strided, then a shuffle tree
  float lane[32] = {};
  for (size_t i = 0; i < p.size(); ++i) lane[i % 32] += p[i];
  for (int o = 16; o > 0; o /= 2)
    for (int l = 0; l < o; ++l) lane[l] += lane[l + o];
  return lane[0];
}
float double_rounded(const std::vector<float>& p) {
  double s = 0;
  for (float v : p) s += v;
  return static_cast<float>(s);
}

}  // namespace

TEST_CASE("spmv generators: valid CSR of the right size for every case, the same twice", "[spmv]") {
  for (const Case& c : spmv().tests()) {
    INFO(c.name);
    Filled f(spmv(), c);
    const auto row_ptr = f.b()["row_ptr"].as<const int32_t>(), col_idx = f.b()["col_idx"].as<const int32_t>();
    require_valid_csr(row_ptr, col_idx, c["cols"]);
    Filled again(spmv(), c);
    CHECK(std::memcmp(row_ptr.data(), again.b()["row_ptr"].data, row_ptr.size_bytes()) == 0);
    CHECK(std::memcmp(col_idx.data(), again.b()["col_idx"].data, col_idx.size_bytes()) == 0);
    // Another seed: another matrix (where there is a choice to make).
    if (c.gen == "uniform" && c["nnz"] > 0 && c["nnz"] < c["rows"] * c["cols"]) {
      HostCase other(spmv(), c);
      spmv().generate_case(c, 43, other.buffers());
      const auto oc = other.buffers()["col_idx"].as<const int32_t>();
      const auto orp = other.buffers()["row_ptr"].as<const int32_t>();
      CHECK((std::memcmp(oc.data(), col_idx.data(), oc.size_bytes()) != 0 ||
             std::memcmp(orp.data(), row_ptr.data(), orp.size_bytes()) != 0));
    }
  }
}

TEST_CASE("spmv generators: the kinds the statement names", "[spmv]") {
  auto find = [](const std::string& name) {
    for (const Case& c : spmv().tests())
      if (c.name == name) return c;
    FAIL("no test " << name);
    return Case{};
  };
  auto lengths = [](const Filled& f) {
    const auto rp = f.b()["row_ptr"].as<const int32_t>();
    std::vector<int64_t> len(rp.size() - 1);
    for (size_t i = 0; i + 1 < rp.size(); ++i) len[i] = rp[i + 1] - rp[i];
    return len;
  };
  SECTION("power law: R-MAT rows of 1 beside rows of thousands") {
    const Filled f(spmv(), find("rmat-18"));
    const std::vector<int64_t> len = lengths(f);
    const int64_t longest = *std::max_element(len.begin(), len.end());
    const auto short_rows = std::count_if(len.begin(), len.end(), [](int64_t l) { return l <= 1; });
    CHECK(longest > 10000);  // 16 a row on average
    CHECK(short_rows > static_cast<long>(len.size() / 4));
  }
  SECTION("empty rows, one dense row, one column") {
    const std::vector<int64_t> e = lengths(Filled(spmv(), find("empty-rows")));
    CHECK(std::count(e.begin(), e.end(), 0) > static_cast<long>(e.size() * 8 / 10));
    const Case dc = find("dense-row");
    const std::vector<int64_t> d = lengths(Filled(spmv(), dc));
    CHECK(d[d.size() / 2] == dc["cols"]);
    const std::vector<int64_t> one = lengths(Filled(spmv(), find("one-column")));
    CHECK(*std::max_element(one.begin(), one.end()) == 1);
  }
  SECTION("the stencil: 5 a row inside, the grid's neighbours") {
    const Case c = find("stencil-301x301");
    const Filled f(spmv(), c);
    const auto rp = f.b()["row_ptr"].as<const int32_t>(), ci = f.b()["col_idx"].as<const int32_t>();
    const int64_t i = 150 * 301 + 150;
    REQUIRE(rp[i + 1] - rp[i] == 5);
    CHECK(std::vector<int32_t>(ci.begin() + rp[i], ci.begin() + rp[i + 1]) ==
          std::vector<int32_t>{static_cast<int32_t>(i - 301), static_cast<int32_t>(i - 1), static_cast<int32_t>(i),
                               static_cast<int32_t>(i + 1), static_cast<int32_t>(i + 301)});
    CHECK(rp[1] - rp[0] == 3);  // a corner
  }
  SECTION("fixed row lengths around a warp") {
    for (const char* n : {"row-length-31", "row-length-32", "row-length-33"}) {
      const std::vector<int64_t> l = lengths(Filled(spmv(), find(n)));
      CHECK(std::all_of(l.begin(), l.end(), [&](int64_t v) { return v == l[0]; }));
    }
  }
}

TEST_CASE("spmv R-MAT: exactly nnz distinct entries, deterministic in the thread count", "[spmv]") {
  for (int scale : {4, 6, 10}) {
    const int64_t n = int64_t{1} << scale;
    for (int64_t nnz : {int64_t{0}, int64_t{1}, std::min(16 * n, n * n / 16), n * n / 16}) {
      INFO("scale " << scale << " nnz " << nnz);
      std::vector<int32_t> rp(n + 1), ci(nnz);
      gen::csr_rmat(rp, ci, scale, 7, 3);
      require_valid_csr(rp, ci, n);
    }
  }
}

TEST_CASE("spmv reference: the sum in double, the bound gamma_n * sum |a x|", "[spmv]") {
  // Row 0: 1*x0 + 2*x2; row 1 empty; row 2: -3*x1.
  const std::vector<int32_t> rp{0, 2, 2, 3}, ci{0, 2, 1};
  const std::vector<float> v{1, 2, -3}, x{0.5f, 0.25f, -1};
  const reference::SpmvAnswer a = reference::spmv(rp, ci, v, x);
  CHECK(a.y == UninitVector<double>{-1.5, 0, -0.75});
  CHECK(a.bound[1] == 0);
  // gamma_n * sum |a x|, and a part in 10^6 for the bound's own rounding in double.
  CHECK(std::fabs(a.bound[0] / (reference::fp32_dot_gamma(2) * 2.5) - 1) < 2e-6);
  CHECK(std::fabs(a.bound[2] / (reference::fp32_dot_gamma(1) * 0.75) - 1) < 2e-6);
  CHECK(a.bound[0] >= reference::fp32_dot_gamma(2) * 2.5);
  CHECK(reference::fp32_dot_gamma(1) > std::ldexp(1.0, -24));
  CHECK(std::isinf(reference::fp32_dot_gamma(int64_t{1} << 24)));
}

TEST_CASE("spmv tolerance: every FP32 summation order passes, a dropped non-zero and y += fail", "[spmv]") {
  const Problem& p = spmv();
  for (const Case& c : p.tests()) {
    if (c["nnz"] > 2000000) continue;  // the large ones only add time here
    INFO(c.name);
    const Filled f(p, c);
    const Buffers b = f.b();
    const Expected e = p.reference(c, b);
    const auto rp = b["row_ptr"].as<const int32_t>(), ci = b["col_idx"].as<const int32_t>();
    const auto v = b["values"].as<const float>(), x = b["x"].as<const float>();
    const int64_t rows = c["rows"];
    auto compute = [&](Order order, bool fma, bool drop_last) {
      std::vector<float> y(rows);
      for (int64_t i = 0; i < rows; ++i) {
        std::vector<float> prod;
        const int32_t end = rp[i + 1] - (drop_last && rp[i + 1] > rp[i] ? 1 : 0);
        if (fma) {  // each product fused into a running FP32 sum
          float s = 0;
          for (int32_t k = rp[i]; k < end; ++k) s = std::fma(v[k], x[ci[k]], s);
          y[i] = s;
          continue;
        }
        for (int32_t k = rp[i]; k < end; ++k) prod.push_back(v[k] * x[ci[k]]);
        y[i] = order(prod);
      }
      return y;
    };
    const auto check = [&](const std::vector<float>& y) {
      return check_close(y, e.outputs[0].values, p.tolerance(c), 5, e.outputs[0].bound);
    };
    for (Order o : {sequential, reversed, pairwise, warp_strided, double_rounded}) CHECK(check(compute(o, false, false)).ok());
    CHECK(check(compute(sequential, true, false)).ok());
    if (c["nnz"] > 0) {
      // A dropped non-zero fails where rows are short (mean length 64 or less): nearly every non-empty
      // row, since the bound is far below one product there. On a row of n non-zeros the bound is
      // about n 2^-24 of sum |a x|, so one product among 10^4 can hide under it: what catches the
      // bug there are the short-row tests.
      const CheckResult dropped = check(compute(sequential, false, true));
      if (c["nnz"] <= 64 * rows) {
        CHECK_FALSE(dropped.ok());
        int64_t nonempty = 0;
        for (int64_t i = 0; i < rows; ++i) nonempty += rp[i + 1] > rp[i];
        CHECK(static_cast<double>(dropped.mismatches) > 0.9 * static_cast<double>(nonempty));
      }
      // y += sum into the NaN-filled output: NaN everywhere.
      std::vector<float> y = compute(sequential, false, false);
      for (float& t : y) t += std::numeric_limits<float>::quiet_NaN();
      CHECK(check(y).mismatches == static_cast<size_t>(rows));
    }
    // An empty row must be written: 0 exactly, never NaN.
    std::vector<float> y = compute(sequential, false, false);
    for (int64_t i = 0; i < rows; ++i)
      if (rp[i + 1] == rp[i]) y[i] = std::numeric_limits<float>::quiet_NaN();
    const int64_t empty = std::count_if(rp.begin(), rp.end() - 1, [&, i = 0](const int32_t&) mutable {
      const bool r = rp[i + 1] == rp[i];
      ++i;
      return r;
    });
    CHECK(check(y).mismatches == static_cast<size_t>(empty));
  }
}

TEST_CASE("spmv: the matrix stays for the case, x is fresh for every input set", "[spmv]") {
  const Problem& p = spmv();
  const Case c = p.tests()[16];  // rmat-14
  REQUIRE(c.name == "rmat-14");
  const Filled a(p, c, 42, 2), b(p, c, 42, 3);
  for (const char* name : {"row_ptr", "col_idx", "values"})
    CHECK(std::memcmp(a.b()[name].data, b.b()[name].data, a.b()[name].spec->bytes()) == 0);
  CHECK(std::memcmp(a.b()["x"].data, b.b()["x"].data, a.b()["x"].spec->bytes()) != 0);
  const Signature sig = p.signature(c);
  CHECK(sig.has_setup());
  CHECK(sig.setup_args == std::vector<int>{0, 1, 2, 3, 4, 5, 6});
  for (const BufferSpec& s : sig.buffers) CHECK(s.per_case == (s.name != "x" && s.name != "y" && s.name != "workspace"));
  // The workspace limit: 8 bytes per input byte (the CSR and x) and 4 MiB.
  CHECK(p.workspace_limit(sig) == 8 * sig.input_bytes() + (size_t{4} << 20));
}

TEST_CASE("spmv protocol: CallSetup carries its pick of the arguments, Upload the kept workspace", "[spmv]") {
  protocol::Request q;
  q.op = protocol::Op::CallSetup;
  q.seq = 7;
  q.pick = {0, 1, 2, 3, 4, 5, 6};
  q.args.resize(9);
  q.keep_workspace = true;
  const nlohmann::json j = q;
  CHECK(j.at("op") == "call_setup");
  const std::optional<protocol::Request> back = protocol::parse_request(j);
  REQUIRE(back);
  CHECK(back->op == protocol::Op::CallSetup);
  CHECK(back->pick == q.pick);
  CHECK(back->keep_workspace);
  protocol::Request plain;
  plain.op = protocol::Op::Upload;
  const std::optional<protocol::Request> p2 = protocol::parse_request(nlohmann::json(plain));
  REQUIRE(p2);
  CHECK_FALSE(p2->keep_workspace);
  CHECK(p2->pick.empty());
}

TEST_CASE("spmv signature: setup() may take only solve()'s arguments; a generated scalar is a one-element input",
          "[spmv]") {
  CHECK_THROWS(Signature{}.scalar(1).setup({0, 1}));
  Signature s;
  s.scalar(3).generated_scalar("source").out("level", DType::I32, 3);
  REQUIRE(s.generated.size() == 1);
  CHECK(s.generated[0].arg == 1);
  CHECK(s.args[1].buffer == -1);  // passed by value
  CHECK(s.buffers[static_cast<size_t>(s.generated[0].buffer)].name == "source");
  CHECK(s.buffers[static_cast<size_t>(s.generated[0].buffer)].count == 1);
  CHECK_FALSE(s.has_setup());
  CHECK(spmv().has_setup());
  CHECK_FALSE(Registry::find("merge")->has_setup());
}
