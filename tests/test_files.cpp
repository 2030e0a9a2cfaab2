// Hostile input the judge reads and writes (issue 15): files that are not a regular file of the participant's own,
// names made to run in a spreadsheet or break a Markdown table or the results folder, and the dependency lists the
// compiler's reads are checked against.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <filesystem>
#include <fstream>

#include "judge/classroom/leaderboard.h"
#include "judge/files.h"
#include "judge/grading/compile.h"
#include "judge/machine/gpu.h"
#include "judge/reports/tolerant_json.h"

using namespace hpcjudge;
namespace fs = std::filesystem;

namespace {
struct Scratch {
  fs::path dir;
  Scratch() {
    std::string t = (fs::temp_directory_path() / "hpcjudge-files-XXXXXX").string();
    REQUIRE(mkdtemp(t.data()));
    dir = t;
  }
  ~Scratch() { fs::remove_all(dir); }
};
}  // namespace

TEST_CASE("files: only a regular file of the participant's own is one") {
  Scratch s;
  const fs::path home = s.dir / "alice", file = home / "softmax-cpu.cpp", outside = s.dir / "elsewhere.cpp";
  fs::create_directories(home);
  std::ofstream(file) << "int x;";
  std::ofstream(outside) << "int y;";
  CHECK(not_a_regular_file(file, home).empty());
  CHECK(not_a_regular_file(home / "link.cpp").find("No such") != std::string::npos);
  fs::create_symlink(outside, home / "link.cpp");
  CHECK(not_a_regular_file(home / "link.cpp", home).find("symbolic link") != std::string::npos);
  REQUIRE(mkfifo((home / "fifo.cpp").c_str(), 0600) == 0);
  CHECK(not_a_regular_file(home / "fifo.cpp").find("a FIFO") != std::string::npos);
  fs::create_hard_link(outside, home / "hard.cpp");
  CHECK(not_a_regular_file(home / "hard.cpp", home).find("hard link") != std::string::npos);
  CHECK(not_a_regular_file("/dev/zero").find("a device") != std::string::npos);
  // A folder that is itself a link elsewhere: the file resolves outside it.
  fs::create_directory_symlink(s.dir, home / "up");
  CHECK(not_a_regular_file(home / "up" / "elsewhere.cpp", home).find("outside") != std::string::npos);
}

TEST_CASE("files: reading refuses links, FIFOs and devices, and stops at the size") {
  Scratch s;
  std::ofstream(s.dir / "seed") << "12345";
  CHECK(read_regular_file(s.dir / "seed", 4096) == "12345");
  CHECK_THROWS_AS(read_regular_file(s.dir / "seed", 4), FileRefused);
  fs::create_symlink(s.dir / "seed", s.dir / "link");
  CHECK_THROWS_AS(read_regular_file(s.dir / "link", 4096), FileRefused);
  REQUIRE(mkfifo((s.dir / "fifo").c_str(), 0600) == 0);
  CHECK_THROWS_AS(read_regular_file(s.dir / "fifo", 4096), FileRefused);  // and returns at once: nobody writes it
  CHECK_THROWS_AS(read_regular_file("/dev/zero", 4096), FileRefused);
}

