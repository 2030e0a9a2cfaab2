#include "protocol/emulation_counts.h"

namespace hpcjudge::protocol {

using nlohmann::json;

namespace {

json line_json(const LineCounts& l) {
  return {{"file", l.file},
          {"line", l.line},
          {"global_requests", l.global_requests},
          {"sectors", l.sectors},
          {"bytes_requested", l.bytes_requested},
          {"shared_requests", l.shared_requests},
          {"wavefronts", l.wavefronts}};
}

LineCounts line_from(const json& j) {
  LineCounts l;
  l.file = j.at("file").get<std::string>();
  l.line = j.at("line").get<int>();
  l.global_requests = j.at("global_requests").get<uint64_t>();
  l.sectors = j.at("sectors").get<uint64_t>();
  l.bytes_requested = j.at("bytes_requested").get<uint64_t>();
  l.shared_requests = j.at("shared_requests").get<uint64_t>();
  l.wavefronts = j.at("wavefronts").get<uint64_t>();
  return l;
}

json kernel_json(const KernelCounts& k) {
  json j = {{"name", k.name},
            {"launches", k.launches},
            {"grid", {k.grid[0], k.grid[1], k.grid[2]}},
            {"block", {k.block[0], k.block[1], k.block[2]}},
            {"dynamic_shared_bytes", k.dynamic_shared_bytes},
            {"static_shared_bytes", k.static_shared_bytes},
            {"threads", k.threads},
            {"global",
             {{"requests", k.global.requests},
              {"sectors", k.global.sectors},
              {"bytes_requested", k.global.bytes_requested},
              {"distinct_sectors", k.global.distinct_sectors}}},
            {"shared",
             {{"requests", k.shared.requests}, {"wavefronts", k.shared.wavefronts}, {"max_degree", k.shared.max_degree}}},
            {"warp_instructions", k.warp_instructions},
            {"active_lanes", k.active_lanes},
            {"barriers", k.barriers},
            {"atomics",
             {{"count", k.atomics.count},
              {"max_same_address", k.atomics.max_same_address},
              {"max_same_address_floating", k.atomics.max_same_address_floating}}},
            {"lines", json::array()}};
  for (const LineCounts& l : k.lines) j["lines"].push_back(line_json(l));
  return j;
}

void dim_from(const json& j, uint32_t (&d)[3]) {
  if (!j.is_array() || j.size() != 3) throw json::type_error::create(302, "a dimension is not [x, y, z]", &j);
  for (int i = 0; i < 3; ++i) d[i] = j.at(i).get<uint32_t>();
}

KernelCounts kernel_from(const json& j) {
  KernelCounts k;
  k.name = j.at("name").get<std::string>();
  k.launches = j.at("launches").get<uint64_t>();
  dim_from(j.at("grid"), k.grid);
  dim_from(j.at("block"), k.block);
  k.dynamic_shared_bytes = j.at("dynamic_shared_bytes").get<uint64_t>();
  k.static_shared_bytes = j.at("static_shared_bytes").get<uint64_t>();
  k.threads = j.at("threads").get<uint64_t>();
  const json& g = j.at("global");
  k.global = {g.at("requests").get<uint64_t>(), g.at("sectors").get<uint64_t>(),
              g.at("bytes_requested").get<uint64_t>(), g.at("distinct_sectors").get<uint64_t>()};
  const json& s = j.at("shared");
  k.shared = {s.at("requests").get<uint64_t>(), s.at("wavefronts").get<uint64_t>(), s.at("max_degree").get<uint64_t>()};
  k.warp_instructions = j.at("warp_instructions").get<uint64_t>();
  k.active_lanes = j.at("active_lanes").get<uint64_t>();
  k.barriers = j.at("barriers").get<uint64_t>();
  const json& a = j.at("atomics");
  k.atomics = {a.at("count").get<uint64_t>(), a.at("max_same_address").get<uint64_t>(),
               a.at("max_same_address_floating").get<uint64_t>()};
  for (const json& l : j.at("lines")) k.lines.push_back(line_from(l));
  return k;
}

}  // namespace

void to_json(json& j, const EmulationCounts& c) {
  j = {{"launches", c.launches}, {"host_syncs", c.host_syncs}, {"kernels", json::array()}};
  for (const KernelCounts& k : c.kernels) j["kernels"].push_back(kernel_json(k));
}

void from_json(const json& j, EmulationCounts& c) {
  c = {};
  c.launches = j.at("launches").get<uint64_t>();
  c.host_syncs = j.at("host_syncs").get<uint64_t>();
  for (const json& k : j.at("kernels")) c.kernels.push_back(kernel_from(k));
}

}  // namespace hpcjudge::protocol
