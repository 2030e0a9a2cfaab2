// The emulation counts' JSON (protocol/emulation_counts.h): what the runner writes the judge reads back whole, in a
// reply (Reply::emulation_counts), and a reply whose counts have the wrong shape is no reply.
#include <catch2/catch_test_macros.hpp>

#include "protocol/protocol.h"

using namespace hpcjudge::protocol;

namespace {
EmulationCounts sample() {
  EmulationCounts c;
  c.launches = 3;
  c.host_syncs = 2;
  KernelCounts k;
  k.name = "transpose<32>";
  k.launches = 3;
  k.grid[0] = 64;
  k.block[0] = 32;
  k.block[1] = 8;
  k.dynamic_shared_bytes = 512;
  k.static_shared_bytes = 4224;
  k.threads = 3 * 64 * 256;
  k.global = {96, 384, 12288, 256};
  k.shared = {48, 1536, 32};
  k.warp_instructions = 200;
  k.active_lanes = 6000;
  k.barriers = 24;
  k.atomics = {7, 5, 3};
  k.lines.push_back({"solution.cu", 12, 32, 128, 4096, 16, 512});
  c.kernels.push_back(k);
  return c;
}
}  // namespace

TEST_CASE("emulation counts go through a reply's JSON unchanged") {
  Reply r;
  r.seq = 4;
  r.ok = true;
  r.emulation_counts = sample();
  const std::optional<Reply> back = parse_reply(nlohmann::json::parse(nlohmann::json(r).dump()));
  REQUIRE(back);
  REQUIRE(back->emulation_counts);
  CHECK(nlohmann::json(*back->emulation_counts) == nlohmann::json(sample()));
  const KernelCounts& k = back->emulation_counts->kernels.at(0);
  CHECK(k.name == "transpose<32>");
  CHECK(k.block[1] == 8);
  CHECK(k.shared.max_degree == 32);
  CHECK(k.atomics.max_same_address == 5);
  CHECK(k.atomics.max_same_address_floating == 3);
  CHECK(k.lines.at(0).wavefronts == 512);
  // A reply without counts has none; a request asks for them only when told.
  CHECK_FALSE(parse_reply(nlohmann::json(Reply{}))->emulation_counts);
  Request q;
  q.op = Op::Call;
  CHECK_FALSE(parse_request(nlohmann::json(q))->count_accesses);
  q.count_accesses = true;
  CHECK(parse_request(nlohmann::json(q))->count_accesses);
}

TEST_CASE("a reply whose emulation counts have the wrong shape is no reply") {
  nlohmann::json j = nlohmann::json(Reply{});
  j["emulation_counts"] = nlohmann::json(sample());
  j["emulation_counts"]["kernels"][0]["grid"] = {1, 2};
  CHECK_FALSE(parse_reply(j));
  j["emulation_counts"] = nlohmann::json(sample());
  j["emulation_counts"]["kernels"][0]["global"].erase("sectors");
  CHECK_FALSE(parse_reply(j));
  j["emulation_counts"] = "many";
  CHECK_FALSE(parse_reply(j));
}
