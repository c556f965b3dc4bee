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
# (docs/fidelity.md, "Blocks that read what others have just read"). The other launches take
# weight 1 and come out as the presets'.
#
#   scripts/dram_blocks_sets.sh [--jobs N] [--gpu KEY=VALUE ...] [--out DIR] [GPU:SET:KERNEL:VARIANT ...]
#
# Default: every file below. --gpu adds a model option to the warm group's (as cachesim compare's
# --gpu), --out writes DIR/GPU/... instead (e.g. --gpu warp-age-rank=block --out
# tests/data/dram_blocks_block_rank). About 2 CPU hours; the cachesim binary is $CACHESIM_BIN,
# else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
. scripts/report_common.sh
extra=() out=tests/data/dram_blocks rest=()
while [ $# -gt 0 ]; do
  case "$1" in
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
parallel=()
[ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
for part in "${parts[@]}"; do
  IFS=: read -r gpu set kernel variant <<< "$part"
  measured="tests/data/$gpu/${set}_$kernel.csv"
  [ -f "$measured" ] || { echo "dram_blocks_sets: no measured file $measured (part $part)" >&2; exit 2; }
  dir="$out/$gpu"
  mkdir -p "$dir"
  echo "dram_blocks_sets: $part" >&2
  "$bin" compare --preset "$gpu" --gpu warp-age-warm-group=6 ${extra[@]+"${extra[@]}"} \
    --measured "$measured" --where "variant=$variant" --skip-invalid-rows \
    "${parallel[@]}" --no-progress --plot none --out "$dir/${set}_${kernel}_$variant.csv" > /dev/null
done
