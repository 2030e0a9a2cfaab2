// Child processes of the judge: a runner's user id is its own, so that ending
// one runner (a kill of every process of its user) never ends another the same
// judge holds at that moment, such as the main runner idling while
// compute-sanitizer's runner checks for races.
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <cstring>
#include <cstdlib>
#include <string>
#include <iterator>
#include <fstream>
#include <set>
#include <sstream>
#include <thread>
#include <vector>

#include "sdk/arena.h"
#include "protocol/protocol.h"

#include "judge/files.h"
#include "judge/isolation/family.h"
#include "judge/isolation/process.h"
#include "judge/isolation/runner_files.h"
#include "judge/isolation/syscall_filter.h"

using namespace hpcjudge;

TEST_CASE("process: every runner of a judge gets a user id of its own") {
  std::set<unsigned> ids;
  for (int i = 0; i < 64; ++i) ids.insert(fresh_runner_uid());
  CHECK(ids.size() == 64);
  CHECK(*ids.begin() >= 2'000'000'000u);
  CHECK(*ids.rbegin() < (1u << 31));
}

TEST_CASE("process: a forked child gets none of the judge's arena images") {
  // A GPU problem's images are pinned, and the kernel copies pinned private pages into a child at fork: with
  // GiBs pinned, each runner started and each user killed cost seconds. The child, about to exec, needs none.
  PrivateArena image;
  image.reserve(size_t{64} << 20);
  std::memset(image.base(), 7, image.size());
  const pid_t pid = fork();
  if (pid == 0) {
    // msync on memory that is not mapped fails with ENOMEM.
    const bool mapped = msync(image.base(), image.size(), MS_ASYNC) == 0 || errno != ENOMEM;
    _exit(mapped ? 1 : 0);
  }
  int st = 0;
  REQUIRE(waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st));
  CHECK(WEXITSTATUS(st) == 0);
  CHECK(static_cast<unsigned char>(image.base()[image.size() - 1]) == 7);  // still the judge's, untouched
}

TEST_CASE("process: killing one runner's user leaves the other runner running") {
  if (geteuid() != 0) SKIP("needs root, to start children as other users");
  SpawnOptions a, b;
  a.argv = b.argv = {"sleep", "30"};
  a.uid = fresh_runner_uid();
  b.uid = fresh_runner_uid();
  Child first(a), second(b);
  first.kill();
  first.reap();
  CHECK_FALSE(second.wait(-1, Clock::now() + std::chrono::milliseconds(300)) == Child::Wake::Exited);
  CHECK(second.running());
  second.kill();
  CHECK_FALSE(second.reap().exited);
}

namespace {
// A child holding `memfd_mib` MiB in a memfd it never maps (fallocate), and
// `mapped_mib` MiB of a second memfd that it maps and touches, then waits.
pid_t holder(size_t memfd_mib, size_t mapped_mib, int ready_fd) {
  const pid_t pid = fork();
  if (pid != 0) return pid;
  const int held = memfd_create("held", 0);
  const int mapped = memfd_create("mapped", 0);
  if (held < 0 || mapped < 0 || fallocate(held, 0, 0, static_cast<off_t>(memfd_mib) << 20) != 0 ||
      ftruncate(mapped, static_cast<off_t>(mapped_mib) << 20) != 0)
    _exit(1);
  auto* p = static_cast<char*>(mmap(nullptr, mapped_mib << 20, PROT_READ | PROT_WRITE, MAP_SHARED, mapped, 0));
  if (p == MAP_FAILED) _exit(1);
  std::memset(p, 1, mapped_mib << 20);
  const char ok = 'k';
  if (write(ready_fd, &ok, 1) != 1) _exit(1);
  pause();
  _exit(0);
}
}  // namespace

TEST_CASE("process: a family's memory counts memfds it holds, mapped or not, once") {
  int ready[2];
  REQUIRE(pipe(ready) == 0);
  char c = 0;
  // What a forked copy of this test process holds itself (its share of the
  // parent's pages, which earlier tests have grown), with 1 MiB held and 1 MiB mapped.
  const pid_t bare = holder(1, 1, ready[1]);
  REQUIRE(read(ready[0], &c, 1) == 1);
  const size_t bare_mib = family_memory_bytes(process_family(bare)) >> 20;
  kill(bare, SIGKILL);
  waitpid(bare, nullptr, 0);
  const pid_t pid = holder(256, 64, ready[1]);
  REQUIRE(read(ready[0], &c, 1) == 1);
  const size_t mib = family_memory_bytes(process_family(pid)) >> 20;
  // 256 unmapped + 64 mapped (its fd open too, counted once) over the bare process's figure.
  CHECK(mib >= bare_mib + 318 - 2);
  CHECK(mib < bare_mib + 318 + 16);
  // The family is found from its root: the child, and nothing that is not its descendant.
  const auto family = process_family(getpid());
  CHECK(std::find(family.begin(), family.end(), pid) != family.end());
  CHECK(process_family(pid).size() == 1);
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  CHECK(family_memory_bytes({pid}) == 0);  // gone: nothing
  close(ready[0]);
  close(ready[1]);
}

