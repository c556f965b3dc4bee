#!/usr/bin/env bash
# The sets' launches whose loops take the age weight (the 32-bit matmul and stencils, the
# unrolled-once stencils: loops a pipe limits), simulated with the warm group for the blocks that
# read from the L2 (--warp-age-warm-group 6; which blocks those are by --warp-age-dram-blocks'
# default, first-reads; the weight auto), every other parameter the preset's:
#
#   tests/data/dram_blocks/GPU/SET_KERNEL_VARIANT.csv   (cachesim compare's joined CSVs)
#
# for the H200's held-out stencils and 21-launch matmuls, its fresh sets' the same, and the H100's
# held-out set. scripts/make_docs.sh tabulates them beside the presets' rows of the same launches
# (docs/model-studies.md, "Blocks that read what others have just read"). The other launches take
# weight 1 and come out as the presets'.
#
#   scripts/dram_blocks_sets.sh [--jobs N] [--at-once P] [--gpu KEY=VALUE ...] [--out DIR]
#                               [GPU:SET:KERNEL:VARIANT ...]
#
# Default: every file below. --gpu adds a model option to the warm group's (as cachesim compare's
# --gpu), --out writes DIR/GPU/... instead (e.g. --gpu warp-age-rank=block --out
# tests/data/dram_blocks_block_rank). --at-once P runs P parts side by side, each with N / P jobs:
# a part has 9 to 36 rows, too few to keep many cores busy alone (on 16 cores the four matmul
# parts, two at a time with 8 jobs each, took under 5 minutes; all 11 parts one after another
# with 16 jobs each did not finish in 10). About 2 CPU hours; the cachesim binary is
# $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
. scripts/report_common.sh
extra=() out=tests/data/dram_blocks rest=() at_once=1
while [ $# -gt 0 ]; do
  case "$1" in
    --at-once) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || { echo "dram_blocks_sets: --at-once needs a count of 1 or more" >&2; exit 2; }
               at_once="$2"; shift 2 ;;
    --gpu) [ $# -ge 2 ] || { echo "dram_blocks_sets: --gpu needs KEY=VALUE" >&2; exit 2; }
           extra+=(--gpu "$2"); shift 2 ;;
    --out) [ $# -ge 2 ] || { echo "dram_blocks_sets: --out needs a folder" >&2; exit 2; }
           out="$2"; shift 2 ;;
    *) rest+=("$1"); shift ;;
  esac
done
report_args dram_blocks_sets parts ${rest[@]+"${rest[@]}"}
[ ${#parts[@]} -gt 0 ] || parts=(
  h200:heldout:stencil:index32 h200:heldout:stencil:unroll1 h200:heldout21:matmul:index32
  h200:fresh:stencil:index32 h200:fresh-21:matmul:index32
  h200:fresh2:stencil:index32 h200:fresh2:stencil:unroll1 h200:fresh2-21:matmul:index32
  h100:heldout:stencil:index32 h100:heldout:stencil:unroll1 h100:heldout:matmul:index32)
require_cachesim dram_blocks_sets
for part in "${parts[@]}"; do  # every measured file first: a typo stops the run before any work
  IFS=: read -r gpu set kernel variant <<< "$part"
  [ -f "tests/data/$gpu/${set}_$kernel.csv" ] ||
    { echo "dram_blocks_sets: no measured file tests/data/$gpu/${set}_$kernel.csv (part $part)" >&2; exit 2; }
done
parallel=()
if [ "$jobs" != 0 ]; then
  per_part=$(( jobs / at_once > 0 ? jobs / at_once : 1 ))
  parallel=(--jobs "$per_part" --threads 1)
fi
run_part() {
  local gpu set kernel variant
  IFS=: read -r gpu set kernel variant <<< "$1"
  mkdir -p "$out/$gpu"
  echo "dram_blocks_sets: $1" >&2
  "$bin" compare --preset "$gpu" --gpu warp-age-warm-group=6 ${extra[@]+"${extra[@]}"} \
    --measured "tests/data/$gpu/${set}_$kernel.csv" --where "variant=$variant" --skip-invalid-rows \
    ${parallel[@]+"${parallel[@]}"} --no-progress --plot none --out "$out/$gpu/${set}_${kernel}_$variant.csv" > /dev/null
}
failed=0 running=0
for part in "${parts[@]}"; do
  if [ "$running" -ge "$at_once" ]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_part "$part" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || failed=1
  running=$((running - 1))
done
[ "$failed" = 0 ] || { echo "dram_blocks_sets: a part failed (see above)" >&2; exit 1; }
