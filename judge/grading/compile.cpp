#include "judge/grading/compile.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <optional>
#include <regex>
#include <random>
#include <span>
#include <sstream>
#include <string_view>

#include "sdk/generators.h"
#include "sdk/timing.h"
#include "judge/files.h"
#include "emulate/rewrite/rewrite.h"
#include "judge/grading/libraries.h"
#include "judge/isolation/process.h"
#include "settings/settings.h"
#include "judge/isolation/sandbox.h"
#include "judge/machine/gpu.h"
#include "judge/paths.h"
#include "judge/sha256.h"
#include "judge/versions.h"

namespace hpcjudge {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> compile_command(const Problem& p, const Paths& paths, const fs::path& header,
                                         const fs::path& src, const fs::path& out, const std::string& arch,
                                         bool vendor, bool emulate) {
  std::vector<std::string> argv;
  if (emulate) {
    // The emulator: every load and store of the submission calls the emulator's check
    // (GCC's thread-sanitizer instrumentation, linked without its runtime: the default
    // libraries named one by one, libtsan left out; the emulator defines the callbacks);
    // floats contracted into FMAs as nvcc does.
    const fs::path inc = emulator_include(paths), lib = emulator_library_dir(paths);
    // Line tables (-g1) name the source line of each counted access (emulate/runtime/source_lines.h).
    argv = {"g++", "-std=c++20", "-O2", "-g1", "-march=native", "-ffp-contract=fast", "-fPIC", "-shared",
            "-fsanitize=thread", "--param", "tsan-instrument-func-entry-exit=0", "-DHPCJUDGE_SUBMISSION",
            "-I" + inc.string(), "-include", (inc / "hpcjudge_emulate.h").string(), "-include", header.string(),
            "-x", "c++", src.string(), "-x", "none", "-nodefaultlibs", "-L" + lib.string(), "-lhpcjudge-emulate",
            "-Wl,-rpath," + lib.string(), "-lstdc++", "-lm", "-lc", "-lgcc_s", "-lgcc", "-Wl,-z,defs"};
  } else if (p.info().source_ext == "cu") {
    // The shared CUDA runtime: the runner's own, so its cudaGetLastError sees the submission's launches.
    argv = {nvcc_path(), "-std=c++20", "-O3", "-arch=" + arch, "-cudart", "shared", "-Xcompiler", "-fPIC",
            "-shared", "-DHPCJUDGE_SUBMISSION", "-include", header.string(), src.string(),
            "-Xlinker", "-z,defs",
            // Each kernel's registers, spills and shared memory, for the report (kernel_resources.h).
            "-Xptxas", "-v"};
    if (vendor) {
      // cuBLAS and cuSPARSE from the toolkit the judge was built with, found at run time without LD_LIBRARY_PATH.
      const fs::path lib = cuda_toolkit().top / "lib64";
      argv.insert(argv.end(), {"-lcublas", "-lcusparse", "-Xlinker", "-rpath," + lib.string()});
    }
  } else {
    argv = {"g++",     "-std=c++20", "-O3",        "-march=native",     "-fopenmp", "-fPIC",
            "-shared", "-DHPCJUDGE_SUBMISSION",    "-include",          header.string(),
            src.string(), "-Wl,-z,defs"};
#if defined(HPCJUDGE_CBLAS_INCLUDE) && defined(HPCJUDGE_OPENBLAS_LIBRARY)
    if (vendor) argv.insert(argv.end(), {std::string("-I") + HPCJUDGE_CBLAS_INCLUDE, HPCJUDGE_OPENBLAS_LIBRARY});
#endif
  }
  argv.insert(argv.end(), {"-o", out.string()});
  return argv;
}

// Where a submission may take files from: its own folder (the copy, the
// header, the compiler's temporary files) and the system's and CUDA's headers.
std::vector<fs::path> allowed_sources(const fs::path& workdir, const fs::path& emulator) {
  std::vector<fs::path> roots = {workdir, "/usr/include", "/usr/lib/gcc", "/usr/local/include"};
  if (!emulator.empty()) roots.push_back(emulator);
#ifdef HPCJUDGE_CBLAS_INCLUDE
  roots.push_back(HPCJUDGE_CBLAS_INCLUDE);
#endif
  if (const CudaToolkit& cuda = cuda_toolkit(); !cuda.top.empty()) {
    roots.insert(roots.end(), {cuda.top / "include", cuda.top / "targets"});
    roots.insert(roots.end(), cuda.include_dirs.begin(), cuda.include_dirs.end());
  }
  for (fs::path& r : roots) {
    std::error_code ec;
    const fs::path c = fs::canonical(r, ec);
    if (!ec) r = c;
  }
  return roots;
}

const char* kSourceRule =
    "a submission may include only its problem's solve.h and the system's and the CUDA toolkit's headers, and may "
    "not take in any other file (#include, .incbin, #embed)";

// The compiler's diagnostics located in files a submission may read; the
// rest (what a diagnostic in another file would quote of it) is left out.
std::string diagnostics_inside(const std::string& log, const fs::path& cwd, const std::vector<fs::path>& allowed) {
  static const std::regex located(R"(^(In file included from |\s+from )?([^:\s][^:]*):\d+(:\d+)?[:,])");
  std::istringstream in(log);
  std::string line, kept;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_search(line, m, located) && first_outside({m[2].str()}, cwd, allowed).empty())
      kept += line + "\n";
  }
  return kept;
}

