# The fresh sets' launches (and the lock-step probes'), each set's list in one place: sourced by scripts/device_heldout.sh,
# which measures them, and scripts/predict_set.sh, which predicts them. Each SET_KERNEL_launches
# RUN calls RUN once per gpubench sweep, with gpubench's arguments (--size, --depth, --stencil,
# --blocks, --variants); the schedules are set_schedules SET's: every set's nine, unless the set
# names its own (SET_schedules).

fresh_matmul_launches() {
  local run=$1 v
  # Sizes not a power of two, a block of six warps, a deeper loop and a larger grid.
  for v in index32 index64; do
    $run --size 2048x2048 --depth 1024 --blocks 128 --variants "$v"
    $run --size 1280x1280 --blocks 192 --variants "$v"
  done
  $run --size 1536x1536 --blocks 384 --variants index32
  $run --size 1024x1024 --depth 2048 --blocks 256 --variants index32
}
fresh_stencil_launches() {
  local run=$1
  # Stencils whose 32-bit loop a pipe limits.
  $run --size 4096x4096 --stencil 9x9 --blocks 256 --variants index32
  $run --size 3072x3072 --stencil 7x7 --blocks 384 --variants index32
}

fresh2_matmul_launches() {
  local run=$1 v
  # 1792^2 at depth 768: twelve waves of 128-thread blocks; 1280x2560 at depth 640: a grid twice as
  # tall as wide; 1152^2: blocks of two warps.
  for v in index32 index64; do $run --size 1792x1792 --depth 768 --blocks 128 --variants "$v"; done
  for v in index32 unroll1; do $run --size 1280x2560 --depth 640 --blocks 256 --variants "$v"; done
  $run --size 1152x1152 --blocks 64 --variants index32
}
fresh2_stencil_launches() {
  local run=$1 v
  for v in index32 unroll1; do $run --size 5120x2560 --stencil 5x7 --blocks 192 --variants "$v"; done
  $run --size 2560x2560 --stencil 9x9 --blocks 128 --variants index32
}

fresh3_matmul_launches() {
  local run=$1 v
  # 1408^2 at depth 704 in blocks of five warps; 2304x1152 at depth 576 in blocks of ten; 896x1792
  # at depth 1792, twice as deep as wide, in blocks of seven; 1664^2 at depth 832, blocks of four.
  for v in index64 index32; do $run --size 1408x1408 --depth 704 --blocks 160 --variants "$v"; done
  $run --size 2304x1152 --depth 576 --blocks 320 --variants index64
  $run --size 896x1792 --depth 1792 --blocks 224 --variants unroll1
  $run --size 1664x1664 --depth 832 --blocks 128 --variants index32
}
fresh3_stencil_launches() {
  local run=$1
  $run --size 3584x2304 --stencil 3x7 --blocks 160 --variants index64
  $run --size 3584x3584 --stencil 9x9 --blocks 320 --variants index32
  $run --size 2816x2816 --stencil 7x3 --blocks 224 --variants unroll1
}

fresh4_matmul_launches() {
  local run=$1
  # The 32-bit build where the presets take 10 points or more of the naive order's L1 rate from
  # other blocks (1152x896 at depth 1536, blocks of four warps; 960^2, blocks of three; 1152x1024
  # at depth 576, blocks of nine) and where they take less (2560x1536 at depth 640, blocks of
  # eleven); the 64-bit build at 1152x1024; the loop kept rolled at 1600^2, blocks of fourteen.
  $run --size 1152x896 --depth 1536 --blocks 128 --variants index32
  $run --size 960x960 --depth 960 --blocks 96 --variants index32
  $run --size 1152x1024 --depth 576 --blocks 288 --variants index32
  $run --size 1152x1024 --depth 576 --blocks 288 --variants index64
  $run --size 2560x1536 --depth 640 --blocks 352 --variants index32
  $run --size 1600x1600 --depth 1200 --blocks 448 --variants unroll1
}
fresh4_stencil_launches() {
  local run=$1
  $run --size 4000x3000 --stencil 5x3 --blocks 288 --variants index32
  $run --size 3200x3200 --stencil 9x9 --blocks 448 --variants unroll1
}

