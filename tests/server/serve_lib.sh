# What the server tests share (sourced, after $judge and $tmp are set):
#   check NAME COMMAND...          tests/cli/checks.sh's: ok/FAIL NAME, counted in $passes and $fails
#   start_server DATA ARGS...      `judge serve --data DATA --listen 127.0.0.1:PORT ARGS` in the background, its
#                                  output in DATA.log; waits for "serving on", sets $url, $server_pid and
#                                  $admin (the admin token, where this start printed it); returns 1 if it never
#                                  listens. The EXIT trap kills it.
#   stop_server [SIGNAL]           the server stopped (TERM by default) and waited for
#   api METHOD PATH TOKEN [CURL ARGS...]   the response's body on stdout, its status in $status
#   wait_done TOKEN ID...          until every submission is done (at most $wait_s seconds, default 150)
#   token_of FILE                  the last line of a command's output (the token --add-participant prints)
here_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here_lib/../cli/checks.sh"
export -f field  # for the checks' bash -c
server_pid=
trap '[ -n "$server_pid" ] && kill -9 "$server_pid" 2>/dev/null; [ -n "${HPCJUDGE_KEEP:-}" ] || rm -rf "$tmp"' EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

start_server() {
  local data=$1; shift
  local port from; port=$(free_port)
  from=$(($(cat "$data.log" 2>/dev/null | wc -l) + 1))  # this start's lines: the log is kept across restarts
  "$judge" serve --data "$data" --listen "127.0.0.1:$port" "$@" >>"$data.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 600); do
    if tail -n "+$from" "$data.log" | grep -q "^serving on "; then
      url=http://127.0.0.1:$port
      admin=$(tail -n "+$from" "$data.log" | sed -n 's/^admin token (shown once): //p')
      return 0
    fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "the server did not start:"; sed 's/^/  /' "$data.log"
  return 1
}

stop_server() {
  [ -n "$server_pid" ] || return 0
  kill "-${1:-TERM}" "$server_pid" 2>/dev/null
  wait "$server_pid" 2>/dev/null
  server_pid=
}

api() {
  local method=$1 path=$2 token=$3; shift 3
  local out
  out=$(curl -s -X "$method" -H "Authorization: Bearer $token" -w '\n%{http_code}' "$@" "$url$path")
  status=${out##*$'\n'}
  printf '%s\n' "${out%$'\n'*}"
}

wait_done() {
  local token=$1; shift
  local deadline=$((SECONDS + ${wait_s:-150}))
  for id in "$@"; do
    while :; do
      api GET "/api/submissions/$id" "$token" | grep -q '"state":"done"' && break
      [ $SECONDS -lt $deadline ] || { echo "submission $id not done after ${wait_s:-150} s"; return 1; }
      sleep 0.3
    done
  done
}

token_of() { tail -1 "$1"; }
