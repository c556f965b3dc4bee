#!/usr/bin/env bash
# The fit of the h200 preset's block start skip and warp rate spread: for each pair J:S, the model
# with --block-start-skip J and --warp-rate-spread S (every other parameter the preset's) on the
# fit set, which no held-out row is in:
#
#   the 27 training matmul launches (tests/data/h200/fidelity_matmul_spread21.csv)
#   the 10 index64 768^3 compilation probes (rows 1-10 of tests/data/h200/drift_probe/drift_probe_matmul.csv)
#
# into tests/data/h200/start_skip_fit/{train,probe}_sJ_S.csv (cachesim compare's joined CSVs), which
# scripts/make_docs.sh tabulates in docs/model-studies.md ("The block start skip and the rate spread").
#
#   scripts/start_skip_fit.sh [--jobs N] [--by-row] [--out DIR] [J:S ...]
#
# Default pairs: the grid in the docs. About 14 CPU minutes a pair (the training matmul dominates);
# the cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim. --jobs: rows simulated at
# once, one thread each. --by-row: every row of every pair its own compare run, all pairs' rows at
# once in --jobs processes (default: all cores), longest first, each file then merged in row order:
# the same CSVs, with no cores idle at the end of each file (the whole grid: about 5 CPU hours).
# --out DIR: write the CSVs there instead (each file is written whole, or not at all).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=0 pairs=() by_row= dir=tests/data/h200/start_skip_fit
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --by-row) by_row=1; shift ;;
    --out) case "$2" in /*) dir="$2" ;; *) dir="$caller/$2" ;; esac; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "start_skip_fit: unknown option $1 (see --help)" >&2; exit 2 ;;
    *:*) pairs+=("$1"); shift ;;
    *) echo "start_skip_fit: '$1' is not a pair SKIP:SPREAD (e.g. 8:0.15)" >&2; exit 2 ;;
  esac
done
[ ${#pairs[@]} -gt 0 ] || pairs=(1:0.3 4:0.2 4:0.25 8:0.15 8:0.2 8:0.25 16:0.1 16:0.15 16:0.2 16:0.3 32:0.1 32:0.2
                                 64:0.2 64:0.3 256:0.2 256:0.25 256:0.3 1024:0.1 1024:0.2 1024:0.25 1024:0.3)
if [ ! -x "$bin" ]; then
  echo "start_skip_fit: no cachesim binary at $bin (build with scripts/build.sh, or set CACHESIM_BIN)" >&2
  exit 2
fi
train=tests/data/h200/fidelity_matmul_spread21.csv
probe=tests/data/h200/drift_probe/drift_probe_matmul.csv
mkdir -p "$dir"

# compare on one fit file: SKIP SPREAD train|probe OUT [compare options...]
compare_fit() {
  local skip=$1 spread=$2 file=$3 out=$4
  shift 4
  local measured=(--measured "training=$train")
  [ "$file" = train ] || measured=(--measured "probe=$probe" --skip-invalid-rows)
  "$bin" compare --preset h200 --gpu "block-start-skip=$skip" --gpu "warp-rate-spread=$spread" "${measured[@]}" \
    "$@" --no-progress --plot none --out "$out" > /dev/null
}

if [ -z "$by_row" ]; then
  parallel=()
  [ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
  for pair in "${pairs[@]}"; do
    skip=${pair%%:*} spread=${pair#*:}
    echo "start_skip_fit: skip $skip, spread $spread" >&2
    compare_fit "$skip" "$spread" train "$dir/train_s${skip}_$spread.csv.new" "${parallel[@]}"
    compare_fit "$skip" "$spread" probe "$dir/probe_s${skip}_$spread.csv.new" --rows 1-10 "${parallel[@]}"
    mv "$dir/train_s${skip}_$spread.csv.new" "$dir/train_s${skip}_$spread.csv"
    mv "$dir/probe_s${skip}_$spread.csv.new" "$dir/probe_s${skip}_$spread.csv"
  done
  exit 0
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# one task a row: SKIP SPREAD FILE ROW, the largest launches first
python3 - "$train" "$probe" "${pairs[@]}" > "$work/tasks" <<'PY'
import csv, sys
sys.path.insert(0, "scripts")
from fidelity_rows import loads
train, probe, pairs = sys.argv[1], sys.argv[2], sys.argv[3:]
rows = lambda path: list(csv.DictReader(open(path, newline="")))
files = [("train", rows(train)), ("probe", rows(probe)[:10])]
tasks = [(loads(row, "matmul"), pair.replace(":", " "), name, index)
         for pair in pairs for name, file_rows in files for index, row in enumerate(file_rows, 1)]
for _, pair, name, index in sorted(tasks, key=lambda t: -t[0]):
    print(pair, name, index)
PY
n=$jobs
[ "$n" != 0 ] || n=$(nproc)
echo "start_skip_fit: $(wc -l < "$work/tasks") rows in $n processes" >&2
export -f compare_fit
export bin train probe work
xargs -P "$n" -L 1 bash -c 'compare_fit "$1" "$2" "$3" "$work/$1_$2_$3_$4.csv" --rows "$4" --jobs 1 --threads 1 ||
  { echo "start_skip_fit: skip $1 spread $2 $3 row $4 failed" >&2; exit 255; }' _ < "$work/tasks"
# each pair's files, their rows in order, written whole
for pair in "${pairs[@]}"; do
  skip=${pair%%:*} spread=${pair#*:}
  for file in train probe; do
    rows=$(awk -v f="$file" '$3 == f && $4 > m { m = $4 } END { print m }' "$work/tasks")
    target="$dir/${file}_s${skip}_$spread.csv"
    head -n 1 "$work/${skip}_${spread}_${file}_1.csv" > "$target.new"
    for row in $(seq 1 "$rows"); do tail -n +2 "$work/${skip}_${spread}_${file}_$row.csv" >> "$target.new"; done
    mv "$target.new" "$target"
  done
done
