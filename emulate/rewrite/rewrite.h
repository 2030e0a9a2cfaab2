// CPU emulation of a GPU submission (judge --emulate): what the judge does to
// the source before g++ compiles it against the emulator's headers
// (emulate/include), and what it refuses.
//
// g++ cannot parse a launch or place __shared__ memory, so two constructs are
// rewritten, in place and on the same lines (diagnostics keep their line numbers):
//   NAME<<<grid, block, shared, stream>>>(args)
//     -> ::hpcjudge_emu::kernel_launch("NAME", ::hpcjudge_emu::LaunchConfig(grid, block, shared, stream),
//                                      [&](auto&&... a) { NAME(a...); })(args)
//   __shared__ T x[16][16], y;     -> static ::hpcjudge_emu::SharedSlot hpcjudge_shared_x;
//                                     auto& x = ::hpcjudge_emu::shared<T[16][16]>(hpcjudge_shared_x, "x", LINE); (and y)
//                                     (one line: the slot is its place, the same in each worker's window)
//   extern __shared__ T s[];       -> T* const s = ::hpcjudge_emu::dynamic<T>("s");
// NAME may be qualified and carry template arguments (nested, with parentheses);
// comments, string and character literals are never touched.
#pragma once
#include <functional>
#include <string>

namespace hpcjudge {

// The source with its launches and __shared__ declarations rewritten; a
// construct the rewrite cannot read is left as it is (g++ then reports it).
std::string rewrite_for_emulation(const std::string& source);

// The judge's word on one header a submission includes, as the CE message where it is a library (the problem's
// rule on libraries is the judge's: judge/grading/libraries.h); "" where it has none.
using LibraryCheck = std::function<std::string(const std::string& header)>;

// The first construct of `source` that the emulator does not support, as the
// CE message ("not supported by CPU emulation: inline PTX assembly (asm); judge
// on a GPU"), or what `library` says of one of its headers; "" when there is none.
std::string unsupported_for_emulation(const std::string& source, const LibraryCheck& library);

// A compile error caused by a CUDA name the emulator does not declare, as the CE
// message; "" when the log shows none.
std::string unsupported_in_log(const std::string& log);

// The source with comments and literals blanked (same length, newlines kept).
std::string code_only(const std::string& source);

}  // namespace hpcjudge
