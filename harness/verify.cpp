#include "verify.h"

#include <cstring>
#include <stdexcept>

namespace hpcjudge {

namespace {

// Element i of an integer buffer, as a number.
double element(const BufferView& v, size_t i) {
  switch (v.spec->type) {
    case DType::U8: return static_cast<double>(v.as<const uint8_t>()[i]);
    case DType::U32: return static_cast<double>(v.as<const uint32_t>()[i]);
    case DType::F32: return static_cast<double>(v.as<const float>()[i]);
  }
  return 0;
}

// An integer output against its exact bytes: one memcmp, then the first few
// mismatching elements for the report.
CheckResult check_exact_bytes(const BufferView& v, const ExpectedOutput& e, size_t keep = 5) {
  CheckResult r;
  r.checked = e.count;
  const size_t size = dtype_size(v.spec->type);
  if (std::memcmp(v.data, e.exact.data(), e.count * size) == 0) return r;
  BufferSpec spec = *v.spec;
  const BufferView want{&spec, const_cast<std::byte*>(e.exact.data())};
  for (size_t i = 0; i < e.count; ++i) {
    if (std::memcmp(v.data + i * size, e.exact.data() + i * size, size) == 0) continue;
    if (r.first.size() < keep) r.first.push_back({i, element(want, i), element(v, i)});
    ++r.mismatches;
  }
  return r;
}

}  // namespace

Verification verify_outputs(const Problem& p, const Case& c, const Buffers& bufs, const Expected& e, int64_t ret) {
  Verification r;
  if (e.ret && ret != *e.ret) {
    r.ok = false;
    r.message = "solve() returned " + std::to_string(ret) + ", expected " + std::to_string(*e.ret);
  }
  size_t out = 0;
  for (const BufferView& v : bufs.all()) {
    if (v.spec->role != Role::Out) continue;
    const ExpectedOutput& want = e.outputs.at(out++);
    if (want.count > v.spec->count) throw std::logic_error("the reference checks more elements than " + v.spec->name + " has");
    CheckResult cr;
    if (v.spec->type == DType::F32) {
      cr = check_close(v.as<const float>().first(want.count), want.values, p.tolerance(c));
    } else {
      cr = check_exact_bytes(v, want);
    }
    r.max_abs = std::max(r.max_abs, cr.max_abs_err);
    r.max_rel = std::max(r.max_rel, cr.max_rel_err);
    if (!cr.ok() && r.ok) {
      r.ok = false;
      r.message = describe(cr, v.spec->name, v.spec->cols);
    }
  }
  if (out != e.outputs.size()) throw std::logic_error("the reference's outputs do not match the signature's");
  return r;
}

}  // namespace hpcjudge
