// The runner's confinement before it loads a submission (runner/confine.h), in a forked child (it cannot be
// undone): files written in its TMPDIR, and refused in a folder beside it, in /tmp, and renamed out of TMPDIR;
// a signal to the parent refused from Landlock's sixth version on; files read everywhere but where the judge
// hides. Skipped where the kernel has no Landlock.
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "runner/confine.h"
#include "settings/settings.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

namespace {

// Whether `p` opens in `mode` ("w": written, made where missing; "r": read).
bool opens(const fs::path& p, const char* mode) {
  FILE* f = std::fopen(p.c_str(), mode);
  if (!f) return false;
  std::fclose(f);
  return true;
}
bool writes(const fs::path& p) { return opens(p, "w"); }
bool reads(const fs::path& p) { return opens(p, "r"); }

// The exit status of `body` run in a forked child (a confinement cannot be undone), which it must reach.
template <class Body>
int in_child(Body body) {
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) _exit(body());
  int st = 0;
  REQUIRE(waitpid(child, &st, 0) == child);
  REQUIRE(WIFEXITED(st));
  return WEXITSTATUS(st);
}

// A folder of the test's own (removed after), with the runner's own TMPDIR in it.
struct Scratch {
  fs::path dir, own;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "hpcjudge-confine-XXXXXX").string();
    REQUIRE(mkdtemp(t.data()));
    dir = t;
    own = dir / "own";
    fs::create_directories(own);
  }
  ~Scratch() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("confine: a confined runner writes in its TMPDIR only, and signals or reads the memory of no process outside its own") {
  const int version = landlock_version();
  if (version < 1) SKIP("this kernel has no Landlock");
  const Scratch s;
  const fs::path own = s.own, beside = s.dir / "beside";
  fs::create_directories(beside);
  const fs::path tmp = fs::temp_directory_path();  // before the child's TMPDIR is its own folder
  const pid_t parent = getpid();
  CHECK(in_child([&] {
          settings::put(settings::kTmpdir, own.string());
          int bad = 0;
          if (confine_runner() != version) bad |= 1;
          if (!writes(own / "a.txt")) bad |= 2;
          if (writes(beside / "b.txt")) bad |= 4;
          if (writes(tmp / ("hpcjudge-confine-escaped-" + std::to_string(getpid())))) bad |= 8;
          std::error_code ec;
          fs::rename(own / "a.txt", beside / "a.txt", ec);
          if (!ec) bad |= 16;
          if (version >= 6 && kill(parent, 0) == 0) bad |= 32;  // signal 0: the permission check alone
          // Nor the memory of a process outside its domain (a rival's runner, the judge): Landlock's ptrace
          // rule, from its first version, whatever the other process's dumpable flag.
          const int mem = open(("/proc/" + std::to_string(parent) + "/mem").c_str(), O_RDONLY);
          if (mem >= 0) bad |= 64, close(mem);
          return bad;
        }) == 0);
  CHECK(fs::exists(own / "a.txt"));
  CHECK_FALSE(fs::exists(beside / "b.txt"));
}

TEST_CASE("confine: no privilege is gained through exec after the confinement, Landlock or not") {
  CHECK(in_child([] {
          confine_runner();
          return prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1 ? 0 : 1;
        }) == 0);
}

TEST_CASE("confine: under a tool the runner may also write in /tmp and signal, and still not beside its folder") {
  const int version = landlock_version();
  if (version < 1) SKIP("this kernel has no Landlock");
  const Scratch s;
  // A folder outside /tmp that this user may write in (as the build folder, where the default cache is).
  const fs::path beside = fs::path("/var/tmp") / ("hpcjudge-confine-beside-" + std::to_string(getpid()));
  REQUIRE(writes(beside));
  fs::remove(beside);
  const pid_t parent = getpid();
  CHECK(in_child([&] {
          settings::put(settings::kTmpdir, s.own.string());
          int bad = 0;
          if (confine_runner({.under_tool = true}) != version) bad |= 1;
          if (!writes(s.own / "a.txt")) bad |= 2;
          const std::string tool_file = "/tmp/hpcjudge-confine-tool-" + std::to_string(getpid());
          if (!writes(tool_file)) bad |= 4;  // the tool's files
          std::remove(tool_file.c_str());
          if (writes(beside)) bad |= 8;  // outside /tmp and its own folder
          if (kill(parent, 0) != 0) bad |= 16;
          return bad;
        }) == 0);
  CHECK_FALSE(fs::exists(beside));
  fs::remove(beside);
}

TEST_CASE("confine: a runner told what to hide reads everything else, its own folder and library included") {
  const int version = landlock_version();
  if (version < 1) SKIP("this kernel has no Landlock");
  const Scratch s;
  // The runner's folder and one beside it named as it is (the judge's other temporary folders: hidden too),
  // where its library lies; a hidden folder (the cache) and a link to it; a folder and a file not hidden.
  const fs::path own = s.dir / "runner-aaa", other = s.dir / "runner-bbb", cache = s.dir / "cache",
                 plain = s.dir / "plain";
  for (const fs::path& d : {own, other, cache, plain}) fs::create_directories(d);
  for (const fs::path& f : {own / "a.txt", other / "library.so", other / "source.cpp", cache / "scale.json",
                            plain / "b.txt", s.dir / "c.txt"})
    REQUIRE(writes(f));
  fs::create_directory_symlink(cache, s.dir / "link");
  CHECK(in_child([&] {
          settings::put(settings::kTmpdir, own.string());
          int bad = 0;
          if (confine_runner({.hidden = {cache.string()}, .library = (other / "library.so").string()}) != version)
            bad |= 1;
          if (!reads(own / "a.txt") || !writes(own / "d.txt") || !reads(own / "d.txt")) bad |= 2;
          if (!reads(other / "library.so")) bad |= 4;
          if (reads(other / "source.cpp")) bad |= 8;
          if (reads(cache / "scale.json") || reads(s.dir / "link" / "scale.json")) bad |= 16;
          if (!reads(plain / "b.txt") || !reads(s.dir / "c.txt") || !reads("/etc/passwd")) bad |= 32;
          return bad;
        }) == 0);
}

TEST_CASE("confine: with nothing to hide, reading is not confined") {
  const int version = landlock_version();
  if (version < 1) SKIP("this kernel has no Landlock");
  const Scratch s;
  const fs::path other = s.dir / "runner-bbb", own = s.dir / "runner-aaa";
  fs::create_directories(other);
  fs::create_directories(own);
  REQUIRE(writes(other / "source.cpp"));
  CHECK(in_child([&] {
          settings::put(settings::kTmpdir, own.string());
          return confine_runner() == version && reads(other / "source.cpp") ? 0 : 1;
        }) == 0);
}
