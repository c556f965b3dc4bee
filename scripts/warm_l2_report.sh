#!/usr/bin/env bash
# The L2's start against the GPU model: the warm probes (tests/data/h200/warm_l2/, from
# `scripts/device_heldout.sh warm`: the same launches measured with a cold L2 and with their
# arrays already in it) through `cachesim compare`, writing tests/data/h200/warm_l2/compare/MODEL.{csv,txt}:
#
# compare simulates each row with the L2 start it was measured with (its l2_start column:
# --l2-start warm runs the launch once unmeasured first).
#
#   preset        the h200 preset, on both files (the rounds have no latencies: the L1 is one
#                 prediction for both starts; the L2 and DRAM counts are each start's)
#   cycles_cold   cycle timing (greedy then oldest, the measured issue cost) with a launch's first
#                 reads waiting for DRAM (--lat-dram 691, the median DRAM read l2probe measures), on the cold file
#   cycles_warm   the same, on the warm file: its launches find their arrays in the L2, so no miss
#                 waits for DRAM (every L1 miss an L2 hit, 291 cycles)
#   training      the h200 preset on the training launches measured cold and warm
#                 (warm_training_{cold,warm}.csv, `scripts/device_heldout.sh warm_training`)
#   training_cycles_cold, training_cycles_warm   cycle timing as cycles_cold and cycles_warm, on
#                 the training matmul measured cold and warm
#
#   scripts/warm_l2_report.sh [--jobs N] [MODEL ...]
#
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
dir=tests/data/h200/warm_l2
. scripts/report_common.sh
report_args warm_l2_report models "$@"
[ ${#models[@]} -gt 0 ] || models=(preset cycles_cold cycles_warm training training_cycles_cold training_cycles_warm)
require_cachesim warm_l2_report
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
cycles=(--gpu timing=cycles --gpu warp-scheduler=gto --gpu issue-cycles=auto --gpu lat-dram=691)
mkdir -p "$dir/compare"
for model in "${models[@]}"; do
  case "$model" in
    preset) measured=(--measured "cold=$dir/warm_probe_cold.csv" --measured "warm=$dir/warm_probe_warm.csv"); options=() ;;
    cycles_cold) measured=(--measured "cold=$dir/warm_probe_cold.csv"); options=("${cycles[@]}") ;;
    cycles_warm) measured=(--measured "warm=$dir/warm_probe_warm.csv"); options=("${cycles[@]}") ;;
    training) measured=(--measured "cold=$dir/warm_training_cold.csv" --measured "warm=$dir/warm_training_warm.csv")
              options=() ;;
    training_cycles_cold) measured=(--measured "cold=$dir/warm_training_cold.csv" --where kernel=matmul)
                          options=("${cycles[@]}") ;;
    training_cycles_warm) measured=(--measured "warm=$dir/warm_training_warm.csv" --where kernel=matmul)
                          options=("${cycles[@]}") ;;
    *) echo "warm_l2_report: unknown model $model (preset, cycles_cold, cycles_warm, training, training_cycles_cold," \
            "training_cycles_warm)" >&2; exit 2 ;;
  esac
  echo "warm_l2_report: $model" >&2
  "$bin" compare --preset h200 "${measured[@]}" --skip-invalid-rows "${options[@]}" "${parallel[@]}" --no-progress --plot none \
    --out "$dir/compare/$model.csv" > "$dir/compare/$model.txt.new"
  mv "$dir/compare/$model.txt.new" "$dir/compare/$model.txt"
done
