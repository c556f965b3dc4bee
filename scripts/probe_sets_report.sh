#!/usr/bin/env bash
# Runs the h200 preset, changed by --gpu options, over the H200's probe files, which are in no
# validation set, through `cachesim compare`, each into
# DIR/PROBE.{csv,txt} with the measured files named as in the presets' own report of that probe
# (so that rows compare line by line). The shared-memory probes have their own script with its own
# models (scripts/smem_probe_report.sh):
#
#   compilation  tests/data/h200/drift_probe/drift_probe_matmul.csv, the 768^3 matmul of every
#                compilation (the presets' skip and spread were fitted on its index64 rows, so a
#                comparison leaves those out); the presets': drift_probe/compare/preset.csv
#   depth        depth_probe/depth_probe_matmul.csv; the presets': depth_probe/compare/preset.csv
#   warm         warm_l2/warm_probe_{cold,warm}.csv; the presets': warm_l2/compare/preset.csv
#   waves, waves_unroll1, strip, strip_blocks
#                waves/waves_probe_matmul.csv, waves_probe_unroll1_matmul.csv, waves_strip_matmul.csv,
#                waves_strip_blocks_matmul.csv; the presets': waves/waves_probe_compare.csv,
#                waves_probe_unroll1_compare.csv, waves_strip_compare.csv, waves_strip_blocks_compare.csv
#   examples     examples.csv, the example kernels replayed from their traces
#                (scripts/record_examples.sh writes them); the presets': examples_compare.csv
#
#   scripts/probe_sets_report.sh --gpu KEY=VALUE [--gpu ...] --out DIR [--jobs N] [PROBE ...]
#
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim. About 40 CPU minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=0 out="" gpu_options=() probes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --gpu) gpu_options+=(--gpu "$2"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "probe_sets_report: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) probes+=("$1"); shift ;;
  esac
done
all_probes=(compilation depth warm waves waves_unroll1 strip strip_blocks examples)
[ ${#probes[@]} -gt 0 ] || probes=("${all_probes[@]}")
for p in "${probes[@]}"; do
  [[ " ${all_probes[*]} " == *" $p "* ]] ||
    { echo "probe_sets_report: unknown probe $p (${all_probes[*]})" >&2; exit 2; }
done
if [ -z "$out" ] || [ ${#gpu_options[@]} -eq 0 ]; then
  echo "probe_sets_report: give --out DIR and at least one --gpu KEY=VALUE (the presets' own runs are the probes' reports)" >&2
  exit 2
fi
. scripts/report_common.sh
require_cachesim probe_sets_report
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
d=tests/data/h200
mkdir -p "$out"
# compare_into NAME MEASURED...: the report renamed into place once it is complete
compare_into() {
  local name=$1
  shift
  echo "probe_sets_report: $name" >&2
  "$bin" compare --preset h200 "$@" --skip-invalid-rows "${gpu_options[@]}" "${parallel[@]}" --no-progress --plot none \
    --out "$out/$name.csv" > "$out/$name.txt.part"
  mv "$out/$name.txt.part" "$out/$name.txt"
}
for p in "${probes[@]}"; do
  case "$p" in
    compilation) compare_into "$p" --measured "probe=$d/drift_probe/drift_probe_matmul.csv" ;;
    depth) compare_into "$p" --measured "probe=$d/depth_probe/depth_probe_matmul.csv" ;;
    warm) compare_into "$p" --measured "cold=$d/warm_l2/warm_probe_cold.csv" --measured "warm=$d/warm_l2/warm_probe_warm.csv" ;;
    waves) compare_into "$p" --measured "waves=$d/waves/waves_probe_matmul.csv" ;;
    waves_unroll1) compare_into "$p" --measured "waves_unroll1=$d/waves/waves_probe_unroll1_matmul.csv" ;;
    strip) compare_into "$p" --measured "strips=$d/waves/waves_strip_matmul.csv" ;;
    strip_blocks) compare_into "$p" --measured "strip_blocks=$d/waves/waves_strip_blocks_matmul.csv" ;;
    examples) compare_into "$p" --measured "$d/examples.csv" ;;
  esac
done
