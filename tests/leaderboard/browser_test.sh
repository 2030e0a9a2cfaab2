#!/usr/bin/env bash
# The leaderboard page in a real browser (headless Chromium):
#   (a) the table's rows, as loaded, are in the expected order;
#   (b) after a click on the SORT_COLUMN header (the page's ?selftest= hook)
#       the rows are in EXPECTED_SORTED_ORDER;
#   (c) the page reported no error (uncaught exception, console.error, a
#       blocked or failed resource load) from its first script on.
#
#   browser_test.sh HTML_FILE EXPECTED_ORDER [SORT_COLUMN EXPECTED_SORTED_ORDER]
#
# Orders are participant names joined by '|'. SORT_COLUMN is a problem slug
# (sorted descending by score), "participant" (ascending by name), "total" or
# "rank". Without the last two arguments (b) is not checked, and (c) is
# checked on ?selftest=participant. Exit 0 when every check passes, 1 when one
# fails, 2 on a bad command line, 77 when there is no Chromium (a skip).
# CHROMIUM=/path/to/chromium overrides /usr/bin/chromium.
set -u

usage() { echo "usage: $0 HTML_FILE EXPECTED_ORDER [SORT_COLUMN EXPECTED_SORTED_ORDER]" >&2; exit 2; }
[ $# -eq 2 ] || [ $# -eq 4 ] || usage
html=$1 expected=$2
column=${3:-participant} expected_sorted=${4:-}
check_sorted=$([ $# -eq 4 ] && echo 1 || echo 0)

chromium=${CHROMIUM:-/usr/bin/chromium}
if [ ! -x "$chromium" ]; then
  echo "skip: $chromium is missing (apt-get install chromium)"
  exit 77
fi
if [ ! -f "$html" ] || [ ! -r "$html" ]; then
  echo "$0: cannot read '$html'" >&2
  exit 2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passes=0 fails=0

# Percent-encodes everything but unreserved characters and '/'.
urlencode() {
  local LC_ALL=C s=$1 out="" c i
  for ((i = 0; i < ${#s}; i++)); do
    c=${s:i:1}
    case $c in
      [A-Za-z0-9/._~-]) out+=$c ;;
      *) out+=$(printf '%%%02X' "'$c") ;;
    esac
  done
  printf '%s' "$out"
}

# Text from the serialized DOM back to plain text.
unescape() { sed -e 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&#39;/'"'"'/g; s/&nbsp;/\xC2\xA0/g; s/&amp;/\&/g'; }

abs=$(cd "$(dirname "$html")" && pwd)/$(basename "$html")
url="file://$(urlencode "$abs")"

# dump URL OUTFILE: the DOM after load (and the page's load handlers).
dump() {
  timeout -k 5 90 "$chromium" --headless --disable-gpu --no-sandbox --disable-dev-shm-usage \
    --disable-background-networking --disable-component-update --disable-sync --no-first-run \
    --user-data-dir="$tmp/profile.$RANDOM" --virtual-time-budget=5000 --dump-dom "$1" >"$2" 2>"$2.err"
  local rc=$?
  if [ $rc -ne 0 ] || [ ! -s "$2" ]; then
    echo "  chromium exit status $rc on $1; its last lines:"
    tail -n 5 "$2.err" | sed 's/^/    /'
    return 1
  fi
}

report() {  # OK NAME DETAIL
  if [ "$1" = 1 ]; then
    echo "ok   $2: $3"
    passes=$((passes + 1))
  else
    echo "FAIL $2: $3"
    fails=$((fails + 1))
  fi
}

# (a) The rows as loaded.
if dump "$url" "$tmp/plain.html"; then
  got=$(grep -o '<span class="lb-name">[^<]*</span>' "$tmp/plain.html" |
        sed -e 's/^<span class="lb-name">//; s/<\/span>$//' | unescape | paste -sd'|' -)
  if [ "$got" = "$expected" ]; then
    report 1 "rows as loaded" "$got"
  else
    report 0 "rows as loaded" "expected '$expected', got '$got'"
  fi
else
  report 0 "rows as loaded" "no DOM from chromium"
fi

# (b) and (c): the selftest hook.
if dump "$url?selftest=$(urlencode "$column")" "$tmp/selftest.html"; then
  awk '/<pre id="selftest-result">/ {on = 1; sub(/.*<pre id="selftest-result">/, "")}
       on { if (sub(/<\/pre>.*/, "")) { print; exit } print }' "$tmp/selftest.html" | unescape >"$tmp/result"
  order_line=$(grep -m1 '^order: ' "$tmp/result")
  errors_line=$(grep -m1 '^errors: ' "$tmp/result")
  if [ "$check_sorted" = 1 ]; then
    got=${order_line#order: }
    if [ -z "$order_line" ]; then
      report 0 "sorted by $column" "no 'order:' line in <pre id=\"selftest-result\">"
    elif [ "$got" = "$expected_sorted" ]; then
      report 1 "sorted by $column" "$got"
    else
      report 0 "sorted by $column" "expected '$expected_sorted', got '$got'"
    fi
  fi
  if [ "$errors_line" = "errors: 0" ]; then
    report 1 "no errors" "$errors_line"
  else
    report 0 "no errors" "${errors_line:-no 'errors:' line in <pre id=\"selftest-result\">}"
    grep '^error: ' "$tmp/result" | sed 's/^/    /'
  fi
else
  [ "$check_sorted" = 1 ] && report 0 "sorted by $column" "no DOM from chromium"
  report 0 "no errors" "no DOM from chromium"
fi

echo "$passes passed, $fails failed"
[ $fails -eq 0 ]
