#!/usr/bin/env bash
# The fit of the h200 preset's block start skip and warp rate spread: for each pair J:S, the model
# with --block-start-skip J and --warp-rate-spread S (every other parameter the preset's) on the
# fit set, which no held-out row is in:
#
#   the 27 training matmul launches (tests/data/h200/fidelity_matmul_spread21.csv)
#   the 10 index64 768^3 compilation probes (rows 1-10 of tests/data/h200/drift_probe/drift_probe_matmul.csv)
#
# into tests/data/h200/start_skip_fit/{train,probe}_sJ_S.csv (cachesim compare's joined CSVs), which
# scripts/make_docs.sh tabulates in docs/fidelity.md ("The block start skip and the rate spread").
#
#   scripts/start_skip_fit.sh [--jobs N] [J:S ...]
#
# Default pairs: the grid in the docs. About 14 CPU minutes a pair (the training matmul dominates);
# the cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=0 pairs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
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
dir=tests/data/h200/start_skip_fit
mkdir -p "$dir"
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
for pair in "${pairs[@]}"; do
  skip=${pair%%:*} spread=${pair#*:}
  # The fit is made with CUDA's occupancy rule for the carve-out (an L1 of 240 KiB at block 128, where
  # the presets' rule, the driver's, leaves 224): docs/fidelity.md, "Which carve-out the driver takes".
  options=(--gpu "block-start-skip=$skip" --gpu "warp-rate-spread=$spread" --gpu carveout-rule=occupancy)
  echo "start_skip_fit: skip $skip, spread $spread" >&2
  "$bin" compare --preset h200 "${options[@]}" --measured training=tests/data/h200/fidelity_matmul_spread21.csv \
    "${parallel[@]}" --no-progress --plot none --out "$dir/train_s${skip}_$spread.csv" > /dev/null
  "$bin" compare --preset h200 "${options[@]}" --measured probe=tests/data/h200/drift_probe/drift_probe_matmul.csv \
    --rows 1-10 --skip-invalid-rows "${parallel[@]}" --no-progress --plot none --out "$dir/probe_s${skip}_$spread.csv" > /dev/null
done
