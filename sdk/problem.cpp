#include "sdk/problem.h"

#include <algorithm>
#include <map>
#include <stdexcept>

namespace hpcjudge {

size_t dtype_size(DType t) {
  switch (t) {
    case DType::F32: return 4;
    case DType::U8: return 1;
    case DType::U32: return 4;
    case DType::I32: return 4;
  }
  return 0;
}

const char* kind_name(Kind k) { return k == Kind::CPU ? "CPU" : "GPU"; }

int64_t Case::operator[](std::string_view key) const {
  for (const auto& [k, v] : sizes)
    if (k == key) return v;
  throw std::out_of_range("case " + name + " has no size " + std::string(key));
}

std::string Case::size_string() const {
  std::string s;
  for (const auto& [k, v] : sizes) {
    if (!s.empty()) s += ' ';
    s += k + "=" + std::to_string(v);
  }
  return s;
}

Signature& Signature::in(std::string name, DType t, size_t count, size_t cols) {
  args.push_back({static_cast<int>(buffers.size()), 0});
  buffers.push_back({std::move(name), t, Role::In, count, cols});
  return *this;
}

Signature& Signature::in_per_case(std::string name, DType t, size_t count, size_t cols) {
  in(std::move(name), t, count, cols);
  buffers.back().per_case = true;
  return *this;
}

Signature& Signature::generated_scalar(std::string name) {
  generated.push_back({args.size(), static_cast<int>(buffers.size())});
  args.push_back({-1, 0});
  buffers.push_back({std::move(name), DType::I32, Role::In, 1, 0});
  return *this;
}

Signature& Signature::setup(std::vector<int> arg_positions) {
  for (int a : arg_positions)
    if (a < 0 || static_cast<size_t>(a) >= args.size()) throw std::logic_error("setup() takes an argument solve() has not");
  setup_args = std::move(arg_positions);
  return *this;
}

Signature& Signature::out(std::string name, DType t, size_t count, size_t cols) {
  args.push_back({static_cast<int>(buffers.size()), 0});
  buffers.push_back({std::move(name), t, Role::Out, count, cols});
  return *this;
}

Signature& Signature::scalar(int64_t value) {
  args.push_back({-1, value});
  return *this;
}

Signature& Signature::workspace(std::string name, std::vector<int64_t> size_args) {
  args.push_back({static_cast<int>(buffers.size()), 0});
  buffers.push_back({std::move(name), DType::U8, Role::Workspace, 0, 0});
  workspace_args = std::move(size_args);
  return *this;
}

int Signature::workspace_index() const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].role == Role::Workspace) return static_cast<int>(i);
  return -1;
}

size_t Signature::input_bytes() const {
  size_t n = 0;
  for (const auto& b : buffers)
    if (b.role == Role::In) n += b.bytes();
  return n;
}

size_t Signature::total_bytes() const {
  size_t n = 0;
  for (const auto& b : buffers) n += b.bytes();
  return n;
}

ExpectedOutput ExpectedOutput::close(UninitVector<double> values, UninitVector<double> bound) {
  ExpectedOutput o;
  o.count = values.size();
  o.values = std::move(values);
  o.bound = std::move(bound);
  return o;
}

size_t Problem::device_memory_limit(const Case&, const Signature& sig) const {
  return sig.total_bytes() + (size_t{64} << 20);
}

size_t Problem::workspace_limit(const Signature& sig) const {
  return static_cast<size_t>(info().workspace_per_input_byte * static_cast<double>(sig.input_bytes())) +
         info().workspace_floor_bytes;
}

const BufferView& Buffers::operator[](std::string_view name) const {
  for (const auto& v : views_)
    if (v.spec->name == name) return v;
  throw std::out_of_range("no buffer named " + std::string(name));
}

uint32_t input_stream(const Case& c, uint32_t set, uint32_t buffer) {
  uint32_t h = 2166136261u;  // FNV-1a of the case name
  for (unsigned char ch : c.name) h = (h ^ ch) * 16777619u;
  return h ^ (set * 0x9E3779B9u) ^ (buffer * 0x85EBCA6Bu);
}

namespace {
std::map<std::string, std::unique_ptr<Problem>, std::less<>>& problems() {
  static std::map<std::string, std::unique_ptr<Problem>, std::less<>> m;
  return m;
}
}  // namespace

void Registry::add(std::unique_ptr<Problem> p) {
  const std::string slug = p->info().slug;
  if (!problems().emplace(slug, std::move(p)).second) throw std::logic_error("problem registered twice: " + slug);
}

std::vector<const Problem*> Registry::all() {
  std::vector<const Problem*> v;
  for (const auto& [slug, p] : problems()) v.push_back(p.get());
  return v;
}

const Problem* Registry::find(std::string_view slug) {
  auto it = problems().find(slug);
  return it == problems().end() ? nullptr : it->second.get();
}

}  // namespace hpcjudge
