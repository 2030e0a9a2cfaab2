#include "judge/reports/text.h"

#include <cstdint>
#include <cstdio>
#include <ctime>

namespace hpcjudge {

namespace {

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

// The code point at s[i] of valid UTF-8, and its length.
uint32_t decode(std::string_view s, size_t i, size_t& len) {
  const auto c = static_cast<unsigned char>(s[i]);
  if (c < 0x80) return len = 1, c;
  uint32_t cp = 0;
  if (c < 0xE0) len = 2, cp = c & 0x1F;
  else if (c < 0xF0) len = 3, cp = c & 0x0F;
  else len = 4, cp = c & 0x07;
  if (i + len > s.size()) return len = 1, 0xFFFD;
  for (size_t k = 1; k < len; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
  return cp;
}

struct Range {
  uint32_t lo, hi;
};

template <size_t N>
bool in(const Range (&ranges)[N], uint32_t cp) {
  for (const Range& r : ranges)
    if (cp >= r.lo && cp <= r.hi) return true;
  return false;
}

// East Asian Wide (W) and Fullwidth (F), after Unicode's EastAsianWidth.txt, the large blocks.
constexpr Range kWide[] = {
    {0x1100, 0x115F}, {0x231A, 0x231B}, {0x2329, 0x232A}, {0x23E9, 0x23EC}, {0x23F0, 0x23F0}, {0x23F3, 0x23F3},
    {0x25FD, 0x25FE}, {0x2614, 0x2615}, {0x2648, 0x2653}, {0x267F, 0x267F}, {0x2693, 0x2693}, {0x26A1, 0x26A1},
    {0x26AA, 0x26AB}, {0x26BD, 0x26BE}, {0x26C4, 0x26C5}, {0x26CE, 0x26CE}, {0x26D4, 0x26D4}, {0x26EA, 0x26EA},
    {0x26F2, 0x26F3}, {0x26F5, 0x26F5}, {0x26FA, 0x26FA}, {0x26FD, 0x26FD}, {0x2705, 0x2705}, {0x270A, 0x270B},
    {0x2728, 0x2728}, {0x274C, 0x274C}, {0x274E, 0x274E}, {0x2753, 0x2755}, {0x2757, 0x2757}, {0x2795, 0x2797},
    {0x27B0, 0x27B0}, {0x27BF, 0x27BF}, {0x2B1B, 0x2B1C}, {0x2B50, 0x2B50}, {0x2B55, 0x2B55}, {0x2E80, 0x303E},
    {0x3041, 0x33FF}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xA000, 0xA4CF}, {0xA960, 0xA97F}, {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF}, {0xFE10, 0xFE19}, {0xFE30, 0xFE6F}, {0xFF00, 0xFF60}, {0xFFE0, 0xFFE6}, {0x16FE0, 0x16FE4},
    {0x17000, 0x18CFF}, {0x1B000, 0x1B2FF}, {0x1F004, 0x1F004}, {0x1F0CF, 0x1F0CF}, {0x1F18E, 0x1F18E},
    {0x1F191, 0x1F19A}, {0x1F200, 0x1F251}, {0x1F300, 0x1F320}, {0x1F32D, 0x1F335}, {0x1F337, 0x1F37C},
    {0x1F37E, 0x1F393}, {0x1F3A0, 0x1F3CA}, {0x1F3CF, 0x1F3D3}, {0x1F3E0, 0x1F3F0}, {0x1F3F4, 0x1F3F4},
    {0x1F3F8, 0x1F43E}, {0x1F440, 0x1F440}, {0x1F442, 0x1F4FC}, {0x1F4FF, 0x1F53D}, {0x1F54B, 0x1F54E},
    {0x1F550, 0x1F567}, {0x1F57A, 0x1F57A}, {0x1F595, 0x1F596}, {0x1F5A4, 0x1F5A4}, {0x1F5FB, 0x1F64F},
    {0x1F680, 0x1F6C5}, {0x1F6CC, 0x1F6CC}, {0x1F6D0, 0x1F6D2}, {0x1F6D5, 0x1F6D7}, {0x1F6EB, 0x1F6EC},
    {0x1F6F4, 0x1F6FC}, {0x1F7E0, 0x1F7EB}, {0x1F90C, 0x1F93A}, {0x1F93C, 0x1F945}, {0x1F947, 0x1F9FF},
    {0x1FA70, 0x1FAFF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD}};

// Combining marks and zero-width characters (general categories Mn, Me, Cf, the common blocks).
constexpr Range kZero[] = {{0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x0610, 0x061A},
                           {0x064B, 0x065F}, {0x0E31, 0x0E31}, {0x0E34, 0x0E3A}, {0x0E47, 0x0E4E},
                           {0x1AB0, 0x1AFF}, {0x1DC0, 0x1DFF}, {0x200B, 0x200F}, {0x202A, 0x202E},
                           {0x2060, 0x2064}, {0x2066, 0x206F}, {0x20D0, 0x20FF}, {0x302A, 0x302D},
                           {0x3099, 0x309A}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F}, {0xFEFF, 0xFEFF},
                           {0x1F3FB, 0x1F3FF}, {0xE0000, 0xE0FFF}};

// Shown as '?' on a terminal: controls, line and paragraph separators, bidirectional overrides.
constexpr Range kUnsafe[] = {{0x0000, 0x001F}, {0x007F, 0x009F}, {0x2028, 0x2029}, {0x202A, 0x202E},
                             {0x2066, 0x2069}, {0x200E, 0x200F}, {0x061C, 0x061C}};

// The length of the valid UTF-8 sequence at in[i] (a code point, not overlong, no surrogate, at most U+10FFFF),
// its code point in `cp`; 0 where the bytes there are no such sequence.
size_t utf8_sequence(std::string_view in, size_t i, uint32_t& cp) {
  const auto c = static_cast<unsigned char>(in[i]);
  if (c < 0x80) return cp = c, 1;
  size_t len = 0;
  if (c >= 0xC2 && c <= 0xDF) len = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) len = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) len = 4, cp = c & 0x07;
  if (len == 0 || i + len > in.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto cc = static_cast<unsigned char>(in[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (len == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) return 0;
  if (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) return 0;
  return len;
}

// terminal_text and terminal_safe: one way of showing what a terminal must not be sent.
std::string for_terminal(std::string_view text, bool keep_lines) {
  std::string out;
  out.reserve(text.size());
  char buf[16];
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(text, i, cp);
    if (len == 0) {  // not UTF-8: the byte itself, shown
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(text[i++]));
      out += buf;
      continue;
    }
    const bool crlf = cp == '\r' && i + 1 < text.size() && text[i + 1] == '\n';
    if (keep_lines && (cp == '\n' || cp == '\t' || crlf)) {
      if (!crlf) out += static_cast<char>(cp);
    } else if (cp == '\n' || cp == '\r' || cp == '\t') {
      out += cp == '\n' ? "\\n" : cp == '\r' ? "\\r" : "\\t";
    } else if (in(kUnsafe, cp)) {
      std::snprintf(buf, sizeof buf, cp < 0x80 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    } else {
      out.append(text, i, len);
    }
    i += len;
  }
  return out;
}

}  // namespace

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string format_seconds(double s, TimeStyle style) {
  switch (style) {
    case TimeStyle::Fixed:
      if (s < 1e-3) return fmt("%.1f us", s * 1e6);
      if (s < 1) return fmt("%.3f ms", s * 1e3);
      return fmt("%.3f s", s);
    case TimeStyle::Short: {
      const char* unit = "s";
      double v = s;
      if (s < 1e-6) unit = "ns", v = s * 1e9;
      else if (s < 1e-3) unit = "\xC2\xB5s", v = s * 1e6;
      else if (s < 1) unit = "ms", v = s * 1e3;
      const char* f = v >= 99.95 ? "%.0f " : v >= 9.995 ? "%.1f " : "%.2f ";
      return fmt(f, v) + unit;
    }
    case TimeStyle::Clock: {
      char buf[32];
      const long t = s > 0 ? static_cast<long>(s) : 0;
      std::snprintf(buf, sizeof buf, "%ld:%02ld", t / 60, t % 60);
      return buf;
    }
  }
  return "";
}

