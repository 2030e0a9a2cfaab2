// Device memory and every access to it. All of it lies in one reserved range:
//   [0, 256 GiB)          the judge's buffers (the shared host arena's file, mapped here at setup)
//   [256 GiB, 257 GiB)    shared memory: a 64 MiB window per worker (internal.h), each with the
//                         __shared__ variables (each at its own place, 4 KiB apart, at the same
//                         place in every window), then the dynamic shared memory of the running launch
//   [257 GiB, 513 GiB)    cudaMalloc: each allocation on pages of its own, never reused,
//                         with an unmapped page after it
// The submission is compiled with GCC's thread-sanitizer instrumentation (and
// without its runtime): every load and store calls __tsan_readN/__tsan_writeN,
// defined here. An address outside the range costs one comparison; one inside it is checked
// against the buffer, allocation or shared variable it falls in (out of bounds
// is an error naming the kernel, the buffer and the index), and in shared
// memory against the race rule: two threads of a block touching the same byte
// between two barriers, one of them writing, unless both are lanes of one warp
// ordered by a warp collective, or both accesses are atomic.
// Host code reaches device memory through code the instrumentation does not see
// too (the C library: memcpy, memmove, stdio, qsort): so the judge's buffers and
// every cudaMalloc allocation but a managed one are PROT_NONE outside a kernel
// and the emulator's own copies and fills; a host fault there is reported as the
// instrumented path reports an access (runner/emulated_memory.cpp's runner
// touches none of it: the judge writes and reads the buffers through its own mapping). No other code may change
// these protections or mappings (guard.cpp).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string_view>

#include "counters.h"
#include "internal.h"
#include "runner.h"

