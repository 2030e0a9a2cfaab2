// The admin's calls of the HTTP API (server/api.h, under /api/admin/; role "admin"), which add_api adds: each
// action written to the audit log with who did it.
#pragma once

namespace httplib {
class Server;
}

namespace hpcjudge::server {

struct Context;

void add_admin_api(httplib::Server& http, Context& ctx);

}  // namespace hpcjudge::server
