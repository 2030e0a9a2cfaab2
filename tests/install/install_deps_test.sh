#!/usr/bin/env bash
# tools/install-deps.sh against stub dpkg-query, apt-get and id placed first on PATH,
# and an os-release file of its own: for each combination of what is installed, who
# runs it and which distribution, what it prints, its exit status and what apt-get
# was asked to do. Nothing here touches the machine's packages or /etc/apt.
set -uo pipefail
script=${1:?usage: install_deps_test.sh tools/install-deps.sh}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"

# dpkg-query -W -f=FORMAT PKG: "install ok installed VERSION" for a package listed in
# $STUB_DB ("name version" lines), status 1 otherwise.
cat > "$work/bin/dpkg-query" <<'STUB'
#!/usr/bin/env bash
pkg=${!#}
line=$(awk -v p="$pkg" '$1 == p' "$STUB_DB"); [ -n "$line" ] || { echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; }
printf 'install ok installed %s' "${line#* }"
STUB
# apt-get: logs its arguments, one call a line; fails when asked for a package in $STUB_APT_FAIL.
cat > "$work/bin/apt-get" <<'STUB'
#!/usr/bin/env bash
echo "$*" >> "$STUB_LOG"
for p in $STUB_APT_FAIL; do [[ " $* " == *" $p "* ]] && { echo "E: Unable to locate package $p" >&2; exit 100; }; done
exit 0
STUB
cat > "$work/bin/id" <<'STUB'
#!/usr/bin/env bash
[ "${1:-}" = -u ] && { echo "$STUB_UID"; exit 0; }
exec /usr/bin/id "$@"
STUB
chmod +x "$work/bin/"*
printf 'ID=debian\nVERSION_ID="12"\nVERSION_CODENAME=bookworm\n' > "$work/debian"
printf 'ID=ubuntu\nVERSION_ID="24.04"\nVERSION_CODENAME=noble\n' > "$work/ubuntu"

judging="cmake g++ make libcli11-dev nlohmann-json3-dev libopenblas-dev libcpp-httplib-dev libsqlite3-dev libsodium-dev"
tests_debian="libcatch2-dev slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3 chromium chromium-driver python3-selenium"
tests_ubuntu="libcatch2-dev slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3"
# db PKG...: the stub's database; Catch2 at $CATCH2_VERSION (default a v3 from backports).
db() { for p in "$@"; do if [ "$p" = libcatch2-dev ]; then echo "$p ${CATCH2_VERSION:-3.4.0-1~bpo12+1}"; else echo "$p 1.0"; fi; done; }

fails=0 passes=0
# run NAME OS UID INSTALLED-PACKAGES [ARGS...]: runs the script, leaving $status, $err, $out, $apt.
# APT_FAIL (packages apt-get fails on), NO_INSTALL and CATCH2_VERSION vary a run.
run() {
  name=$1 os=$2 uid=$3 pkgs=$4; shift 4
  rm -rf "$work/apt" "$work/log"; mkdir -p "$work/apt/sources.list.d"; : > "$work/log"
  db $pkgs > "$work/db"
  out=$(env PATH="$work/bin:$PATH" STUB_DB="$work/db" STUB_LOG="$work/log" STUB_UID="$uid" \
        STUB_APT_FAIL="${APT_FAIL:-}" HPCJUDGE_OS_RELEASE="$work/$os" HPCJUDGE_APT_DIR="$work/apt" \
        HPCJUDGE_NO_INSTALL="${NO_INSTALL:-}" bash "$script" "$@" 2>"$work/err")
  status=$?
  err=$(cat "$work/err")
  apt=$(cat "$work/log")
}
check() {  # check DESCRIPTION CONDITION...
  local what=$1; shift
  if "$@"; then passes=$((passes + 1)); else
    fails=$((fails + 1))
    echo "FAIL [$name] $what"
    echo "  status $status; stdout: ${out:-<none>}"; echo "  stderr: ${err:-<none>}"; echo "  apt-get: ${apt:-<not called>}"
  fi
}
has() { [[ $1 == *"$2"* ]]; }
lacks() { [[ $1 != *"$2"* ]]; }
is() { [ "$1" = "$2" ]; }

run "nothing installed, root, judging" debian 0 ""
check "exit 0" is $status 0
check "apt-get update, then the judging packages, then bubblewrap" is "$apt" \
  "update -qq
install -y -qq --no-install-recommends $judging
install -y -qq --no-install-recommends bubblewrap"
check "says what it installs" has "$err" "installing: $judging"
check "no test packages without --test" lacks "$apt" libcatch2
check "no backports without Catch2" is "$(ls "$work/apt/sources.list.d")" ""

run "nothing installed, root, --test on Debian 12" debian 0 "" --test
check "exit 0" is $status 0
check "Catch2 from backports, with the rest" has "$apt" \
  "install -y -qq --no-install-recommends $judging libcatch2-dev/bookworm-backports slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3 chromium"
check "bookworm-backports added to the sources" has "$(cat "$work/apt/sources.list.d/backports.list" 2>/dev/null)" \
  "deb http://deb.debian.org/debian bookworm-backports main"

run "only test packages missing, root, Debian 12" debian 0 "$judging bubblewrap" --test
check "exit 0" is $status 0
check "installs exactly the test packages" is "$apt" \
  "update -qq
install -y -qq --no-install-recommends libcatch2-dev/bookworm-backports slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3 chromium chromium-driver python3-selenium"
check "says so" has "$err" "installing: $tests_debian"

run "only test packages missing, judging only" debian 0 "$judging bubblewrap"
check "exit 0, silent" is "$status|$err|$out" "0||"
check "apt-get not called" is "$apt" ""

CATCH2_VERSION=2.13.10-1 run "Catch2 v2 installed counts as missing" debian 0 \
  "$judging bubblewrap libcatch2-dev slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3 chromium chromium-driver python3-selenium" --test
check "installs Catch2 v3 from backports" is "$apt" \
  "update -qq
install -y -qq --no-install-recommends libcatch2-dev/bookworm-backports"

run "nothing installed, not root" debian 1000 "" --test
check "exit 1" is $status 1
check "apt-get not called" is "$apt" ""
check "names what is missing" has "$err" "hpcjudge needs: $judging $tests_debian"
check "gives the one command, backports included" has "$err" \
  "run as root:  echo 'deb http://deb.debian.org/debian bookworm-backports main' > $work/apt/sources.list.d/backports.list && apt-get update && apt-get install -y $judging libcatch2-dev/bookworm-backports slurmctld slurmd slurm-client munge python3 libxml2-utils curl sqlite3 chromium"
check "mentions bubblewrap as recommended" has "$err" "recommended: bubblewrap"
check "nothing on stdout" is "$out" ""

run "only bubblewrap missing, not root" debian 1000 "$judging"
check "exit 0: the sandbox is optional" is $status 0
check "a note on bubblewrap" has "$err" "recommended: bubblewrap"
check "nothing it needs" lacks "$err" "hpcjudge needs"
check "apt-get not called" is "$apt" ""

NO_INSTALL=1 run "HPCJUDGE_NO_INSTALL=1 as root only checks" debian 0 ""
check "exit 1, nothing installed" is "$status|$apt" "1|"
check "prints the command" has "$err" "run as root:  apt-get update && apt-get install -y $judging"

run "Ubuntu 24.04, nothing installed, root, --test" ubuntu 0 "" --test
check "exit 0" is $status 0
check "Catch2 from the archive, no Chromium deb" has "$apt" \
  "install -y -qq --no-install-recommends $judging $tests_ubuntu
install -y -qq --no-install-recommends bubblewrap"
check "no backports" is "$(ls "$work/apt/sources.list.d")" ""
check "no backports pin" lacks "$apt" "bookworm-backports"

run "Ubuntu 24.04, not root" ubuntu 1000 "" --test
check "exit 1" is $status 1
check "the command has no backports" has "$err" "run as root:  apt-get update && apt-get install -y $judging $tests_ubuntu"
check "the command has no backports line" lacks "$err" "backports"

APT_FAIL=bubblewrap run "bubblewrap cannot be installed, root" debian 0 ""
check "exit 0 all the same" is $status 0
check "a warning" has "$err" "warning: could not install bubblewrap"

APT_FAIL=libopenblas-dev run "a required package cannot be installed, root" debian 0 ""
check "exit 1" is $status 1
check "says what failed" has "$err" "apt-get install failed for: $judging"

for who in 0 1000; do
  for os in debian ubuntu; do
    tests=$tests_debian; [ $os = ubuntu ] && tests=$tests_ubuntu
    run "everything installed, uid $who, $os" $os $who "$judging bubblewrap $tests" --test
    check "exit 0, silent" is "$status|$err|$out" "0||"
    check "apt-get not called" is "$apt" ""
    run "everything installed, uid $who, $os, judging" $os $who "$judging bubblewrap"
    check "exit 0, silent" is "$status|$err|$out" "0||"
  done
done

echo "install-deps: $passes checks passed, $fails failed"
[ $fails -eq 0 ]
