// Small helpers for the text of messages and reports.
#pragma once
#include <cctype>
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

// `s` without the white space it begins and ends with.
inline std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return std::string(s.substr(a, b - a));
}

}  // namespace hpcjudge
