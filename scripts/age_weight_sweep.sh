#!/usr/bin/env bash
# How the compilation probes move with the warp age weight that the h200 and h100 presets give
# loops a pipe limits (--warp-age-weight auto), the preset's measured group of 12 kept: for each
# weight W, the model with --warp-age-weight W (every other parameter the preset's) on
#
#   the 10 index32 768^3 compilation probes (rows 11-20 of tests/data/h200/drift_probe/drift_probe_matmul.csv)
#
# into tests/data/h200/age_weight_sweep/probe_wW.csv (cachesim compare's joined CSVs), which
# scripts/make_docs.sh tabulates in docs/model-studies.md ("Loops bound by their instructions"). The
# presets' weight is measured from the chip's warp ends (scripts/warp_age_measure.py), not taken
# from this sweep.
#
#   scripts/age_weight_sweep.sh [--jobs N] [W ...]
#
# Default weights: the grid in the docs. About half a CPU minute a weight; the cachesim binary is
# $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
. scripts/report_common.sh
report_args age_weight_sweep weights "$@"
[ ${#weights[@]} -gt 0 ] || weights=(0.5 0.7 0.8 0.85 0.86 0.863 0.87 0.88 0.89 0.9 0.91 0.92 0.93 0.94 0.95 0.96 0.97 1)
require_cachesim age_weight_sweep
dir=tests/data/h200/age_weight_sweep
mkdir -p "$dir"
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
for weight in "${weights[@]}"; do
  echo "age_weight_sweep: weight $weight" >&2
  "$bin" compare --preset h200 --gpu "warp-age-weight=$weight" \
    --measured probe=tests/data/h200/drift_probe/drift_probe_matmul.csv --rows 11-20 --skip-invalid-rows \
    "${parallel[@]}" --no-progress --plot none --out "$dir/probe_w$weight.csv" > /dev/null
done