namespace hpcjudge_emu {

namespace {

constexpr uintptr_t GiB = uintptr_t{1} << 30;
constexpr uintptr_t kArenaSpan = 256 * GiB, kSharedOff = 256 * GiB, kSharedSpan = 64 << 20;  // a worker's window
constexpr uintptr_t kSharedAll = kMaxWorkers * kSharedSpan;
constexpr uintptr_t kDynamicIn = 48 << 20, kHeapOff = 257 * GiB, kHeapSpan = 256 * GiB;  // in a window; after
static_assert(kSharedOff + kSharedAll <= kHeapOff);
constexpr uintptr_t kSpan = kHeapOff + kHeapSpan;
constexpr size_t kPage = 4096;

uintptr_t g_lo = 0, g_span = 0;  // the reserved range; g_span = 0 until set up (every access passes)
size_t arena_mapped = 0;
size_t static_shared_used = 0;  // bump offset in the __shared__ part of a window
size_t dynamic_bytes = 0;       // the running launch's dynamic shared memory

// The judge's buffers of the current call.
std::vector<runner::Buffer> buffers;

struct Allocation {
  size_t bytes = 0;
  uint64_t number = 0;  // the n-th allocation of the process
  bool managed = false;
  bool live = true;
};
std::mutex heap_mutex;
std::map<uintptr_t, Allocation> allocations;
uintptr_t heap_next = 0;
uint64_t allocations_made = 0;
runner::Ledger ledger;

constexpr uint8_t kW = 1, kR = 2, kRMany = 4, kA = 8, kAMany = 16, kManyWarps = 0xff;

// A __shared__ variable: its place in every window. The table never moves (its capacity is reserved at setup) and
// grows under shared_mutex, its length published last, so that workers look a variable up while another adds one.
struct SharedVar {
  uintptr_t start = 0;  // in a window
  size_t bytes = 0;
  std::string name;
  int line = 0;
};
constexpr size_t kMaxSharedVars = kDynamicIn / kPage;  // each takes a page at least
std::mutex shared_mutex;
std::vector<SharedVar> shared_vars;  // by place (allocated in order)
std::atomic<size_t> shared_count{0};

// The variable at `in` (a place in a window), or null where `in` is before every variable.
const SharedVar* shared_var_at(uintptr_t in, size_t* index) {
  const SharedVar* first = shared_vars.data();
  const SharedVar* last = first + shared_count.load(std::memory_order_acquire);
  const SharedVar* it = std::upper_bound(first, last, in, [](uintptr_t a, const SharedVar& v) { return a < v.start; });
  if (it == first) return nullptr;
  *index = static_cast<size_t>(it - first - 1);
  return it - 1;
}

std::string element(const std::string& name, intptr_t index) { return name + "[" + std::to_string(index) + "]"; }

[[noreturn]] void out_of_bounds(const std::string& what) { fail(cudaErrorIllegalAddress, what + " " + where_kernel() + ", by " + describe_thread(g_thread->linear)); }

const char* verb(Access k) { return k == Access::Read ? "read" : k == Access::Write ? "write" : "atomic"; }

void report(bool device_code, const std::string& what) {
  if (device_code) out_of_bounds(what);
  note_host_error("solve() (host code) touched device memory: " + what +
                  "; a device pointer cannot be dereferenced on the host (on a GPU this is a crash)");
}

// The judge's buffers: inside one, or past the end of the nearest.
void check_arena(uintptr_t off, size_t size, Access kind, bool device_code) {
  const runner::Buffer* below = nullptr;
  const runner::Buffer* above = nullptr;
  for (const runner::Buffer& b : buffers) {
    if (off >= b.offset && off + size <= b.offset + b.bytes) {
      if (device_code) return;
      return report(false, std::string(verb(kind)) + " of " + element(b.name, static_cast<intptr_t>((off - b.offset) / b.elem)));
    }
    if (b.offset <= off && (!below || b.offset > below->offset)) below = &b;
    if (b.offset > off && (!above || b.offset < above->offset)) above = &b;
  }
  std::string what;
  const bool nearer_below = below && (!above || off - (below->offset + below->bytes) <= above->offset - off);
  if (nearer_below) {
    const intptr_t index = static_cast<intptr_t>((off - below->offset) / below->elem);
    const size_t count = below->bytes / below->elem;
    what = std::string(verb(kind)) + " past the end of " + below->name + ": " + element(below->name, index) + ", " +
           std::to_string(index - static_cast<intptr_t>(count) + 1) + " element(s) past its last (" + below->name +
           " has " + std::to_string(count) + ")";
  } else if (above) {
    const intptr_t index = -static_cast<intptr_t>((above->offset - off + above->elem - 1) / above->elem);
    what = std::string(verb(kind)) + " before the start of " + above->name + ": " + element(above->name, index);
  } else {
    what = std::string(verb(kind)) + " at " + hex(g_lo + off) + ", outside every buffer";
  }
  report(device_code, what);
}

void check_heap(uintptr_t addr, size_t size, Access kind, bool device_code) {
  // The report is made after heap_mutex is released: from device code it long-jumps out of the kernel
  // (fail()), past the lock's destructor, and the next cudaMalloc or cudaFree would wait on it for ever.
  std::string what;
  bool from_device = device_code;
  {
    // Device code reads the table unlocked: it runs only inside a launch, which holds gate_mutex, and every change
    // of the table is made under gate_mutex (the workers of a grid would otherwise queue on heap_mutex).
    std::unique_lock lock(heap_mutex, std::defer_lock);
    if (!device_code) lock.lock();
    auto it = allocations.upper_bound(addr);
    if (it != allocations.begin()) {
      --it;
      const Allocation& a = it->second;
      const uintptr_t start = it->first;
      if (addr + size <= start + a.bytes && a.live && (device_code || a.managed)) return;  // the common case
      const std::string which = "the " + std::to_string(a.bytes) + "-byte cudaMalloc allocation #" + std::to_string(a.number);
      if (addr + size <= start + a.bytes) {
        if (!a.live) {
          what = std::string(verb(kind)) + " of " + which + " after cudaFree (byte " + std::to_string(addr - start) + ")";
        } else {
          what = std::string(verb(kind)) + " of byte " + std::to_string(addr - start) + " of " + which;
          from_device = false;
        }
      } else {
        what = std::string(verb(kind)) + " past the end of " + which + ": byte " + std::to_string(addr - start) + ", " +
               std::to_string(addr + size - start - a.bytes) + " past its end";
      }
    } else {
      what = std::string(verb(kind)) + " at " + hex(addr) + ", in no allocation";
    }
  }
  report(from_device, what);
}

// The race rule on one byte's cell, for the running thread.
// `prefix` + `name` names the memory (built only for a report: this runs for every byte of every access).
void race_check(Cell& c, Access kind, const char* prefix, const std::string& name, size_t byte_offset, size_t elem) {
  const Block& b = current_block();
  const Thread& t = *g_thread;
  if (c.serial != b.serial || c.interval != b.interval) c = Cell{b.serial, b.interval};
  const auto ordered = [&](uint16_t tid, uint16_t epoch) {
    return tid == t.linear || ((tid >> 5) == t.warp && epoch < t.epoch);
  };
  const auto race = [&](uint16_t other, const char* other_did, const char* this_did) {
    const std::string full = prefix + name;
    const std::string idx = element(full, static_cast<intptr_t>(byte_offset / elem));
    fail(cudaErrorLaunchFailure,
         "shared-memory race " + where_kernel() + " on " + full + ": " + describe_thread(other) + " " + other_did +
             " " + idx + " (byte " + std::to_string(byte_offset) + ") and " + describe_thread(t.linear) + " " +
             this_did + " it with no __syncthreads() between them");
  };
  const char* did = kind == Access::Read ? "read" : kind == Access::Write ? "wrote" : "updated atomically";
  if ((c.flags & kW) && !ordered(c.w_tid, c.w_epoch)) race(c.w_tid, "wrote", did);
  if (kind != Access::Atomic && (c.flags & kA) && ((c.flags & kAMany) || c.a_tid != t.linear))
    race(c.a_tid, "updated atomically", did);
  if (kind != Access::Read && (c.flags & kR)) {
    const bool only_me = c.r_tid == t.linear && !(c.flags & kRMany);
    if (!only_me) {
      const uint16_t other = c.r_tid == t.linear ? c.r_other_tid : c.r_tid;
      if (c.r_warp == kManyWarps || c.r_warp != static_cast<uint8_t>(t.warp)) race(other, "read", did);
      const uint16_t epochs = c.r_tid == t.linear ? c.r_others : std::max(c.r_others, c.r_epoch);
      if (epochs >= t.epoch) race(other, "read", did);
    }
  }
  switch (kind) {
    case Access::Read:
      if (!(c.flags & kR)) {
        c.flags |= kR;
        c.r_tid = static_cast<uint16_t>(t.linear);
        c.r_epoch = t.epoch;
        c.r_warp = static_cast<uint8_t>(t.warp);
      } else if (c.r_tid != t.linear) {
        c.flags |= kRMany;
        c.r_others = std::max(c.r_others, c.r_epoch);
        c.r_other_tid = c.r_tid;
        if (c.r_warp != static_cast<uint8_t>(t.warp)) c.r_warp = kManyWarps;
        c.r_tid = static_cast<uint16_t>(t.linear);
        c.r_epoch = t.epoch;
      } else {
        c.r_epoch = t.epoch;
      }
      break;
    case Access::Write:
      c.flags = static_cast<uint8_t>((c.flags & ~(kR | kRMany)) | kW);
      c.w_tid = static_cast<uint16_t>(t.linear);
      c.w_epoch = t.epoch;
      c.r_others = 0;
      break;
    case Access::Atomic:
      if ((c.flags & kA) && c.a_tid != t.linear) c.flags |= kAMany;
      c.flags |= kA;
      c.a_tid = static_cast<uint16_t>(t.linear);
      break;
  }
}

// Shared memory: the running worker's own window only (another's is another block's, unreachable on a GPU).
void check_shared(uintptr_t off, size_t size, Access kind, bool device_code) {
  if (!device_code) return report(false, std::string(verb(kind)) + " of shared memory outside a kernel");
  Worker& w = *g_worker;
  const uintptr_t in = (off - kSharedOff) % kSharedSpan;
  if ((off - kSharedOff) / kSharedSpan != w.index)
    out_of_bounds(std::string(verb(kind)) + " of another block's shared memory (a pointer into shared memory that "
                  "another block made)");
  if (in >= kDynamicIn) {
    const size_t at = in - kDynamicIn;
    if (at + size > dynamic_bytes)
      out_of_bounds(std::string(verb(kind)) + " past the end of " + w.dynamic_name + ": byte " + std::to_string(at) +
                    " of the " + std::to_string(dynamic_bytes) + " bytes this launch gave it");
    if (w.dynamic_cells.size() < dynamic_bytes) w.dynamic_cells.resize(dynamic_bytes);
    for (size_t i = 0; i < size; ++i) race_check(w.dynamic_cells[at + i], kind, "", w.dynamic_name, at, size);
    return;
  }
  size_t index = 0;
  const SharedVar* v = shared_var_at(in, &index);
  if (!v) out_of_bounds(std::string(verb(kind)) + " of shared memory before every __shared__ variable");
  const size_t at = in - v->start;
  if (at + size > v->bytes)
    out_of_bounds(std::string(verb(kind)) + " past the end of __shared__ " + v->name + " (line " + std::to_string(v->line) +
                  ", " + std::to_string(v->bytes) + " bytes): byte " + std::to_string(at));
  if (w.var_cells.size() <= index) w.var_cells.resize(index + 1);
  std::vector<Cell>& cells = w.var_cells[index];
  if (cells.size() < v->bytes) cells.resize(v->bytes);
  for (size_t i = 0; i < size; ++i) race_check(cells[at + i], kind, "__shared__ ", v->name, at, size);
}

// --- host access: device memory inaccessible outside kernels and the emulator's own copies ---------------
// gate_mutex orders every change of protection (launches, copies, allocations, a host fault); a launch holds it.
std::recursive_mutex gate_mutex;
bool gate_open = false;  // a kernel runs, or a host fault opened device memory for the rest of the call
struct HostFault {
  bool seen = false, write = false;
  uintptr_t addr = 0;
} host_fault;

size_t span_of(size_t bytes) { return (bytes + kPage - 1) / kPage * kPage; }

// The judge's buffers and every live allocation but managed ones, to `prot`; false if one could not be changed.
bool protect_device_memory(int prot) {
  bool ok = arena_mapped == 0 || device_mprotect(reinterpret_cast<void*>(g_lo), arena_mapped, prot) == 0;
  std::lock_guard lock(heap_mutex);
  for (const auto& [at, a] : allocations)
    if (a.live && !a.managed && a.bytes) ok = device_mprotect(reinterpret_cast<void*>(at), span_of(a.bytes), prot) == 0 && ok;
  return ok;
}

// The pages of [p, p + n) that are closed device memory (the judge's buffers or a non-managed allocation), or {0, 0}.
std::pair<uintptr_t, size_t> closed_pages(const void* p, size_t n) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p), off = a - g_lo;
  if (gate_open || off >= g_span || n == 0) return {0, 0};
  uintptr_t lo = a & ~(kPage - 1), hi = span_of(a + n);
  if (off < kArenaSpan) {
    hi = std::min(hi, g_lo + span_of(arena_mapped));
  } else if (off >= kHeapOff) {
    std::lock_guard lock(heap_mutex);
    auto it = allocations.upper_bound(a);
    if (it == allocations.begin()) return {0, 0};
    --it;
    if (!it->second.live || it->second.managed) return {0, 0};
    lo = std::max(lo, it->first);
    hi = std::min(hi, it->first + span_of(it->second.bytes));
  } else {
    return {0, 0};  // shared memory: a kernel's, never closed
  }
  return lo < hi ? std::pair{lo, static_cast<size_t>(hi - lo)} : std::pair<uintptr_t, size_t>{0, 0};
}

