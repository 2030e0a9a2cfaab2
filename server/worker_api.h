// The server's side of /api/worker/* (server/api.h): `judge worker` on another host claims a job, posts its stages
// and its result, or gives the job back; every call with a worker account's token (role "worker").
//
// A remote worker's job is held under a lease: each post on the job (a state, which `judge worker` re-posts every
// lease_s / 6 as a heartbeat) renews it, and a job whose worker posted nothing for ServeOptions::worker_lease_s is
// given back (Store::lost: requeued once, then JE) by expire_leases, which the lease keeper (server/workers.h)
// calls. A post on a job the worker no longer holds (given back, graded by another) is refused with 409, and the
// worker drops it. The leases are kept in memory: a server that restarts requeues every held job anyway
// (Store::recover_after_restart).
#pragma once
#include <string>

namespace httplib {
class Server;
}

namespace hpcjudge::server {

struct Context;

void add_worker_api(httplib::Server& http, Context& ctx);

// Gives back every remote worker's job whose lease ran out; a held remote job without a lease yet gets one now.
void expire_leases(Context& ctx);

// Who holds a job claimed by a worker account: "remote:<account>" or "remote:<account>/<the worker's own name>".
std::string remote_holder(const std::string& account, const std::string& worker);

}  // namespace hpcjudge::server
