#include "judge/reports/progress_file.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "protocol/json.h"

namespace hpcjudge {

ProgressFile::ProgressFile(const std::filesystem::path& file) : f_(std::fopen(file.c_str(), "ae")) {
  if (!f_) throw std::runtime_error("--progress " + file.string() + ": " + std::strerror(errno));
}

ProgressFile::~ProgressFile() {
  if (f_) std::fclose(f_);
}

void ProgressFile::write_state(const char* state) {
  std::fprintf(f_, "{\"state\":\"%s\"}\n", state);
  std::fflush(f_);
}

// A file that did not compile ends the grade here: no stage follows.
void ProgressFile::compiled(const Report& r) {
  if (r.compiled) write_state("testing");
}

void ProgressFile::bench_start(const Case&) {
  if (timing_) return;
  timing_ = true;
  write_state("timing");
}

void FanOut::compiled(const Report& r) {
  for (Listener* l : to_) l->compiled(r);
}
void FanOut::test_done(const TestResult& t) {
  for (Listener* l : to_) l->test_done(t);
}
void FanOut::bench_start(const Case& c) {
  for (Listener* l : to_) l->bench_start(c);
}
void FanOut::bench_progress(const Case& c, const TimingLoop::Progress& p) {
  for (Listener* l : to_) l->bench_progress(c, p);
}
void FanOut::bench_done(const BenchResult& b) {
  for (Listener* l : to_) l->bench_done(b);
}
void FanOut::note(const std::string& text) {
  for (Listener* l : to_) l->note(text);
}

std::vector<std::string> read_progress_states(const std::filesystem::path& file, size_t& offset) {
  std::vector<std::string> states;
  std::ifstream in(file, std::ios::binary);
  if (!in || !in.seekg(static_cast<std::streamoff>(offset))) return states;
  std::string line;
  while (std::getline(in, line)) {
    if (in.eof()) break;  // no newline yet: a line still being written
    offset += line.size() + 1;
    const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_object() && j.contains("state") && j["state"].is_string()) states.push_back(j["state"]);
  }
  return states;
}

}  // namespace hpcjudge
