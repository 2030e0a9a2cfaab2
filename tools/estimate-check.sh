#!/usr/bin/env bash
# The GPU estimate's validation (issue 60): for each GPU problem, every AC file of problems/<slug>/submissions/AC/
# and its reference solutions (solutions/baseline.cu, fast.cu) graded twice: under CPU emulation (--emulate: the
# estimated time of the largest performance case, emulation.estimate.seconds) and on the GPU (the measured median
# of that case, bench[].median_s, the judge's clock as the estimate models it). Then per problem the Spearman rank
# correlation between estimated and measured times, the share of file pairs the two order the same way, and the
# median |log2(estimate / measured)|, and the same over all files, written to bench/results/estimate-<gpu>.md
# (commit it).
#   tools/estimate-check.sh [SLUG...]     (default: every GPU problem)
# Settings (environment): PHASES, the phases to run, default "estimate measure table": estimate (CPU emulation
# only, anywhere: OUT/NAME.emulated-MODEL.json), measure (on the GPU: OUT/NAME.measured.json, a file already
# measured is kept, so a measure cut short goes on where it stopped), table (both joined; needs the GPU's name,
# from nvidia-smi or GPU). MODEL: h100-sxm|h200, default from the GPU's name. OUT: the reports' folder. JOBS: the
# emulated grades at once, default every CPU.
set -uo pipefail
cd "$(dirname "$0")/.."
judge=${HPCJUDGE_BUILD:-$PWD/build}/judge/hpcjudge
[ -x "$judge" ] || { echo "no judge at $judge: build first (tools/gpu-check.sh build)"; exit 2; }
slugs=${*:-"vector-add softmax-gpu matmul-gpu shared-memory-fix flash-attention rle-compress rle-decompress prefix-sum reduction merge spmv bfs"}
phases=${PHASES:-estimate measure table}
gpu=${GPU:-$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)}
case " $phases " in *" measure "* | *" table "*)
  [ -n "$gpu" ] || { echo "no GPU here (nvidia-smi names none): the measured side needs one (or GPU=NAME for the table)"; exit 2; } ;;
