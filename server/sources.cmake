# The server's files (cmake/server.cmake): one line each, added once the file compiles.
set(HPCJUDGE_SERVER_SOURCES
  server/auth.cpp
  server/context.cpp
  server/standings.cpp
  server/grader.cpp
  server/workers.cpp
  server/worker_api.cpp
  server/remote_worker.cpp
  server/slurm_workers.cpp
)
