// nlohmann/json, as every part of hpcjudge includes it: with its assertions
// checked in every build. Reading a key a const object lacks (`row["x"]` on a
// `const json&`) is undefined behaviour in the library, not null: in a Release
// build it read whatever lay past the map's end, and `judge bench` once judged a
// CPU problem's target on a "device time" of 1.7e-308. Here such a misuse stops
// the process with the library's check and where it failed, every time.
// Include this header, never <nlohmann/json.hpp> directly.
#pragma once
#include <cstdio>
#include <cstdlib>

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "<nlohmann/json.hpp> was included before protocol/json.h: include protocol/json.h alone"
#endif

namespace hpcjudge::json_detail {
[[noreturn]] inline void misuse(const char* check, const char* file, int line) {
  std::fprintf(stderr, "hpcjudge: a JSON value misused (%s:%d: %s): a bug in the judge\n", file, line, check);
  std::abort();
}
}  // namespace hpcjudge::json_detail

#define JSON_ASSERT(x) ((x) ? static_cast<void>(0) : ::hpcjudge::json_detail::misuse(#x, __FILE__, __LINE__))
#include <nlohmann/json.hpp>