// What a host fault touched, for the report.
std::string fault_place(uintptr_t addr) {
  const uintptr_t off = addr - g_lo;
  if (off < kArenaSpan) {
    for (const runner::Buffer& b : buffers)
      if (off >= b.offset && off < b.offset + b.bytes) return element(b.name, static_cast<intptr_t>((off - b.offset) / b.elem));
    return "the judge's buffers";
  }
  std::lock_guard lock(heap_mutex);
  auto it = allocations.upper_bound(addr);
  if (it == allocations.begin()) return "device memory";
  --it;
  return "byte " + std::to_string(addr - it->first) + " of the " + std::to_string(it->second.bytes) +
         "-byte cudaMalloc allocation #" + std::to_string(it->second.number);
}

// The closed pages of a copy's or fill's range, opened for it (the caller holds gate_mutex throughout).
class RangeOpen {
 public:
  RangeOpen(const void* p, size_t n) : pages_(closed_pages(p, n)) {
    if (pages_.second) ok_ = device_mprotect(reinterpret_cast<void*>(pages_.first), pages_.second, PROT_READ | PROT_WRITE) == 0;
  }
  ~RangeOpen() {
    if (pages_.second) device_mprotect(reinterpret_cast<void*>(pages_.first), pages_.second, PROT_NONE);
  }
  RangeOpen(const RangeOpen&) = delete;
  RangeOpen& operator=(const RangeOpen&) = delete;
  bool ok() const { return ok_; }

