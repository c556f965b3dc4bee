#!/usr/bin/env bash
# Runs the shared-memory probe (tests/data/h200/smem: gpubench --smem-per-block, measured by
# scripts/device_heldout.sh smem and smem256) through `cachesim compare`, one run per probe, shared
# memory and model, into
# DIR/{preset_rule,preset,per_warp,cycles_gto,cycles_no_lrc,lockstep_wait,block_rates,lockstep}_PROBE_S.{csv,txt}:
#
#   preset_rule    the h200 preset with CUDA's occupancy rule for the carve-out (--gpu
#                  carveout-rule=occupancy: the smallest carve-out that holds the resident blocks'
#                  shared memory), so an L1 other than the chip's where the driver took more
#   preset         the h200 preset: its carve-out rule takes the driver's carve-out in each of these
#                  launches (Nsight Compute's, carveout.csv), so its L1 is the chip's; below 224 KiB
#                  its warps draw one rate per block
#   per_warp       the h200 preset with a rate per warp and a block start skip of 8 at every L1
#                  and every occupancy (its form at the training launches' L1; no lock step where a
#                  scheduler keeps pace, --lockstep-warps 0)
#   cycles_gto     the same, cycle timing, greedy then oldest, one wait per burst
#   cycles_no_lrc  that with each loop's measured issue cost and no L2 request coalescer
#   lockstep_wait  the h200 preset's rounds in lock step (no rate spread), blocks starting up to 10
#                  turns apart and a warp whose request missed in L1 passed over on its next turn
#                  (the skip and the missed turn fitted on the training set: docs/model-studies.md,
#                  "Lock step and a missed turn")
#   block_rates    the h200 preset with one rate per block instead of per warp, blocks starting up
#                  to 4 turns apart (the skip fitted with it on the training set: docs/model-studies.md,
#                  "One rate per block"), at every occupancy (--lockstep-warps 0)
#   lockstep       the h200 preset's rounds in lock step: no rate spread and no block start skip, so
#                  an SM's blocks part only by the warp age weight and the waits for misses
#
# Every model but preset places the first wave by the slot cycle (--gpu cta-order=floorplan).
#
#   scripts/smem_probe_report.sh [--jobs N] [--out DIR] [--model NAME ...] [PROBE ...]
#
# DIR: tests/data/h200/smem/compare; --model: only these models (default: all eight).
#
# PROBE: matmul and stencil (block 128, smem_{matmul,stencil}.csv), matmul256 (block 256,
# smem256_matmul.csv), and the second set, measured after the first had been compared with the
# models (scripts/device_heldout.sh smem2): smem2 (smem2_matmul.csv: 1536^3 at block 96, 1024^2
# at depth 512, block 128, 2048^2 at depth 1024, block 256) and smem2_stencil (smem2_stencil.csv);
# and smem_waves (smem_waves_matmul.csv: the 1024-wide matmul at depth 1024 over 1 to 32 waves,
# blocks 128 and 256 with an L1 of 60 KiB) and eight_blocks (eight_blocks_matmul.csv: the 1024^2
# and 1024x2816 matmul at block 128 with eight blocks an SM and an L1 of 28 KiB); all by default.
# Nothing is fitted on these rows. --jobs: rows simulated at once per compare run (default 3; the runs go in parallel, so give a machine of about 16 x N
# cores a probe, or expect about half a CPU hour a probe). The cachesim binary is $CACHESIM_BIN,
# else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=3 out=tests/data/h200/smem/compare probes=() models=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --model) models+=("$2"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    matmul|stencil|matmul256|smem2|smem2_stencil|smem_waves|eight_blocks) probes+=("$1"); shift ;;
    *) echo "smem_probe_report: unknown option or probe $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#probes[@]} -gt 0 ] || probes=(matmul stencil matmul256 smem2 smem2_stencil smem_waves eight_blocks)
# Each model's compare options (words without spaces), in the order of the docs' columns.
all_models=(preset_rule preset per_warp cycles_gto cycles_no_lrc lockstep_wait block_rates lockstep)
gto="--gpu timing=cycles --gpu warp-scheduler=gto --gpu load-gates=burst"
# The models beside the preset place the first wave by the slot cycle, as their committed runs do;
# the preset's own first wave is the measured turns.
slot="--gpu cta-order=floorplan"
declare -A model_options=(
  [preset_rule]="$slot --gpu carveout-rule=occupancy"
  [preset]=""
  [per_warp]="$slot --gpu warp-rate-scope=warp --gpu block-start-skip=8 --gpu lockstep-warps=0"
  [cycles_gto]="$slot $gto"
  [cycles_no_lrc]="$slot $gto --gpu issue-cycles=auto --gpu lrc-hit-cycles=0 --gpu lrc-miss-cycles=0"
  [lockstep_wait]="$slot --gpu warp-rate-spread=0 --gpu block-start-skip=10 --gpu miss-wait-turns=1"
  [block_rates]="$slot --gpu warp-rate-scope=block --gpu block-start-skip=4 --gpu lockstep-warps=0"
  [lockstep]="$slot --gpu warp-rate-spread=0 --gpu block-start-skip=0"
)
[ ${#models[@]} -gt 0 ] || models=("${all_models[@]}")
for name in "${models[@]}"; do
  [[ -v model_options[$name] ]] ||
    { echo "smem_probe_report: unknown model $name (${all_models[*]})" >&2; exit 2; }
done
mkdir -p "$out"
data=tests/data/h200/smem
run() {  # NAME PROBE FILE SMEM compare-options...
  local name=$1 probe=$2 file=$3 smem=$4
  shift 4
  "$bin" compare --measured "$data/$file" --where "smem_per_block=$smem" --plot none --no-progress $skip_invalid \
    -j "$jobs" "$@" --out "$out/${name}_${probe}_$smem.csv" >"$out/${name}_${probe}_$smem.txt" 2>&1 &
}
for probe in "${probes[@]}"; do
  # eight_blocks_matmul.csv has one row whose L2 counters contradict each other (more hits than
  # lookups): compare leaves it out and lists it, where it would refuse the file.
  skip_invalid=""
  case $probe in
    matmul256) file=smem256_matmul.csv sizes="0 11264 16384 24576" ;;
    smem2) file=smem2_matmul.csv sizes="6144 8192 11264 16384" ;;
    smem2_stencil) file=smem2_stencil.csv sizes="11264" ;;
    smem_waves) file=smem_waves_matmul.csv sizes="11264 24064" ;;
    eight_blocks) file=eight_blocks_matmul.csv sizes="27648" skip_invalid=--skip-invalid-rows ;;
    *) file=smem_$probe.csv sizes="0 5120 11264" ;;
  esac
  for smem in $sizes; do
    for name in "${models[@]}"; do
      # shellcheck disable=SC2086  # the options split into words
      run "$name" "$probe" "$file" "$smem" ${model_options[$name]}
    done
  done
done
failed=0
for p in $(jobs -p); do wait "$p" || failed=1; done
[ $failed -eq 0 ] || { echo "smem_probe_report: a compare run failed (see $out/*.txt)" >&2; exit 1; }
echo "smem_probe_report: $(ls "$out"/*.csv | wc -l) joined CSVs in $out"
