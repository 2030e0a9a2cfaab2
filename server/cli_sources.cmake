# The judge's server commands (judge/cli/), built where the server is (cmake/server.cmake): one line each.
set(HPCJUDGE_SERVER_CLI_SOURCES
  judge/cli/serve.cpp
  judge/cli/submit.cpp
  judge/cli/worker.cpp
)