 private:
  std::pair<uintptr_t, size_t> pages_;
  bool ok_ = true;
};

void* reserve(uintptr_t off, size_t bytes) {
  void* p = device_mmap(reinterpret_cast<void*>(g_lo + off), bytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  return p;
}

}  // namespace

DeviceMemoryOpen::DeviceMemoryOpen() : lock_(gate_mutex) {
  if (gate_open || !g_span) return;
  opened_ = true;
  gate_open = true;
  if (!protect_device_memory(PROT_READ | PROT_WRITE))
    set_sticky(cudaErrorMemoryAllocation,
               "device memory could not be made accessible to the kernel: the host memory limit is reached");
}

DeviceMemoryOpen::~DeviceMemoryOpen() {
  if (!opened_ || host_fault.seen) return;  // after a host fault it stays open until the call ends
  gate_open = false;
  protect_device_memory(PROT_NONE);
}

bool open_after_host_fault(uintptr_t addr, bool write) {
  const uintptr_t off = addr - g_lo;
  if (off >= g_span) return false;
  std::lock_guard lock(gate_mutex);
  if (closed_pages(reinterpret_cast<void*>(addr), 1).second == 0) return false;  // not closed device memory: a crash
  if (!host_fault.seen) host_fault = {true, write, addr};
  gate_open = true;
  return protect_device_memory(PROT_READ | PROT_WRITE);
}