// The compiler's first error line.
std::string first_error(const std::string& log) {
  std::istringstream in(log);
  std::string line;
  while (std::getline(in, line))
    if (line.find(" error: ") != std::string::npos || line.find(" Error: ") != std::string::npos) return line;
  return log.substr(0, log.find('\n'));
}

std::string read_deps(const fs::path& file, bool& found) {
  std::ifstream in(file);
  found = static_cast<bool>(in);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string limits_note(size_t memory) {
  return "(the compiler may use " + std::to_string(memory >> 20) + " MiB of memory, " +
         std::to_string(kCompilerCpuSeconds) + " s of CPU time and write files of " +
         std::to_string(kCompilerFileSize >> 20) + " MiB)";
}

}  // namespace

namespace {

// What the compiler writes: a name on its command line, which any user may read (/proc/PID/cmdline) while it runs.
fs::path compiler_output(const fs::path& workdir) { return workdir / "submission.so"; }

// This judge's secret, drawn once: what makes each folder's library name one that no other user can guess.
const std::string& judge_secret() {
  static const std::string secret = [] {
    std::random_device rd;
    std::string s;
    for (int i = 0; i < 8; ++i) s += std::to_string(rd()) + "-";
    return s;
  }();
  return secret;
}

// After the compile, as the judge's user again: the folder's listing closed to other users (mode 0711) and
// every file in it but the library theirs alone (the source, its header, the compiler's lists), the library
// renamed to compiled_library()'s name. As root, each runner and compiler is a user of its own (0711 still lets
// the runner reach its library by the name it is given), so the submission of one grade cannot find the fast
// reference's library, another participant's, or its source, in the temporary folder of another: with the
// library at the fixed name it had before, a file could load the fast reference's compiled library beside it
// and call its solve().
void close_folder(const fs::path& workdir) {
  std::error_code ec;
  if (fs::exists(compiler_output(workdir), ec)) fs::rename(compiler_output(workdir), compiled_library(workdir), ec);
  const fs::path library = compiled_library(workdir);
  for (const auto& e : fs::directory_iterator(workdir, ec))
    if (e.path() != library && !e.is_symlink(ec))
      fs::permissions(e.path(), fs::perms::owner_read | fs::perms::owner_write, ec);
  fs::permissions(workdir, fs::perms::owner_all | fs::perms::group_exec | fs::perms::others_exec, ec);
}

}  // namespace