lockstep_matmul_launches() {
  local run=$1
  # Where the presets run in lock step (an SM holding at most 8 warps a scheduler of the 64-bit
  # loop, the count its scheduler keeps at a lone warp's pace): blocks of one warp at 1536^2,
  # depth 768; blocks of two warps with 14,336 bytes of shared memory (15 an SM: 30 warps); blocks
  # of eight with 49,152 bytes (4 an SM: 32 warps). Beside them, where the presets keep their
  # drift: the 32-bit loop in blocks of one warp (8 warps a scheduler, beyond its 6) and the 64-bit
  # loop at 10 blocks of four warps an SM (20,480 bytes).
  # (--smem-per-block 0: every row of the file carries the column)
  $run --size 1536x1536 --depth 768 --blocks 32 --variants index64 --smem-per-block 0
  $run --size 1536x1536 --depth 768 --blocks 32 --variants index32 --smem-per-block 0
  $run --size 2048x1024 --depth 512 --blocks 64 --variants index64 --smem-per-block 14336
  $run --size 1024x2048 --depth 1024 --blocks 256 --variants index64 --smem-per-block 49152
  $run --size 1536x1024 --depth 768 --blocks 128 --variants index64 --smem-per-block 20480
}

lockstep2_matmul_launches() {
  local run=$1
  # The counts timed at every warp count (the 64-bit loop 11 warps a scheduler, the 32-bit 6, the
  # unrolled-once 12), held to launches at their edges. In lock step: the 64-bit loop at 11 blocks
  # of four warps an SM (19,456 bytes: 20 KiB a block of the 228 KiB carve-out); the unrolled-once
  # loop at 12 blocks of four (18,432 bytes) and in blocks of one warp (8 a scheduler); the 32-bit
  # loop at 12 blocks of two warps (18,432 bytes: 6 a scheduler). Beside them, where the presets
  # keep their drift: the 64-bit loop at 12 blocks of four (12 a scheduler, beyond its 11).
  $run --size 1024x1536 --depth 1024 --blocks 128 --variants index64 --smem-per-block 19456
  $run --size 1536x1024 --depth 768 --blocks 128 --variants unroll1 --smem-per-block 18432
  $run --size 1536x1536 --depth 768 --blocks 32 --variants unroll1 --smem-per-block 0
  $run --size 1024x1024 --depth 1024 --blocks 64 --variants index32 --smem-per-block 18432
  $run --size 1536x1024 --depth 768 --blocks 128 --variants index64 --smem-per-block 18432
}

naive32_schedules=linear
naive32_matmul_launches() {
  local run=$1
  # The 32-bit naive order, held to what the sets showed of it: 10 points or more of the h200
  # preset's L1 rate from other blocks (768x1536 at depth 1024, blocks of three warps; 704x1408 at
  # depth 1408, two; 640x1280 at depth 1280, four; 1024x1280 at depth 640, ten; 896^2 at depth 1792,
  # four, just above 10), and less (2048x1536 at depth 512, four, just below; 1728^2 at depth 864,
  # eight; 2240x1120 at depth 560, ten).
  $run --size 768x1536 --depth 1024 --blocks 96 --variants index32
  $run --size 704x1408 --depth 1408 --blocks 64 --variants index32
  $run --size 640x1280 --depth 1280 --blocks 128 --variants index32
  $run --size 1024x1280 --depth 640 --blocks 320 --variants index32
  $run --size 896x896 --depth 1792 --blocks 128 --variants index32
  $run --size 2048x1536 --depth 512 --blocks 128 --variants index32
  $run --size 1728x1728 --depth 864 --blocks 256 --variants index32
  $run --size 2240x1120 --depth 560 --blocks 320 --variants index32
}

placement_schedules=linear,column:32,tiled:32x32
placement_matmul_launches() {
  local run=$1 v
  # Where the first wave's placement decides which blocks of an SM read the same lines of B: grids
  # whose width is 11 or 12 blocks, a divisor of the 132 SMs, so that the presets' slot cycle gives
  # every first-wave block of an SM the same columns of B, where the measured turns of SMs 124-131
  # (--cta-order floorplan-turns) mix them; 1024^2 at blocks of eight warps beside them, where the
  # two orders agree.
  for v in index32 index64; do
    $run --size 704x704 --depth 704 --blocks 64 --variants "$v"
    $run --size 1056x1056 --depth 528 --blocks 96 --variants "$v"
  done
  $run --size 1408x1408 --depth 704 --blocks 128 --variants index32
  $run --size 768x768 --depth 768 --blocks 64 --variants index64
  $run --size 2112x1056 --depth 528 --blocks 192 --variants index32
  $run --size 1024x1024 --depth 1024 --blocks 256 --variants index32
}

# set_schedules SET: the schedules SET's launches run in, comma-separated.
set_schedules() {
  local own="${1}_schedules"
  echo "${!own:-linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton}"
}