void report_host_fault() {
  std::lock_guard lock(gate_mutex);
  if (!host_fault.seen) return;
  note_host_error("solve() (host code) touched device memory: a " + std::string(host_fault.write ? "write" : "read") +
                  " of " + fault_place(host_fault.addr) +
                  " in code the emulator does not instrument (a library function such as memcpy or fwrite; "
                  "caught as a SIGSEGV); a device pointer cannot be dereferenced on the host (on a GPU this is a "
                  "crash)");
  host_fault = {};
  gate_open = false;
  protect_device_memory(PROT_NONE);
}

void check_access(uintptr_t addr, size_t size, Access kind) {
  const uintptr_t off = addr - g_lo;
  if (off >= g_span) return;
  const bool device_code = g_thread != nullptr;
  if (device_code) stop_if_abandoned();
  if (off < kArenaSpan) {
    if (off + size <= arena_mapped || device_code) return check_arena(off, size, kind, device_code);
  } else if (off >= kSharedOff && off < kSharedOff + kSharedAll) {
    return check_shared(off, size, kind, device_code);
  } else if (off >= kHeapOff) {
    return check_heap(addr, size, kind, device_code);
  }
  if (device_code) out_of_bounds(std::string(verb(kind)) + " at " + hex(addr) + ", in no buffer or allocation");
}

MemorySpace memory_space(uintptr_t addr, uintptr_t* var_start, size_t* var_bytes) {
  const uintptr_t off = addr - g_lo;
  if (off >= g_span) return MemorySpace::Other;
  if (off < kArenaSpan || off >= kHeapOff) return MemorySpace::Global;
  if (off >= kSharedOff + kSharedAll) return MemorySpace::Other;
  const uintptr_t in = (off - kSharedOff) % kSharedSpan;
  size_t index = 0;
  if (in < kDynamicIn)
    if (const SharedVar* v = shared_var_at(in, &index)) {
      *var_start = v->start;  // its place in a window: the same variable in every worker's
      *var_bytes = v->bytes;
    }
  return MemorySpace::Shared;
}

void reset_shared_for_launch(size_t bytes) { dynamic_bytes = bytes; }

uintptr_t window(unsigned worker) { return g_lo + kSharedOff + worker * kSharedSpan; }

}  // namespace hpcjudge_emu

__thread uintptr_t hpcjudge_emu::g_shared_base __attribute__((tls_model("initial-exec"))) = 0;

