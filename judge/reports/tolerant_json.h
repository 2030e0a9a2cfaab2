// Reading JSON the judge wrote but someone may have edited since (a results folder's reports, the leaderboard's
// model, a report's parts read back: judge/machine/cpu_activity.h): a field of the wrong type reads as absent,
// and no read throws. Such a file is read through read_file(), the text parsed by parse_untrusted_json().
#pragma once

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include "protocol/json.h"
#include "protocol/untrusted_json.h"
#include "judge/files.h"

namespace hpcjudge::tolerant {

// The JSON a regular file holds (read_regular_file: no symlink, no FIFO, at most max_bytes), or a discarded value
// where the file is missing, refused, over max_bytes, nested too deep or not JSON (parse_untrusted_json).
inline nlohmann::json read_file(const std::filesystem::path& file, size_t max_bytes) {
  try {
    return parse_untrusted_json(read_regular_file(file, max_bytes), max_bytes);
  } catch (const FileRefused&) {
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
}

// j[key], or null where `j` is not an object or has no `key`.
inline const nlohmann::json& field(const nlohmann::json& j, const char* key) {
  static const nlohmann::json kNull;
  if (!j.is_object()) return kNull;
  const auto it = j.find(key);
  return it == j.end() ? kNull : *it;
}

// j[key] as text: a string as it is, a number or a boolean as JSON writes it, anything else "".
inline std::string str(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = field(j, key);
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number() || v.is_boolean()) return v.dump();
  return "";
}

// j[key] as a finite number, or none.
inline std::optional<double> num(const nlohmann::json& j, const char* key) {
  const nlohmann::json& v = field(j, key);
  if (!v.is_number()) return std::nullopt;
  const double d = v.get<double>();
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

}  // namespace hpcjudge::tolerant
