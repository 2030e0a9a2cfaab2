#pragma once
// "Did you mean ...?" for a word that names nothing: a problem slug, an option, a file name.
#include <string>
#include <vector>

namespace hpcjudge {

// Edit distance (Levenshtein: insertions, deletions, substitutions).
size_t edit_distance(const std::string& a, const std::string& b);

// The candidates the word most likely meant, best first; empty when none is close.
// Case and '_' versus '-' are ignored; a word that is a whole-segment prefix of a
// candidate ("softmax" of "softmax-cpu") matches it; otherwise the nearest by edit
// distance, within max(2, size/3). Every candidate equally close is returned, in
// the candidates' order.
std::vector<std::string> closest(const std::string& word, const std::vector<std::string>& candidates);

// "a", "a or b", "a, b or c": for a message.
std::string one_of(const std::vector<std::string>& words);

}  // namespace hpcjudge