namespace hpcjudge_emu {

namespace {
std::atomic<bool> bound_outside_grid{false};
}  // namespace

bool shared_bound_outside_grid() { return bound_outside_grid.load(std::memory_order_relaxed); }

uintptr_t shared_slot(SharedSlot& slot, const char* name, size_t bytes, size_t align, int line) {
  if (!g_span) throw std::runtime_error("the CUDA emulator is not set up");
  if (!g_worker) bound_outside_grid = true;
  std::unique_lock lock(shared_mutex);
  if (const uintptr_t taken = __atomic_load_n(&slot.place, __ATOMIC_ACQUIRE)) return taken - 1;  // another worker's
  static_shared_used = (static_shared_used + kPage - 1) / kPage * kPage;
  static_shared_used = (static_shared_used + align - 1) / align * align;
  if (static_shared_used + bytes + kPage > kDynamicIn || shared_vars.size() == kMaxSharedVars) {
    lock.unlock();
    if (!g_worker) throw std::runtime_error("too much __shared__ memory");
    fail(cudaErrorLaunchOutOfResources, "too much __shared__ memory " + where_kernel());
  }
  const uintptr_t at = static_shared_used;
  shared_vars.push_back(SharedVar{at, bytes, name, line});  // within the reserved capacity: nothing moves
  shared_count.store(shared_vars.size(), std::memory_order_release);
  static_shared_used += bytes + kPage;  // a page apart: an index past one variable does not land in the next
  __atomic_store_n(&slot.place, at + 1, __ATOMIC_RELEASE);
  return at;
}

uintptr_t host_shared_base() { return window(0); }

void* dynamic_shared(const char* name) {
  if (!g_span) throw std::runtime_error("the CUDA emulator is not set up");
  if (Worker* w = g_worker) {
    if (w->dynamic_source != name) {
      w->dynamic_source = name;
      w->dynamic_name = std::string("extern __shared__ ") + name + "[] (the dynamic shared memory)";
    }
    return reinterpret_cast<void*>(w->shared_base + kDynamicIn);
  }
  return reinterpret_cast<void*>(window(0) + kDynamicIn);
}

cudaError_t malloc_device(void** p, size_t bytes, bool managed) {
  if (!p) return cudaErrorInvalidValue;
  *p = nullptr;
  if (sticky_set()) return api_error();
  std::lock_guard gate(gate_mutex);
  std::lock_guard lock(heap_mutex);
  if (!ledger.admit(bytes)) return cudaErrorMemoryAllocation;
  const size_t span = (bytes + kPage - 1) / kPage * kPage;
  if (heap_next + span + kPage > kHeapSpan) return cudaErrorMemoryAllocation;
  const uintptr_t at = g_lo + kHeapOff + heap_next;
  if (span && device_mprotect(reinterpret_cast<void*>(at), span, PROT_READ | PROT_WRITE) != 0) return cudaErrorMemoryAllocation;
  if (span && !managed && !gate_open) device_mprotect(reinterpret_cast<void*>(at), span, PROT_NONE);  // closed to the host
  heap_next += span + kPage;
  allocations[at] = Allocation{bytes, ++allocations_made, managed, true};
  ledger.record(bytes);
  *p = reinterpret_cast<void*>(at);
  return cudaSuccess;
}

cudaError_t free_device(void* p) {
  if (!p) return api_error();
  std::lock_guard gate(gate_mutex);
  std::lock_guard lock(heap_mutex);
  auto it = allocations.find(reinterpret_cast<uintptr_t>(p));
  if (it == allocations.end() || !it->second.live) return cudaErrorInvalidValue;
  it->second.live = false;
  const size_t span = (it->second.bytes + kPage - 1) / kPage * kPage;
  if (span) {
    device_madvise(p, span, MADV_DONTNEED);
    device_mprotect(p, span, PROT_NONE);
  }
  ledger.forget(it->second.bytes);
  return api_error();
}

cudaError_t mem_get_info(size_t* free, size_t* total) {
  *total = size_t{141} << 30;
  std::lock_guard lock(heap_mutex);
  *free = *total - std::min(*total, ledger.held);
  return cudaSuccess;
}

namespace {
// Whether [p, p + n) is device memory in one buffer or allocation; "" if so or not device memory, else why not.
std::string range_problem(const void* p, size_t n, bool write, const char* what) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(p), off = a - g_lo;
  if (off >= g_span || n == 0) return "";
  const char* dir = write ? "write" : "read";
  if (off < kArenaSpan) {
    for (const runner::Buffer& b : buffers)
      if (off >= b.offset && off < b.offset + b.bytes) {
        if (off + n <= b.offset + b.bytes) return "";
        return std::string(what) + " would " + dir + " past the end of " + b.name + ": " + std::to_string(n) +
               " bytes from " + element(b.name, static_cast<intptr_t>((off - b.offset) / b.elem)) + ", " +
               std::to_string(off + n - b.offset - b.bytes) + " bytes past its end";
      }
    return std::string(what) + " would " + dir + " device memory outside every buffer";
  }
  if (off >= kHeapOff) {
    std::lock_guard lock(heap_mutex);
    auto it = allocations.upper_bound(a);
    if (it != allocations.begin()) {
      --it;
      if (!it->second.live) return std::string(what) + " uses memory after cudaFree";
      if (a + n <= it->first + it->second.bytes) return "";
      return std::string(what) + " would " + dir + " past the end of the " + std::to_string(it->second.bytes) +
             "-byte cudaMalloc allocation #" + std::to_string(it->second.number);
    }
  }
  return std::string(what) + " would " + dir + " device memory outside every buffer";
}
}  // namespace