fs::path compiled_library(const fs::path& workdir) {
  const std::string key = judge_secret() + workdir.string();
  return workdir / ("submission-" + hex_key(gen::fnv1a(std::as_bytes(std::span(key.data(), key.size())))) + ".so");
}

std::string name_sources(const std::string& log, const fs::path& copy, const std::string& shown,
                         const fs::path& header, const std::string& header_shown) {
  std::string out;
  out.reserve(log.size());
  const std::string from[2] = {copy.string(), header.string()}, to[2] = {shown, header_shown};
  for (size_t i = 0; i < log.size();) {
    bool named = false;
    for (int k = 0; k < 2 && !named; ++k) {
      const std::string& f = from[k];
      if (f.empty() || log.compare(i, f.size(), f) != 0) continue;
      const size_t end = i + f.size();
      if (end < log.size() && std::string_view(":(,\"\n").find(log[end]) == std::string_view::npos) continue;
      out += to[k];
      i = end;
      named = true;
    }
    if (!named) out += log[i++];
  }
  return out;
}

fs::path emulator_include(const Paths& paths) { return paths.root / "emulate" / "include"; }
fs::path emulator_library_dir(const Paths& paths) { return paths.runner.parent_path(); }

std::string expected_signature(const Problem& p, const Paths& paths) {
  std::ifstream f(paths.problem_dir(p.info().slug) / "solve.h");
  std::string line, sig;
  while (std::getline(f, line))
    if (line.rfind("extern \"C\"", 0) == 0) sig += (sig.empty() ? "" : " ") + line;
  return sig;
}

std::string first_outside(const std::vector<std::string>& deps, const fs::path& cwd,
                          const std::vector<fs::path>& allowed) {
  for (const std::string& d : deps) {
    const fs::path p = fs::path(d).is_absolute() ? fs::path(d) : cwd / d;
    std::error_code ec;
    // Where it leads (symbolic links followed); a name that is gone by now, lexically.
    fs::path real = fs::canonical(p, ec);
    if (ec) real = fs::weakly_canonical(p, ec);
    if (ec) return d;
    bool ok = false;
    for (const fs::path& root : allowed) {
      auto a = real.begin();
      bool in = true;
      for (auto b = root.begin(); b != root.end() && in; ++b, ++a) in = a != real.end() && *a == *b;
      ok = ok || in;
    }
    if (!ok) return d;
  }
  return "";
}

