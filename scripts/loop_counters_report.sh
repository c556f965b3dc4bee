#!/usr/bin/env bash
# The loop's own counters against the H200's table of gpubench's loops: the training and held-out
# launches measured with the loop's counters beside the fidelity metrics (tests/data/h200/loop/,
# from `scripts/device_heldout.sh loop`: gpubench --metrics ...,loop, one profiled launch each)
# through `cachesim compare` (rows whose L2 hits exceed their lookups left out: one profiled launch a
# metric group, so they come from different launches), writing tests/data/h200/loop/compare/MODEL.{csv,txt}:
#
#   own           every row with its own counters (compare's default for rows that carry them)
#   table         the same rows with --ignore-loop-counters: gpubench's loops as the table has them
#   unnamed_own   the held-out 32-bit and unrolled-once matmuls without their variant column, as a
#                 kernel compiled some way the table does not know: with their own counters
#   unnamed_table the same rows without the counters either: the table's 64-bit loop
#   o1            gpubench built with ptxas at -O1 (loop_o1_matmul.csv, `scripts/device_heldout.sh
#                 loop_o1`), a compilation the table does not know, with its own counters and the
#                 table's burst for its variant (32 loads an iteration for index64 and index32)
#   o1_burst8_index64, o1_burst8_index32   the same compilations with the burst their SASS gives
#                 (sass_loads_o1.txt: the unrolled loop's 8 loads, --gpu issue-burst=8; the
#                 unrolled-once loop keeps its 2)
#
#   scripts/loop_counters_report.sh [--jobs N] [MODEL ...]
#
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
dir=tests/data/h200/loop
. scripts/report_common.sh
report_args loop_counters_report models "$@"
[ ${#models[@]} -gt 0 ] || models=(own table unnamed_own unnamed_table o1 o1_burst8_index64 o1_burst8_index32)
require_cachesim loop_counters_report
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The held-out 32-bit and unrolled-once matmuls with their variant column emptied.
python3 - "$dir/loop_heldout_matmul.csv" "$tmp/unnamed_matmul.csv" <<'PY'
import csv, sys
with open(sys.argv[1]) as f:
    rows = list(csv.DictReader(f))
with open(sys.argv[2], "w", newline="") as f:
    # the compilation goes to the set column, so that the report still gives each its own table
    out = csv.DictWriter(f, fieldnames=list(rows[0]) + ["set"], lineterminator="\n")
    out.writeheader()
    for r in rows:
        if r["variant"] in ("index32", "unroll1"):
            out.writerow({**r, "variant": "", "set": "unnamed " + r["variant"]})
PY
all=(--measured "training=$dir/loop_training_stencil.csv" --measured "training=$dir/loop_training_matmul.csv"
     --measured "heldout=$dir/loop_heldout_stencil.csv" --measured "heldout=$dir/loop_heldout_matmul.csv")
mkdir -p "$dir/compare"
for model in "${models[@]}"; do
  case "$model" in
    own) measured=("${all[@]}"); options=() ;;
    table) measured=("${all[@]}"); options=(--ignore-loop-counters) ;;
    unnamed_own) measured=(--measured "unnamed=$tmp/unnamed_matmul.csv"); options=() ;;
    unnamed_table) measured=(--measured "unnamed=$tmp/unnamed_matmul.csv"); options=(--ignore-loop-counters) ;;
    o1) measured=(--measured "o1=$dir/loop_o1_matmul.csv"); options=() ;;
    o1_burst8_index64|o1_burst8_index32)
      measured=(--measured "o1=$dir/loop_o1_matmul.csv" --where "variant=${model#o1_burst8_}")
      options=(--gpu issue-burst=8) ;;
    *) echo "loop_counters_report: unknown model $model (own, table, unnamed_own, unnamed_table, o1," \
            "o1_burst8_index64, o1_burst8_index32)" >&2
       exit 2 ;;
  esac
  echo "loop_counters_report: $model" >&2
  "$bin" compare --preset h200 "${measured[@]}" --skip-invalid-rows "${options[@]}" "${parallel[@]}" --no-progress --plot none \
    --out "$dir/compare/$model.csv" > "$dir/compare/$model.txt.new"
  mv "$dir/compare/$model.txt.new" "$dir/compare/$model.txt"
done
