#include "judge/cli/flags.h"

#include "judge/estimate/gpu_model.h"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <cstdio>
#include <filesystem>
#include <span>

#include "sdk/generators.h"
#include "judge/cli/usage.h"
#include "judge/files.h"
#include "judge/machine/gpu.h"
#include "judge/isolation/sandbox.h"
#include "judge/reports/text.h"
#include "settings/settings.h"

namespace hpcjudge::cli {

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxSeedFileBytes = 4096;

// A seed: a decimal number from 0 to 2^64 - 1, nothing else.
uint64_t parse_seed(const std::string& text, const std::string& what) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0])) || ec != std::errc() ||
      end != text.data() + text.size())
    throw UsageError(what + " must be a whole number from 0 to 18446744073709551615, not '" + text + "'");
  return v;
}

// A seed file's text as a seed: a number is the seed; any other text is hashed into one.
uint64_t seed_of_text(const std::string& text) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size()
             ? v
             : gen::fnv1a(std::as_bytes(std::span(text.data(), text.size())));
}

// HPCJUDGE_MEMORY_LIMIT: a whole number of MiB, at least 1; unset: none.
size_t memory_cap_setting() {
  const std::optional<std::string> v = settings::Settings::at_start().get(settings::kMemoryLimit);
  if (!v || v->empty()) return 0;
  size_t mib = 0;
  const auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), mib);
  if (ec != std::errc{} || end != v->data() + v->size() || mib == 0 || mib > (SIZE_MAX >> 20))
    throw UsageError("HPCJUDGE_MEMORY_LIMIT=" + *v + ": a whole number of MiB, at least 1");
  return mib << 20;
}

}  // namespace

void GradingFlags::add_to(CLI::App& app, bool per_file) {
  this->per_file = per_file;
  app.add_option("--seed", seed, "input seed, 0 to 2^64-1 (default: the public seed 42)");
  app.add_option("--seed-file", seed_file, "read the (secret) seed from this file; reports never show it");
  app.add_flag("--no-bench", no_bench, "skip the performance cases (correctness points only)");
  auto* unsafe = app.add_flag("--unsafe-no-isolation", opt.unisolated,
                              "grade without root and without the sandbox, each submission free to change the "
                              "others' files (every report says so)");
  if (!per_file) return;
  unsafe->group("");  // for one file, only what a batch tells its child judges
  app.add_option("--threads", opt.threads, "OpenMP threads for the submission (default: every core)")
      ->check(CLI::Range(1, 4096));
  app.add_option("--device", opt.device, "the CUDA device for GPU problems (default 0)")->check(CLI::Range(0, 1024));
  app.add_flag("--sanitize", opt.sanitize, "run compute-sanitizer memcheck on the functional tests (GPU problems)");
  auto* emulate = app.add_flag("--emulate", emulate_on,
                               "GPU problems: run the functional tests on the CPU (CUDA emulation: correctness, "
                               "with race, barrier and bounds checks; no timing); the default without a usable GPU");
  app.add_flag("--no-emulate", emulate_off, "GPU problems: never emulate (SKIP where there is no usable GPU)")
      ->excludes(emulate);
  app.add_option("--model", opt.gpu_model,
                 "under CPU emulation: the GPU whose time and score are estimated (" + gpu_model_names() +
                     "; default " + kDefaultGpuModel + "): an estimate beside the verdict, never the score")
      ->check([](const std::string& m) {
        return find_gpu_model(m) ? std::string() : "no GPU model '" + m + "' (the models: " + gpu_model_names() + ")";
      });
  app.add_flag("--sandbox", opt.sandbox,
               "run the submission under bubblewrap: no network, read-only files but a private /tmp");
  app.add_flag("--no-side-by-side", no_side_by_side,
               "score against the cached reference times only, without timing the fast reference beside each run");
  // What a batch tells its child judges.
  app.add_option("--participant-folder", opt.folder, "")->group("");
  app.add_option("--participant-name", opt.participant, "")->group("");
  app.add_option("--hide", opt.hidden, "")->group("");
}

// The emulator, compute-sanitizer and bubblewrap where the flags ask for them.
void GradingFlags::check_tools() const {
  if (emulate_on && !emulator_built())
    throw UsageError("--emulate needs the CUDA emulator, which is built on x86-64 only");
  // Under emulation --sanitize is the emulator's leak check, which needs no compute-sanitizer.
  const bool emulating = emulate_on || (nvcc_path().empty() && !emulate_off && emulator_built());
  if (opt.sanitize && compute_sanitizer_path().empty() && !emulating)
    throw UsageError(std::string("--sanitize needs compute-sanitizer (from the CUDA toolkit), which is not installed here") +
                     (emulator_built() ? "; --emulate --sanitize runs the CPU emulation's checks instead" : ""));
  if (opt.sandbox && bubblewrap_path().empty())
    throw UsageError("--sandbox needs bubblewrap (apt-get install bubblewrap), which is not installed here");
}

void GradingFlags::settle() {
  opt.bench = !no_bench;
  opt.memory_cap = memory_cap_setting();
  opt.side_by_side = !no_side_by_side;
  check_tools();
  opt.emulation = emulate_on ? Emulation::On : emulate_off ? Emulation::Off : Emulation::Auto;
  if (!seed.empty()) opt.seed = parse_seed(seed, "--seed");
  if (secret_seed) {
    opt.seed = parse_seed(*secret_seed, "the secret seed");
    opt.seed_secret = true;
  }
  if (seed_file.empty()) return;
  if (!seed.empty()) throw UsageError("--seed and --seed-file: give one of them");
  read_seed_file();
  if (per_file) warn_if_seed_in_reach(opt.sandbox);
}

// --seed-file: the file's real path hidden from every runner, its text the seed (kept secret).
void GradingFlags::read_seed_file() {
  std::string text;
  try {
    std::error_code ec;
    const fs::path real = fs::canonical(seed_file, ec);
    if (ec) throw FileRefused(seed_file + ": " + ec.message());
    seed_file = real.string();
    if (const std::string why = not_a_regular_file(seed_file); !why.empty()) throw FileRefused(why);
    text = read_regular_file(seed_file, kMaxSeedFileBytes);
  } catch (const FileRefused& e) {
    throw UsageError(std::string("--seed-file: ") + e.what());
  }
  // Hidden from every runner and compiler, whatever its mode: under the sandbox a mount over it, without it
  // Landlock (runner/confine.h; a batch hides it in each child judge, by the path it is found at).
  opt.hidden.push_back(seed_file);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (text.empty()) throw UsageError(seed_file + ": the seed file is empty");
  opt.seed = seed_of_text(text);
  opt.seed_secret = true;
}

void GradingFlags::warn_if_seed_in_reach(bool sandbox) const {
  if (seed_file.empty() || sandbox || syscall(SYS_landlock_create_ruleset, nullptr, 0, 1u) >= 1) return;
  struct stat st {};
  const bool others_read = stat(seed_file.c_str(), &st) == 0 && (st.st_mode & (S_IRGRP | S_IROTH)) != 0;
  if (geteuid() != 0)
    std::fprintf(stderr, "warning: %s: this kernel has no Landlock to hide the seed file from the submission, "
                 "which runs as you without the sandbox: grade with --sandbox\n", terminal_safe(seed_file).c_str());
  else if (others_read)
    std::fprintf(stderr, "warning: %s: other users may read the seed file, and this kernel has no Landlock to "
                 "hide it from the submission without the sandbox: chmod 600 it, or grade with --sandbox\n",
                 terminal_safe(seed_file).c_str());
}

}  // namespace hpcjudge::cli
