# The server's files (cmake/server.cmake): one line each, added once the file compiles.
set(HPCJUDGE_SERVER_SOURCES
  server/auth.cpp
  server/context.cpp
  server/store.cpp
  server/tokens.cpp
  server/standings.cpp
  server/grader.cpp
  server/workers.cpp
  server/worker_api.cpp
  server/remote_worker.cpp
  server/slurm_workers.cpp
  server/csrf.cpp
  server/markdown.cpp
  server/report_html.cpp
  server/page_layout.cpp
)
