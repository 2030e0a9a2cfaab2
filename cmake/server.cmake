# `judge serve`, `judge submit` and `judge worker` (server/): cpp-httplib (built by Debian with OpenSSL, zlib and
# Brotli, so its header needs theirs and the same three definitions), SQLite and libsodium. HPCJUDGE_SERVER: AUTO
# builds them where the libraries are found, ON requires them (`make test`), OFF leaves them out; without them the
# judge builds all the same and the three commands say what to install.
set(HPCJUDGE_SERVER AUTO CACHE STRING "build judge serve/submit/worker: AUTO, ON (libraries required), OFF")
set_property(CACHE HPCJUDGE_SERVER PROPERTY STRINGS AUTO ON OFF)
set(HPCJUDGE_HAVE_SERVER OFF)
if(NOT HPCJUDGE_SERVER STREQUAL "OFF")
  find_path(HTTPLIB_INCLUDE_DIR httplib.h)
  find_library(HTTPLIB_LIBRARY cpp-httplib)
  find_path(SODIUM_INCLUDE_DIR sodium.h)
  find_library(SODIUM_LIBRARY sodium)
  find_package(SQLite3 QUIET)
  find_package(OpenSSL QUIET)
  find_package(ZLIB QUIET)
  find_path(BROTLI_INCLUDE_DIR brotli/decode.h)
  if(HTTPLIB_INCLUDE_DIR AND HTTPLIB_LIBRARY AND SODIUM_INCLUDE_DIR AND SODIUM_LIBRARY AND SQLite3_FOUND
     AND OpenSSL_FOUND AND ZLIB_FOUND AND BROTLI_INCLUDE_DIR)
    set(HPCJUDGE_HAVE_SERVER ON)
  elseif(HPCJUDGE_SERVER STREQUAL "ON")
    message(FATAL_ERROR "judge serve needs libcpp-httplib-dev, libsqlite3-dev and libsodium-dev (tools/install-deps.sh)")
  else()
    message(STATUS "cpp-httplib, SQLite or libsodium not found: judge serve/submit/worker are left out")
  endif()
endif()

if(HPCJUDGE_HAVE_SERVER)
  include(${PROJECT_SOURCE_DIR}/server/sources.cmake)  # HPCJUDGE_SERVER_SOURCES
  add_library(hpcjudge_server STATIC ${HPCJUDGE_SERVER_SOURCES})
  target_include_directories(hpcjudge_server PUBLIC ${HTTPLIB_INCLUDE_DIR} ${SODIUM_INCLUDE_DIR} ${BROTLI_INCLUDE_DIR})
  target_compile_definitions(hpcjudge_server PUBLIC CPPHTTPLIB_OPENSSL_SUPPORT CPPHTTPLIB_ZLIB_SUPPORT
                                                    CPPHTTPLIB_BROTLI_SUPPORT HPCJUDGE_HAVE_SERVER)
  target_link_libraries(hpcjudge_server PUBLIC hpcjudge_judge ${HTTPLIB_LIBRARY} ${SODIUM_LIBRARY} SQLite::SQLite3
                                               OpenSSL::SSL OpenSSL::Crypto ZLIB::ZLIB)
  target_compile_options(hpcjudge_server PRIVATE -Wall -Wextra)
endif()
