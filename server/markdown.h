// A problem's statement (problems/<slug>/README*.md) as HTML for the problem's page: the Markdown the statements
// use, rendered simply: headings, paragraphs, fenced code blocks, lists (- and 1.), block quotes, pipe tables, and
// inline `code`, **bold**, *emphasis* and links. Every piece of text goes through markup_escape; a link keeps its
// href only when it is http(s) (else its text alone); HTML in the source (comments, tags) is shown as text, except
// the statements' own <!-- ... --> marker lines, which are dropped.
#pragma once
#include <string>
#include <string_view>

namespace hpcjudge::server {

std::string markdown_html(std::string_view markdown);

}  // namespace hpcjudge::server
