// Warp collectives: a lane deposits its value and waits; the last lane of the
// mask to arrive computes every lane's result, and the lanes go on. Each
// completed collective orders the participating lanes' shared-memory accesses
// (their epochs), as __syncwarp does. A lane's arrival is checked against its
// warp's masks (WarpLanes: exited, at a barrier, the open collectives), not lane
// by lane: spmv's warp-per-row file emulated in 16-17 s where the scan took 29-30.
#include <algorithm>

#include "counters.h"
#include "internal.h"

namespace hpcjudge_emu {

namespace {

const char* op_name(WarpOp op) {
  switch (op) {
    case WarpOp::Sync: return "__syncwarp";
    case WarpOp::ShflIdx: return "__shfl_sync";
    case WarpOp::ShflUp: return "__shfl_up_sync";
    case WarpOp::ShflDown: return "__shfl_down_sync";
    case WarpOp::ShflXor: return "__shfl_xor_sync";
    case WarpOp::Ballot: return "__ballot_sync";
    case WarpOp::Any: return "__any_sync";
    case WarpOp::All: return "__all_sync";
    case WarpOp::ReduceAdd: return "__reduce_add_sync";
    case WarpOp::ReduceMin: return "__reduce_min_sync";
    case WarpOp::ReduceMax: return "__reduce_max_sync";
    case WarpOp::ReduceAnd: return "__reduce_and_sync";
    case WarpOp::ReduceOr: return "__reduce_or_sync";
    case WarpOp::ReduceXor: return "__reduce_xor_sync";
    case WarpOp::MatchAny: return "__match_any_sync";
    case WarpOp::MatchAll: return "__match_all_sync";
  }
  return "a warp collective";
}

// The lanes that exist in warp `w` (the last warp of a block may be partial).
unsigned existing_lanes(unsigned w) {
  const unsigned first = w * 32, n = std::min(32u, current_block().nthreads - first);
  return n == 32 ? 0xffffffffu : ((1u << n) - 1u);
}

void complete(unsigned warp, unsigned lanes, const Thread& caller) {
  Block& b = current_block();
  if (counters::g_on) counters::warp_collective(lanes);
  Thread* l[32] = {};
  uint16_t epoch = 0;
  for (unsigned i = 0; i < 32; ++i)
    if (lanes >> i & 1u) {
      l[i] = &b.threads[warp * 32 + i];
      epoch = std::max(epoch, l[i]->epoch);
    }
  const WarpOp op = caller.op;
  unsigned ballot = 0;
  uint64_t sum = 0, mn = ~0ull, mx = 0, band = ~0ull, bor = 0, bxor = 0;
  int64_t smn = INT64_MAX, smx = INT64_MIN;
  for (unsigned i = 0; i < 32; ++i) {
    if (!l[i]) continue;
    const uint64_t v = l[i]->value;
    if (v) ballot |= 1u << i;
    sum += v;
    mn = std::min(mn, v);
    mx = std::max(mx, v);
    smn = std::min(smn, static_cast<int64_t>(v));
    smx = std::max(smx, static_cast<int64_t>(v));
    band &= v;
    bor |= v;
    bxor ^= v;
  }
  for (unsigned i = 0; i < 32; ++i) {
    Thread* t = l[i];
    if (!t) continue;
    const int w = (t->width >= 1 && t->width <= 32 && (t->width & (t->width - 1)) == 0) ? t->width : 32;
    const int seg = static_cast<int>(i) & ~(w - 1);
    int src = -1;
    switch (op) {
      case WarpOp::ShflIdx: src = seg + (t->arg & (w - 1)); break;
      case WarpOp::ShflUp: src = static_cast<int>(i) - t->arg; if (src < seg) src = -1; break;
      case WarpOp::ShflDown: src = static_cast<int>(i) + t->arg; if (src >= seg + w) src = -1; break;
      case WarpOp::ShflXor: src = static_cast<int>(i) ^ t->arg; if ((src & ~(w - 1)) != seg) src = -1; break;
      default: break;
    }
    uint64_t r = 0;
    switch (op) {
      case WarpOp::Sync: break;
      case WarpOp::ShflIdx:
      case WarpOp::ShflUp:
      case WarpOp::ShflDown:
      case WarpOp::ShflXor:
        // A source outside the segment, or not taking part, gives the lane its own value.
        r = (src >= 0 && src < 32 && l[src]) ? l[src]->value : t->value;
        break;
      case WarpOp::Ballot: r = ballot; break;
      case WarpOp::Any: r = ballot != 0; break;
      case WarpOp::All: r = ballot == lanes; break;
      case WarpOp::ReduceAdd: r = static_cast<uint32_t>(sum); break;
      case WarpOp::ReduceMin: r = t->is_signed ? static_cast<uint64_t>(smn) : mn; break;
      case WarpOp::ReduceMax: r = t->is_signed ? static_cast<uint64_t>(smx) : mx; break;
      case WarpOp::ReduceAnd: r = band; break;
      case WarpOp::ReduceOr: r = bor; break;
      case WarpOp::ReduceXor: r = bxor; break;
      case WarpOp::MatchAny:
        for (unsigned j = 0; j < 32; ++j)
          if (l[j] && l[j]->value == t->value) r |= 1ull << j;
        break;
      case WarpOp::MatchAll: break;
    }
    t->wresult = r;
    --b.at_warp[warp];
    t->epoch = static_cast<uint16_t>(epoch == 0xffff ? epoch : epoch + 1);
    t->state = Thread::Runnable;
  }
}

}  // namespace

namespace {

// The first lane (the lowest) that a lane arriving at `op` with `mask` cannot wait with: one it names that has
// exited or waits at a block barrier, or one in another collective that it names or that names it (`mismatched`):
// the error, as the GPU's report would name it.
[[noreturn]] void mismatch(const Thread& t, const WarpLanes& w, uint32_t bad, uint32_t mismatched, WarpOp op,
                           unsigned mask, int line) {
  const unsigned i = static_cast<unsigned>(__builtin_ctz(bad));
  const Thread& u = current_block().threads[t.warp * 32 + i];
  const std::string head = "warp collective mask mismatch " + where_kernel() + ": " + describe_thread(t.linear) +
                           " calls " + std::string(op_name(op)) + " (line " + std::to_string(line) + ") with mask " +
                           hex(mask);
  if (w.exited >> i & 1u)
    fail(cudaErrorLaunchFailure,
         head + ", which names lane " + std::to_string(i) + ", but " + describe_thread(u.linear) + " has exited");
  if (!(mismatched >> i & 1u))
    fail(cudaErrorLaunchFailure, head + " while " + describe_thread(u.linear) + ", which it names, waits at "
                                        "__syncthreads() (line " + std::to_string(u.line) + ")");
  fail(cudaErrorLaunchFailure, head + " while " + describe_thread(u.linear) + " waits in " + op_name(u.op) +
                                   " (line " + std::to_string(u.line) + ") with mask " + hex(u.mask));
}

}  // namespace

uint64_t warp_collective(WarpOp op, unsigned mask, uint64_t value, int arg, int width, bool is_signed, int line) {
  Thread* self = g_thread;
  if (!self) return value;  // host code
  Thread& t = *self;
  Block& b = current_block();
  if (!(mask >> t.lane & 1u))
    fail(cudaErrorLaunchFailure, "warp collective mask mismatch " + where_kernel() + ": " + describe_thread(t.linear) +
                                     " (lane " + std::to_string(t.lane) + ") calls " + std::string(op_name(op)) +
                                     " (line " + std::to_string(line) + ") with mask " + hex(mask) +
                                     ", which does not name it");
  const unsigned lanes = mask & existing_lanes(t.warp);
  t.state = Thread::AtWarp;
  ++b.at_warp[t.warp];
  t.op = op;
  t.mask = mask;
  t.value = value;
  t.arg = arg;
  t.width = width;
  t.is_signed = is_signed;
  t.line = line;
  // The open collectives this one meets: each that holds a lane it names, or whose mask names it, must be this one.
  WarpLanes& w = b.lanes[t.warp];
  const uint32_t me = 1u << t.lane;
  uint32_t mismatched = 0;
  WarpLanes::Group* join = nullptr;
  for (unsigned g = 0; g < w.groups; ++g) {
    WarpLanes::Group& open = w.group[g];
    const uint32_t met = (open.arrived & lanes) | ((open.mask & me) ? open.arrived : 0);
    if (!met) continue;
    if (open.op != op || open.mask != mask) mismatched |= met;
    else join = &open;
  }
  mismatched &= ~me;
  if (const uint32_t bad = (lanes & ~me & (w.exited | w.at_barrier)) | mismatched)
    mismatch(t, w, bad, mismatched, op, mask, line);
  if (!join) {
    join = &w.group[w.groups++];
    *join = {op, mask, 0};
  }
  join->arrived |= me;
  if ((lanes & ~join->arrived) == 0) {
    *join = w.group[--w.groups];
    complete(t.warp, lanes, t);
  } else {
    yield();
  }
  return t.wresult;
}

unsigned active_mask() {
  if (!g_thread) return 1;
  const unsigned w = g_thread->warp;
  return existing_lanes(w) & ~current_block().lanes[w].exited;
}

unsigned lane_id() { return g_thread ? g_thread->lane : 0; }

}  // namespace hpcjudge_emu
