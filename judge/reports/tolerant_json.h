// Reading JSON the judge wrote but someone may have edited since (a results folder's reports, the leaderboard's
// model, a report's parts read back: judge/measure/cpu_activity.h): a field of the wrong type reads as absent,
// and no read throws.
#pragma once

#include <cmath>
#include <optional>
#include <string>

#include "harness/json.h"

namespace hpcjudge::tolerant {

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
