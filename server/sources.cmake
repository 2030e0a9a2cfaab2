# The server's files (cmake/server.cmake): one line each, added once the file compiles.
set(HPCJUDGE_SERVER_SOURCES
  server/auth.cpp
  server/context.cpp
  server/standings.cpp
)