namespace {

// What the compile read, by the compiler's dependency file and the assembler's (`have_deps`, `have_as`: each
// was written).
std::vector<std::string> files_read(const fs::path& deps, const fs::path& as_deps, bool& have_deps, bool& have_as) {
  std::vector<std::string> read = dependency_paths(read_deps(deps, have_deps));
  for (const std::string& d : dependency_paths(read_deps(as_deps, have_as))) read.push_back(d);
  return read;
}

// The compiler's process: its limits, its folder, and as root a user of its own, owning only its folder for the
// time of the compile, and every process it starts ending with it (a PID namespace of its own), a killed judge's
// included. `own`: the source and its header, the compiler's alone (the folder can be passed through by anyone:
// close_folder()).
SpawnOptions compiler_process(const fs::path& workdir, const std::vector<fs::path>& own) {
  SpawnOptions run;
  run.cwd = workdir;
  run.env = {{settings::kTmpdir.name, workdir.string()}};
  run.address_space = kCompilerMemory;
  run.cpu_seconds = kCompilerCpuSeconds;
  run.file_size = kCompilerFileSize;
  run.output_limit = kCompilerLog;
  run.die_together = true;
  if (geteuid() == 0) {
    run.uid = fresh_runner_uid();
    if (chown(workdir.c_str(), run.uid, run.uid) != 0) run.uid = 0;
  }
  for (const fs::path& f : own) {
    if (run.uid != 0 && lchown(f.c_str(), run.uid, run.uid) != 0) continue;
    std::error_code ec;
    fs::permissions(f, fs::perms::owner_read | fs::perms::owner_write, ec);
  }
  return run;
}

// The files the preprocessor reads, first under a tighter memory limit (an #include of /dev/zero ends in a
// second): each must be one a submission may read, and the library rule holds on them. The CE's message and
// log where one does not, or none.
std::optional<std::pair<std::string, std::string>> refused_headers(const Problem& p, const SpawnOptions& run,
                                                                   const fs::path& workdir,
                                                                   const std::vector<fs::path>& allowed, bool vendor) {
  SpawnOptions pre = run;
  pre.address_space = kPreprocessorMemory;
  const Preprocessed headers = included_headers(pre);
  if (!headers.ok) {
    const std::string log = diagnostics_inside(headers.log, workdir, allowed);
    const std::string why = log.empty() ? "the preprocessor failed (" + headers.status + ") " +
                                              limits_note(kPreprocessorMemory) + "; " + kSourceRule
                                        : first_error(log);
    return std::pair{why, log.empty() ? why + "\n" : log};
  }
  if (const std::string out = first_outside(headers.headers, workdir, allowed); !out.empty())
    return std::pair{"reads " + out + ": " + kSourceRule, "reads " + out + ": " + kSourceRule + "\n"};
  if (const std::string forbidden = vendor ? "" : forbidden_library(p, headers.headers); !forbidden.empty())
    return std::pair{forbidden, forbidden + "\n"};
  return std::nullopt;
}

// Why a compile that ran failed, from its log: over its time, stopped by a limit, a solve() of another
// signature or none, what emulation cannot run, else the first error.
std::string failed_compile_message(const Problem& p, const Paths& paths, const RunResult& c, bool have_deps,
                                   const std::string& log, bool emulate) {
  const std::string sig = expected_signature(p, paths);
  if (c.timed_out) return "compilation took longer than 120 s";
  if (!have_deps) return "the compiler was stopped (" + c.status.describe() + ") " + limits_note(kCompilerMemory);
  if (std::regex_search(log, std::regex("conflicting declaration|ambiguating new declaration|"
                                        "new declaration .*solve|declaration of C function|"
                                        "declaration is incompatible|overloaded function \"solve\"|"
                                        "cannot overload functions distinguished by return type|"
                                        "differ only in their return type")))
    return "solve() does not match the expected signature: " + sig;
  if (log.find("undefined reference to `solve'") != std::string::npos)
    return "no extern \"C\" solve() is defined; expected: " + sig;
  if (emulate)
    if (const std::string why = unsupported_in_log(log); !why.empty()) return why;
  return first_error(log);
}

}  // namespace

