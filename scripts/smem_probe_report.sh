#!/usr/bin/env bash
# Runs the shared-memory probe (tests/data/h200/smem: gpubench --smem-per-block 0, 5120 and 11264,
# measured by scripts/device_heldout.sh smem) through `cachesim compare`, one run per kernel, shared
# memory and model, into DIR/{preset_rule,preset,cycles_gto,cycles_no_lrc}_{matmul,stencil}_S.{csv,txt}:
#
#   preset_rule    the h200 preset, its L1 what the model's carve-out rule leaves for the row's
#                  smem_per_block (the smallest carve-out that holds the resident blocks' shared memory)
#   preset         the h200 preset with the L1 the driver's carve-out left, as Nsight Compute
#                  reported it (smem_carveout.csv: 32, 132 and 196 KiB of the 256 KiB: --gpu l1-size)
#   cycles_gto     the same L1, cycle timing, greedy then oldest, one wait per burst
#   cycles_no_lrc  that with each loop's measured issue cost and no L2 request coalescer
#
#   scripts/smem_probe_report.sh [--jobs N] [--out DIR]     (DIR: tests/data/h200/smem/compare)
#
# Nothing is fitted on these rows. --jobs: rows simulated at once per compare run (default 3; the
# 24 runs go in parallel, so give a machine of about 24 x N cores, or expect about 1.5 CPU hours).
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=3 out=tests/data/h200/smem/compare
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "smem_probe_report: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
mkdir -p "$out"
data=tests/data/h200/smem
# The L1 the driver left: 256 KiB less the carve-out it took (launch__shared_mem_config_size).
chip_l1() {
  python3 - "$data/smem_carveout.csv" "$1" <<'EOF'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    if int(row["launch__shared_mem_per_block_dynamic"].replace(",", "")) == int(sys.argv[2]):
        print(256 * 1024 - int(row["launch__shared_mem_config_size"].replace(",", "")))
        break
else:
    sys.exit("smem_probe_report: no carve-out measured for " + sys.argv[2])
EOF
}
gto=(--gpu timing=cycles --gpu warp-scheduler=gto --gpu load-gates=burst)
no_lrc=("${gto[@]}" --gpu issue-cycles=auto --gpu lrc-hit-cycles=0 --gpu lrc-miss-cycles=0)
run() {  # NAME KERNEL SMEM compare-options...
  local name=$1 kernel=$2 smem=$3
  shift 3
  "$bin" compare --measured "$data/smem_$kernel.csv" --where "smem_per_block=$smem" --plot none --no-progress \
    -j "$jobs" "$@" --out "$out/${name}_${kernel}_$smem.csv" >"$out/${name}_${kernel}_$smem.txt" 2>&1 &
}
for kernel in matmul stencil; do
  for smem in 0 5120 11264; do
    l1=$(chip_l1 "$smem")
    run preset_rule "$kernel" "$smem"
    run preset "$kernel" "$smem" --gpu "l1-size=$l1"
    run cycles_gto "$kernel" "$smem" --gpu "l1-size=$l1" "${gto[@]}"
    run cycles_no_lrc "$kernel" "$smem" --gpu "l1-size=$l1" "${no_lrc[@]}"
  done
done
failed=0
for p in $(jobs -p); do wait "$p" || failed=1; done
[ $failed -eq 0 ] || { echo "smem_probe_report: a compare run failed (see $out/*.txt)" >&2; exit 1; }
echo "smem_probe_report: $(ls "$out"/*.csv | wc -l) joined CSVs in $out"