TEST_CASE("process: a family's memory counts pages a fork shares copy-on-write once, and each child's own") {
  int ready[2], go[2];
  REQUIRE(pipe(ready) == 0);
  REQUIRE(pipe(go) == 0);
  const size_t mib = 128;
  const pid_t parent = fork();
  if (parent == 0) {
    // 128 MiB touched, then two children that share it; on a byte from `go` the second writes a copy of its own.
    auto* p = static_cast<char*>(mmap(nullptr, mib << 20, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
    if (p == MAP_FAILED) _exit(1);
    std::memset(p, 1, mib << 20);
    for (int k = 0; k < 2; ++k)
      if (fork() == 0) {
        const char ok = 'k';
        if (write(ready[1], &ok, 1) != 1) _exit(1);
        char c = 0;
        if (k == 1 && read(go[0], &c, 1) == 1) {
          std::memset(p, 2, mib << 20);
          if (write(ready[1], &ok, 1) != 1) _exit(1);
        }
        pause();
        _exit(0);
      }
    const char ok = 'k';
    if (write(ready[1], &ok, 1) != 1) _exit(1);
    pause();
    _exit(0);
  }
  char c = 0;
  for (int k = 0; k < 3; ++k) REQUIRE(read(ready[0], &c, 1) == 1);
  const std::vector<int> family = process_family(parent);
  REQUIRE(family.size() == 3);
  // Shared by three: once (plus their share of this test process's own pages), not three times.
  const size_t shared = family_memory_bytes(family) >> 20;
  CHECK(shared >= mib - 2);
  CHECK(shared < 2 * mib);
  // The writer's copy is its own: 128 MiB more.
  REQUIRE(write(go[1], "g", 1) == 1);
  REQUIRE(read(ready[0], &c, 1) == 1);
  const size_t copied = family_memory_bytes(family) >> 20;
  CHECK(copied >= shared + mib - 4);
  CHECK(copied <= shared + mib + 4);
  for (int pid : family) kill(pid, SIGKILL);
  waitpid(parent, nullptr, 0);
  for (int fd : {ready[0], ready[1], go[0], go[1]}) close(fd);
}

TEST_CASE("process: a child's file-size limit bounds a shared-memory file grown past it") {
  SpawnOptions opt;
  opt.file_size = size_t{16} << 20;
  const std::string file = "/dev/shm/hpcjudge-fsize-test-" + std::to_string(getpid());
  opt.argv = {"sh", "-c", "exec head -c 67108864 /dev/zero >\"$0\"", file};
  const RunResult r = run_command(opt, 30);
  struct stat st {};
  const bool written = ::stat(file.c_str(), &st) == 0;
  unlink(file.c_str());
  CHECK_FALSE(r.status.exited);
  CHECK(r.status.signal == SIGXFSZ);
  REQUIRE(written);
  CHECK(st.st_size == 16 << 20);
}

TEST_CASE("process: a child's memory, CPU and folder are as asked") {
  SpawnOptions opt;
  opt.address_space = size_t{256} << 20;
  opt.cpu_seconds = 1;
  opt.cwd = "/proc";
  opt.argv = {"sh", "-c", "pwd; ulimit -v; ulimit -t"};
  const RunResult r = run_command(opt, 30);
  CHECK(r.output == "/proc\n262144\n1\n");
}

namespace {
// A /proc file's bytes, or what was read before its process went: read(2) fails with ESRCH
// then, which an istreambuf_iterator would throw.
std::string proc_file(const std::string& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

// Whether a process whose command line holds `arg` is alive (a zombie is not).
bool running_with_arg(const std::string& arg) {
  DIR* d = opendir("/proc");
  bool found = false;
  while (const dirent* e = d ? readdir(d) : nullptr) {
    if (e->d_name[0] < '1' || e->d_name[0] > '9') continue;  // processes only
    const std::string dir = std::string("/proc/") + e->d_name;
    const std::string line = proc_file(dir + "/cmdline"), st = proc_file(dir + "/stat");
    const size_t close = st.rfind(')');
    if (line.find(arg) != std::string::npos && close != std::string::npos && close + 2 < st.size() &&
        st[close + 2] != 'Z')
      found = true;
  }
  if (d) closedir(d);
  return found;
}
}  // namespace

TEST_CASE("process: what a command run to die together starts is killed when the judge's side of it dies") {
  if (geteuid() != 0) SKIP("a PID namespace of its own needs root");
  const std::string mark = "61.2" + std::to_string(getpid());  // a sleep no other process runs
  for (const bool together : {true, false}) {
    SpawnOptions opt;
    opt.die_together = together;
    opt.argv = {"sh", "-c", "sh -c 'sleep " + mark + "' & sleep " + mark};
    Child c(opt);
    const std::string sleeping = std::string("sleep") + '\0' + mark;
    for (int i = 0; i < 500 && !running_with_arg(sleeping); ++i) usleep(10000);
    usleep(100000);  // both sleeps started: the one in the background is the command's grandchild
    // The judge's child is killed, as when the judge dies (its death signal).
    // Looked for before it is reaped: a judge that dies reaps nothing and kills no process group.
    ::kill(c.pid(), SIGKILL);
    bool left = true;
    for (int i = 0; i < 200 && (left = running_with_arg(sleeping)); ++i) usleep(10000);
    CHECK(left == !together);  // without, the grandchild outlives it: what the option is for
    c.reap();
    if (left) std::system(("pkill -KILL -f 'sleep " + mark + "'").c_str());
  }
}

TEST_CASE("protocol: a reply's trace marks survive the channel, and hostile ones are dropped, never thrown") {
  protocol::Reply r;
  r.seq = 7;
  r.ok = true;
  r.marks = {1, 2, 30000000000, 4};
  r.cpus = {3, 3, 0};
  nlohmann::json j = r;
  const std::optional<protocol::Reply> back = protocol::parse_reply(j);
  REQUIRE(back);
  CHECK(back->marks == r.marks);
  CHECK(back->cpus == r.cpus);
  j["marks"] = nlohmann::json::array({"x", 1.5, 3, nullptr});
  const std::optional<protocol::Reply> odd = protocol::parse_reply(j);
  REQUIRE(odd);
  CHECK(odd->marks == std::vector<int64_t>{3});
  j["cpus"] = nlohmann::json::array({"0", 2, -1.5});
  REQUIRE(protocol::parse_reply(j));
  CHECK(protocol::parse_reply(j)->cpus == std::vector<int>{2});
  j["marks"] = "not a list";
  REQUIRE(protocol::parse_reply(j));
  CHECK(protocol::parse_reply(j)->marks.empty());
}

TEST_CASE("protocol: a call's device time is asked for and reported only where judge bench wants it") {
  protocol::Request q;
  q.op = protocol::Op::Call;
  q.seq = 3;
  CHECK_FALSE(nlohmann::json(q).contains("device_time"));  // a submission's call: never asked
  q.device_time = true;
  const std::optional<protocol::Request> asked = protocol::parse_request(nlohmann::json(q));
  REQUIRE(asked);
  CHECK(asked->device_time);
  protocol::Reply r;
  r.seq = 3;
  r.ok = true;
  const std::optional<protocol::Reply> none = protocol::parse_reply(nlohmann::json(r));
  REQUIRE(none);
  CHECK_FALSE(none->device_seconds);
  r.device_seconds = 91.5e-6;
  const std::optional<protocol::Reply> back = protocol::parse_reply(nlohmann::json(r));
  REQUIRE(back);
  REQUIRE(back->device_seconds);
  CHECK(*back->device_seconds == 91.5e-6);
  nlohmann::json odd = r;
  odd["device_seconds"] = "fast";  // not a number: the reply does not parse (never an exception)
  CHECK_FALSE(protocol::parse_reply(odd));
}

TEST_CASE("protocol: a key a const JSON object lacks stops the process, never reads past the map (protocol/json.h)") {
  const nlohmann::json row = {{"fast", {{"median_s", 0.5}}}};
  CHECK(row["fast"]["median_s"] == 0.5);  // a key it has: read as ever
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 2);  // the misuse's message
    const nlohmann::json& fast = row["fast"];
    const bool number = fast["device_median_s"].is_number();  // undefined in the library; stopped here
    _exit(number ? 3 : 4);
  }
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGABRT);
}

