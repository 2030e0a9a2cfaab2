// The helpers behind what the judge writes about names, files and times it does not
// control: SHA-256, the record a report keeps, display width, the terminal's and
// XML's escaping, and the one way seconds are formatted.
#include <catch2/catch_test_macros.hpp>
#include <string>

#include "judge/reports/course.h"
#include "judge/reports/record.h"
#include "judge/reports/text.h"
#include "judge/sha256.h"

using namespace hpcjudge;

TEST_CASE("SHA-256 gives FIPS 180-4's digests") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Fed in pieces across the 64-byte blocks, and a million 'a's.
  Sha256 h;
  for (int i = 0; i < 1000; ++i) h.update(std::string(1000, 'a'));
  CHECK(h.hex() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the seed's identity tells seeds apart and does not hold the seed") {
  const std::string a = seed_identity(987654321), b = seed_identity(987654322);
  CHECK(a.size() == 64);
  CHECK(a == seed_identity(987654321));
  CHECK(a != b);
  CHECK(a.find("987654321") == std::string::npos);
  CHECK(a != sha256_hex("987654321"));
}

TEST_CASE("a record names every difference") {
  GradedFrom then{.source_sha256 = "s", .problem_version = "p", .judge_version = "j", .seed_id = "x",
                  .bench = true, .sandbox = true, .isolated = true, .machine = "m"};
  CHECK(then.differences(then).empty());
  GradedFrom now = then;
  now.source_sha256 = "t";
  now.seed_id = "y";
  now.bench = false;
  const auto d = then.differences(now);
  REQUIRE(d.size() == 3);
  CHECK(d[0] == "the source changed");
  CHECK(d[1] == "the seed changed");
  CHECK(d[2] == "graded with timing, now --no-bench");
  const GradedFrom back = GradedFrom::from_json(then.to_json());
  CHECK(back.differences(then).empty());
  CHECK(GradedFrom::from_json(nlohmann::json("not a record")).empty());
}

TEST_CASE("display width counts columns, not bytes") {
  CHECK(display_width("alice") == 5);
  CHECK(display_width("王小明") == 6);
  CHECK(display_width("Zoë") == 3);                 // precomposed
  CHECK(display_width("Zoe\xCC\x88") == 3);          // e + combining diaeresis
  CHECK(display_width("\xEF\xBC\xA1") == 2);          // fullwidth A
  CHECK(pad_to("王小明", 8) == "王小明  ");
  CHECK(pad_to("toolongname", 4) == "toolongname");
}

TEST_CASE("names are safe on a terminal: every control shown, never sent") {
  // One-line fields (file, problem, #line and participant names): line breaks and tabs shown too.
  CHECK(terminal_safe("two\nlines") == "two\\nlines");
  CHECK(terminal_safe("a\rb\tc") == "a\\rb\\tc");
  CHECK(terminal_safe("\x1b[31mred") == "\\x1b[31mred");
  CHECK(terminal_safe(std::string("nul\0bel\a del\x7f", 13)) == "nul\\x00bel\\x07 del\\x7f");
  CHECK(terminal_safe("abc\xE2\x80\xAE" "def") == "abc\\u202edef");  // right-to-left override
  CHECK(terminal_safe("\xC2\x9B" "2J") == "\\u009b2J");               // C1 control sequence introducer, as UTF-8
  CHECK(terminal_safe("\x9B" "2J \x9D" "0;t\x07") == "\\x9b2J \\x9d0;t\\x07");  // C1 as raw bytes (8-bit CSI, OSC)
  CHECK(terminal_safe("bad \xFF byte \xE2\x80") == "bad \\xff byte \\xe2\\x80");  // not UTF-8, a sequence cut short
  CHECK(terminal_safe("\xC0\xAF") == "\\xc0\\xaf");                      // an overlong '/'
  CHECK(terminal_safe("王小明") == "王小明");
  CHECK(terminal_safe("Zoë 🙂") == "Zoë 🙂");
}

TEST_CASE("text on a terminal keeps its lines, and nothing else a terminal acts on") {
  CHECK(terminal_text("a.cpp:1:1: error:\n\tint x\n") == "a.cpp:1:1: error:\n\tint x\n");
  CHECK(terminal_text("line\r\nnext") == "line\nnext");  // a CRLF's CR dropped
  CHECK(terminal_text("over\rwrite") == "over\\rwrite");  // a lone CR would return to the line's start
  // A #line name made to clear the screen and print a verdict of its own.
  const std::string log = "\x1b[2J\x1b[Hverdict AC   score 100\x1b[8m:1:1: error: expected ';'\n";
  const std::string shown = terminal_text(log);
  CHECK(shown.find('\x1b') == std::string::npos);
  CHECK(shown == "\\x1b[2J\\x1b[Hverdict AC   score 100\\x1b[8m:1:1: error: expected ';'\n");
  CHECK(terminal_text("\xC2\x9B" "31m\xC2\x85") == "\\u009b31m\\u0085");
  CHECK(terminal_text("王小明: 错误\n") == "王小明: 错误\n");
}

TEST_CASE("XML escaping leaves no markup and only valid characters") {
  CHECK(markup_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&#39;");
  CHECK(markup_escape("two\nlines\ttab") == "two&#10;lines&#9;tab");
  CHECK(markup_escape("\x01\x1b") == "\xEF\xBF\xBD\xEF\xBF\xBD");
  CHECK(markup_escape("]]>") == "]]&gt;");
  CHECK(markup_escape("\xEF\xBF\xBE") == "\xEF\xBF\xBD");  // U+FFFE is no XML character
}

TEST_CASE("one helper formats seconds in the judge's three styles") {
  CHECK(format_seconds(412e-6) == "412.0 us");
  CHECK(format_seconds(1.234e-3) == "1.234 ms");
  CHECK(format_seconds(2.35) == "2.350 s");
  CHECK(format_seconds(412e-6, TimeStyle::Short) == "412 \xC2\xB5s");
  CHECK(format_seconds(1.234e-3, TimeStyle::Short) == "1.23 ms");
  CHECK(format_seconds(5e-9, TimeStyle::Short) == "5.00 ns");
  CHECK(format_seconds(187.9, TimeStyle::Clock) == "3:07");
  CHECK(format_seconds(-1, TimeStyle::Clock) == "0:00");
}

TEST_CASE("one short line") {
  CHECK(one_line("\n  first line \nsecond") == "first line");
  CHECK(one_line("") == "");
  CHECK(one_line(std::string(200, 'x'), 10) == std::string(10, 'x') + "\xE2\x80\xA6");
}
