#!/usr/bin/env bash
# `judge serve`'s web pages in a real browser (headless Chromium driven by Selenium): sign in, the statements,
# submit, the verdict appearing live, the report, the leaderboard, the admin's rejudge, a name with HTML shown as
# text, a POST without its CSRF token refused. Screenshots go to $ARTEFACTS (default build/artefacts/server-browser).
#
#   browser_test.sh JUDGE     (JUDGE: build/judge/hpcjudge)
#
# Exit 0 when every check passes, 1 when one fails, 2 on a bad command line, 77 (a skip) where Chromium,
# chromedriver or python3-selenium is missing.
set -u
[ $# -eq 1 ] || { echo "usage: $0 JUDGE" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
python=${PYTHON:-/usr/bin/python3}
skip() { echo "skip: $1 is missing (apt-get install chromium chromium-driver python3-selenium)"; exit 77; }
for tool in "${CHROMIUM:-/usr/bin/chromium}" "${CHROMEDRIVER:-/usr/bin/chromedriver}" "$python"; do
  [ -x "$tool" ] || skip "$tool"
done
"$python" -c 'import selenium' 2>/dev/null || skip "python3-selenium"
exec "$python" "$here/browser_test.py" "$(cd "$here/../.." && pwd)" "$1"