CompileResult compile_submission(const Problem& p, const Paths& paths, const std::string& source,
                                 const fs::path& workdir, const CompileOptions& opt) {
  CompileResult r;
  const Stopwatch clock;
  const fs::path src = workdir / ("solution." + p.info().source_ext), header = workdir / "solve.h";
  const fs::path deps = workdir / "deps.d", as_deps = workdir / "as.d";
  if (opt.emulate) {
    // What the emulator cannot run is CE before anything is compiled, never a wrong verdict.
    const auto library = [&p](const std::string& h) { return library_under_emulation(p, h); };
    if (const std::string why = unsupported_for_emulation(source, library); !why.empty()) {
      r.seconds = clock.elapsed();
      r.message = why;
      r.log = why + "\n";
      return r;
    }
  }
  {
    std::ofstream(src, std::ios::binary) << (opt.emulate ? rewrite_for_emulation(source) : source);
    fs::copy_file(paths.problem_dir(p.info().slug) / "solve.h", header, fs::copy_options::overwrite_existing);
  }
  SpawnOptions run = compiler_process(workdir, {src, header});
  std::vector<fs::path> emulator_dirs;
  if (opt.emulate) emulator_dirs = {emulator_include(paths), emulator_library_dir(paths)};
  if (opt.sandbox)
    run.argv = sandbox_wrapper(paths, {.folder = workdir, .compiler = true, .hidden = opt.hidden, .read_only = emulator_dirs});
  for (auto& a : compile_command(p, paths, header, src, compiler_output(workdir), opt.arch, opt.vendor, opt.emulate))
    run.argv.push_back(std::move(a));
  for (const auto& a : run.argv) r.command += (r.command.empty() ? "" : " ") + a;
  std::error_code ec;
  const std::vector<fs::path> allowed =
      allowed_sources(workdir, opt.emulate ? fs::canonical(emulator_include(paths), ec) : fs::path());
  auto finish = [&](const std::string& message, const std::string& log) {
    if (run.uid != 0) {
      std::error_code ec;
      for (const auto& e : fs::directory_iterator(workdir, ec)) lchown(e.path().c_str(), 0, 0);
      chown(workdir.c_str(), 0, 0);
    }
    close_folder(workdir);
    r.seconds = clock.elapsed();
    const auto shown = [&](const std::string& text) {
      if (opt.source_name.empty()) return text;
      return name_sources(text, src, opt.source_name, header, (paths.problem_dir(p.info().slug) / "solve.h").string());
    };
    r.message = shown(message);
    r.log = shown(log);
    return r;
  };
  // The files the preprocessor reads, first under a tighter memory limit (an
  // #include of /dev/zero ends in a second): each must be one a submission may
  // read, and the library rule holds on them.
  if (const auto refused = refused_headers(p, run, workdir, allowed, opt.vendor)) return finish(refused->first, refused->second);
  // The compile, listing what it read once more (a file may include another only some of the time), the
  // assembler too (what .incbin took in).
  run.argv.insert(run.argv.end(), {"-MD", "-MF", deps.string()});
  if (p.info().source_ext == "cu" && !opt.emulate) run.argv.push_back("-Xcompiler=-Wa\\,--MD\\," + as_deps.string());
  else run.argv.push_back("-Wa,--MD," + as_deps.string());
  const RunResult c = run_command(run, 120);
  bool have_deps = false, have_as = false;
  std::vector<std::string> read = files_read(deps, as_deps, have_deps, have_as);
  // The judge's own inputs on the command line (a vendor anchor's OpenBLAS library, which the linker lists with
  // what it read where the compiler hands it the dependency file: on the H200's host, g++ 13 against OpenBLAS
  // unpacked beside the repository, matmul-cpu's anchor was CE with "reads .../libopenblas.so:", the empty rule
  // the linker adds for it), as the preprocessor's listing skips them (included_headers).
  std::erase_if(read,
                [&](const std::string& d) { return std::find(run.argv.begin(), run.argv.end(), d) != run.argv.end(); });
  if (const std::string out = first_outside(read, workdir, allowed); !out.empty())
    return finish("reads " + out + ": " + kSourceRule, "reads " + out + ": " + kSourceRule + "\n");
  r.ok = !c.timed_out && c.status.exited && c.status.code == 0;
  if (r.ok && (!have_deps || !have_as)) {
    r.ok = false;
    return finish("the compiler did not list the files it read, so its output is not used", "");
  }
  if (r.ok) {
    if (p.info().source_ext == "cu" && !opt.emulate) r.kernels = parse_ptxas_info(c.output, opt.arch);
    return finish("", c.output);
  }
  // Without the list of what it read, only diagnostics in the submission's own files are kept.
  const std::string log = have_deps ? c.output : diagnostics_inside(c.output, workdir, allowed);
  return finish(failed_compile_message(p, paths, c, have_deps, log, opt.emulate), log);
}

