// The one way the judge parses JSON text it did not produce itself in this run: a participant's pack manifest, a
// class file, reports and caches read back from folders others may write, a runner's messages (the runner hosts the
// submission). nlohmann::json copies, compares and prints a value by recursion, so a value nested 250,000 deep (half
// a megabyte of '[') overflows the judge's stack wherever it is next touched; the text is therefore refused before
// it is parsed when it is longer than `max_bytes` or nests deeper than `max_depth`, as it is when it is not JSON.
#pragma once
#include <cstddef>
#include <string_view>

#include "protocol/json.h"

namespace hpcjudge {

// Deeper than anything the judge writes (a report nests about 6 deep), far shallower than any stack's end.
inline constexpr size_t kMaxJsonDepth = 64;

// The deepest nesting of arrays and objects in `text`, counted outside strings; stops counting past `limit`.
inline size_t json_nesting_depth(std::string_view text, size_t limit) {
  size_t depth = 0, deepest = 0;
  bool in_string = false, escaped = false;
  for (const char c : text) {
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > deepest && (deepest = depth) > limit) break;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

// The value `text` holds, or a discarded value (is_discarded()) where it is over `max_bytes`, nests deeper than
// `max_depth` or is not JSON. Never throws on any text.
inline nlohmann::json parse_untrusted_json(std::string_view text, size_t max_bytes,
                                           size_t max_depth = kMaxJsonDepth) {
  if (text.size() > max_bytes || json_nesting_depth(text, max_depth) > max_depth)
    return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace hpcjudge
