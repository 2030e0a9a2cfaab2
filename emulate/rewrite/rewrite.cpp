#include "emulate/rewrite/rewrite.h"

#include <cctype>
#include <regex>
#include <sstream>
#include <vector>

#include "sdk/text.h"

namespace hpcjudge {

namespace {

bool ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

size_t skip_space_back(const std::string& s, size_t i) {  // i: one past; returns one past the last non-space
  while (i > 0 && std::isspace(static_cast<unsigned char>(s[i - 1]))) --i;
  return i;
}

// From `close` (an index of ')' '>' ']'), back to its opener; npos when unbalanced.
size_t match_back(const std::string& c, size_t close) {
  const char open = c[close] == ')' ? '(' : c[close] == ']' ? '[' : '<';
  int depth = 0;
  for (size_t i = close + 1; i-- > 0;) {
    const char ch = c[i];
    if (ch == c[close]) ++depth;
    else if (ch == open && --depth == 0) return i;
    else if (open == '<' && (ch == '(' || ch == ')' || ch == '[' || ch == ']')) {
      if (ch == ')' || ch == ']') {
        const size_t j = match_back(c, i);
        if (j == std::string::npos) return j;
        i = j;
      } else {
        return std::string::npos;
      }
    } else if (ch == ';' || ch == '{' || ch == '}') {
      return std::string::npos;
    }
  }
  return std::string::npos;
}

// The start of the callee before `end` (one past its last character): an
// identifier, qualified, with template arguments, or a parenthesised expression.
size_t callee_start(const std::string& c, size_t end) {
  size_t i = skip_space_back(c, end);
  if (i == 0) return std::string::npos;
  if (c[i - 1] == ')') {
    const size_t j = match_back(c, i - 1);
    return j;
  }
  for (;;) {
    if (i > 0 && c[i - 1] == '>') {
      const size_t j = match_back(c, i - 1);
      if (j == std::string::npos) return j;
      i = skip_space_back(c, j);
    }
    const size_t id_end = i;
    while (i > 0 && ident(c[i - 1])) --i;
    if (i == id_end) return std::string::npos;
    const size_t before = skip_space_back(c, i);
    if (before >= 2 && c[before - 1] == ':' && c[before - 2] == ':') {
      i = skip_space_back(c, before - 2);
      if (i == 0 || !(ident(c[i - 1]) || c[i - 1] == '>')) return before - 2;  // ::name
      continue;
    }
    return i;
  }
}

// The first ">>>" after `from` outside brackets.
size_t launch_end(const std::string& c, size_t from) {
  int depth = 0;
  for (size_t i = from; i + 2 < c.size(); ++i) {
    const char ch = c[i];
    if (ch == '(' || ch == '[' || ch == '{') ++depth;
    else if (ch == ')' || ch == ']' || ch == '}') {
      if (--depth < 0) return std::string::npos;
    } else if (ch == ';') {
      return std::string::npos;
    } else if (depth == 0 && c.compare(i, 3, ">>>") == 0) {
      return i;
    }
  }
  return std::string::npos;
}

std::string literal(const std::string& s) {
  std::string q = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') q += '\\';
    q += (ch == '\n' || ch == '\r' || ch == '\t') ? ' ' : ch;
  }
  return q + "\"";
}

std::string one_line(std::string s, size_t& newlines) {
  for (char& ch : s)
    if (ch == '\n') {
      ++newlines;
      ch = ' ';
    }
  return s;
}

// `text` without the words and attributes that say nothing of the type here.
std::string strip_qualifiers(const std::string& text) {
  std::string s = text;
  static const std::regex attrs(R"(__align__\s*\([^)]*\)|alignas\s*\([^)]*\)|__attribute__\s*\(\([^)]*\)\)|\[\[[^\]]*\]\])");
  s = std::regex_replace(s, attrs, " ");
  static const std::regex words(R"(\b(extern|static|__shared__|__device__|__restrict__)\b)");
  s = std::regex_replace(s, words, " ");
  return s;
}

int line_at(const std::string& s, size_t pos) {
  int line = 1;
  for (size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

// Splits a declaration at its top-level commas.
std::vector<std::string> split_declarators(const std::string& d) {
  std::vector<std::string> parts;
  int depth = 0;
  size_t from = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    const char ch = d[i];
    if (ch == '(' || ch == '[' || ch == '{' || ch == '<') ++depth;
    else if (ch == ')' || ch == ']' || ch == '}' || ch == '>') --depth;
    else if (ch == ',' && depth == 0) {
      parts.push_back(d.substr(from, i - from));
      from = i + 1;
    }
  }
  parts.push_back(d.substr(from));
  return parts;
}

struct Declarator {
  std::string name, pointers, dims;
};

// "**name[4][8]" (or with the specifiers before it, for the first).
bool parse_declarator(const std::string& text, Declarator& d, std::string* specifiers) {
  const size_t bracket = text.find('[');
  const size_t end = skip_space_back(text, bracket == std::string::npos ? text.size() : bracket);
  size_t i = end;
  while (i > 0 && ident(text[i - 1])) --i;
  if (i == end) return false;
  d.name = text.substr(i, end - i);
  d.dims = bracket == std::string::npos ? "" : trim(text.substr(bracket));
  size_t p = skip_space_back(text, i);
  const size_t ptr_end = p;
  while (p > 0 && (text[p - 1] == '*' || text[p - 1] == '&' || std::isspace(static_cast<unsigned char>(text[p - 1])))) --p;
  d.pointers = trim(text.substr(p, ptr_end - p));
  if (specifiers) *specifiers = trim(text.substr(0, p));
  else if (!trim(text.substr(0, p)).empty()) return false;
  return !d.name.empty();
}

// Whether `at` in code `c` is directly in a switch's body, where a jump to a later case label may cross it.
bool in_switch_body(const std::string& c, size_t at) {
  int depth = 0;
  size_t open = at;
  while (open > 0) {
    const char ch = c[--open];
    if (ch == '}') ++depth;
    else if (ch == '{' && depth-- == 0) break;
  }
  if (depth >= 0 || open == 0) return false;
  size_t p = c.find_last_not_of(" \t\r\n", open - 1);
  if (p == std::string::npos || c[p] != ')') return false;
  for (int parens = 0; p != std::string::npos; --p) {
    if (c[p] == ')') ++parens;
    else if (c[p] == '(' && --parens == 0) break;
    if (p == 0) return false;
  }
  if (p == 0) return false;
  const size_t word_end = c.find_last_not_of(" \t\r\n", p - 1);
  return word_end != std::string::npos && word_end >= 5 && c.compare(word_end - 5, 6, "switch") == 0 &&
         (word_end < 6 || !(std::isalnum(static_cast<unsigned char>(c[word_end - 6])) || c[word_end - 6] == '_'));
}

// Rewrites the declaration [start, end) (end at its ';'), or "" if it cannot. In a switch's body the reference is
// static thread_local, which a jump to a later case label may cross as CUDA lets it cross a __shared__ declaration
// (an automatic reference may not be crossed); each worker's thread binds it once to its own window.
std::string shared_declaration(const std::string& src, size_t start, size_t end, bool in_switch) {
  const std::string decl = src.substr(start, end - start);
  const bool dynamic = std::regex_search(decl, std::regex(R"(\bextern\b)"));
  const std::string bare = strip_qualifiers(decl);
  const int line = line_at(src, start);
  std::vector<std::string> parts = split_declarators(bare);
  std::string specifiers, out;
  for (size_t k = 0; k < parts.size(); ++k) {
    Declarator d;
    if (!parse_declarator(parts[k], d, k == 0 ? &specifiers : nullptr)) return "";
    if (specifiers.empty()) return "";
    if (dynamic) {
      if (d.dims != "[]" && d.dims != "[ ]") return "";
      const std::string type = specifiers + d.pointers;
      out += type + "* const " + d.name + " = ::hpcjudge_emu::dynamic<" + type + ">(" + literal(d.name) + ");";
    } else {
      if (d.dims.find('=') != std::string::npos || parts[k].find('=') != std::string::npos) return "";
      const std::string slot = "hpcjudge_shared_" + d.name;
      out += "static ::hpcjudge_emu::SharedSlot " + slot + "; " + (in_switch ? "static thread_local " : "") +
             "auto& " + d.name + " = ::hpcjudge_emu::shared<" +
             specifiers + d.pointers + d.dims + ">(" + slot + ", " + literal(d.name) + ", " + std::to_string(line) + ");";
    }
  }
  return out;
}

}  // namespace

std::string code_only(const std::string& s) {
  std::string c = s;
  size_t i = 0;
  const size_t n = s.size();
  auto blank = [&](size_t from, size_t to) {
    for (size_t k = from; k < to && k < n; ++k)
      if (c[k] != '\n') c[k] = ' ';
  };
  while (i < n) {
    if (s.compare(i, 2, "//") == 0) {
      size_t e = s.find('\n', i);
      if (e == std::string::npos) e = n;
      blank(i, e);
      i = e;
    } else if (s.compare(i, 2, "/*") == 0) {
      size_t e = s.find("*/", i + 2);
      e = e == std::string::npos ? n : e + 2;
      blank(i, e);
      i = e;
    } else if (s[i] == 'R' && i + 1 < n && s[i + 1] == '"' && (i == 0 || !ident(s[i - 1]))) {
      const size_t open = s.find('(', i + 2);
      if (open == std::string::npos) break;
      std::string delim = ")";  // appended, not ")" + ...: GCC 12 warns of a false overlap (-Wrestrict) there
      delim.append(s, i + 2, open - i - 2).push_back('"');
      size_t e = s.find(delim, open);
      e = e == std::string::npos ? n : e + delim.size();
      blank(i + 1, e);
      i = e;
    } else if (s[i] == '"' || (s[i] == '\'' && !(i > 0 && std::isxdigit(static_cast<unsigned char>(s[i - 1])) &&
                                                 i + 1 < n && std::isxdigit(static_cast<unsigned char>(s[i + 1]))))) {
      const char q = s[i];
      size_t e = i + 1;
      while (e < n && s[e] != q && s[e] != '\n') e += s[e] == '\\' ? 2 : 1;
      e = std::min(n, e + 1);
      blank(i + 1, e - 1);
      i = e;
    } else {
      ++i;
    }
  }
  return c;
}

std::string rewrite_for_emulation(const std::string& source) {
  // Pass 1: __shared__ declarations.
  std::string src = source;
  {
    std::string c = code_only(src), out;
    size_t copied = 0;
    static const std::regex word(R"(\b__shared__\b)");
    for (auto it = std::sregex_iterator(c.begin(), c.end(), word); it != std::sregex_iterator(); ++it) {
      const size_t at = static_cast<size_t>(it->position());
      if (at < copied) continue;
      // The declaration: from after the previous ; { }, label (case 1:) or line of the preprocessor, to its ;.
      size_t start = at;
      while (start > 0) {
        const char ch = c[start - 1];
        if (ch == ';' || ch == '{' || ch == '}') break;
        if (ch == ':' && (start < 2 || c[start - 2] != ':') && c[start] != ':') break;
        if (ch == '\n' && start >= 2) {  // the line before: a preprocessor line ends the search
          const size_t ls = c.rfind('\n', start - 2);
          const size_t first = c.find_first_not_of(" \t", ls == std::string::npos ? 0 : ls + 1);
          if (first != std::string::npos && first < start - 1 && c[first] == '#') break;
        }
        --start;
      }
      while (start < at && std::isspace(static_cast<unsigned char>(c[start]))) ++start;
      if (start < copied) continue;
      int depth = 0;
      size_t end = at;
      for (; end < c.size(); ++end) {
        const char ch = c[end];
        if (ch == '(' || ch == '[' || ch == '{') ++depth;
        else if (ch == ')' || ch == ']' || ch == '}') --depth;
        else if (ch == ';' && depth == 0) break;
        if (depth < 0) break;
      }
      if (end >= c.size() || c[end] != ';') continue;
      const std::string replaced = shared_declaration(src, start, end, in_switch_body(c, start));
      if (replaced.empty()) continue;
      size_t newlines = 0;
      const std::string line = one_line(replaced, newlines);
      for (size_t k = start; k < end; ++k) newlines += src[k] == '\n';
      out += src.substr(copied, start - copied) + line + std::string(newlines, '\n');
      copied = end + 1;
    }
    out += src.substr(copied);
    src = out;
  }
  // Pass 2: launches.
  std::string c = code_only(src), out;
  size_t copied = 0, from = 0;
  for (;;) {
    const size_t open = c.find("<<<", from);
    if (open == std::string::npos) break;
    from = open + 3;
    const size_t close = launch_end(c, open + 3);
    const size_t start = callee_start(c, open);
    if (close == std::string::npos || start == std::string::npos || start < copied) continue;
    size_t newlines = 0;
    const std::string callee = one_line(trim(src.substr(start, open - start)), newlines);
    const std::string config = one_line(src.substr(open + 3, close - open - 3), newlines);
    out += src.substr(copied, start - copied);
    out += "::hpcjudge_emu::kernel_launch(" + literal(callee) + ", ::hpcjudge_emu::LaunchConfig(" + config +
           "), [&](auto&&... hpcjudge_args) { " + callee + "(hpcjudge_args...); })" + std::string(newlines, '\n');
    copied = close + 3;
    from = copied;
  }
  out += src.substr(copied);
  return out;
}

std::string unsupported_for_emulation(const std::string& source, const LibraryCheck& library) {
  // Includes first: a library is the judge's to name (the GPU compile's own CE where the problem forbids it).
  static const std::regex include(R"(^\s*#\s*include\s*[<"]([^>"]+)[>"])");
  std::istringstream lines(source);
  std::string line;
  struct Header {
    const char* marker;
    const char* what;
  };
  static const Header unsupported_headers[] = {
      {"mma.h", "warp matrix multiply-accumulate (wmma, tensor cores)"},
      {"cooperative_groups", "cooperative groups"},
      {"cuda/", "libcu++ (cuda/...)"},
      {"cuda_pipeline", "asynchronous copies (cuda_pipeline.h)"},
      {"cuda_fp16", "half precision (cuda_fp16.h)"},
      {"cuda_bf16", "bfloat16 (cuda_bf16.h)"},
      {"cuda_fp8", "FP8 (cuda_fp8.h)"},
      {"texture", "textures"},
      {"surface", "surfaces"},
      {"sm_", "architecture intrinsics headers (sm_*.h)"},
      {"crt/", "the CUDA runtime's internal headers"},
      {"nvrtc", "NVRTC"},
      {"cufile", "cuFile"},
  };
  while (std::getline(lines, line)) {
    std::smatch m;
    if (!std::regex_search(line, m, include)) continue;
    const std::string h = m[1].str();
    if (std::string why = library(h); !why.empty()) return why;
    for (const Header& u : unsupported_headers)
      if (h.find(u.marker) != std::string::npos)
        return std::string("not supported by CPU emulation: ") + u.what + "; judge on a GPU";
  }
  struct Construct {
    const char* pattern;
    const char* what;
  };
  static const Construct constructs[] = {
      {R"(\b(asm|__asm__|__asm)\b)", "inline PTX assembly (asm)"},
      {R"(\b(wmma|nvcuda)\b|\bmma_sync\b)", "warp matrix multiply-accumulate (wmma, tensor cores)"},
      {R"(\b(tex1D|tex2D|tex3D|tex1Dfetch|texture|cudaTextureObject_t|cudaCreateTextureObject|surf2Dwrite|surf2Dread|cudaSurfaceObject_t)\b)",
       "textures and surfaces"},
      {R"(\b(cudaGraph\w*|cudaStreamBeginCapture\w*|cudaStreamEndCapture)\b)", "CUDA graphs"},
      {R"(\b(cudaLaunchCooperativeKernel\w*|this_grid|grid_group)\b)", "cooperative launches (grid-wide sync)"},
      {R"(\b(__cvta_generic_to_shared|__pipeline_\w+|cp\.async|memcpy_async)\b)", "asynchronous copies (cp.async)"},
      {R"(\b(__half|__half2|half2|__nv_bfloat16|__nv_bfloat162|__float2half\w*|__half2float)\b)",
       "half precision and bfloat16"},
      {R"(\b(__cluster_dims__|cluster_group)\b)", "thread block clusters"},
      {R"(\b(cub|thrust|cublas\w*|cutlass|cute)\s*::)", "library device code (CUB, Thrust, cuBLAS, CUTLASS)"},
      {R"(\bcudaStreamAttrValue\b|\bcudaStreamSetAttribute\b|\baccessPolicyWindow\b)",
       "L2 access-policy windows (cudaStreamSetAttribute)"},
  };
  const std::string code = code_only(source);
  for (const Construct& k : constructs)
    if (std::regex_search(code, std::regex(k.pattern)))
      return std::string("not supported by CPU emulation: ") + k.what + "; judge on a GPU";
  return "";
}

std::string unsupported_in_log(const std::string& log) {
  static const std::regex undeclared(
      R"(error: '((?:cuda|cu|__|nv)\w*)' (?:was not declared in this scope|is not a member of|has not been declared))");
  static const std::regex undeclared_utf(
      R"(error: ‘((?:cuda|cu|__|nv)\w*)’ (?:was not declared in this scope|is not a member of|has not been declared|does not name a type))");
  std::smatch m;
  if (std::regex_search(log, m, undeclared) || std::regex_search(log, m, undeclared_utf))
    return "not supported by CPU emulation: " + m[1].str() + "; judge on a GPU";
  return "";
}

}  // namespace hpcjudge
