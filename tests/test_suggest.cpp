#include "judge/suggest.h"

#include <catch2/catch_test_macros.hpp>

using hpcjudge::closest;
using V = std::vector<std::string>;

TEST_CASE("suggest: a slug's missing suffix names every problem it could be", "[suggest]") {
  const V slugs{"matmul-cpu", "matmul-gpu", "softmax-cpu", "softmax-gpu", "vector-add"};
  CHECK(closest("softmax", slugs) == V{"softmax-cpu", "softmax-gpu"});
  CHECK(closest("matmul_cpu", slugs) == V{"matmul-cpu"});
  CHECK(closest("sofmax-cpu", slugs) == V{"softmax-cpu"});
  CHECK(closest("Vector_Add", slugs) == V{"vector-add"});
  CHECK(closest("attention", slugs).empty());
}

TEST_CASE("suggest: a misspelt option", "[suggest]") {
  const V options{"--threads", "--emulate", "--no-emulate", "--seed", "--out"};
  CHECK(closest("--threds", options) == V{"--threads"});
  CHECK(closest("--emulte", options) == V{"--emulate"});
  CHECK(closest("--verbose", options).empty());
}

TEST_CASE("suggest: one_of joins words for a message", "[suggest]") {
  CHECK(hpcjudge::one_of({"a"}) == "a");
  CHECK(hpcjudge::one_of({"a", "b"}) == "a or b");
  CHECK(hpcjudge::one_of({"a", "b", "c"}) == "a, b or c");
}
