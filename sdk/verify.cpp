#include "sdk/verify.h"

#include <span>
#include <stdexcept>

namespace hpcjudge {

namespace {

// An integer output against its exact values, in the buffer's own type.
template <class T>
CheckResult check_exact_output(const BufferView& v, const ExpectedOutput& e) {
  const auto want = std::span(reinterpret_cast<const T*>(e.exact.data()), e.count);
  return check_exact<T>(v.as<const T>().first(e.count), want);
}

}  // namespace

Verification verify_outputs(const Problem& p, const Case& c, const Buffers& bufs, const Expected& e, int64_t ret) {
  Verification r;
  if (e.ret && ret != *e.ret) {
    r.ok = false;
    r.message = "solve() returned " + std::to_string(ret) + ", expected " + std::to_string(*e.ret);
    r.summary = r.message;
  }
  size_t out = 0;
  for (const BufferView& v : bufs.all()) {
    if (v.spec->role != Role::Out) continue;
    const ExpectedOutput& want = e.outputs.at(out++);
    if (want.count > v.spec->count) throw std::logic_error("the reference checks more elements than " + v.spec->name + " has");
    CheckResult cr;
    if (v.spec->type == DType::F32) {
      cr = check_close(v.as<const float>().first(want.count), want.values, p.tolerance(c), 5, want.bound);
    } else {
      switch (v.spec->type) {
        case DType::U8: cr = check_exact_output<uint8_t>(v, want); break;
        case DType::I32: cr = check_exact_output<int32_t>(v, want); break;
        default: cr = check_exact_output<uint32_t>(v, want); break;
      }
    }
    r.max_abs = std::max(r.max_abs, cr.max_abs_err);
    r.max_rel = std::max(r.max_rel, cr.max_rel_err);
    if (!cr.ok() && r.ok) {
      r.ok = false;
      r.message = describe(cr, v.spec->name, v.spec->cols);
      r.summary = summarize(cr, v.spec->name, v.spec->cols);
    }
  }
  if (out != e.outputs.size()) throw std::logic_error("the reference's outputs do not match the signature's");
  return r;
}

}  // namespace hpcjudge
