#include "settings/settings.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace hpcjudge::settings {

namespace {

size_t index_of(const Variable& v) {
  for (size_t i = 0; i < std::size(kAll); ++i)
    if (kAll[i] == &v) return i;
  std::abort();  // a Variable not in kAll: every one the product reads is declared there
}

Settings& store() {
  static Settings s = Settings::read();
  return s;
}

}  // namespace

Settings Settings::read() {
  Settings s;
  for (size_t i = 0; i < std::size(kAll); ++i)
    if (const char* value = std::getenv(kAll[i]->name)) s.slots_[i] = {true, value};
  return s;
}

const Settings& Settings::at_start() { return store(); }

Settings::Slot& Settings::slot(const Variable& v) { return slots_[index_of(v)]; }
const Settings::Slot& Settings::slot(const Variable& v) const { return slots_[index_of(v)]; }

std::optional<std::string> Settings::get(const Variable& v) const {
  const Slot& s = slot(v);
  if (!s.set) return std::nullopt;
  return s.value;
}

std::vector<std::pair<std::string, std::string>> Settings::grade_changing() const {
  std::vector<std::pair<std::string, std::string>> out;
  for (size_t i = 0; i < std::size(kAll); ++i) {
    const Variable& v = *kAll[i];
    const Slot& s = slots_[i];
    if (v.effect == Effect::None || !s.set) continue;
    if (v.effect == Effect::Secret) out.emplace_back(v.name, "secret");
    else if (v.fallback.empty() || s.value != v.fallback) out.emplace_back(v.name, s.value);
  }
  return out;
}

void put(const Variable& v, const std::string& value) {
  setenv(v.name, value.c_str(), 1);
  store().slot(v) = {true, value};
}

std::optional<std::string> take(const Variable& v) {
  Settings::Slot& s = store().slot(v);
  if (!s.set) return std::nullopt;
  std::optional<std::string> value = s.value;
  std::fill(s.value.begin(), s.value.end(), 'x');
  s.value.clear();
  if (char* in_environment = std::getenv(v.name)) std::memset(in_environment, 'x', std::strlen(in_environment));
  unsetenv(v.name);
  return value;
}

std::vector<std::string> path_folders() {
  std::vector<std::string> folders;
  std::stringstream ss(Settings::at_start().get(kPath).value_or(""));
  for (std::string d; std::getline(ss, d, ':');) folders.push_back(d);
  return folders;
}

}  // namespace hpcjudge::settings