namespace {

// The compiled libraries under <cache>/compiled/: <slug>-<role>-<key>.so, and beside it <...>.log, what the compiler
// printed (its warnings and, for CUDA, ptxas's figures that the report's kernel table is read from).
struct CompiledEntry {
  fs::path library, log;
};

CompiledEntry compiled_entry(const Paths& paths, const Problem& p, const std::string& role, const std::string& key) {
  // Other participants' libraries and the references': no runner of another user may load them.
  make_private_folder(paths.cache / "compiled");
  const fs::path base = paths.cache / "compiled" / (p.info().slug + "-" + role + "-" + key.substr(0, 16));
  return {fs::path(base.string() + ".so"), fs::path(base.string() + ".log")};
}

// A hit: the library copied into `workdir` as a compile would have left it, the log read back.
std::optional<CompileResult> from_cache(const CompiledEntry& e, const fs::path& workdir) {
  std::error_code ec;
  if (!fs::is_regular_file(e.library, ec) || !fs::is_regular_file(e.log, ec)) return std::nullopt;
  std::ifstream in(e.log, std::ios::binary);
  std::string log((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.eof() && in.fail()) return std::nullopt;
  if (!fs::copy_file(e.library, compiled_library(workdir), fs::copy_options::overwrite_existing, ec)) return std::nullopt;
  fs::last_write_time(e.library, fs::file_time_type::clock::now(), ec);  // used: kept the longest
  CompileResult r;
  r.ok = true;
  r.cached = true;
  r.log = std::move(log);
  r.command = "(compiled earlier on this machine: " + e.library.string() + ")";
  return r;
}

// Each file aside first, then renamed into place, the log before the library (a library is looked up only with
// its log): two judges at once never load half a library.
void into_cache(const CompiledEntry& e, const fs::path& workdir, const std::string& log) {
  std::error_code ec;
  fs::create_directories(e.library.parent_path(), ec);
  const auto place = [&](const fs::path& to, const auto& write) {
    // Unique to this judge and call: two grades at once (a batch's, one per GPU) may keep the same file.
    static std::atomic<unsigned> calls{0};
    const fs::path aside = to.string() + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(calls++);
    if (write(aside)) fs::rename(aside, to, ec);
    if (ec || fs::exists(aside, ec)) fs::remove(aside, ec);
    return !ec;
  };
  if (!place(e.log, [&](const fs::path& to) { return static_cast<bool>(std::ofstream(to, std::ios::binary) << log); }))
    return;
  place(e.library, [&](const fs::path& to) {
    return fs::copy_file(compiled_library(workdir), to, fs::copy_options::overwrite_existing, ec);
  });
}

// The libraries kept: the kSubmissionsKept most recently used submissions' and the kReferencesKept most recently
// used references' (a hit touches its library; a judge or problem of another version makes other keys).
constexpr size_t kSubmissionsKept = 256, kReferencesKept = 64;

void prune_compiled(const Paths& paths, bool submissions) {
  std::error_code ec;
  std::vector<std::pair<fs::file_time_type, fs::path>> kept;
  for (const auto& f : fs::directory_iterator(paths.cache / "compiled", ec)) {
    const bool submission = f.path().filename().string().find("-submission-") != std::string::npos;
    if (submission == submissions && f.path().extension() == ".so") kept.emplace_back(f.last_write_time(ec), f.path());
  }
  const size_t keep = submissions ? kSubmissionsKept : kReferencesKept;
  if (kept.size() <= keep) return;
  std::sort(kept.begin(), kept.end());
  for (size_t i = 0; i + keep < kept.size(); ++i) {
    fs::path log = kept[i].second;
    fs::remove(kept[i].second, ec);
    fs::remove(log.replace_extension(".log"), ec);
  }
}

// The emulator's headers, which an emulated compile force-includes and which the judge's version does not
// cover (cmake/versions.cmake): every file under emulate/include, its path and bytes, in sorted order.
std::string emulator_headers_digest(const Paths& paths) {
  std::error_code ec;
  const fs::path top = emulator_include(paths);
  std::vector<fs::path> files;
  for (const auto& f : fs::recursive_directory_iterator(top, ec))
    if (f.is_regular_file(ec)) files.push_back(f.path());
  std::sort(files.begin(), files.end());
  Sha256 all;
  for (const fs::path& f : files) {
    std::ifstream in(f, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    all.update(fs::relative(f, top, ec).string() + '\n' + sha256_hex(bytes) + '\n');
  }
  return all.hex();
}

// What -march=native compiles for: the CPU's feature flags, which its model name does not always fix (a virtual
// machine may hide some), where the cache is shared by machines of one model (a cluster's home folder).
std::string cpu_flags() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("flags", 0) == 0) return line;
  return "";
}

std::string compile_key(const Problem& p, const Paths& paths, const std::string& role, const CompileOptions& opt,
                        const std::string& machine_fingerprint, const std::string& source) {
  static const std::string flags = cpu_flags();
  // Each field ends with a NUL (a literal "\0..." would end where its NUL is, as a C string, and leave out the
  // fields after it).
  std::string key;
  for (const std::string& field :
       {machine_fingerprint, flags, std::string(judge_version()), p.info().slug, problem_version(p.info().slug), role,
        opt.arch, std::string(opt.vendor ? "vendor" : ""),
        opt.emulate ? "emulate " + emulator_headers_digest(paths) : std::string()})
    key += field + '\0';
  return sha256_hex(key + source);
}

// A cached log names the source by this mark, which each hit replaces by the name it is judged under: a file
// judged under two names (or in two folders) shares one entry.
constexpr const char* kCachedSourceMark = "\x01source\x01";

void name_cached_source(CompileResult& r, const std::string& shown) {
  for (std::string* text : {&r.log, &r.message})
    for (size_t at = 0; (at = text->find(kCachedSourceMark, at)) != std::string::npos; at += shown.size())
      text->replace(at, std::strlen(kCachedSourceMark), shown);
}

}  // namespace

