// Inputs made ahead (judge/grading/inputs_ahead.h): the input set a timed run takes from the maker's thread is
// the set generated in place, byte for byte, with the same reference answer, and the per-case inputs it read
// stay as they were. Per-case inputs kept on disk (judge/grading/case_inputs_cache.h) are the ones generated.
#include <catch2/catch_test_macros.hpp>
#include <dirent.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sdk/arena.h"
#include "sdk/problem.h"
#include "judge/grading/case_inputs_cache.h"
#include "judge/grading/inputs_ahead.h"

using namespace hpcjudge;

namespace {

// The case laid out in `image` (no session: the per-case inputs generated, nothing else filled).
LaidCase lay_out_in(const Problem& p, const Case& c, std::vector<std::byte>& image) {
  LaidCase l{.sig = p.signature(c)};
  l.layout = ArenaLayout::plan(l.sig.buffers);
  image.assign(l.layout.total, std::byte{0x5A});
  for (size_t i = 0; i < l.sig.buffers.size(); ++i) l.views.push_back({&l.sig.buffers[i], image.data() + l.layout.offset[i]});
  p.generate_case(c, 7, l.buffers());
  return l;
}

// Nanoseconds on a CPU so far of every thread of this process named `name` (/proc/self/task/*/schedstat).
uint64_t cpu_ns_of_threads_named(const std::string& name) {
  uint64_t total = 0;
  DIR* d = opendir("/proc/self/task");
  while (const dirent* e = d ? readdir(d) : nullptr) {
    const std::string task = std::string("/proc/self/task/") + e->d_name;
    std::ifstream comm(task + "/comm");
    std::string n;
    if (!std::getline(comm, n) || n != name) continue;
    std::ifstream stat(task + "/schedstat");
    uint64_t ns = 0;
    stat >> ns;
    total += ns;
  }
  if (d) closedir(d);
  return total;
}

bool same(const Expected& a, const Expected& b) {
  if (a.outputs.size() != b.outputs.size() || a.ret != b.ret) return false;
  for (size_t k = 0; k < a.outputs.size(); ++k) {
    const ExpectedOutput &x = a.outputs[k], &y = b.outputs[k];
    if (x.exact.size() != y.exact.size() || !std::equal(x.exact.begin(), x.exact.end(), y.exact.begin())) return false;
    if (x.values.size() != y.values.size() || !std::equal(x.values.begin(), x.values.end(), y.values.begin()))
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("a timed run's input set made ahead is the one made in place, with its reference") {
  // A per-case graph with a per-call source; per-call arrays; per-call runs and their lengths.
  for (const char* slug : {"bfs", "prefix-sum", "rle-decompress", "softmax-gpu"}) {
    const Problem* p = Registry::find(slug);
    REQUIRE(p);
    const std::vector<Case> tests = p->tests();
    const Case& c = tests[tests.size() / 2];
    INFO(slug << " " << c.name);
    std::vector<std::byte> ahead_image, here_image;
    const LaidCase ahead = lay_out_in(*p, c, ahead_image), here = lay_out_in(*p, c, here_image);
    const std::vector<std::byte> before = ahead_image;
    InputsAhead made_ahead(*p, c, ahead, 7, {.ahead = true}), made_here(*p, c, here, 7, {.ahead = false});
    for (uint32_t set = 2; set < 6; ++set) {
      INFO("input set " << set);
      const InputsAhead::Set a = made_ahead.take(set), h = made_here.take(set);
      CHECK(ahead_image == here_image);
      CHECK(same(a.expected, h.expected));
      CHECK(h.waited_s == 0);
    }
    for (size_t i = 0; i < ahead.sig.buffers.size(); ++i)
      if (ahead.sig.buffers[i].per_case)
        CHECK(std::memcmp(ahead_image.data() + ahead.layout.offset[i], before.data() + ahead.layout.offset[i],
                          ahead.sig.buffers[i].bytes()) == 0);
  }
}

TEST_CASE("a set made ahead that no run takes never reaches the image, and its maker is awaited") {
  const Problem* p = Registry::find("prefix-sum");
  REQUIRE(p);
  const Case c = p->benchmarks().front();  // 2^24 elements: still in the making when the object ends
  std::vector<std::byte> image, taken;
  const LaidCase l = lay_out_in(*p, c, image);
  {
    InputsAhead made(*p, c, l, 7, {.ahead = true});
    (void)made.take(2);  // set 3 is started on the maker's thread, then the loop ends
    taken = image;
  }
  CHECK(image == taken);  // set 2's inputs, as taken: set 3 was made in the maker's own memory
}

TEST_CASE("paused, none of the maker's threads runs; resumed, it makes the same set") {
  // rle-decompress's mean-64: 2^22 runs cut from 2^28 bytes, then decoded: long enough to be caught in the making.
  const Problem* p = Registry::find("rle-decompress");
  REQUIRE(p);
  const Case c = p->benchmarks()[1];
  REQUIRE(c.name == "mean-64");
  std::vector<std::byte> ahead_image, here_image;
  const LaidCase ahead = lay_out_in(*p, c, ahead_image), here = lay_out_in(*p, c, here_image);
  InputsAhead made_ahead(*p, c, ahead, 7, {.ahead = true}), made_here(*p, c, here, 7, {.ahead = false});
  (void)made_ahead.take(2);  // set 3 is now in the making
  const std::string name = InputsAhead::kThreadName;
  // The maker runs at SCHED_IDLE: on a machine whose CPUs are all taken it may not have run at all yet. Wait
  // (up to 10 s) until it has worked 5 ms, then pause it.
  const uint64_t t0 = cpu_ns_of_threads_named(name);
  uint64_t t1 = t0;
  for (const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       t1 - t0 < 5000000 && std::chrono::steady_clock::now() < give_up; t1 = cpu_ns_of_threads_named(name))
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const auto pausing = std::chrono::steady_clock::now();
  made_ahead.pause();
  const double pause_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - pausing).count();
  // pause() gives up waiting after 50 ms. On a busy machine a signalled thread can still be waiting for a CPU
  // then, or finishing the system call or page fault it was in (the kernel's work, done before the handler
  // runs): wait until every signalled thread is in the handler before counting what runs while paused.
  for (const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
       made_ahead.held() < made_ahead.signalled() && std::chrono::steady_clock::now() < give_up;)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const uint64_t signalled = made_ahead.signalled(), held = made_ahead.held();
  const uint64_t t2 = cpu_ns_of_threads_named(name);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const uint64_t t3 = cpu_ns_of_threads_named(name);
  made_ahead.resume();
  INFO("ns on a CPU: " << t1 - t0 << " before the pause, " << t3 - t2 << " while paused; pause() took " << pause_ms
                       << " ms; " << held << " of " << signalled << " signalled threads held");
  CHECK(t1 - t0 >= 5000000);  // it was working
  CHECK(signalled > 0);
  CHECK(held == signalled);
  // And, once each is in the handler, none of them runs: the handler sleeps on a futex until resume().
  CHECK(t3 - t2 < 2000000);
  const InputsAhead::Set a = made_ahead.take(3);
  (void)made_here.take(2);
  const InputsAhead::Set h = made_here.take(3);
  CHECK(ahead_image == here_image);
  CHECK(same(a.expected, h.expected));
}

TEST_CASE("a pause right after a resume reaches every thread of the maker") {
  // A rival's timed call follows the submission's at once: resume(), then pause() again within microseconds,
  // before the threads let go have had a CPU. Each such pause must still hold every thread it signalled (it
  // waited out its 50 ms bound on the H200 when a thread woken late went back to sleep uncounted).
  const Problem* p = Registry::find("rle-decompress");
  REQUIRE(p);
  const Case c = p->benchmarks()[1];
  std::vector<std::byte> image;
  const LaidCase l = lay_out_in(*p, c, image);
  InputsAhead made(*p, c, l, 7, {.ahead = true});
  (void)made.take(2);  // set 3 is now in the making, on the maker's OpenMP team
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  int reached = 0;
  uint64_t signalled = 0, held = 0;
  for (int k = 0; k < 20; ++k) {
    made.pause();
    // However busy the machine, every signalled thread gets a CPU within seconds and is then held.
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (made.held() < made.signalled() && std::chrono::steady_clock::now() < give_up)
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    signalled = made.signalled();
    held = made.held();
    if (held >= signalled && signalled > 0) ++reached;
    made.resume();
  }
  INFO("pauses that held every signalled thread: " << reached << " of 20; the last held " << held << " of "
                                                    << signalled);
  CHECK(reached == 20);
  (void)made.take(3);
}

TEST_CASE("per-case inputs slow to generate are read back from the cache as they were generated") {
  // bfs's uniform-1M graph; stored whatever it took (worth_s 0). judge/grading/case_inputs_cache.h
  const Problem* p = Registry::find("bfs");
  REQUIRE(p);
  Case c;
  for (const Case& t : p->tests())
    if (t.name == "uniform-1M") c = t;
  REQUIRE(c.name == "uniform-1M");
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / ("hpcjudge-inputs-" + std::to_string(getpid()));
  std::vector<std::byte> made_image, cached_image, other_image;
  const LaidCase made = lay_out_in(*p, c, made_image);  // generate_case, no cache
  const LaidCase first = lay_out_in(*p, c, cached_image);
  std::fill(cached_image.begin(), cached_image.end(), std::byte{0x5A});
  generate_case_inputs(*p, c, 7, first.buffers(), cache, 0);  // generated and stored
  CHECK(cached_image == made_image);
  size_t files = 0;
  std::filesystem::path file;
  for (const auto& e : std::filesystem::recursive_directory_iterator(cache))
    if (e.is_regular_file()) ++files, file = e.path();
  REQUIRE(files == 1);
  // Read back: the same bytes, and not generated (a marked file is served as it is).
  std::fill(cached_image.begin(), cached_image.end(), std::byte{0x5A});
  generate_case_inputs(*p, c, 7, first.buffers(), cache, 0);
  CHECK(cached_image == made_image);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(0);
    f.put(static_cast<char>(0x7F));
  }
  generate_case_inputs(*p, c, 7, first.buffers(), cache, 0);
  CHECK(cached_image != made_image);  // served from the file, not generated again
  // A file of another size is not read: the inputs are generated again, as they should be.
  std::filesystem::resize_file(file, std::filesystem::file_size(file) - 4);
  std::fill(cached_image.begin(), cached_image.end(), std::byte{0x5A});
  generate_case_inputs(*p, c, 7, first.buffers(), cache, 0);
  CHECK(cached_image == made_image);
  // Another seed is another key.
  const LaidCase other = lay_out_in(*p, c, other_image);
  generate_case_inputs(*p, c, 8, other.buffers(), cache, 0);
  files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(cache))
    if (e.is_regular_file()) ++files;
  CHECK(files == 2);
  std::filesystem::remove_all(cache);
}