esac
model=${MODEL:-h100-sxm}
case "$gpu" in *H200*) model=${MODEL:-h200} ;; esac
out=${OUT:-$PWD/estimate-check}
mkdir -p "$out"
files=()
for slug in $slugs; do
  for f in problems/$slug/submissions/AC/*.cu problems/$slug/solutions/baseline.cu problems/$slug/solutions/fast.cu; do
    [ -f "$f" ] && files+=("$slug $f")
  done
done
name_of() { echo "$1-$(basename "$(dirname "$2")")-$(basename "$2" .cu)"; }
export judge model out
export -f name_of
# The estimates JOBS at once (CPU emulation only: the GPU is idle), then the measured grades one at a time, each
# alone on the machine as a grade is timed.
case " $phases " in *" estimate "*)
  printf '%s\n' "${files[@]}" | xargs -P "${JOBS:-$(nproc)}" -L 1 bash -c \
    'n=$(name_of "$0" "$1"); "$judge" "$0" "$1" --emulate --model "$model" --json "$out/$n.emulated-$model.json" >"$out/$n.emulated-$model.txt" 2>&1' ;;
esac
case " $phases " in *" measure "*)
  for entry in "${files[@]}"; do
    read -r slug f <<<"$entry"
    name=$(name_of "$slug" "$f")
    [ -s "$out/$name.measured.json" ] && continue
    # Without the fast reference timed beside each run: the file's own median is what is compared.
    "$judge" "$slug" "$f" --no-side-by-side --json "$out/$name.measured.json.part" >"$out/$name.measured.txt" 2>&1
    mv "$out/$name.measured.json.part" "$out/$name.measured.json" 2>/dev/null
    echo "$name: $(grep -o 'score .*' "$out/$name.measured.txt" | head -1)"
  done ;;
esac
case " $phases " in *" table "*) ;; *) exit 0 ;; esac
table=bench/results/estimate-$(echo "$gpu" | tr 'A-Z ' 'a-z-' | tr -cd 'a-z0-9-').md
rows=$out/rows.tsv left=$out/left-out.txt
: >"$rows"
: >"$left"
for entry in "${files[@]}"; do
  read -r slug f <<<"$entry"
  name=$(name_of "$slug" "$f")
  python3 - "$out/$name.emulated-$model.json" "$out/$name.measured.json" "$slug" "$f" >>"$rows" <<'PY'
import json, sys
emulated, measured_file, slug, f = sys.argv[1:5]

def load(path, side):
    try:
        return json.load(open(path))
    except (OSError, ValueError) as x:
        sys.exit(print(f"{f}: no {side} report ({x.__class__.__name__})", file=sys.stderr))

r = load(emulated, "emulated")
e = (r.get("emulation") or {}).get("estimate") or {}
if e.get("seconds") is None:
    sys.exit(print(f"{f}: no estimate ({r.get('verdict')} under emulation; {e.get('note') or 'none made'})", file=sys.stderr))
m = load(measured_file, "measured")
times = [b.get("median_s") for b in m.get("bench") or [] if b.get("name") == e.get("modelled_case")]
if not times or times[0] is None:
    sys.exit(print(f"{f}: no measured time for {e.get('modelled_case')} ({m.get('verdict')} on the GPU)", file=sys.stderr))
bound = ",".join(sorted({k["bound"] for k in e["kernels"]}))
print(f"{slug}\t{f}\t{e['modelled_case']}\t{float(e['seconds'])}\t{float(times[0])}\t{bound}")
PY
done 2>"$left"
cat "$left" >&2
python3 - "$rows" "$table" "$gpu" "$model" "$left" "${ESTIMATE_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "a copy without git")}" <<'PY'
import datetime, math, statistics, sys
rows_file, table, gpu, model, left, commit = sys.argv[1:7]
rows = [l.rstrip("\n").split("\t") for l in open(rows_file) if l.strip()]
rows = [(s, f, c, float(e), float(m), b) for s, f, c, e, m, b in rows]

def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r

def spearman(es, ms):
    if len(es) < 3:
        return None
    a, b = ranks(es), ranks(ms)
    ma, mb = statistics.mean(a), statistics.mean(b)
    num = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    den = math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))
    return num / den if den else None

def same_order(es, ms):
    pairs = same = 0
    for i in range(len(es)):
        for j in range(i + 1, len(es)):
            if ms[i] == ms[j]:
                continue
            pairs += 1
            same += (es[i] - es[j]) * (ms[i] - ms[j]) > 0
    return (same, pairs)

def fmt(x, f="{:.2f}"):
    return "-" if x is None else f.format(x)

lines = [f"# The GPU estimate against the GPU: {gpu}", "",
         f"tools/estimate-check.sh at {commit}, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, model `{model}`: "
         "each file's estimated time (judge --emulate, emulation.estimate.seconds) against its measured median on "
         "this GPU (the judge's clock), on the problem's largest performance case. Goal (issue 60): rank correlation "
         ">= 0.8 over all files, >= 80% of pairs ordered the same way within every problem, median error within 2x "
         "(|log2| <= 1) on the memory-bound problems.", "",
         "| problem | files | Spearman | pairs ordered the same | median abs log2(est/meas) |",
         "| --- | ---: | ---: | ---: | ---: |"]
for slug in dict.fromkeys(r[0] for r in rows):
    rs = [r for r in rows if r[0] == slug]
    es, ms = [r[3] for r in rs], [r[4] for r in rs]
    same, pairs = same_order(es, ms)
    err = statistics.median(abs(math.log2(e / m)) for e, m in zip(es, ms))
    share = f"{same}/{pairs} ({100 * same / pairs:.0f}%)" if pairs else "-"
    lines.append(f"| {slug} | {len(rs)} | {fmt(spearman(es, ms))} | {share} | {err:.2f} |")
es, ms = [r[3] for r in rows], [r[4] for r in rows]
if rows:
    same, pairs = same_order(es, ms)
    err = statistics.median(abs(math.log2(e / m)) for e, m in zip(es, ms))
    lines.append(f"| all | {len(rows)} | {fmt(spearman(es, ms))} | {same}/{pairs} ({100 * same / max(pairs, 1):.0f}%) | {err:.2f} |")
lines += ["", "| problem | file | case | estimated ms | measured ms | est/meas | bound (model) |",
          "| --- | --- | --- | ---: | ---: | ---: | --- |"]
for s, f, c, e, m, b in rows:
    lines.append(f"| {s} | {f.split('/', 2)[2]} | {c} | {1e3 * e:.3f} | {1e3 * m:.3f} | {e / m:.2f} | {b} |")
left_out = [l.strip() for l in open(left) if l.strip()]
if left_out:
    lines += ["", "Left out (no estimate, or no measured time for the modelled case):", ""] + [f"- {l}" for l in left_out]
open(table, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
print(f"written: {table}")
PY