TEST_CASE("files: a file named outside a class folder is followed through the judge's user's links, not another's") {
  Scratch s;
  std::ofstream(s.dir / "secret.cpp") << "int secret;\n";
  chmod((s.dir / "secret.cpp").c_str(), 0600);
  fs::create_directory(s.dir / "real");
  std::ofstream(s.dir / "real" / "mine.cpp") << "int mine;\n";
  fs::create_symlink(s.dir / "secret.cpp", s.dir / "own-link.cpp");
  fs::create_directory_symlink(s.dir / "real", s.dir / "own-folder");
  // The twin: links of the judge's own user are followed, to a file or through a folder (as root, to a file that
  // others may read).
  if (geteuid() != 0) CHECK(read_followed_file(s.dir / "own-link.cpp", 1 << 20) == "int secret;\n");
  CHECK(read_followed_file(s.dir / "own-folder" / "mine.cpp", 1 << 20) == "int mine;\n");
  CHECK(read_followed_file(s.dir / "own-folder" / ".." / "real" / "mine.cpp", 1 << 20) == "int mine;\n");
  fs::create_symlink("loop.cpp", s.dir / "loop.cpp");
  CHECK_THROWS_AS(read_followed_file(s.dir / "loop.cpp", 1 << 20), FileRefused);
  if (geteuid() != 0) return;  // only root can give a link to another user
  // As root, not even its own link to a file that others may not read (secret.cpp is 0600; /etc/shadow).
  CHECK(unfollowed_link(s.dir / "own-link.cpp").find("which only its owner and group may read") != std::string::npos);
  CHECK_THROWS_AS(read_followed_file(s.dir / "own-link.cpp", 1 << 20), FileRefused);
  chmod((s.dir / "secret.cpp").c_str(), 0644);
  CHECK(read_followed_file(s.dir / "own-link.cpp", 1 << 20) == "int secret;\n");
  chmod((s.dir / "secret.cpp").c_str(), 0600);
  // Another user's links, to the file or to a folder on the way, lead where that user chose: refused, and the
  // file's words never read.
  fs::create_symlink(s.dir / "secret.cpp", s.dir / "their-link.cpp");
  fs::create_directory_symlink(s.dir / "real", s.dir / "their-folder");
  REQUIRE(lchown((s.dir / "their-link.cpp").c_str(), 65534, 65534) == 0);
  REQUIRE(lchown((s.dir / "their-folder").c_str(), 65534, 65534) == 0);
  CHECK(unfollowed_link(s.dir / "their-link.cpp").find("a symbolic link of user 65534's") != std::string::npos);
  CHECK(unfollowed_link(s.dir / "their-folder" / "mine.cpp").find((s.dir / "their-folder").string()) !=
        std::string::npos);
  CHECK_THROWS_AS(read_followed_file(s.dir / "their-link.cpp", 1 << 20), FileRefused);
  CHECK_THROWS_AS(read_followed_file(s.dir / "their-folder" / "mine.cpp", 1 << 20), FileRefused);
  // Through the judge's own link to another user's link: still refused.
  fs::create_symlink(s.dir / "their-link.cpp", s.dir / "own-to-theirs.cpp");
  CHECK_THROWS_AS(read_followed_file(s.dir / "own-to-theirs.cpp", 1 << 20), FileRefused);
}