TEST_CASE("process: a wait that spins first still sees a late message, and ends at its deadline") {
  SpawnOptions opt;
  opt.argv = {"sleep", "5"};
  Child child(opt);
  int p[2];
  REQUIRE(pipe(p) == 0);
  const auto waited = [&](std::chrono::milliseconds write_after, std::chrono::milliseconds spin,
                          std::chrono::milliseconds deadline) {
    std::thread writer;
    if (write_after.count() >= 0)
      writer = std::thread([&] {
        std::this_thread::sleep_for(write_after);
        CHECK(write(p[1], "x", 1) == 1);
      });
    const auto t0 = Clock::now();
    const Child::Wake w = child.wait(p[0], t0 + deadline, spin);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t0);
    if (writer.joinable()) writer.join();
    char c;
    if (w == Child::Wake::Readable) CHECK(read(p[0], &c, 1) == 1);
    return std::pair{w, took};
  };
  using std::chrono::milliseconds;
  // The message comes after the spin: the blocking poll takes over and sees it.
  auto [w1, t1] = waited(milliseconds(60), milliseconds(10), milliseconds(3000));
  CHECK(w1 == Child::Wake::Readable);
  CHECK(t1 >= milliseconds(55));
  CHECK(t1 < milliseconds(2000));
  // The message comes during the spin.
  auto [w2, t2] = waited(milliseconds(30), milliseconds(1000), milliseconds(3000));
  CHECK(w2 == Child::Wake::Readable);
  CHECK(t2 < milliseconds(900));
  // No message: a spin longer than the deadline ends at the deadline.
  auto [w3, t3] = waited(milliseconds(-1), milliseconds(5000), milliseconds(100));
  CHECK(w3 == Child::Wake::Timeout);
  CHECK(t3 < milliseconds(2000));
  close(p[0]);
  close(p[1]);
  child.kill();
  child.reap();
}

