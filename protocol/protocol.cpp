#include "protocol/protocol.h"

#include <algorithm>

namespace hpcjudge::protocol {

using nlohmann::json;

void to_json(json& j, const CallArg& a) {
  if (a.buffer) {
    j = {{"offset", a.offset}, {"bytes", a.bytes}};
    if (a.workspace) j["workspace"] = true;
    if (!a.name.empty()) j["name"] = a.name;
    if (a.elem != 1) j["elem"] = a.elem;
  } else {
    j = {{"value", a.value}};
  }
}

void from_json(const json& j, CallArg& a) {
  a = {};
  if (j.contains("offset")) {
    a.buffer = true;
    a.offset = j.at("offset").get<size_t>();
    a.bytes = j.at("bytes").get<size_t>();
    a.workspace = j.value("workspace", false);
    a.name = j.value("name", std::string());
    a.elem = std::max<size_t>(1, j.value("elem", size_t{1}));
  } else {
    a.value = j.at("value").get<int64_t>();
  }
}

void to_json(json& j, const Request& r) {
  j = {{"op", r.op}, {"seq", r.seq}};
  if (!r.args.empty()) j["args"] = r.args;
  if (!r.pick.empty()) j["pick"] = r.pick;
  if (r.keep_workspace) j["keep_workspace"] = true;
  if (r.bytes) j["bytes"] = r.bytes;
  if (r.common_bytes) j["common_bytes"] = r.common_bytes;
  if (r.device_memory_limit) j["device_memory_limit"] = r.device_memory_limit;
  if (r.device_time) j["device_time"] = true;
  if (r.count_accesses) j["count_accesses"] = true;
  if (!r.library.empty()) j["library"] = r.library;
  if (!r.mode.empty()) j["mode"] = r.mode;
}

void from_json(const json& j, Request& r) {
  r = {};
  r.op = j.at("op").get<Op>();
  r.seq = j.at("seq").get<uint64_t>();
  if (j.contains("args")) r.args = j.at("args").get<std::vector<CallArg>>();
  if (j.contains("pick")) r.pick = j.at("pick").get<std::vector<int>>();
  r.keep_workspace = j.value("keep_workspace", false);
  r.bytes = j.value("bytes", size_t{0});
  r.common_bytes = j.value("common_bytes", size_t{0});
  r.device_memory_limit = j.value("device_memory_limit", size_t{0});
  r.device_time = j.value("device_time", false);
  r.count_accesses = j.value("count_accesses", false);
  r.library = j.value("library", std::string());
  r.mode = j.value("mode", std::string());
}

void to_json(json& j, const Reply& r) {
  j = {{"seq", r.seq}, {"ok", r.ok}};
  if (!r.error.empty()) j["error"] = r.error;
  if (r.memory_limit) j["memory_limit"] = true;
  if (r.fatal) j["fatal"] = true;
  if (r.ret) j["ret"] = r.ret;
  if (r.seconds) j["seconds"] = r.seconds;
  if (r.device_seconds) j["device_seconds"] = *r.device_seconds;
  if (r.cpu_seconds) j["cpu_seconds"] = *r.cpu_seconds;
  if (r.body_seconds) j["body_seconds"] = *r.body_seconds;
  if (r.ready_seconds) j["ready_seconds"] = *r.ready_seconds;
  if (r.device_peak_bytes) j["device_peak_bytes"] = *r.device_peak_bytes;
  if (r.device_held_bytes) j["device_held_bytes"] = *r.device_held_bytes;
  if (r.emulation_counts) j["emulation_counts"] = *r.emulation_counts;
  if (!r.sensors.is_null()) j["sensors"] = r.sensors;
  if (!r.marks.empty()) j["marks"] = r.marks;
  if (!r.cpus.empty()) j["cpus"] = r.cpus;
}

void from_json(const json& j, Reply& r) {
  r = {};
  r.seq = j.at("seq").get<uint64_t>();
  r.ok = j.at("ok").get<bool>();
  r.error = j.value("error", std::string());
  r.memory_limit = j.value("memory_limit", false);
  r.fatal = j.value("fatal", false);
  r.ret = j.value("ret", int64_t{0});
  r.seconds = j.value("seconds", 0.0);
  if (j.contains("device_seconds")) r.device_seconds = j.at("device_seconds").get<double>();
  if (j.contains("cpu_seconds")) r.cpu_seconds = j.at("cpu_seconds").get<double>();
  if (j.contains("body_seconds")) r.body_seconds = j.at("body_seconds").get<double>();
  if (j.contains("ready_seconds")) r.ready_seconds = j.at("ready_seconds").get<double>();
  if (j.contains("device_peak_bytes")) r.device_peak_bytes = j.at("device_peak_bytes").get<size_t>();
  if (j.contains("device_held_bytes")) r.device_held_bytes = j.at("device_held_bytes").get<size_t>();
  if (j.contains("emulation_counts")) r.emulation_counts = j.at("emulation_counts").get<EmulationCounts>();
  if (j.contains("sensors")) r.sensors = j.at("sensors");
  if (j.contains("marks") && j.at("marks").is_array())
    for (const auto& v : j.at("marks"))
      if (v.is_number_integer()) r.marks.push_back(v.get<int64_t>());
  if (j.contains("cpus") && j.at("cpus").is_array())
    for (const auto& v : j.at("cpus"))
      if (v.is_number_integer()) r.cpus.push_back(v.get<int>());
}

namespace {
template <class T>
std::optional<T> parse(const json& j) {
  try {
    return j.get<T>();
  } catch (const json::exception&) {
    return std::nullopt;
  }
}
}  // namespace

std::optional<Request> parse_request(const json& j) { return parse<Request>(j); }
std::optional<Reply> parse_reply(const json& j) { return parse<Reply>(j); }

}  // namespace hpcjudge::protocol
