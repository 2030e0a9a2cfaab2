// UninitVector's large arrays: mapped with a rounded length, kept when given back, and taken again by the next
// array of that length (sdk/uninitialized.h).
#include <catch2/catch_test_macros.hpp>

#include <cstdint>

#include "sdk/uninitialized.h"

using namespace hpcjudge;

TEST_CASE("a large array's mapped length is rounded so that nearly equal sizes share it") {
  for (size_t bytes : {uninit::kHugeBytes, size_t{33} << 20, size_t{716} << 20, (size_t{1} << 31) + 12345}) {
    const size_t len = uninit::pooled_bytes(bytes);
    INFO(bytes);
    CHECK(len >= bytes);
    CHECK(len % uninit::kHugePage == 0);
    CHECK(len <= bytes + bytes / 16 + uninit::kHugePage);
  }
  // rle's answers: a few runs more or fewer from one input set to the next.
  CHECK(uninit::pooled_bytes(178956970 * 4) == uninit::pooled_bytes(178971828 * 4));
}

TEST_CASE("a large array given back is taken again by the next of its length, with its pages") {
  const size_t n = (size_t{40} << 20) / sizeof(uint32_t) + 3;  // a length no other test uses
  const uint32_t* first = nullptr;
  {
    UninitVector<uint32_t> a(n);
    for (size_t i = 0; i < n; i += 1024) a[i] = static_cast<uint32_t>(i);  // faulted in
    first = a.data();
  }
  {
    UninitVector<uint32_t> b(n + 100);  // the same mapped length
    CHECK(b.data() == first);
    UninitVector<uint32_t> c(n);  // the pool had one: a mapping of its own
    CHECK(c.data() != first);
    for (size_t i = 0; i < n; i += 4096) c[i] = 1;  // writable
    CHECK(c[0] == 1);
  }
  {
    UninitVector<uint32_t> small(1000);  // std::allocator's, never the pool's
    CHECK(small.data() != first);
  }
}
