// Small helpers for the text of messages and reports.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace hpcjudge {

// "1 element", "2 elements", "0 elements": a count with its noun, singular only for 1.
inline std::string counted(size_t n, std::string_view noun) {
  std::string s = std::to_string(n);
  s += ' ';
  s += noun;
  if (n != 1) s += 's';
  return s;
}

}  // namespace hpcjudge
