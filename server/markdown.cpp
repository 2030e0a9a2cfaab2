#include "server/markdown.h"

#include <algorithm>
#include <vector>

#include "judge/reports/text.h"

namespace hpcjudge::server {
namespace {

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::string inline_html(std::string_view s);

// A link [text](url) at s[0]: its HTML and length, or 0 when s does not start one.
size_t link_at(std::string_view s, std::string& out) {
  size_t close = s.find("](");
  if (close == std::string_view::npos || s.substr(1, close - 1).find('[') != std::string_view::npos) return 0;
  size_t end = s.find(')', close + 2);
  if (end == std::string_view::npos) return 0;
  std::string_view text = s.substr(1, close - 1), url = s.substr(close + 2, end - close - 2);
  if (starts(url, "https://") || starts(url, "http://"))
    out += "<a href=\"" + markup_escape(url) + "\" rel=\"noopener noreferrer\">" + inline_html(text) + "</a>";
  else
    out += inline_html(text);
  return end + 1;
}

// `code`, **bold**, *emphasis* or a link at s[0]: appends its HTML and returns its length (0: none here).
size_t span_at(std::string_view s, std::string& out) {
  if (s[0] == '`') {
    size_t end = s.find('`', 1);
    if (end == std::string_view::npos) return 0;
    out += "<code>" + markup_escape(s.substr(1, end - 1)) + "</code>";
    return end + 1;
  }
  if (starts(s, "**")) {
    size_t end = s.find("**", 2);
    if (end == std::string_view::npos || end == 2) return 0;
    out += "<strong>" + inline_html(s.substr(2, end - 2)) + "</strong>";
    return end + 2;
  }
  if (s[0] == '*' && s.size() > 1 && s[1] != ' ') {
    size_t end = s.find('*', 1);
    if (end == std::string_view::npos || s[end - 1] == ' ') return 0;
    out += "<em>" + inline_html(s.substr(1, end - 1)) + "</em>";
    return end + 1;
  }
  if (s[0] == '[') return link_at(s, out);
  return 0;
}

std::string inline_html(std::string_view s) {
  std::string out;
  size_t run = 0, i = 0;
  while (i < s.size()) {
    char c = s[i];
    size_t n = 0;
    if (c == '`' || c == '*' || c == '[') {
      std::string span;
      n = span_at(s.substr(i), span);
      if (n > 0) {
        out += markup_escape(s.substr(run, i - run)) + span;
        i += n;
        run = i;
        continue;
      }
    }
    ++i;
  }
  return out + markup_escape(s.substr(run));
}

std::vector<std::string_view> lines_of(std::string_view md) {
  std::vector<std::string_view> lines;
  size_t pos = 0;
  while (pos <= md.size()) {
    size_t end = md.find('\n', pos);
    if (end == std::string_view::npos) end = md.size();
    std::string_view line = md.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    pos = end + 1;
  }
  return lines;
}

std::vector<std::string_view> cells(std::string_view row) {
  row = trim(row);
  if (starts(row, "|")) row.remove_prefix(1);
  if (!row.empty() && row.back() == '|') row.remove_suffix(1);
  std::vector<std::string_view> out;
  size_t pos = 0;
  while (pos <= row.size()) {
    size_t end = row.find('|', pos);
    if (end == std::string_view::npos) end = row.size();
    out.push_back(trim(row.substr(pos, end - pos)));
    pos = end + 1;
  }
  return out;
}

bool separator_row(std::string_view row) { return trim(row).find_first_not_of("|-: ") == std::string_view::npos; }

// A list item's marker ("- ", "* ", "12. "): its length, 0 when the line is no item; `ordered` says which kind.
size_t item_marker(std::string_view line, bool& ordered) {
  size_t indent = std::min(line.find_first_not_of(' '), line.size());
  std::string_view t = line.substr(indent);
  if (indent > 3) return 0;
  if (starts(t, "- ") || starts(t, "* ") || starts(t, "+ ")) {
    ordered = false;
    return indent + 2;
  }
  size_t d = t.find_first_not_of("0123456789");
  if (d > 0 && d != std::string_view::npos && d < 10 && starts(t.substr(d), ". ")) {
    ordered = true;
    return indent + d + 2;
  }
  return 0;
}

int heading_level(std::string_view line) {
  size_t n = line.find_first_not_of('#');
  return n >= 1 && n <= 6 && n < line.size() && line[n] == ' ' ? static_cast<int>(n) : 0;
}

bool marker_comment(std::string_view line) {
  std::string_view t = trim(line);
  return starts(t, "<!--") && t.size() >= 7 && t.substr(t.size() - 3) == "-->";
}

struct Blocks {
  std::vector<std::string_view> lines;
  size_t i = 0;
  std::string out;

