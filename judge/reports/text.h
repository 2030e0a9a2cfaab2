// Text the judge writes about names and times it does not control: one way to
// format seconds, the width a string takes on a terminal, and cleaning for the
// terminal and for formats that need valid UTF-8 (HTML, XML, JSON).
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace hpcjudge {

// Seconds, in the judge's three styles:
//   Fixed    "412.0 us", "1.234 ms", "2.350 s" (the terminal's tables; ASCII)
//   Short    three significant digits in ns, µs, ms or s: "412 µs", "1.23 ms" (the leaderboard page)
//   Clock    minutes and seconds, "3:07" (elapsed and remaining time of a batch)
enum class TimeStyle { Fixed, Short, Clock };
std::string format_seconds(double s, TimeStyle style = TimeStyle::Fixed);

// Valid UTF-8 out, whatever comes in: a malformed sequence, a surrogate, an
// overlong form, or a C0 control other than tab, newline and CR becomes U+FFFD.
std::string clean_utf8(std::string_view in);

// Text escaped for XML and HTML, content and attribute values alike: valid UTF-8
// (clean_utf8), &<>"' and line breaks as character references. The one escaper of
// every page and XML file the judge writes (the leaderboard page, JUnit).
std::string markup_escape(std::string_view s);

// At most n code points of clean_utf8(s), with "…" when cut.
std::string truncate_chars(std::string_view s, size_t n);

// Text the judge does not control (compiler output, file and #line names, a submission's output, a runner's
// message, participant names) made safe to print on a terminal, so that it cannot move the cursor, clear or colour
// the screen, set the title, reverse the text or answer back: valid UTF-8 stays as it is (王小明, Zoë), and every
// other character is shown visibly, never sent: a C0 control or DEL as \x1b, a C1 control (U+0080-U+009F) or a
// character that reorders or breaks lines (bidirectional overrides, U+2028) as \u009b, a byte that is not valid
// UTF-8 as \xff. terminal_text keeps newlines and tabs (and drops the CR of a CRLF); for one-line fields (file,
// problem, #line and participant names, a table's cells), terminal_safe shows them too, as \n, \r and \t.
std::string terminal_text(std::string_view s);
std::string terminal_safe(std::string_view s);

// The columns a string of valid UTF-8 takes on a terminal: 2 for East Asian wide and
// fullwidth characters (CJK, Hangul, fullwidth forms, most emoji), 0 for combining
// marks and zero-width characters, 1 otherwise.
size_t display_width(std::string_view s);

// s, then spaces up to `width` columns (by display_width); s as it is when wider.
std::string pad_to(std::string_view s, size_t width);

// The current time as ISO 8601 UTC ("2026-11-30T06:10:00Z").
std::string utc_now();

// One short line for a table cell: the first non-empty line of s, at most n code
// points (clean UTF-8, "…" when cut).
std::string one_line(std::string_view s, size_t n = 120);

// The strings with `sep` between them: joined({"a", "b"}, ", ") is "a, b".
std::string joined(const std::vector<std::string>& v, const std::string& sep);

}  // namespace hpcjudge