CompileResult compile_reference(const Problem& p, const Paths& paths, const std::string& role,
                                const std::string& source, const fs::path& workdir, const CompileOptions& opt,
                                const std::string& machine_fingerprint) {
  const CompiledEntry e = compiled_entry(paths, p, role, compile_key(p, paths, role, opt, machine_fingerprint, source));
  if (std::optional<CompileResult> hit = from_cache(e, workdir)) return std::move(*hit);
  CompileResult r = compile_submission(p, paths, source, workdir, opt);
  if (r.ok) {
    into_cache(e, workdir, r.log);
    prune_compiled(paths, false);
  }
  return r;
}

CompileResult compile_submission_cached(const Problem& p, const Paths& paths, const std::string& source,
                                        const fs::path& workdir, const CompileOptions& opt,
                                        const std::string& machine_fingerprint) {
  const Stopwatch clock;
  const CompiledEntry e =
      compiled_entry(paths, p, "submission", compile_key(p, paths, "submission", opt, machine_fingerprint, source));
  const std::string shown =
      opt.source_name.empty() ? (workdir / ("solution." + p.info().source_ext)).string() : opt.source_name;
  if (std::optional<CompileResult> hit = from_cache(e, workdir)) {
    if (p.info().source_ext == "cu" && !opt.emulate) hit->kernels = parse_ptxas_info(hit->log, opt.arch);
    hit->seconds = clock.elapsed();
    name_cached_source(*hit, shown);
    return std::move(*hit);
  }
  CompileOptions marked = opt;
  marked.source_name = kCachedSourceMark;
  CompileResult r = compile_submission(p, paths, source, workdir, marked);
  if (r.ok) {
    into_cache(e, workdir, r.log);
    prune_compiled(paths, true);
  }
  name_cached_source(r, shown);
  return r;
}

}  // namespace hpcjudge
