// The runner protocol: every request the judge sends to its runner child and
// every reply, as typed structs with their JSON in one place, used by both
// sides (judge/isolation/session.cpp, runner/runner_main.cpp).
//
// A request carries a sequence number, and so does its reply; the judge takes
// only the reply with the number it is waiting for, so a message the
// submission writes on the channel itself can at most end the judge's timed
// interval early (its outputs are then not there yet: WA), never answer a
// later request.
//
// What the runner reports is never the evidence: the judge times a call on its
// own clock (the runner's `seconds` is only cross-checked), reads the outputs
// itself and checks them in its own process.
#pragma once
#include <cstddef>
#include <cstdint>
#include "protocol/emulation_counts.h"
#include "protocol/json.h"
#include <optional>
#include <string>
#include <vector>

namespace hpcjudge::protocol {

enum class Op {
  Ping,           // answered at once: the channel's round trip, measured before the submission is loaded
  Setup,          // where solve()'s buffers will be (`mode`: host, judge, runner, exact, emulate; runner/runner_memory.h)
  Load,           // set the memory limit, dlopen the submission and find its symbols
  MapArena,       // map `bytes` of the shared host arena (the memfd passed at start; the common one over it, if sent)
  MapDevice,      // import the judge's device buffers (a shareable handle passed with the request)
  Upload,         // runner-held device buffers: copy the host arena to the device (untimed)
  Download,       // runner-held device buffers: copy the device buffers back (untimed)
  WorkspaceSize,  // call the submission's workspace_size(args)
  Call,           // call solve(args): the one request the judge times
  CallSetup,      // call setup() with the `pick` of args (untimed, once per case; none defined: nothing to do)
  AfterCall,      // untimed housekeeping: flush the submission's stdout, look for threads still working
  Sensors,        // the GPU's clock and temperature (NVML)
  Exit,
};

NLOHMANN_JSON_SERIALIZE_ENUM(Op, {{Op::Ping, "ping"},
                                  {Op::Setup, "setup"},
                                  {Op::Load, "load"},
                                  {Op::MapArena, "map_arena"},
                                  {Op::MapDevice, "map_device"},
                                  {Op::Upload, "upload"},
                                  {Op::Download, "download"},
                                  {Op::WorkspaceSize, "workspace_size"},
                                  {Op::Call, "call"},
                                  {Op::CallSetup, "call_setup"},
                                  {Op::AfterCall, "after_call"},
                                  {Op::Sensors, "sensors"},
                                  {Op::Exit, "exit"}})

// One argument of solve() or workspace_size(): a buffer (its offset and bytes in
// the arena, the same on the host and on the device) or a scalar.
struct CallArg {
  bool buffer = false;
  size_t offset = 0;
  size_t bytes = 0;
  bool workspace = false;  // scratch: filled with garbage, never copied
  int64_t value = 0;
  std::string name;        // the buffer's name and element size, for the CPU emulator's messages
  size_t elem = 1;
};

struct Request {
  Op op = Op::Ping;
  uint64_t seq = 0;
  std::vector<CallArg> args;       // Call, CallSetup, WorkspaceSize, Upload, Download
  std::vector<int> pick;           // CallSetup: the positions in args of setup()'s arguments, in its order
  bool keep_workspace = false;     // Upload: the workspace holds what setup() wrote: neither copied nor filled
  size_t bytes = 0;                // MapArena, MapDevice, Upload, Download: the arena's size
  // MapArena with a descriptor sent: the grade's common arena (a CPU problem's inputs and outputs, one memfd that
  // every runner of the grade maps: judge/isolation/session.h, SessionOptions::common_arena), mapped over the arena's first
  // `common_bytes`, where the runner's own memfd keeps the rest (the workspaces).
  size_t common_bytes = 0;
  size_t device_memory_limit = 0;  // Call, CallSetup (GPU): what the submission may hold allocated (0: none)
  // Call (GPU): the call's time on the device measured too, by events of the runner's context (Reply::
  // device_seconds). For `judge bench` alone, which times the judge's own references: never a score's.
  bool device_time = false;
  // Call (CPU emulation): count the kernels' memory requests, bank conflicts, active lanes, barriers and atomics
  // (Reply::emulation_counts); off, the emulator counts nothing and costs nothing more.
  bool count_accesses = false;
  std::string library;             // Load
  std::string mode;                // Setup
};

struct Reply {
  uint64_t seq = 0;
  bool ok = false;
  std::string error;          // why not ok
  bool memory_limit = false;  // the error is a memory limit (MLE)
  bool fatal = false;         // the runner ends itself after this reply (a lost CUDA context)
  int64_t ret = 0;            // solve()'s or workspace_size()'s return value
  double seconds = 0;         // Call: the runner's own measure, only cross-checked against the judge's clock
  // Call with Request::device_time (GPU): seconds between events of the runner's own context recorded on the
  // legacy stream before the call and after its synchronise: the call's work on the device, from the moment
  // the GPU took it up (the switch from the judge's context not counted). The runner's word: `judge bench` only.
  std::optional<double> device_seconds;
  // Call in a runner that marks its calls for `judge profile` (protocol/profiler_range.h): the process's CPU time
  // over the body, every thread of it (CLOCK_PROCESS_CPUTIME_ID), the body's wall time, and the time its threads
  // were ready to run but waited for a CPU (/proc/self/task/*/schedstat's run_delay). The runner's word:
  // `judge profile`'s "CPUs busy in solve()" only.
  std::optional<double> cpu_seconds, body_seconds, ready_seconds;
  std::optional<size_t> device_peak_bytes;  // Call, CallSetup (GPU): the most device memory the submission held
  std::optional<size_t> device_held_bytes;  // Call (CPU emulation): what solve() left allocated
  std::optional<EmulationCounts> emulation_counts;  // Call with Request::count_accesses (CPU emulation)
  nlohmann::json sensors;     // Sensors
  // Call, CallSetup: the runner's steady clock (ns) when it read the request, began the body, the body
  // returned and the call ended (synchronised), and under HPCJUDGE_TRACE on a GPU when the GPU took up the
  // call's work (from events of the runner's context): diagnostics only, never trusted.
  std::vector<int64_t> marks;
  // Call, CallSetup: the CPU the runner's thread was on as it read the request, began the body and saw it return
  // (HPCJUDGE_TRACE's `cpus`): diagnostics only, never trusted.
  std::vector<int> cpus;
};

void to_json(nlohmann::json& j, const CallArg& a);
void from_json(const nlohmann::json& j, CallArg& a);
void to_json(nlohmann::json& j, const Request& r);
void from_json(const nlohmann::json& j, Request& r);
void to_json(nlohmann::json& j, const Reply& r);
void from_json(const nlohmann::json& j, Reply& r);

// A message that does not parse as a request or reply: nullopt (never an exception from hostile bytes).
std::optional<Request> parse_request(const nlohmann::json& j);
std::optional<Reply> parse_reply(const nlohmann::json& j);

}  // namespace hpcjudge::protocol
