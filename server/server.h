// `judge serve`'s server: the store opened (DATA/hpcjudge.db), the jobs a previous run held requeued, the admin
// account made at the first start (its token printed once), the HTTP API, the workers' API and the pages on one
// httplib::Server (HTTPS with --tls-cert/--tls-key), and the local workers. Runs until SIGINT or SIGTERM, then stops
// the workers (their grades killed, their jobs requeued at the next start) and returns.
#pragma once
#include <string>

#include "judge/paths.h"
#include "server/context.h"

namespace hpcjudge::server {

// "HOST:PORT" (or "[IPV6]:PORT") as host and port; std::invalid_argument for another text.
std::pair<std::string, int> parse_listen(const std::string& listen);

// The admin account's token where the store has no admin yet (made now, named "admin"), else "".
std::string make_first_admin(Store& store);

// Serves until SIGINT or SIGTERM: 0 then, 1 where it cannot listen (the address in use, a TLS file unreadable).
int run_server(const Paths& paths, const ServeOptions& opt);

}  // namespace hpcjudge::server