TEST_CASE("files: a report is written whole, and an unwritable target is known before") {
  Scratch s;
  write_file_atomically(s.dir / "r.json", "{}\n");
  std::ifstream in(s.dir / "r.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "{}\n");
  CHECK(fs::directory_iterator(s.dir)->path().filename() == "r.json");  // nothing left aside
  CHECK_NOTHROW(check_can_write(s.dir / "new.json"));
  CHECK_THROWS_AS(check_can_write("/dev/full"), FileRefused);
  CHECK_THROWS_AS(check_can_write(s.dir), FileRefused);
  CHECK_THROWS_AS(check_can_write(s.dir / "missing" / "r.json"), FileRefused);
}

TEST_CASE("files: a temporary folder can be passed through by others but not listed; the cache's private ones") {
  TempDir t;
  struct stat st {};
  REQUIRE(stat(t.path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0711);
  Scratch s;
  const fs::path deep = s.dir / "cache" / "compiled";
  make_private_folder(deep);
  REQUIRE(stat(deep.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  fs::permissions(deep, fs::perms::owner_all | fs::perms::group_all | fs::perms::others_read | fs::perms::others_exec);
  make_private_folder(deep);  // an older cache's folder, open to others: closed on its next use
  REQUIRE(stat(deep.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0700);
  if (geteuid() == 0) {  // a folder of another user's is left as it is
    const fs::path theirs = s.dir / "theirs";
    fs::create_directories(theirs);
    fs::permissions(theirs, fs::perms::owner_all | fs::perms::others_read | fs::perms::others_exec);
    REQUIRE(chown(theirs.c_str(), 65534, 65534) == 0);
    make_private_folder(theirs);
    REQUIRE(stat(theirs.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0705);
  }
}

TEST_CASE("compile: a folder's library has a name of its own that no other user can guess, the same each time") {
  TempDir a, b;
  const fs::path la = compiled_library(a.path), lb = compiled_library(b.path);
  CHECK(la == compiled_library(a.path));
  CHECK(la.parent_path() == a.path);
  CHECK(la.filename() != lb.filename());
  CHECK(la.filename() != "submission.so");
  CHECK(la.filename().string().size() == std::string("submission-0123456789abcdef.so").size());
}

TEST_CASE("leaderboard: names are text in a spreadsheet and in Markdown") {
  CHECK(csv_field("=HYPERLINK(\"x\")") == "\"'=HYPERLINK(\"\"x\"\")\"");
  CHECK(csv_field("+cmd|calc") == "'+cmd|calc");
  CHECK(csv_field("-2+3") == "'-2+3");
  CHECK(csv_field("@SUM(1)") == "'@SUM(1)");
  CHECK(csv_field("\tx") == "'\tx");
  CHECK(csv_field("\rx") == "\\rx");  // shown, as every control character is (terminal_text)
  CHECK(csv_field("e\x1b[2J\x9b") == "e\\x1b[2J\\x9b");
  CHECK(md_cell("e\x1b[2J\xC2\x9b王") == "e\\\\x1b[2J\\\\u009b王");
  CHECK(csv_field("alice") == "alice");
  CHECK(md_cell("<img src=x onerror=alert(1)>") == "&lt;img src=x onerror=alert(1)&gt;");
  CHECK(md_cell("| md | cell") == "\\| md \\| cell");
  CHECK(md_cell("two\nlines") == "two<br>lines");
}

TEST_CASE("leaderboard: a participant never lands on the judge's own files") {
  CHECK(results_folder("alice") == "alice");
  CHECK(results_folder("slurm") == "slurm (participant)");
  CHECK(results_folder("leaderboard.json") == "leaderboard.json (participant)");
  // One folder per name: a name that looks renamed is renamed too.
  CHECK(results_folder("slurm (participant)") == "slurm (participant) (participant)");
}

TEST_CASE("leaderboard: every participant's name is one folder inside RESULTS, and reads back as the name") {
  // A server's participants are named by staff, not by folders: a '/' or a leading '.' must not become a path.
  CHECK(results_folder("<b>x</b>") == "<b>x<%2Fb>");
  CHECK(results_folder("../../evil") == "%2E.%2F..%2Fevil");
  CHECK(results_folder("..") == "%2E.");
  CHECK(results_folder("50%") == "50%25");
  for (const std::string name : {"alice", "<b>x</b>", "../../evil", "..", ".", "50%", "a%2Fb", "slurm", "王小明",
                                 "slurm (participant)", "x/ (participant)"}) {
    const std::string folder = results_folder(name);
    CHECK(folder.find('/') == std::string::npos);
    CHECK(folder != "." );
    CHECK(folder != "..");
    CHECK(participant_of_folder(folder) == name);
  }
}

TEST_CASE("compile: what the compiler read, from its dependency lists, is checked where it leads") {
  CHECK(dependency_paths("x.o: a.cpp /usr/include/stdio.h \\\n /etc/my\\ file.h\n") ==
        std::vector<std::string>{"a.cpp", "/usr/include/stdio.h", "/etc/my file.h"});
  CHECK(dependency_paths("c.o : c.cu \\\n    /usr/include/stdio.h\n") ==
        std::vector<std::string>{"c.cu", "/usr/include/stdio.h"});  // nvcc's form
  // The linker's form (ld --dependency-file, which g++ 13 on the H200's host wrote into -MF's file): an empty
  // rule for every file listed, whose target is a path read all the same.
  CHECK(dependency_paths("s.so: \\\n  /tmp/cc1.o \\\n  /opt/blas/libopenblas.so\n\n/tmp/cc1.o:\n\n/opt/blas/libopenblas.so:\n") ==
        std::vector<std::string>{"/tmp/cc1.o", "/opt/blas/libopenblas.so", "/tmp/cc1.o", "/opt/blas/libopenblas.so"});
  CHECK(dependency_paths("x.o: a.cpp\n/etc/shadow:\n") == std::vector<std::string>{"a.cpp", "/etc/shadow"});
  Scratch s;
  std::ofstream(s.dir / "solution.cpp") << "";
  const std::vector<fs::path> allowed = {s.dir, "/usr/include"};
  CHECK(first_outside({"solution.cpp", "/usr/include/stdio.h", "tmpxft-gone.cpp"}, s.dir, allowed).empty());
  CHECK(first_outside({"/etc/passwd"}, s.dir, allowed) == "/etc/passwd");
  CHECK(first_outside({"/usr/include/../../etc/passwd"}, s.dir, allowed) == "/usr/include/../../etc/passwd");
  CHECK(first_outside({"../x.h"}, s.dir, allowed) == "../x.h");
  fs::create_symlink("/etc/passwd", s.dir / "innocent.h");
  CHECK(first_outside({"innocent.h"}, s.dir, allowed) == "innocent.h");
}

TEST_CASE("the CUDA toolkit's folders are the ones nvcc reports, wrapper or not", "[files]") {
  // What `nvcc --dryrun` prints where nvcc is reached through a wrapper script in /usr/bin.
  const std::string out =
      "#$ _HERE_=/opt/cuda-13.0/bin\n"
      "#$ TOP=/opt/cuda-13.0/bin/..\n"
      "#$ INCLUDES=\"-I/opt/cuda-13.0/bin/../targets/x86_64-linux/include\"  \n"
      "#$ SYSTEM_INCLUDES=\"-isystem\" \"/opt/cuda-13.0/bin/../targets/x86_64-linux/include/cccl\"  \n"
      "#$ gcc -E -x c++ \"-I/not/this\" t.cu\n";
  const CudaToolkit t = parse_nvcc_dryrun(out);
  CHECK(t.top == "/opt/cuda-13.0/bin/..");
  REQUIRE(t.include_dirs.size() == 2);
  CHECK(t.include_dirs[0] == "/opt/cuda-13.0/bin/../targets/x86_64-linux/include");
  CHECK(t.include_dirs[1] == "/opt/cuda-13.0/bin/../targets/x86_64-linux/include/cccl");
  CHECK(parse_nvcc_dryrun("").top.empty());
  if (!nvcc_path().empty()) {
    // The judge's own toolkit: cuda_runtime.h lies under one of its include folders.
    const CudaToolkit& cuda = cuda_toolkit();
    REQUIRE(!cuda.top.empty());
    bool found = false;
    for (const fs::path& d : cuda.include_dirs) found = found || fs::exists(d / "cuda_runtime.h");
    CHECK(found);
  }
}

TEST_CASE("files: untrusted JSON is parsed within a size and a nesting bound, never crashing") {
  // Arrays 250,000 deep under a manifest's judge_version, under 1 MiB: copied or printed, such a value overflows
  // the stack; it is refused before it is parsed.
  const std::string deep = R"({"participant": "m", "judge_version": )" + std::string(250000, '[') +
                           std::string(250000, ']') + "}";
  REQUIRE(deep.size() < (1 << 20));
  CHECK(json_nesting_depth(deep, kMaxJsonDepth) == kMaxJsonDepth + 1);  // stops counting past the bound
  CHECK(parse_untrusted_json(deep, 1 << 20).is_discarded());
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += R"({"a":)";
  CHECK(parse_untrusted_json(objects + "1" + std::string(100000, '}'), 1 << 20).is_discarded());
  // At the bound it is read; brackets inside strings (escaped quotes too) are text, not nesting.
  const std::string at_bound = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  CHECK(parse_untrusted_json(at_bound, 1 << 20).is_array());
  const nlohmann::json fine = parse_untrusted_json(R"({"name": "[[[\"{{{", "files": [{"path": "a.cpp"}]})", 1 << 20);
  REQUIRE(fine.is_object());
  CHECK(fine["name"] == "[[[\"{{{");
  CHECK(fine["files"][0]["path"] == "a.cpp");
  // Over the size, or not JSON: discarded, not thrown.
  CHECK(parse_untrusted_json(R"({"a": 1})", 7).is_discarded());
  CHECK(parse_untrusted_json(R"({"a": 1})", 8).is_object());
  CHECK(parse_untrusted_json("{\"a\": ", 1 << 20).is_discarded());
  CHECK(parse_untrusted_json("", 1 << 20).is_discarded());
  // From a file: the same bounds, and a file that is refused reads as not valid.
  Scratch s;
  std::ofstream(s.dir / "manifest.json") << deep;
  CHECK(tolerant::read_file(s.dir / "manifest.json", 1 << 20).is_discarded());
  std::ofstream(s.dir / "big.json") << "[" << std::string(2000, ' ') << "]";
  CHECK(tolerant::read_file(s.dir / "big.json", 1000).is_discarded());
  CHECK(tolerant::read_file(s.dir / "big.json", 4000).is_array());
  fs::create_symlink(s.dir / "big.json", s.dir / "link.json");
  CHECK(tolerant::read_file(s.dir / "link.json", 4000).is_discarded());
  CHECK(tolerant::read_file(s.dir / "missing.json", 4000).is_discarded());
}