  bool block_start(std::string_view line) {
    bool o;
    return trim(line).empty() || starts(trim(line), "```") || heading_level(line) || item_marker(line, o) ||
           starts(trim(line), "|") || starts(trim(line), ">") || marker_comment(line);
  }
  void code() {
    std::string text;
    for (++i; i < lines.size() && !starts(trim(lines[i]), "```"); ++i) text += std::string(lines[i]) + "\n";
    ++i;
    out += "<pre><code>" + markup_escape(text) + "</code></pre>\n";
  }
  void list() {
    bool ordered = false;
    item_marker(lines[i], ordered);
    out += ordered ? "<ol>\n" : "<ul>\n";
    bool o2;
    while (i < lines.size() && item_marker(lines[i], o2) && o2 == ordered) {
      std::string item(trim(lines[i].substr(item_marker(lines[i], o2))));
      for (++i; i < lines.size() && !trim(lines[i]).empty() && !block_start(lines[i]); ++i)
        item += " " + std::string(trim(lines[i]));
      out += "<li>" + inline_html(item) + "</li>\n";
    }
    out += ordered ? "</ol>\n" : "</ul>\n";
  }
  void table() {
    out += "<table class=\"md\">\n";
    bool head = true;
    for (; i < lines.size() && starts(trim(lines[i]), "|"); ++i) {
      if (separator_row(lines[i])) continue;
      out += "<tr>";
      for (std::string_view c : cells(lines[i]))
        out += (head ? "<th>" : "<td>") + inline_html(c) + (head ? "</th>" : "</td>");
      out += "</tr>\n";
      head = false;
    }
    out += "</table>\n";
  }
  void paragraph(const char* tag, size_t strip) {
    std::string text;
    for (; i < lines.size() && !trim(lines[i]).empty(); ++i) {
      if (!text.empty() && (block_start(lines[i]) && !(strip && starts(trim(lines[i]), ">")))) break;
      std::string_view t = trim(lines[i]);
      if (strip && starts(t, ">")) t = trim(t.substr(1));
      text += (text.empty() ? "" : " ") + std::string(t);
    }
    out += std::string("<") + tag + ">" + inline_html(text) + "</" + tag + ">\n";
  }
  void next() {
    std::string_view line = lines[i], t = trim(line);
    bool o;
    if (t.empty() || marker_comment(line)) ++i;
    else if (starts(t, "```")) code();
    else if (int h = heading_level(line)) {
      std::string n = std::to_string(h);
      out += "<h" + n + ">" + inline_html(trim(line.substr(h))) + "</h" + n + ">\n";
      ++i;
    } else if (item_marker(line, o)) list();
    else if (starts(t, "|")) table();
    else if (starts(t, ">")) paragraph("blockquote", 1);
    else paragraph("p", 0);
  }
};

}  // namespace

std::string markdown_html(std::string_view markdown) {
  Blocks b;
  b.lines = lines_of(markdown);
  while (b.i < b.lines.size()) b.next();
  return b.out;
}

}  // namespace hpcjudge::server
