// The HTTP API of `judge serve`, under /api/, JSON in and out, every call with `Authorization: Bearer TOKEN`
// (401 {"error"} without a valid one; 403 for a role that may not; 404 for what is not the caller's to see, as if
// it did not exist). Errors are {"error": "one sentence"}.
//
//   POST /api/submissions            multipart: problem, file        -> 202 {"id", "queue_position"}
//        400 no such problem / not served, or no file; 413 over the upload limit; 429 the rate limit
//        ({"error", "retry_after"}); 403 outside the contest window; 503 the store refused (disk full)
//   GET  /api/submissions             the caller's own, newest first: [{"id","problem","filename","state",
//                                     "verdict","score","plus_minus","created_at","round"}]
//   GET  /api/submissions/ID          the report in the --json schema (once done) plus "id", "state",
//                                     "queue_position", "participant", "round"; before it is done: those fields only
//   GET  /api/submissions/ID/source   the file as submitted (its owner and admins)
//   GET  /api/problems                [{"slug","title","kind","points"}]
//   GET  /api/leaderboard             the leaderboard model (judge/classroom/leaderboard.h) of the public round;
//                                     while frozen, a participant sees it as at the freeze
//   GET  /api/whoami                  {"name","role"}
//
// Workers (role "worker"; `judge worker --server URL --worker-token T`; server/worker_api.h):
//   POST /api/worker/claim            {"worker", "kinds": ["gpu","cpu"]} -> 200 {"id","problem","filename",
//                                     "source_base64" (the file's bytes), "round", "participant", "bench" (false under
//                                     --no-bench), "lease_s", "seed_secret" (the seed itself, a decimal string, only
//                                     in the final round)} or 204 when nothing is queued; held as
//                                     "remote:<account>/<worker>"
//   POST /api/worker/ID/state         {"state": "compiling"|"testing"|"timing"}: also the heartbeat (re-posted)
//   POST /api/worker/ID/result        {"report": the --json report, "text": the terminal report} -> 200
//   POST /api/worker/ID/lost          {"why"} -> 200 (the worker could not grade it: requeued once, then JE)
//   Each post on a job renews the worker's lease on it; a job whose worker posts nothing for --worker-lease seconds
//   is given back (lost). A post on a job the worker no longer holds: 409.
//
// Admin (role "admin"): the same calls see every submission; plus
//   POST /api/admin/participants      {"name"} -> {"token"}
//   POST /api/admin/rejudge           {"id"} | {"problem"} | {"all": true} -> {"queued"}
//   POST /api/admin/policy            a Policy's JSON (server/store.h) -> the policy now
//   POST /api/admin/final             -> {"queued"}: the secret-seed round
//   GET  /api/admin/queue, /api/admin/audit
//   GET  /api/admin/export/{csv,gradescope,junit}?round=public|final
#pragma once

namespace httplib {
class Server;
}

namespace hpcjudge::server {

struct Context;

void add_api(httplib::Server& http, Context& ctx);

}  // namespace hpcjudge::server
