#!/usr/bin/env bash
# Runs the compilation probes (the 768^3 matmul of every compilation, in no validation set:
# tests/data/h200/drift_probe/drift_probe_matmul.csv, from `scripts/device_heldout.sh drift`)
# through `cachesim compare` under the GPU model's timings, each row simulated with its own
# compilation, writing tests/data/h200/drift_probe/compare/MODEL.{csv,txt} for docs/model-studies.md;
# and, for the models marked (*), the depth probes of the 32-bit build (the 768^2 matmul at
# depths 384, 1536, 3072 and the 1536x768 one, also in no set: depth_probe/depth_probe_matmul.csv,
# from `scripts/device_heldout.sh depth`) into tests/data/h200/depth_probe/compare/MODEL.{csv,txt}:
#
#   preset (*)  the h200 preset (rounds; rates drawn afresh every 32 requests, spread 0.15, blocks
#               starting 0..8 turns late: fitted on the training matmul and these probes' index64 rows;
#               the index32 build's warps oldest first, a group of 12 and each warp behind it at 0.863
#               times the one before: measured from the knee probe's warp ends)
#   redraw_0.3  rates drawn afresh at spread 0.3 with a block start skip of 1 (the spread chosen on
#               the training set alone); this and the next three weigh no warp by its age
#   fixed_0.05  each warp keeping its first rate, at the spread that fits the training set so
#               (0.05), block start skip 1
#   redraw_0.6, redraw_1.0   redraw_0.3 with wider spreads (how a uniform drift moves each schedule)
#   no_age_weight (*)   the preset with no warp weighed by its age (--gpu warp-age-weight=1)
#   first_form (*)  the preset with every older warp weighing 0.95 (--gpu warp-age-group=1 --gpu
#               warp-age-weight=0.95: the weight's first form, fitted on these probes' index32 rows),
#               on the index32 rows only (the explicit weight would weigh every compilation)
#   cycles_gto (*)  cycle timing, greedy then oldest, the measured issue cost per compilation
#   cycles_gto_lat650 (*)  the same with an L1 miss taking 650 cycles, the latency at which a lone
#               warp of the knee probe takes as long per request as on the chip
#
#   scripts/drift_probe_report.sh [--jobs N] [MODEL ...]
#
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim. About 35 CPU minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
. scripts/report_common.sh
report_args drift_probe_report models "$@"
[ ${#models[@]} -gt 0 ] || models=(preset redraw_0.3 fixed_0.05 redraw_0.6 redraw_1.0 cycles_gto no_age_weight
                                     cycles_gto_lat650 first_form)
require_cachesim drift_probe_report
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
# compare_probe DIR FILE: compare's report and joined CSV for $model on DIR/FILE, into DIR/compare/.
compare_probe() {
  mkdir -p "$1/compare"
  "$bin" compare --preset h200 --measured "probe=$1/$2" --skip-invalid-rows "${options[@]}" "${parallel[@]}" ${3:+--rows "$3"} \
    --no-progress --plot none --out "$1/compare/$model.csv" > "$1/compare/$model.txt.new"
  mv "$1/compare/$model.txt.new" "$1/compare/$model.txt"
}
for model in "${models[@]}"; do
  case "$model" in
    preset) options=() ;;
    fixed_*) options=(--gpu warp-rate-redraw=0 --gpu "warp-rate-spread=${model#fixed_}" --gpu block-start-skip=1
                      --gpu warp-age-weight=1 --gpu miss-wait-turns=0) ;;
    redraw_*) options=(--gpu warp-rate-redraw=32 --gpu "warp-rate-spread=${model#redraw_}" --gpu block-start-skip=1
                       --gpu warp-age-weight=1 --gpu miss-wait-turns=0) ;;
    cycles_gto) options=(--gpu timing=cycles --gpu warp-scheduler=gto --gpu issue-cycles=auto) ;;
    cycles_gto_lat650) options=(--gpu timing=cycles --gpu warp-scheduler=gto --gpu issue-cycles=auto
                                --gpu lat-l1-miss=650) ;;
    no_age_weight) options=(--gpu warp-age-weight=1 --gpu miss-wait-turns=0) ;;
    first_form) options=(--gpu warp-age-group=1 --gpu warp-age-weight=0.95 --gpu miss-wait-turns=0) ;;
    *) echo "drift_probe_report: unknown model $model (preset, fixed_S, redraw_S, cycles_gto, cycles_gto_lat650, no_age_weight, first_form)" >&2
       exit 2 ;;
  esac
  echo "drift_probe_report: $model" >&2
  # first_form weighs every row it runs: the compilation probes' index32 rows (11-20) alone
  compare_probe tests/data/h200/drift_probe drift_probe_matmul.csv "$([ "$model" = first_form ] && echo 11-20)"
  case "$model" in preset|no_age_weight|cycles_gto|cycles_gto_lat650|first_form)
    compare_probe tests/data/h200/depth_probe depth_probe_matmul.csv ;;
  esac
done
