#!/usr/bin/env bash
# Runs the shared-memory probe (tests/data/h200/smem: gpubench --smem-per-block, measured by
# scripts/device_heldout.sh smem and smem256) through `cachesim compare`, one run per probe, shared
# memory and model, into DIR/{preset_rule,preset,cycles_gto,cycles_no_lrc}_PROBE_S.{csv,txt}:
#
#   preset_rule    the h200 preset, its L1 what the model's carve-out rule leaves for the row's
#                  smem_per_block (the smallest carve-out that holds the resident blocks' shared memory)
#   preset         the h200 preset with the L1 the driver's carve-out left, as Nsight Compute
#                  reported it for the block size and shared memory (carveout.csv: --gpu l1-size)
#   cycles_gto     the same L1, cycle timing, greedy then oldest, one wait per burst
#   cycles_no_lrc  that with each loop's measured issue cost and no L2 request coalescer
#
#   scripts/smem_probe_report.sh [--jobs N] [--out DIR] [PROBE ...]     (DIR: tests/data/h200/smem/compare)
#
# PROBE: matmul and stencil (block 128, smem_{matmul,stencil}.csv) and matmul256 (block 256,
# smem256_matmul.csv); all by default. Nothing is fitted on these rows. --jobs: rows simulated at
# once per compare run (default 3; the runs go in parallel, so give a machine of about 16 x N
# cores a probe, or expect about half a CPU hour a probe). The cachesim binary is $CACHESIM_BIN,
# else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=3 out=tests/data/h200/smem/compare probes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    matmul|stencil|matmul256) probes+=("$1"); shift ;;
    *) echo "smem_probe_report: unknown option or probe $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#probes[@]} -gt 0 ] || probes=(matmul stencil matmul256)
mkdir -p "$out"
data=tests/data/h200/smem
# The L1 the driver left at a block size and shared memory: 256 KiB less the carve-out it took
# (launch__shared_mem_config_size).
chip_l1() {
  python3 - "$data/carveout.csv" "$1" "$2" <<'EOF'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    if (int(row["launch__block_size"].replace(",", "")) == int(sys.argv[2])
            and int(row["launch__shared_mem_per_block_dynamic"].replace(",", "")) == int(sys.argv[3])):
        print(256 * 1024 - int(row["launch__shared_mem_config_size"].replace(",", "")))
        break
else:
    sys.exit("smem_probe_report: no carve-out measured for block %s, %s bytes" % (sys.argv[2], sys.argv[3]))
EOF
}
gto=(--gpu timing=cycles --gpu warp-scheduler=gto --gpu load-gates=burst)
no_lrc=("${gto[@]}" --gpu issue-cycles=auto --gpu lrc-hit-cycles=0 --gpu lrc-miss-cycles=0)
run() {  # NAME PROBE FILE SMEM compare-options...
  local name=$1 probe=$2 file=$3 smem=$4
  shift 4
  "$bin" compare --measured "$data/$file" --where "smem_per_block=$smem" --plot none --no-progress \
    -j "$jobs" "$@" --out "$out/${name}_${probe}_$smem.csv" >"$out/${name}_${probe}_$smem.txt" 2>&1 &
}
for probe in "${probes[@]}"; do
  case $probe in
    matmul256) file=smem256_matmul.csv block=256 sizes="0 11264 16384 24576" ;;
    *) file=smem_$probe.csv block=128 sizes="0 5120 11264" ;;
  esac
  for smem in $sizes; do
    l1=$(chip_l1 "$block" "$smem")
    run preset_rule "$probe" "$file" "$smem"
    run preset "$probe" "$file" "$smem" --gpu "l1-size=$l1"
    run cycles_gto "$probe" "$file" "$smem" --gpu "l1-size=$l1" "${gto[@]}"
    run cycles_no_lrc "$probe" "$file" "$smem" --gpu "l1-size=$l1" "${no_lrc[@]}"
  done
done
failed=0
for p in $(jobs -p); do wait "$p" || failed=1; done
[ $failed -eq 0 ] || { echo "smem_probe_report: a compare run failed (see $out/*.txt)" >&2; exit 1; }
echo "smem_probe_report: $(ls "$out"/*.csv | wc -l) joined CSVs in $out"