std::string clean_utf8(std::string_view in) {
  static const char kReplacement[] = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(in, i, cp);
    if (len == 0) {  // one U+FFFD for each byte that is not UTF-8
      out += kReplacement;
      ++i;
      continue;
    }
    // A C0 control but tab, newline and CR, DEL, and the noncharacters U+FFFE and U+FFFF (no XML characters either).
    if ((cp < 0x20 && cp != '\t' && cp != '\n' && cp != '\r') || cp == 0x7F || cp == 0xFFFE || cp == 0xFFFF)
      out += kReplacement;
    else
      out.append(in, i, len);
    i += len;
  }
  return out;
}

std::string truncate_chars(std::string_view s, size_t n) {
  const std::string clean = clean_utf8(s);
  size_t count = 0, i = 0, len = 0;
  while (i < clean.size()) {
    if (count == n) return clean.substr(0, i) + "\xE2\x80\xA6";
    decode(clean, i, len);
    i += len;
    ++count;
  }
  return clean;
}

std::string terminal_text(std::string_view s) { return for_terminal(s, true); }

std::string terminal_safe(std::string_view s) { return for_terminal(s, false); }

size_t display_width(std::string_view s) {
  size_t w = 0;
  for (size_t i = 0, len = 0; i < s.size(); i += len) {
    const uint32_t cp = decode(s, i, len);
    if (in(kZero, cp)) continue;
    w += in(kWide, cp) ? 2 : 1;
  }
  return w;
}

std::string pad_to(std::string_view s, size_t width) {
  std::string out(s);
  const size_t w = display_width(s);
  if (w < width) out.append(width - w, ' ');
  return out;
}

std::string one_line(std::string_view s, size_t n) {
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find('\n', at);
    if (end == std::string_view::npos) end = s.size();
    std::string_view line = s.substr(at, end - at);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) line.remove_prefix(1);
    if (!line.empty()) return truncate_chars(line, n);
    at = end + 1;
  }
  return "";
}

std::string markup_escape(std::string_view s) {
  const std::string clean = clean_utf8(s);
  std::string out;
  out.reserve(clean.size() + 16);
  for (char c : clean) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;  // not &apos;, which HTML 4 lacks
      case '\n': out += "&#10;"; break;
      case '\r': out += "&#13;"; break;
      case '\t': out += "&#9;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& v, const std::string& sep) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

}  // namespace hpcjudge