TEST_CASE("process: a member that will not stop is named with its thread's state, a thread in the kernel waited for") {
  // The child vforks: it waits in the kernel (state D) until its vfork child ends, and that child, a member
  // too, is stopped: it never ends, so the child never stops.
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    if (vfork() == 0) {
      const timespec t{.tv_sec = 30, .tv_nsec = 0};
      nanosleep(&t, nullptr);
      _exit(0);
    }
    _exit(0);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // in the vfork by now
  ProcessFamily family(child);
  std::string why;
  const auto t0 = std::chrono::steady_clock::now();
  CHECK_FALSE(family.stop(std::chrono::milliseconds(100), &why, std::chrono::milliseconds(400)));
  const auto waited = std::chrono::steady_clock::now() - t0;
  CHECK(waited >= std::chrono::milliseconds(500));  // the limit, then the grace for a thread in state D
  CHECK(why.find("process " + std::to_string(child) + " did not stop") != std::string::npos);
  CHECK(why.find("in state D") != std::string::npos);
  INFO(why);
  family.kill();
  waitpid(child, nullptr, 0);
}

TEST_CASE("process: a family looked at while the judge kills a user's processes never takes the helper for its own") {
  // Every command run as a user of its own ends with a kill of that user's processes, from a helper the judge
  // vforks (judge/isolation/process.cpp). A runner's family looked at on another thread meanwhile (a runner
  // started beside the compile) took that helper for an orphan of its own and stopped it: the thread that
  // vforked waited for it, stopped until that runner's next call, which the same thread was to make. In CI a
  // grade hung so, in the preprocessor's run of a reference's compile, until the 90 minutes were up.
  if (geteuid() != 0) SKIP("needs root, to start children as other users");
  SpawnOptions sleeper;
  sleeper.argv = {"sleep", "60"};
  Child runner(sleeper);
  ProcessFamily family(runner.pid());
  std::atomic<bool> done{false};
  std::atomic<int> commands{0};
  std::thread killer([&] {
    SpawnOptions quick;
    quick.argv = {"true"};
    while (!done.load()) {
      quick.uid = fresh_runner_uid();
      (void)run_command(quick, 10);
      commands.fetch_add(1);
    }
  });
  size_t looks = 0, strangers = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(3);
  while (std::chrono::steady_clock::now() < until) {
    REQUIRE(family.stop(std::chrono::milliseconds(500)));
    ++looks;
    for (pid_t p : family.known())
      if (p != runner.pid()) ++strangers;
    family.resume();
  }
  done = true;
  killer.join();
  INFO(looks << " looks at the family while " << commands.load() << " commands ran as users of their own");
  CHECK(commands.load() > 0);
  CHECK(strangers == 0);
  runner.kill();
  runner.reap();
}

