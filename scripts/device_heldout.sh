#!/usr/bin/env bash
# Measures the GPU model's validation sets on the GPU this runs on (docs/fidelity.md, "Training
# and held-out sets"). Builds gpubench and l2probe with CMake + nvcc only. Usage:
#   scripts/device_heldout.sh [PART,...]   (default heldout)
#   heldout:  the held-out set (heldout_stencil and heldout_matmul): sizes, boxes, blocks, depths
#             and compilations (gpubench --variants) that no model parameter may be tuned on;
#   training: the 81 training configurations (the 9x9 and 3x3 stencils on 4096x4096 and the
#             1024^3 matmul, nine schedules, blocks 128/256/1024), index64 only;
#   probe:    the SASS of every compiled kernel (loads per loop iteration) and l2probe's latencies;
#   drift:    the compilation probes (drift_probe_matmul): the 768^3 matmul, a size in no set,
#             every compilation, five schedules, blocks 128/256: how far each compilation's
#             sharers part at a size no parameter was chosen on;
#   depth:    depth probes for the 32-bit build (depth_probe_matmul), in no set: the 768^2 matmul
#             at depths 384, 1536, 3072 and the 1536x768 one at 768, five schedules, blocks
#             128/256: how its sharers' parting grows with the loop's length and the waves;
#   fresh:    a second held-out set for the matmul (fresh_matmul), measured after the presets'
#             warp age weight was chosen, which nothing has been run or tuned on: the 32-bit
#             build at sizes, depths and blocks that no other set has it at, and the training
#             build at two new sizes;
#   fresh_stencil: the same for stencils whose 32-bit loop a pipe limits (fresh_stencil): the 9x9
#             at 4096^2, block 256, and the 7x7 at 3072^2, block 384, compiled with 32-bit indices;
#   fresh2:   a third held-out set (fresh2_matmul, fresh2_stencil), measured after the presets'
#             warp age group was measured, which nothing has been run or tuned on: matmuls of
#             every compilation at sizes, depths and blocks no other set has (a non-square grid,
#             a block of two warps, a size with many waves), and stencils with a box and sizes
#             no other set has, compiled with 32-bit indices and with the unrolled loop kept;
#   fresh3:   a fourth held-out set (fresh3_matmul, fresh3_stencil), whose configurations and the
#             presets' predictions for them were committed before it was measured
#             (tests/data/h200/fresh3_predicted.csv): blocks of 5, 7 and 10 warps, grids wider and
#             taller than square, matmul depths no other set has, and stencil boxes 3x7 and 7x3;
#             every compilation, nine schedules
#   fresh4:   a fifth held-out set (fresh4_matmul, fresh4_stencil), whose configurations and the
#             presets' predictions for them (with the share of the L1 rate the model takes from
#             other blocks) were committed before it was measured
#             (tests/data/h200/fresh4_predicted.csv): the 32-bit matmul at sizes and blocks (3, 4,
#             9 and 11 warps) where the presets' naive order rests on other blocks' lines and where
#             it does not, beside the 64-bit and the rolled loop, and two stencils (5x3 and 9x9)
#   lockstep_matmul: lock-step probes (lockstep_matmul), in no set, whose configurations and the
#             presets' predictions for them were committed before they were measured
#             (tests/data/h200/lockstep_predicted.csv): the matmul where the presets run in lock
#             step (at most 8 warps a scheduler of the 64-bit loop: blocks of one warp, and shared
#             memory leaving 15 blocks of two warps or 4 of eight an SM), beside the 32-bit loop in
#             blocks of one warp and the 64-bit loop at 10 blocks of four warps, where they keep
#             their drift; nine schedules
#   lockstep2_matmul: the second lock-step probes (lockstep2_matmul), in no set, predicted and
#             committed first (tests/data/h200/lockstep2_predicted.csv): each compiled loop at the
#             edge of its timed count (the 64-bit loop at 11 warps a scheduler, the unrolled-once at
#             12 and at 8, the 32-bit at 6), beside the 64-bit loop at 12, where the presets keep
#             their drift; nine schedules
#   naive32_matmul: the 32-bit naive-order probes (naive32_matmul), in no set, predicted and
#             committed first (tests/data/h200/naive32_predicted.csv): the naive order alone, at
#             sizes and blocks where the presets take 10 points or more of its L1 rate from other
#             blocks and where they take less; naive32_matmul_rates21, its rates over 21 launches
#   placement_matmul: the first-wave placement probes (placement_matmul), in no set, predicted
#             and committed first (tests/data/h200/placement_predicted.csv with the presets,
#             placement_predicted_turns.csv with --cta-order floorplan-turns): grids 11 or 12 blocks
#             wide, where the presets' slot cycle and the measured turns place the first wave's
#             sharers differently, and one where they agree; the naive order, column:32 and
#             tiled:32x32; placement_matmul_rates21, its rates over 21 launches
#   waves:    wave probes (waves_probe_matmul), in no set: the matmul at depth 1024, height 2048,
#             block 128, widths 256 to 4096 (2 to 31 waves of 128-column strips, each SM's blocks
#             from one strip), column:128, column:32 and the naive order, index64 and index32: how
#             the sharing between an SM's blocks changes with the number of waves;
#   waves_unroll1: the wave probes of the unrolled-once loop (waves_probe_unroll1_matmul);
#   strips:   strip probes (waves_strip_matmul), in no set: the matmul at width 128 (one 128-column
#             strip, so every block of an SM reads the same lines of B), depth 1024, block 128,
#             heights 1056 to 16896 (half a wave to eight), column:128 and column:32, index64 and
#             index32: whether the first wave already parts the sharers, or only the later ones;
#   strip_blocks: the strip with the unrolled-once loop (blocks 128 and 256) and the other two
#             compilations at block 256, column:128 (waves_strip_blocks_matmul);
#   warm:     the L2's start, in no set: the compilation probes' 768^2 matmul at depth 768 (blocks 128
#             and 256; linear, column:32, column:64, column:128, tiled:32x32) and the strip at one
#             and two waves (128x2112, 128x4224, depth 1024, block 128, column:128), each compilation,
#             measured with a cold L2 (as every other part: warm_probe_cold) and with the launch's
#             arrays in the L2 (gpubench --warm-l2: warm_probe_warm), in one run: whether the
#             blocks' parting, and so the L1 rate, depends on where the first reads come from
#   warm_training: the training set's launches (the 1024^3 matmul and the 3x3 stencil at
#             4096^2, nine schedules, blocks 128/256/1024), cold (warm_training_cold) and with their
#             arrays in the L2 (warm_training_warm), in one run: what a warm start does to the
#             launches the presets were fitted on (the stencils' 64 MiB input fills more than the
#             60 MiB L2, so it starts partly warm)
#   strip_depths: the strip at 2 and 4 waves (heights 4224, 8448) at depths 256, 512, 2048 and
#             4096, column:128 (waves_strip_depth_matmul): how the parting scales with the loop;
#   smem:     the L1 beside shared memory, in no set: the training configurations' 1024^3 matmul
#             and 9x9 stencil on 4096^2 at block 128, five schedules, each block launched with 0,
#             5120 and 11264 bytes of dynamic shared memory it never touches (gpubench
#             --smem-per-block: by the carve-out rule the L1 is 240, 156 and 60 KiB), index64 and
#             index32 (smem_matmul, smem_stencil); and the carve-out the driver took for each, from
#             Nsight Compute's launch attributes (smem_carveout.csv): whether the model's sharing
#             between an SM's blocks holds when the L1 holds less of the blocks' lines
#   smem256:  the same for the 64-bit matmul at block 256 with 0, 11264, 16384 and 24576 bytes
#             a block (by the driver's carve-outs in carveout.csv an L1 of 224, 124, 92 and 28 KiB,
#             eight blocks an SM each time): smem256_matmul
#   smem2:    a second shared-memory set, in no set and measured after the first had been compared
#             with the models: launches the first has not (the 1536^3 matmul at block 96 with 6144
#             and 11264 bytes, index64 and index32; the 1024^2 matmul at depth 512, block 128, with
#             8192 bytes, every compilation; the 2048^2 matmul at depth 1024, block 256, with 16384
#             bytes; the 7x7 stencil on 2048^2 at block 128 with 11264 bytes, index64 and index32;
#             six schedules): smem2_matmul, smem2_stencil
#   smem_waves: a small L1 over many waves, in no set: the matmul 1024 wide at depth 1024 and
#             heights 256, 1056, 4224 and 8448 (1, 4, 16 and 32 waves), block 128 with 11264 bytes
#             a block (16 blocks an SM) and block 256 with 24064 bytes (8 blocks an SM), both an L1
#             of 60 KiB, where one 32-column strip of B (128 KiB) no longer fits; four schedules,
#             index64 and index32 (smem_waves_matmul), and the carve-out the driver took
#             (smem_waves_carveout.csv): whether an SM's blocks keep sharing B over many waves
#             when the L1 cannot hold it from one block's pass to the next
#   eight_blocks: the thesis's matmul (1024^2, depth 1024) and a taller one (1024x2816, as many
#             waves as the thesis's 48 SMs ran) at block 128 with 27648 bytes of shared memory a
#             block: eight blocks an SM, as the RTX 2080 Super's 1024 threads an SM allow, and an
#             L1 of 28 KiB; four schedules, index64 and index32 (eight_blocks_matmul): whether an
#             SM's blocks share at that occupancy
#   block_sizes: the matmul at 1280x1280, depth 640, blocks 128, 192, 256 and 384 (the same 6.06
#             waves at each), linear, column:32 and column:128, index32 and index64, in no set
#             (block_sizes_matmul): whether the block size alone moves what an SM's blocks share
#   widths:   the matmul at 640x2560, 1280x1280 and 2560x640 (the same 6.06 waves), depth 640, and at
#             512x4096 and 2048x1024 (7.76 waves), depth 512; block 128, linear, column:32 and
#             column:128, index32, in no set (widths_matmul): whether the layout alone moves what an
#             SM's blocks share
#   carveout: the carve-out the driver takes, from Nsight Compute's launch attributes only (no
#             counters): the matmul at blocks 32 to 1024 with 0 to 49152 bytes of dynamic shared
#             memory per block (carveout.csv): the rule --l1-size auto should follow
#   carveout_check: the same attributes where carveout.csv has none, to check a rule read from it:
#             the matmul at blocks 160 to 896 and the stencil (another register count) at blocks
#             128 to 1024, with 0 to 40960 bytes a block at other steps, and some of carveout.csv's
#             launches again (carveout_check_{matmul,stencil,repeat}.csv)
#   carveout_edges: where the choice changes with the block size: the matmul at every block of
#             32 to 1024 threads without shared memory, and at 800 to 1024 with 2048, 3072 and
#             8192 bytes a block (carveout_edges_{none,large}.csv)
#   loop:     what limits each compiled loop, launch by launch: the training and held-out sets'
#             launches with the loop's counters beside the fidelity metrics (gpubench --metrics
#             ...,loop; one profiled launch each, no reference check: loop_training_{stencil,matmul}.csv,
#             loop_heldout_{stencil,matmul}.csv): whether the limit the presets read from the probes'
#             table (tests/data/h200/issue_cost/issue_cost.csv) holds at every size, block and schedule
#   loop_o1:  the same for a compilation the table does not know: gpubench built with ptxas at -O1
#             (CMAKE_CUDA_FLAGS=-Xptxas -O1, build-device-o1), its kernels' loads per loop iteration
#             from its SASS (sass_loads_o1.txt), and the held-out 1024^2 matmul at depth 512,
#             block 128, and the 768^3 compilation probes' launches (blocks 128 and 256), every
#             compilation, with the loop's counters (loop_o1_matmul.csv)
#   heldout_matmul_rates21: the held-out matmul's launches again, its L1 and L2 hit rates only, each
#             the median of 21 profiled launches as the training matmul's are (its L2 rate varies by
#             tens of points from launch to launch): heldout_matmul_rates21.csv, which
#             scripts/merge_profile_runs.py puts into heldout_matmul.csv's rows as the set heldout21
#             (tests/data/h200/heldout21_matmul.csv); the compilations in RATES21_VARIANTS (default
#             index64,index32,unroll1), in that order
#   training_matmul_rates21: the same for the training matmul's 27 launches (the 1024^3 matmul,
#             nine schedules, blocks 128/256/1024, gpubench's default build), one process per block:
#             training_matmul_rates21.csv, put into training_matmul.csv's rows as the set training21
#             (the H200's training matmul, fidelity_matmul_spread21.csv, is measured so already)
#   fresh_matmul_rates21, fresh2_matmul_rates21, fresh3_matmul_rates21, fresh4_matmul_rates21: the
#             same for the fresh sets' matmul launches (fresh_matmul_rates21.csv, ...: the sets
#             fresh-21 to fresh4-21, tests/data/h200/fresh-21_matmul.csv, ...)
#   all:      probe, training, heldout, drift, fresh, fresh_stencil, fresh2.
# PROFILE_REPS (default 3): profiled launches per metric group (median, min and max reported).
# Writes under $OUT (default ./device-out) one CSV per part's set, named as above (heldout_{stencil,
# matmul}.csv, training_{stencil,matmul}.csv, fresh2_matmul.csv, waves_probe_matmul.csv, ...),
# and sass_loads_variants.txt, l2probe*.{csv,txt}, logs.tar.gz. A sweep stopped by its time limit
# keeps the rows it had measured (and the log says how many).
# The held-out set leaves out, on purpose, the configurations an outside check quoted (5x5 and
# 7x7 boxes at 2048^2, 6000x4000 and 8192^2; the 9x9 at blocks 64 and 512; matmul depths 256 and
# 4096; the 1024^3 matmul with 32-bit indices): they stay an independent check.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
PARTS=",${1:-heldout},"
RATES21_VARIANTS=${RATES21_VARIANTS:-index64,index32,unroll1}
PARTS=${PARTS//,all,/,probe,training,heldout,drift,fresh,fresh_stencil,fresh2,}
PARTS=${PARTS//,heldout,/,heldout_stencil,heldout_matmul,}
PARTS=${PARTS//,fresh2,/,fresh2_matmul,fresh2_stencil,}
PARTS=${PARTS//,fresh3,/,fresh3_matmul,fresh3_stencil,}
PARTS=${PARTS//,fresh4,/,fresh4_matmul,fresh4_stencil,}
for p in ${PARTS//,/ }; do
  case $p in probe|loop|loop_o1|training|heldout_stencil|heldout_matmul|drift|depth|fresh|fresh_stencil|fresh2|fresh2_matmul|fresh2_stencil|fresh3_matmul|fresh3_stencil|fresh4_matmul|fresh4_stencil|lockstep_matmul|lockstep2_matmul|naive32_matmul|naive32_matmul_rates21|placement_matmul|placement_matmul_rates21|waves|waves_unroll1|strips|strip_depths|strip_blocks|warm|warm_training|smem|smem256|smem2|smem_waves|eight_blocks|carveout|carveout_check|carveout_edges|training_matmul_rates21|heldout_matmul_rates21|fresh_matmul_rates21|fresh2_matmul_rates21|fresh3_matmul_rates21|fresh4_matmul_rates21|block_sizes|widths) ;; *) echo "unknown part $p" >&2; exit 2;; esac
done
want() { [[ $PARTS == *",$1,"* ]]; }
. scripts/device_common.sh
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem --format=csv \
  >"$OUT/logs/environment.txt" 2>&1
nvcc --version >>"$OUT/logs/environment.txt" 2>&1
head -2 "$OUT/logs/environment.txt"

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target gpubench l2probe >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; pack_logs; exit 1; }
BIN=build-device/apps/gpubench/gpubench

SCHEDULES=linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton
METRICS=$(accepted_metrics "$BIN" \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
  l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct \
  lts__t_sectors_srcunit_tex_op_read.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_ltcfabric_op_read.sum \
  lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum \
  lts__t_sector_op_read_hit_rate.pct \
  dram__bytes_read.sum)
echo "metrics: $METRICS"

# sweep NAME SECONDS gpubench-args...: appends one sweep's rows to $OUT/NAME.csv (the header once).
sweep() {
  local name=$1 seconds=$2
  shift 2
  echo "== $name: $*"
  local rc attempt
  for attempt in 1 2; do  # once more after a crash: gpubench writes its CSV only when it finishes
    timeout "$seconds" "$BIN" --counters cupti --metrics "${SWEEP_METRICS:-$METRICS}" --profile-reps "${PROFILE_REPS:-3}" --reps 5 \
      --out "$OUT/logs/part.csv" "$@" 2>>"$OUT/logs/$name.log"
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 124 ] && break
    echo "attempt $attempt: rc=$rc; $(tail -1 "$OUT/logs/$name.log")"
  done
  echo "rc=$rc; $(tail -1 "$OUT/logs/$name.log")"
  # A sweep its time limit stopped leaves the rows it had measured in part.csv.partial (gpubench
  # writes and flushes each row as it is measured): keep the whole ones, and say how many.
  local partial="$OUT/logs/part.csv.partial"
  if [ $rc -eq 124 ] && [ ! -s "$OUT/logs/part.csv" ] && [ -s "$partial" ]; then
    [ -z "$(tail -c 1 "$partial")" ] || sed -i '$d' "$partial"  # a row cut short has no newline yet
    if [ "$(wc -l < "$partial")" -gt 1 ]; then
      mv "$partial" "$OUT/logs/part.csv"
      echo "kept the $(($(wc -l < "$OUT/logs/part.csv") - 1)) rows measured before the time limit"
    fi
  fi
  rm -f "$partial"
  if [ -s "$OUT/logs/part.csv" ]; then
    if [ ! -s "$OUT/$name.csv" ]; then cp "$OUT/logs/part.csv" "$OUT/$name.csv"
    elif [ "$(head -1 "$OUT/logs/part.csv")" = "$(head -1 "$OUT/$name.csv")" ]; then
      tail -n +2 "$OUT/logs/part.csv" >>"$OUT/$name.csv"
    else  # other columns (a --smem-per-block or --warm-l2 sweep beside one without): not under that header
      mv "$OUT/logs/part.csv" "$OUT/logs/$name.other_columns.$(date +%s%N).csv"
      echo "its columns differ from $name.csv's: its rows kept in logs/, not appended"
    fi
  fi
  rm -f "$OUT/logs/part.csv"
}

# variant_sweeps NAME SECONDS gpubench-args...: the sweep once per non-default compilation, one
# process each (a crash costs one compilation's rows, not both).
variant_sweeps() {
  local name=$1 seconds=$2 v
  shift 2
  for v in index32 unroll1; do sweep "$name" "$seconds" "$@" --variants "$v"; done
}

# The fresh sets' launch lists (SET_matmul_launches, SET_stencil_launches).
. scripts/fresh_launches.sh
# rates21 NAME gpubench-args...: the L1 and L2 hit rates only, each the median of 21 profiled
# launches, without the reference check (the set's own run checked those outputs).
rates21() {
  local name=$1
  shift
  # which of the two CUPTI takes, asked once
  RATE_METRICS=${RATE_METRICS:-$(accepted_metrics "$BIN" l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct \
    lts__t_sector_op_read_hit_rate.pct)}
  SWEEP_METRICS=$RATE_METRICS PROFILE_REPS=21 sweep "$name" 400 --no-check --kernel matmul --schedules "$SCHEDULES" "$@"
}

# sass_loads SASS: each profiled kernel of a cuobjdump -sass listing, its global loads (L), float
# adds (F), stores (S) and branches (B) in order, and its loads before the first add.
sass_loads() {
  awk '
  /Function :/ {
    if (name != "") print name ": " gsub(/L/, "L", seq) " loads, " first " before the first F\n" seq "\n"
    name = ""; seq = ""; first = -1
    if ($0 ~ /ProfiledLaunch/) name = $3
    next
  }
  name != "" {
    for (i = 1; i <= NF; ++i) {
      op = $i
      if (op ~ /^@/) continue
      if (op ~ /^LDG/) { seq = seq "L"; break }
      if (op ~ /^(FADD|FFMA)/) { if (first < 0) first = gsub(/L/, "L", seq); seq = seq "F"; break }
      if (op ~ /^STG/) { seq = seq "S"; break }
      if (op ~ /^BRA/) { seq = seq "B"; break }
      if (op ~ /^[A-Z]/) break
    }
  }
  END { if (name != "") print name ": " gsub(/L/, "L", seq) " loads, " first " before the first F\n" seq }
  ' "$1"
}

# loop_metrics GPUBENCH: the loop's counters (what limits the compiled loop) that CUPTI accepts.
loop_metrics() {
  accepted_metrics "$1" smsp__inst_executed.sum sm__pipe_alu_cycles_active.sum sm__pipe_fma_cycles_active.sum \
    sm__pipe_fmaheavy_cycles_active.sum sm__pipe_fmalite_cycles_active.sum sm__pipe_fp64_cycles_active.sum \
    sm__pipe_tensor_cycles_active.sum
}
# with_loop COMMAND...: the sweep with the loop's counters ($LOOP_METRICS) beside the fidelity
# metrics, one profiled launch each.
with_loop() { SWEEP_METRICS="$METRICS,$LOOP_METRICS" PROFILE_REPS=1 "$@"; }

if want probe; then
  echo "== SASS"
  cuobjdump -sass "$BIN" >"$OUT/logs/gpubench.sass" || true
  sass_loads "$OUT/logs/gpubench.sass" >"$OUT/sass_loads_variants.txt"
  grep loads "$OUT/sass_loads_variants.txt"
  echo "== l2probe"
  timeout 120 build-device/apps/gpubench/l2probe "$OUT" >"$OUT/l2probe.txt" 2>&1
  echo "rc=$?"; head -3 "$OUT/l2probe.txt"
fi

if want training; then
  sweep training_stencil 280 --kernel stencil --size 4096x4096 --stencil 9x9,3x3 \
    --schedules "$SCHEDULES" --blocks 128,256,1024
  sweep training_matmul 200 --kernel matmul --size 1024x1024 --schedules "$SCHEDULES" --blocks 128,256,1024
fi

if want loop; then
  # gpubench's named metric sets, once on a tiny launch (the log says whether CUPTI took them all)
  timeout 60 "$BIN" --counters cupti --metrics fidelity,loop --kernel matmul --size 256x256 --schedules linear \
    --blocks 128 --profile-reps 1 --reps 1 --out "$OUT/logs/named_sets.csv" >"$OUT/logs/named_sets.log" 2>&1
  echo "named sets fidelity,loop: rc=$?"
  LOOP_METRICS=$(loop_metrics "$BIN")
  echo "loop metrics: $LOOP_METRICS"
  with_loop sweep loop_training_stencil 200 --no-check --kernel stencil --size 4096x4096 --stencil 9x9,3x3 \
    --schedules "$SCHEDULES" --blocks 128,256,1024
  with_loop sweep loop_training_matmul 120 --no-check --kernel matmul --size 1024x1024 --schedules "$SCHEDULES" \
    --blocks 128,256,1024
  with_loop sweep loop_heldout_stencil 120 --no-check --kernel stencil --size 3072x3072 --stencil 11x11 \
    --schedules "$SCHEDULES" --blocks 96,384
  with_loop sweep loop_heldout_stencil 60 --no-check --kernel stencil --size 1536x1536 --stencil 3x5 \
    --schedules "$SCHEDULES" --blocks 96,384
  with_loop sweep loop_heldout_stencil 120 --no-check --kernel stencil --size 3000x5000 --stencil 13x13 \
    --schedules "$SCHEDULES" --blocks 256
  with_loop variant_sweeps loop_heldout_stencil 100 --no-check --kernel stencil --size 3072x3072 --stencil 11x11 \
    --schedules "$SCHEDULES" --blocks 384
  with_loop variant_sweeps loop_heldout_stencil 60 --no-check --kernel stencil --size 1536x1536 --stencil 3x5 \
    --schedules "$SCHEDULES" --blocks 96
  with_loop sweep loop_heldout_matmul 120 --no-check --kernel matmul --size 1024x1024 --depth 512,2048 \
    --schedules "$SCHEDULES" --blocks 128,256
  with_loop sweep loop_heldout_matmul 120 --no-check --kernel matmul --size 1536x1536 --schedules "$SCHEDULES" \
    --blocks 96,384
  with_loop variant_sweeps loop_heldout_matmul 100 --no-check --kernel matmul --size 1536x1536 --schedules "$SCHEDULES" \
    --blocks 96
  with_loop variant_sweeps loop_heldout_matmul 60 --no-check --kernel matmul --size 1024x1024 --depth 512 \
    --schedules "$SCHEDULES" --blocks 128
fi

if want training_matmul_rates21; then
  for block in 128 256 1024; do rates21 training_matmul_rates21 --size 1024x1024 --blocks $block; done
fi

if want heldout_matmul_rates21; then
  # The held-out matmul's launches (as heldout_matmul above), one process per group of schedules so
  # that a time limit costs one group.
  heldout_rates21() { rates21 heldout_matmul_rates21 "$@"; }
  for v in ${RATES21_VARIANTS//,/ }; do
    if [ "$v" = index64 ]; then
      for depth in 512 2048; do
        for block in 128 256; do heldout_rates21 --size 1024x1024 --depth $depth --blocks $block --variants $v; done
      done
      for block in 96 384; do heldout_rates21 --size 1536x1536 --blocks $block --variants $v; done
    else
      heldout_rates21 --size 1536x1536 --blocks 96 --variants $v
      heldout_rates21 --size 1024x1024 --depth 512 --blocks 128 --variants $v
    fi
  done
fi

if want loop_o1; then
  echo "== build with ptxas -O1"
  cmake -S . -B build-device-o1 -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS=-Xptxas -O1" \
    >"$OUT/logs/build_o1.log" 2>&1 &&
    cmake --build build-device-o1 -j"$(nproc)" --target gpubench >>"$OUT/logs/build_o1.log" 2>&1 ||
    { tail -30 "$OUT/logs/build_o1.log"; pack_logs; exit 1; }
  O1=build-device-o1/apps/gpubench/gpubench
  cuobjdump -sass "$O1" >"$OUT/logs/gpubench_o1.sass" || true
  sass_loads "$OUT/logs/gpubench_o1.sass" >"$OUT/sass_loads_o1.txt"
  grep loads "$OUT/sass_loads_o1.txt" | grep -i matmul
  LOOP_METRICS=$(loop_metrics "$O1")
  for v in index64 index32 unroll1; do
    BIN=$O1 with_loop sweep loop_o1_matmul 120 --no-check --kernel matmul --size 1024x1024 --depth 512 \
      --schedules "$SCHEDULES" --blocks 128 --variants "$v"
    BIN=$O1 with_loop sweep loop_o1_matmul 120 --no-check --kernel matmul --size 768x768 --depth 768 \
      --schedules linear,column:32,column:64,column:128,tiled:32x32 --blocks 128,256 --variants "$v"
  done
fi

if want heldout_stencil; then
  # Stencils: other sizes (one not square, one not a power of two), boxes (a non-square one and
  # two larger than any trained), blocks (96, 384: not powers of two) and compilations.
  sweep heldout_stencil 200 --kernel stencil --size 3072x3072 --stencil 11x11 --schedules "$SCHEDULES" \
    --blocks 96,384
  sweep heldout_stencil 120 --kernel stencil --size 1536x1536 --stencil 3x5 --schedules "$SCHEDULES" \
    --blocks 96,384
  sweep heldout_stencil 200 --kernel stencil --size 3000x5000 --stencil 13x13 --schedules "$SCHEDULES" \
    --blocks 256
  variant_sweeps heldout_stencil 150 --kernel stencil --size 3072x3072 --stencil 11x11 --schedules "$SCHEDULES" \
    --blocks 384
  variant_sweeps heldout_stencil 100 --kernel stencil --size 1536x1536 --stencil 3x5 --schedules "$SCHEDULES" \
    --blocks 96
fi

if want heldout_matmul; then
  # Matmuls: other depths, a size that is not a power of two, and compilations.
  sweep heldout_matmul 200 --kernel matmul --size 1024x1024 --depth 512,2048 --schedules "$SCHEDULES" \
    --blocks 128,256
  sweep heldout_matmul 200 --kernel matmul --size 1536x1536 --schedules "$SCHEDULES" --blocks 96,384
  variant_sweeps heldout_matmul 150 --kernel matmul --size 1536x1536 --schedules "$SCHEDULES" --blocks 96
  variant_sweeps heldout_matmul 100 --kernel matmul --size 1024x1024 --depth 512 --schedules "$SCHEDULES" \
    --blocks 128
fi

if want drift; then
  # How far each compilation's sharers drift apart, measured where no set is: 768^3 (2.2 waves of
  # 128-thread blocks), the naive order and the column widths whose sharing depends on timing.
  for v in index64 index32 unroll1; do
    sweep drift_probe_matmul 200 --kernel matmul --size 768x768 --depth 768 \
      --schedules linear,column:32,column:64,column:128,tiled:32x32 --blocks 128,256 --variants "$v"
  done
fi

if want depth; then
  # How the 32-bit build's parting grows with the loop's length and with the number of waves,
  # measured where no set is: the 768^2 drift probes at depths 384, 1536 and 3072, and a grid of
  # twice the blocks (1536x768) at depth 768.
  sweep depth_probe_matmul 200 --kernel matmul --size 768x768 --depth 384,1536,3072 \
    --schedules linear,column:32,column:64,column:128,tiled:32x32 --blocks 128,256 --variants index32
  sweep depth_probe_matmul 200 --kernel matmul --size 1536x768 --depth 768 \
    --schedules linear,column:32,column:64,column:128,tiled:32x32 --blocks 128,256 --variants index32
fi

# fresh_matmul_parts PART SET: a fresh set's matmul launches (SET_matmul_launches) measured as the
# part PART (three profiled launches a metric group, SET_matmul.csv) and as the part
# SET_matmul_rates21 (the hit rates over 21, SET_matmul_rates21.csv).
matmul_sweep_into() { sweep "$SWEEP_INTO" 200 --kernel matmul --schedules "$SCHEDULES" "$@"; }
rates21_into() { rates21 "$SWEEP_INTO" "$@"; }
fresh_matmul_parts() {
  local part=$1 set=$2
  local SCHEDULES
  SCHEDULES=$(set_schedules "$set")
  if want "$part"; then SWEEP_INTO=${set}_matmul; "${set}_matmul_launches" matmul_sweep_into; fi
  if want "${set}_matmul_rates21"; then SWEEP_INTO=${set}_matmul_rates21; "${set}_matmul_launches" rates21_into; fi
}

fresh_matmul_parts fresh fresh

# fresh_stencil_parts SET: a fresh set's stencil launches (SET_stencil_launches) measured as the
# part SET_stencil (SET_stencil.csv).
stencil_sweep_into() { sweep "$SWEEP_INTO" 200 --kernel stencil --schedules "$SCHEDULES" "$@"; }
fresh_stencil_parts() {
  local set=$1
  if want "${set}_stencil"; then SWEEP_INTO=${set}_stencil; "${set}_stencil_launches" stencil_sweep_into; fi
}

fresh_stencil_parts fresh

fresh_matmul_parts fresh2_matmul fresh2
fresh_matmul_parts fresh3_matmul fresh3
fresh_stencil_parts fresh3
fresh_matmul_parts fresh4_matmul fresh4
fresh_stencil_parts fresh4
fresh_matmul_parts lockstep_matmul lockstep
fresh_matmul_parts lockstep2_matmul lockstep2
fresh_matmul_parts naive32_matmul naive32
fresh_matmul_parts placement_matmul placement

fresh_stencil_parts fresh2

# The wave probes' launches: 128-column strips, height 2048, 1.9 to 31 waves of 128-thread blocks.
WAVE_SIZES=256x2048,512x2048,1024x2048,2048x2048,4096x2048
if want waves; then
  for v in index64 index32; do
    sweep waves_probe_matmul 200 --kernel matmul --size $WAVE_SIZES \
      --depth 1024 --schedules column:128,column:32,linear --blocks 128 --variants "$v"
  done
fi

if want waves_unroll1; then
  sweep waves_probe_unroll1_matmul 200 --kernel matmul --size $WAVE_SIZES \
    --depth 1024 --schedules column:128,column:32,linear --blocks 128 --variants unroll1
fi

# One 128-column strip (width 128: every block of an SM reads the same lines of B), half a wave to
# eight waves of 2112 blocks of 128 threads.
STRIP_SIZES=128x1056,128x2112,128x4224,128x8448,128x16896
if want strips; then
  for v in index64 index32; do
    sweep waves_strip_matmul 200 --kernel matmul --size $STRIP_SIZES \
      --depth 1024 --schedules column:128,column:32 --blocks 128 --variants "$v"
  done
fi

if want strip_blocks; then
  # The strip with the unrolled-once loop at block 128, and every compilation at block 256 (8 blocks
  # of 8 warps an SM, where block 128 has 16 of 4).
  sweep waves_strip_blocks_matmul 200 --kernel matmul --size $STRIP_SIZES \
    --depth 1024 --schedules column:128 --blocks 128,256 --variants unroll1
  for v in index64 index32; do
    sweep waves_strip_blocks_matmul 200 --kernel matmul --size $STRIP_SIZES \
      --depth 1024 --schedules column:128 --blocks 256 --variants "$v"
  done
fi

if want warm; then
  for v in index64 index32 unroll1; do
    for start in cold warm; do
      sweep "warm_probe_$start" 200 --kernel matmul --size 768x768 --depth 768 \
        --schedules linear,column:32,column:64,column:128,tiled:32x32 --blocks 128,256 --variants "$v" \
        $([ $start = warm ] && echo --warm-l2)
      sweep "warm_probe_$start" 200 --kernel matmul --size 128x2112,128x4224 --depth 1024 \
        --schedules column:128 --blocks 128 --variants "$v" $([ $start = warm ] && echo --warm-l2)
    done
  done
fi

if want warm_training; then
  for start in cold warm; do
    sweep "warm_training_$start" 200 --kernel matmul --size 1024x1024 --schedules "$SCHEDULES" \
      --blocks 128,256,1024 $([ $start = warm ] && echo --warm-l2)
    sweep "warm_training_$start" 280 --kernel stencil --size 4096x4096 --stencil 3x3 --schedules "$SCHEDULES" \
      --blocks 128,256,1024 $([ $start = warm ] && echo --warm-l2)
  done
fi

if want strip_depths; then
  # The strip at two and four waves with shorter and longer loops: whether its blocks part by a
  # share of their run (more iterations apart as the loop grows) or by a fixed time.
  for v in index64 index32; do
    sweep waves_strip_depth_matmul 200 --kernel matmul --size 128x4224,128x8448 --depth 256,512,2048,4096 \
      --schedules column:128 --blocks 128 --variants "$v"
  done
fi

if want smem; then
  for s in 0 5120 11264; do
    for v in index64 index32; do
      sweep smem_matmul 200 --kernel matmul --size 1024x1024 --schedules linear,column:32,column:128,tiled:32x32,morton \
        --blocks 128 --variants "$v" --smem-per-block "$s"
      sweep smem_stencil 200 --kernel stencil --size 4096x4096 --stencil 9x9 \
        --schedules linear,column:32,column:128,tiled:32x32,morton --blocks 128 --variants "$v" --smem-per-block "$s"
    done
    # The carve-out the driver took (one launch: the attributes are the same for every schedule).
    timeout 120 ncu --csv --page raw --print-units base --kernel-name-base demangled --kernel-name regex:ProfiledLaunch \
      --metrics launch__shared_mem_config_size,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_shared_mem,launch__occupancy_limit_threads \
      "$BIN" --counters ncu --kernel matmul --size 1024x1024 --schedules linear --blocks 128 --reps 1 --warmup 0 --no-check \
      --smem-per-block "$s" --out "$OUT/logs/smem_rows_$s.csv" >>"$OUT/logs/smem_carveout.log" 2>&1
    echo "carve-out run for $s: rc=$?"
  done
  ncu_raw_rows "$OUT/logs/smem_carveout.log" "$OUT/smem_carveout.csv"
fi

if want smem256; then
  for s in 0 11264 16384 24576; do
    sweep smem256_matmul 200 --kernel matmul --size 1024x1024 --schedules linear,column:32,column:128,tiled:32x32,morton \
      --blocks 256 --variants index64 --smem-per-block "$s"
  done
fi

if want smem2; then
  SMEM2_SCHEDULES=linear,column:32,column:64,column:128,tiled:32x32,morton
  for v in index64 index32; do
    for s in 6144 11264; do
      sweep smem2_matmul 200 --kernel matmul --size 1536x1536 --depth 1536 --schedules "$SMEM2_SCHEDULES" --blocks 96 \
        --variants "$v" --smem-per-block "$s"
    done
    sweep smem2_stencil 200 --kernel stencil --size 2048x2048 --stencil 7x7 --schedules "$SMEM2_SCHEDULES" --blocks 128 \
      --variants "$v" --smem-per-block 11264
  done
  for v in index64 index32 unroll1; do
    sweep smem2_matmul 200 --kernel matmul --size 1024x1024 --depth 512 --schedules "$SMEM2_SCHEDULES" --blocks 128 \
      --variants "$v" --smem-per-block 8192
  done
  sweep smem2_matmul 200 --kernel matmul --size 2048x2048 --depth 1024 --schedules "$SMEM2_SCHEDULES" --blocks 256 \
    --variants index64 --smem-per-block 16384
fi

# launch_attributes NAME SMEM_LIST gpubench-args...: Nsight Compute's launch attributes of one launch
# per configuration and shared memory, trimmed to the launch's shape and its launch__ columns
# (the raw page has some 200 columns more), into $OUT/NAME.csv.
launch_attributes() {
  local name=$1 smems=$2 s
  shift 2
  for s in ${smems//,/ }; do
    timeout 120 ncu --csv --page raw --print-units base --kernel-name-base demangled --kernel-name regex:ProfiledLaunch \
      --metrics launch__shared_mem_config_size,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_limit_registers \
      "$BIN" --counters ncu --reps 1 --warmup 0 --no-check --smem-per-block "$s" "$@" \
      --out "$OUT/logs/${name}_rows_$s.csv" >>"$OUT/logs/$name.log" 2>&1
    echo "$name: launch attributes for $s bytes: rc=$?"
  done
  ncu_raw_rows "$OUT/logs/$name.log" "$OUT/logs/${name}_raw.csv"
  python3 - "$OUT/logs/${name}_raw.csv" "$OUT/$name.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
keep = ["Block Size", "Grid Size"] + sorted(k for k in rows[0] if k.startswith("launch__"))
with open(sys.argv[2], "w", newline="") as out:
    w = csv.DictWriter(out, fieldnames=keep, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
EOF
}

if want smem_waves; then
  for v in index64 index32; do
    sweep smem_waves_matmul 300 --kernel matmul --size 1024x256,1024x1056,1024x4224,1024x8448 --depth 1024 \
      --schedules linear,column:32,column:128,tiled:32x32 --blocks 128 --variants "$v" --smem-per-block 11264
    sweep smem_waves_matmul 300 --kernel matmul --size 1024x256,1024x1056,1024x4224,1024x8448 --depth 1024 \
      --schedules linear,column:32,column:128,tiled:32x32 --blocks 256 --variants "$v" --smem-per-block 24064
  done
  launch_attributes smem_waves_carveout 11264,24064 --kernel matmul --size 1024x1056 --depth 16 --schedules linear \
    --blocks 128,256
fi

if want eight_blocks; then
  for v in index64 index32; do
    sweep eight_blocks_matmul 300 --kernel matmul --size 1024x1024,1024x2816 --depth 1024 \
      --schedules linear,column:32,column:128,tiled:32x32 --blocks 128 --variants "$v" --smem-per-block 27648
  done
  launch_attributes eight_blocks_carveout 27648 --kernel matmul --size 1024x1024 --depth 16 --schedules linear --blocks 128
fi

if want block_sizes; then
  # one grid and depth (6.06 waves at every block size), four block sizes
  for v in index32 index64; do
    sweep block_sizes_matmul 300 --kernel matmul --size 1280x1280 --depth 640 \
      --schedules linear,column:32,column:128 --blocks 128,192,256,384 --variants "$v"
  done
fi

if want widths; then
  # one number of threads (6.06 waves), depth and block, three widths: 5, 10 and 20 strips of 128 columns
  sweep widths_matmul 300 --kernel matmul --size 640x2560,1280x1280,2560x640 --depth 640 \
    --schedules linear,column:32,column:128 --blocks 128 --variants index32
  # the same at depth 512 and 7.76 waves: 4 and 16 strips
  sweep widths_matmul 300 --kernel matmul --size 512x4096,2048x1024 --depth 512 \
    --schedules linear,column:32,column:128 --blocks 128 --variants index32
fi

if want carveout; then
  launch_attributes carveout 0,1024,2048,3072,4096,5120,6144,8192,11264,12288,16384,24576,32768,49152 \
    --kernel matmul --size 1024x1024 --depth 16 --schedules linear --blocks 32,64,96,128,192,256,384,512,768,1024
fi

if want carveout_check; then
  CHECK_SMEM=0,512,1536,2560,3584,7168,9216,14336,20480,28672,40960
  launch_attributes carveout_check_matmul $CHECK_SMEM \
    --kernel matmul --size 1024x1024 --depth 16 --schedules linear --blocks 160,224,320,448,640,896
  launch_attributes carveout_check_stencil $CHECK_SMEM \
    --kernel stencil --size 1024x1024 --schedules linear --blocks 128,256,512,1024
  # a few of carveout.csv's own launches again, after the others: the same choice or not
  launch_attributes carveout_check_repeat 0,5120 \
    --kernel matmul --size 1024x1024 --depth 16 --schedules linear --blocks 128,256,512
fi

if want carveout_edges; then
  launch_attributes carveout_edges_none 0 --kernel matmul --size 1024x1024 --depth 16 --schedules linear \
    --blocks "$(seq -s, 32 32 1024)"
  launch_attributes carveout_edges_large 2048,3072,8192 --kernel matmul --size 1024x1024 --depth 16 \
    --schedules linear --blocks 800,832,864,928,960,992,1024
fi

for f in "$OUT"/*.csv; do [ -e "$f" ] && echo "$(basename "$f"): $(($(wc -l <"$f") - 1)) rows"; done
pack_logs >/dev/null