cudaError_t memcpy_checked(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind, const char* what) {
  if (sticky_set()) return api_error();
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return set_launch_error(cudaErrorInvalidMemcpyDirection, what), cudaErrorInvalidMemcpyDirection;
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return cudaErrorInvalidValue;
  for (const std::string& why : {range_problem(dst, bytes, true, what), range_problem(src, bytes, false, what)})
    if (!why.empty()) {
      set_sticky(cudaErrorIllegalAddress, why);
      return cudaErrorIllegalAddress;
    }
  // The host waits for a synchronous copy (cudaMemcpy2D's rows, each a copy here, are not counted).
  if (counters::g_on && (std::string_view(what) == "cudaMemcpy" || std::string_view(what) == "cudaMemcpyToSymbol" ||
                         std::string_view(what) == "cudaMemcpyFromSymbol"))
    counters::host_sync();
  std::lock_guard gate(gate_mutex);
  const RangeOpen d(dst, bytes), s(src, bytes);
  if (!d.ok() || !s.ok()) return cudaErrorMemoryAllocation;
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t memset_checked(void* dst, int value, size_t bytes, const char* what) {
  if (sticky_set()) return api_error();
  if (bytes == 0) return cudaSuccess;
  if (!dst) return cudaErrorInvalidValue;
  if (const std::string why = range_problem(dst, bytes, true, what); !why.empty()) {
    set_sticky(cudaErrorIllegalAddress, why);
    return cudaErrorIllegalAddress;
  }
  std::lock_guard gate(gate_mutex);
  const RangeOpen d(dst, bytes);
  if (!d.ok()) return cudaErrorMemoryAllocation;
  std::memset(dst, value, bytes);
  return cudaSuccess;
}

void free_all_allocations() {
  std::vector<void*> live;
  {
    std::lock_guard lock(heap_mutex);
    for (auto& [at, a] : allocations)
      if (a.live) live.push_back(reinterpret_cast<void*>(at));
  }
  for (void* p : live) free_device(p);
}

namespace runner {

bool Ledger::admit(size_t bytes) {
  if (limit > 0 && held + bytes > limit) {
    if (refused == 0) {
      refused = bytes;
      refused_at = held;
    }
    return false;
  }
  return true;
}
void Ledger::record(size_t bytes) {
  held += bytes;
  peak = std::max(peak, held);
}
void Ledger::forget(size_t bytes) { held -= std::min(held, bytes); }

void setup(int arena_fd) {
  if (g_span) return;
  void* p = device_mmap(nullptr, kSpan, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::runtime_error("cannot reserve the emulated device's address range");
  g_lo = reinterpret_cast<uintptr_t>(p);
  reserve(kSharedOff, kSharedAll);
  shared_vars.reserve(kMaxSharedVars);
  for (unsigned i = 0; i < kMaxWorkers; ++i) worker(i).shared_base = window(i);
  // The arena file over the whole of its part, closed to the host (see the top), however far the judge grows it
  // (a page past the file's end is never opened: map_arena() says how far it reaches); the descriptor closed, so
  // no other code of the process can map the file elsewhere.
  if (device_mmap(p, kArenaSpan, PROT_NONE, MAP_SHARED | MAP_FIXED | MAP_NORESERVE, arena_fd, 0) == MAP_FAILED)
    throw std::runtime_error("cannot map the buffers into the emulated device's range");
  close(arena_fd);
  g_span = kSpan;
  install_fault_handler();
  install_stall_report();
  guard_device_range(g_lo, g_span);
}

std::byte* map_arena(size_t bytes) {
  if (bytes > kArenaSpan) throw std::runtime_error("the buffers are larger than the emulated device's range");
  std::lock_guard gate(gate_mutex);
  if (bytes > arena_mapped) {
    // The new pages as the rest of device memory: open while a kernel runs or after a host fault.
    const uintptr_t from = span_of(arena_mapped), to = span_of(bytes);
    if (gate_open && to > from && device_mprotect(reinterpret_cast<void*>(g_lo + from), to - from, PROT_READ | PROT_WRITE) != 0)
      throw std::runtime_error("cannot open the buffers in the emulated device's range");
    arena_mapped = bytes;
  }
  return reinterpret_cast<std::byte*>(g_lo);
}

void set_buffers(std::vector<Buffer> b) { buffers = std::move(b); }

Ledger& ledger() { return hpcjudge_emu::ledger; }

}  // namespace runner

}  // namespace hpcjudge_emu

// The instrumentation's callbacks: the submission is compiled with GCC's
// -fsanitize=thread and linked without its runtime, so every load and store
// calls one of these (a read and a write of the same place are both seen,
// which the address sanitizer's instrumentation, deduplicating, does not give).
using hpcjudge_emu::Access;
using hpcjudge_emu::check_access;
// Checked, then counted where the call counts (counters.h), by the instruction that made the access.
#define HPCJUDGE_CHECK_COUNT(a, n, kind)                                                                 \
  do {                                                                                                   \
    check_access(reinterpret_cast<uintptr_t>(a), n, kind);                                               \
    if (__builtin_expect(hpcjudge_emu::counters::g_on, false))                                           \
      hpcjudge_emu::counters::access(reinterpret_cast<uintptr_t>(a), n, kind,                            \
                                     reinterpret_cast<uintptr_t>(__builtin_return_address(0)));          \
  } while (false)
extern "C" {
#define HPCJUDGE_HOOK(n)                                                                     \
  void __tsan_read##n(void* a) { HPCJUDGE_CHECK_COUNT(a, n, Access::Read); }                \
  void __tsan_write##n(void* a) { HPCJUDGE_CHECK_COUNT(a, n, Access::Write); }              \
  void __tsan_unaligned_read##n(void* a) { HPCJUDGE_CHECK_COUNT(a, n, Access::Read); }      \
  void __tsan_unaligned_write##n(void* a) { HPCJUDGE_CHECK_COUNT(a, n, Access::Write); }
HPCJUDGE_HOOK(1)
HPCJUDGE_HOOK(2)
HPCJUDGE_HOOK(4)
HPCJUDGE_HOOK(8)
HPCJUDGE_HOOK(16)
#undef HPCJUDGE_HOOK
void __tsan_read_range(void* a, size_t n) { HPCJUDGE_CHECK_COUNT(a, n, Access::Read); }
void __tsan_write_range(void* a, size_t n) { HPCJUDGE_CHECK_COUNT(a, n, Access::Write); }
void __tsan_vptr_update(void**, void*) {}
void __tsan_vptr_read(void**) {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}
void __tsan_init() {}
void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }
// Atomics of the submission's own (std::atomic, __atomic builtins, the guards of static locals).
#define HPCJUDGE_ATOMICS(bits, T)                                                                               \
  T __tsan_atomic##bits##_load(const volatile T* a, int) {                                                     \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);                                  \
    return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                              \
  }                                                                                                            \
  void __tsan_atomic##bits##_store(volatile T* a, T v, int) {                                                  \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);                                  \
    __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                                 \
  }                                                                                                            \
  HPCJUDGE_RMW(bits, T, exchange, __atomic_exchange_n)                                                        \
  HPCJUDGE_RMW(bits, T, fetch_add, __atomic_fetch_add)                                                        \
  HPCJUDGE_RMW(bits, T, fetch_sub, __atomic_fetch_sub)                                                        \
  HPCJUDGE_RMW(bits, T, fetch_and, __atomic_fetch_and)                                                        \
  HPCJUDGE_RMW(bits, T, fetch_or, __atomic_fetch_or)                                                          \
  HPCJUDGE_RMW(bits, T, fetch_xor, __atomic_fetch_xor)                                                        \
  HPCJUDGE_RMW(bits, T, fetch_nand, __atomic_fetch_nand)                                                      \
  int __tsan_atomic##bits##_compare_exchange_strong(volatile T* a, T* c, T v, int, int) {                     \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);                                  \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                   \
  }                                                                                                            \
  int __tsan_atomic##bits##_compare_exchange_weak(volatile T* a, T* c, T v, int, int) {                       \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);                                  \
    return __atomic_compare_exchange_n(a, c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                   \
  }                                                                                                            \
  T __tsan_atomic##bits##_compare_exchange_val(volatile T* a, T c, T v, int, int) {                           \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);                                  \
    __atomic_compare_exchange_n(a, &c, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                         \
    return c;                                                                                                  \
  }
#define HPCJUDGE_RMW(bits, T, op, builtin)                                         \
  T __tsan_atomic##bits##_##op(volatile T* a, T v, int) {                          \
    check_access(reinterpret_cast<uintptr_t>(a), sizeof(T), Access::Atomic);      \
    return builtin(a, v, __ATOMIC_SEQ_CST);                                        \
  }
HPCJUDGE_ATOMICS(8, char)
HPCJUDGE_ATOMICS(16, short)
HPCJUDGE_ATOMICS(32, int)
HPCJUDGE_ATOMICS(64, long long)
#undef HPCJUDGE_RMW
#undef HPCJUDGE_ATOMICS
}