TEST_CASE("process: a child is in a session of its own, where no terminal is its controlling one") {
  SpawnOptions opt;
  // Its pid, its session (the sixth field of /proc/PID/stat) and whether /dev/tty opens.
  opt.argv = {"sh", "-c", "echo $$ $(cut -d' ' -f6 /proc/$$/stat); (: </dev/tty) 2>/dev/null && echo tty || echo none"};
  const RunResult r = run_command(opt, 30);
  std::istringstream out(r.output);
  std::string pid, session, tty;
  out >> pid >> session >> tty;
  CHECK(pid == session);
  CHECK(tty == "none");
}

TEST_CASE("process: the syscall filter kills a child that types into a terminal, lowers another's limits or "
          "signals the judge, and lets the rest be") {
  if (std::system("python3 -c 'import resource' 2>/dev/null") != 0) SKIP("python3 is not installed");
  const auto run = [](const std::string& code) { return run_command({"python3", "-c", code}, 30).status; };
  const std::vector<std::string> forbidden = {
      "import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b'x')",
      "import fcntl; fcntl.ioctl(0, 0x541C, b'\\x06')",  // TIOCLINUX
      "import os, resource; resource.prlimit(os.getppid(), resource.RLIMIT_NOFILE, (0, 0))",
      "import os; os.kill(os.getppid(), 0)",   // signal 0: nothing happens to the test, were it let through
      "import os; os.kill(-1, 0)",                          // every process
      "import os; os.kill(-os.getpgid(os.getppid()), 0)",  // the judge's process group
  };
  for (const std::string& code : forbidden) {
    INFO(code);
    const ExitStatus st = run(code);
    CHECK_FALSE(st.exited);
    CHECK(st.signal == SIGSYS);
    CHECK(st.describe().find(kForbiddenCall) != std::string::npos);
  }
  // Its own limits, its own signals, its own children's: as ever.
  const ExitStatus own = run(
      "import os, resource, signal, subprocess; resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)); "
      "resource.prlimit(0, resource.RLIMIT_CORE, (0, 0)); os.kill(os.getpid(), 0); "
      "p = subprocess.Popen(['sleep', '5']); p.send_signal(signal.SIGTERM); p.wait()");
  CHECK(own.exited);
  CHECK(own.code == 0);
  // Where the judge's own program must manage runners, it may be left out.
  SpawnOptions unfiltered;
  unfiltered.argv = {"python3", "-c", "import os; os.kill(os.getppid(), 0)"};
  unfiltered.syscall_filter = false;
  CHECK(run_command(unfiltered, 30).status.exited);
}

TEST_CASE("process: a child's TMPDIR and /dev/shm are mounts of its own, counted, and gone with it") {
  if (geteuid() != 0) SKIP("as an ordinary user the runner makes them itself (hpcjudge-runner --private-tmp)");
  TempDir tmp(std::filesystem::perms::owner_all);
  const std::string name = "hpcjudge-private-tmp-test-" + std::to_string(getpid());
  SpawnOptions opt;
  opt.private_tmp = private_tmp_for(tmp.path.string(), size_t{64} << 20, 0);
  opt.env = {{"TMPDIR", tmp.path.string()}};
  // More than the mount holds, which it refuses; then 8 MiB in /dev/shm and 4 MiB in its TMPDIR, closed.
  opt.argv = {"sh", "-c",
              "head -c 100000000 /dev/zero >$TMPDIR/big 2>/dev/null || echo full; rm $TMPDIR/big; "
              "head -c 8388608 /dev/zero >/dev/shm/$0 && head -c 4194304 /dev/zero >$TMPDIR/$0 && "
              "echo $HPCJUDGE_PRIVATE_TMP; sleep 30",
              name};
  Child c(opt);
  for (int i = 0; i < 500 && c.output() != "full\n1\n"; ++i)
    c.wait(-1, Clock::now() + std::chrono::milliseconds(10));
  CHECK(c.output() == "full\n1\n");
  std::vector<dev_t> mounts;
  const size_t held = private_tmp_bytes(process_family(c.pid()), {tmp.path.string(), "/tmp", "/dev/shm"}, &mounts);
  CHECK(held >= (size_t{12} << 20));
  CHECK(held < (size_t{13} << 20));
  CHECK(mounts.size() == 2);
  // Neither file is on the machine's /dev/shm or in the folder as the judge sees it.
  CHECK(access(("/dev/shm/" + name).c_str(), F_OK) != 0);
  CHECK(folder_bytes(tmp.path.string()) < 4096);
  c.kill();
  c.reap();
  CHECK(std::filesystem::is_empty(tmp.path));
}
