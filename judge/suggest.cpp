#include "judge/suggest.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>

namespace hpcjudge {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

namespace {

std::string normalised(const std::string& s) {
  std::string out;
  for (char c : s) out += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The word is the candidate's first segments: "softmax" of "softmax-cpu", "--thr" of "--threads".
bool is_prefix(const std::string& word, const std::string& cand) {
  if (word.empty() || word.size() >= cand.size() || cand.compare(0, word.size(), word) != 0) return false;
  const char next = cand[word.size()];
  return next == '-' || next == '.' || word.size() >= 4;
}

// Smaller is closer; SIZE_MAX when not close at all.
size_t distance(const std::string& word, const std::string& cand) {
  if (word == cand) return 0;
  if (is_prefix(word, cand)) return 1;
  const size_t d = edit_distance(word, cand);
  return d <= std::max<size_t>(2, word.size() / 3) ? d + 1 : SIZE_MAX;
}

}  // namespace

std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string w = normalised(word);
  size_t best = SIZE_MAX;
  std::vector<std::string> out;
  for (const std::string& c : candidates) {
    const size_t d = distance(w, normalised(c));
    if (d == SIZE_MAX || d > best) continue;
    if (d < best) best = d, out.clear();
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::string one_of(const std::vector<std::string>& words) {
  std::string out;
  for (size_t i = 0; i < words.size(); ++i)
    out += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return out;
}

}  // namespace hpcjudge
