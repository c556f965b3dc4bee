#!/usr/bin/env bash
# How far the naive matmul's warps drift apart on the H200 (the naive matmul's L1 hit
# rate): progressprobe's per-warp timestamps every 32 k, and the same launches under Nsight Compute
# for their L1 hit rate (with the instrumentation in place, and with only start and end samples).
# Builds with CMake + nvcc only. Usage: scripts/device_progress.sh [probe|warps|stencil|ends|index32|progress_widths|tile_progress|knee_ends|knee_ends_warm|knee_ends_warm_orders|waves|wave_ends|refill_ends|width_ends|width_ends64|tile_ends|naive32_ends|naive32_progress|block_starts|wide_strips|one_warp_blocks]. Writes under $OUT
# (default ./device-out):
#   knee_ends: when each warp of the knee probe's launches ends (the matmul at depth 3072, one wave
#   of m warps on every scheduler; scripts/device_issue_cost.sh knee), per compilation, and of the
#   depth probe's 768^2 index32 launches at depth 3072 (environment: KNEE_SIZES, KNEE_DEPTH,
#   DEPTH_SIZES and VARIANTS replace the launches and the compilations)
#   knee_ends_<compilation>.csv.gz      per warp: configuration, launch, block, warp, SM, slot, end_ns
#   knee_ends_ncu.csv                   ncu's raw page for the profiled and the end-stamped launches
#   knee_ends_rows.csv                  their configurations, one row per pair of ncu rows, in order
#   knee_ends_warm: the same warp ends of the knee's first layout at 12 and 16 warps a scheduler,
#   each launch started with its arrays in the L2 (gpubench --warm-l2; no profiled launches)
#   knee_ends_warm_<compilation>.csv.gz as knee_ends
#   knee_ends_warm_orders: the knee's 128x2112 (16 warps a scheduler), 32-bit build, started warm, in
#   three orders: whether the pace of the blocks an SM leaves behind depends on which blocks share
#   knee_ends_warm_orders_<schedule>.csv.gz as knee_ends (schedule with ':' as '-')
#   probe (default):
#   progress_<schedule>_<block>.csv.gz  per warp: launch, block, warp, SM, warp slot, times (ns)
#   progress_ncu.csv                    ncu's raw page, one row per profiled launch
#   warps: gpubench's own matmul (loads compiled as in the measured kernel), --warp-times
#   warps_<schedule>.csv.gz             per warp: configuration, launch, block, warp, SM, slot,
#                                       start and end (ns); blocks 128/256/1024
#   warps_ncu.csv                       ncu's raw page for the placed and the profiled launches
#   stencil: the same for the 4096x4096 stencils whose L2 rate the model misses, and a control
#   stencil_<stencil>_<schedule>_<block>.csv.gz  per warp: launch,block,warp,sm,start_ns,end_ns
#                                       (the configuration is in the name: the files stay small)
#   stencil_ncu.csv                     ncu's raw page (L1, L2 near/far, coalesced, DRAM)
#   index32: progressprobe --index32 (32-bit load addresses, a loop a pipe limits) at 768^3
#   progress_index32_<schedule>_<block>.csv.gz, progress32_ncu.csv  as probe, for linear,
#                                       column:64 and column:128 at blocks 128/256
#   progress_widths: progressprobe --index32 (a sample every 64 k, one launch) at the held-out
#   1024x1024 depth 512 and the width probes' 1280x1280, 512x4096 and 2048x1024 at depth 640, block
#   128, column:128 and the naive order: how fast each warp runs while it runs, for a replay of the
#   chip's own pace (cachesim simulate --warp-times)
#   progress_widths.tar                 progress_widths/progress_<W>x<H>_d<D>_index32_<schedule>_128.csv.gz
#                                       per warp as probe; progress_widths_ncu.csv, ncu's raw page (a
#                                       sample every 64 k, then start and end only, per layout in that
#                                       order) and progress_widths_rows.csv, its layouts
#   tile_progress: progressprobe --index32 (a sample every 64 k, one launch) at the tile probe's
#   1280x1280, depth 1280, block 96 (in no set), linear, column:16 and tiled:32x32: how far apart
#   a block's three warps run in the middle of its loop
#   tile_progress.tar                   tile_progress/progress_1280x1280_d1280_index32_<schedule>_96.csv.gz
#                                       per warp as probe, tile_progress_ncu.csv, ncu's raw page (a
#                                       sample every 64 k, then start and end only), and
#                                       tile_progress_rows.csv, the layout
#   ends: the naive matmul's EndStampedLaunch (only warp ends recorded, after the loop)
#   ends_linear.csv.gz                  per warp: configuration, launch, block, warp, SM, slot, end_ns
#   ends_ncu.csv                        ncu's raw page for the end-stamped and the profiled launches
#   waves: the many-wave matmuls whose column:128 the model's L1 puts too high (2048^2 at depth
#   1024 and 1792^2 at depth 768, block 128), with column:32 and the naive order beside them,
#   gpubench --warp-times
#   waves.tar                           waves_<size>_<schedule>.csv.gz per warp (as warps), and
#                                       waves_ncu.csv, ncu's raw page for the placed and the
#                                       profiled launches
#   wave_ends: when each warp of the wave probes' 32-bit build ends (the matmul at height 2048, depth
#   1024, block 128, widths 256 to 4096: 2 to 31 waves), and of the unrolled-once build at the
#   second fresh set's 1280x2560, depth 640, block 256, whose stamped loops are those Nsight
#   Compute measures beside them
#   wave_ends.tar                       wave_ends/wave_ends_<compilation>.csv.gz per warp (as
#                                       knee_ends), wave_ends_ncu.csv (the profiled and the
#                                       end-stamped launches) and wave_ends_rows.csv (their
#                                       configurations, one row per pair of ncu rows, in order)
#   refill_ends: the same for the unrolled-once build at the wave probes' 1024x2048, depth 1024,
#   blocks 128 and 256, in five orders (linear, column:16, column:128, tiled:32x32, morton): which
#   blocks an SM receives together when several of its blocks end at once
#   refill_ends.tar                     refill_ends/refill_ends_unroll1.csv.gz, refill_ends_ncu.csv
#                                       and refill_ends_rows.csv (as wave_ends)
#   width_ends: the same for the 32-bit build at the width probes' layouts (scripts/device_heldout.sh
#   widths: the same threads at several widths, so the same waves), 640x2560, 1280x1280, 2560x640,
#   512x4096 and 2048x1024 at depths 512 and 640, block 128, column:128 and the naive order: which
#   blocks of an SM read the same columns of B and start together, wave after wave
#   width_ends.tar                      width_ends/width_ends_index32.csv.gz, width_ends_ncu.csv
#                                       and width_ends_rows.csv (as wave_ends)
#   tile_ends: the same for the 32-bit build at 1280^3 with blocks of 96 (in no set), six orders:
#   whether orders whose blocks share one array's recently first-read lines end together
#   tile_ends.tar                       tile_ends/tile_ends_index32.csv.gz, tile_ends_ncu.csv and
#                                       tile_ends_rows.csv (as wave_ends)
#   naive32_ends: the same for the 32-bit naive-order probes' eight launches (scripts/device_heldout.sh
#   naive32_matmul): which blocks of an SM end together where the model's L1 came out right and
#   where it came out 13.7 points high
#   naive32_ends.tar                    naive32_ends/naive32_ends_<size>.csv.gz per launch,
#                                       naive32_ends_ncu.csv and naive32_ends_rows.csv (as wave_ends)
#   naive32_progress: progressprobe --index32 (a sample every 64 k, one launch) at the naive-order
#   probes whose L1 rests on other blocks (blocks of 128, 64, 96 and 320), for a replay of the
#   chip's own pace
#   naive32_progress_b<block>.tar       as progress_widths, one folder a block size
#   width_ends64: the same launches of the 64-bit build (a loop the issue port limits)
#   width_ends64.tar                    width_ends64/width_ends64_index64.csv.gz, width_ends64_ncu.csv
#                                       and width_ends64_rows.csv
#   block_starts: where and when each block of the 4096x4096 3x3 stencil (column:128, linear and
#   column:32, two launches each) and of the 9x9 (column:128, one launch) starts and ends, at
#   block 128 (gpubench --placement): how far apart consecutive blocks start
#   placement_stencil3x3.csv.gz, placement_stencil9x9.csv.gz   per block: configuration, launch,
#                                       block, SM, start_ns, end_ns
#   times_stencil3x3.csv, times_stencil9x9.csv   gpubench's rows of the same configurations
#   wide_strips: progressprobe (64-bit addresses, a sample every 64 k, one launch) on the 1024^3
#   matmul in strips of 128, 256 and 512 columns at blocks 128 and 256, where the model's L1 is
#   right for the first and 4-17 points too high for the others; and gpubench's own kernel in the
#   same launches with its counters (CUPTI, three profiled launches each)
#   wide_strips.tar                     wide_strips/progress_1024x1024_d1024_<schedule>_<block>.csv.gz
#                                       per warp as probe, wide_strips_ncu.csv (a sample every 64 k,
#                                       then start and end only), wide_strips_rows.csv and
#                                       wide_strips_gpubench.csv (gpubench's rows)
#   one_warp_blocks: gpubench's matmul (1024^3, the naive order and strips of 512 columns, blocks 32,
#   64 and 128) with --placement and --warp-times, where the model's L1 is up to 32 points too low
#   at blocks of one warp; and Nsight Compute on the placed and the profiled launches
#   one_warp_blocks.tar                 one_warp_blocks/placement_<schedule>.csv.gz,
#                                       one_warp_blocks/warps_<schedule>.csv.gz (as warps) and
#                                       one_warp_blocks/one_warp_blocks_ncu.csv
#   logs.tar.gz                         build log, environment
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
MODE=${1:-probe}
case $MODE in probe|warps|stencil|ends|index32|progress_widths|tile_progress|knee_ends|knee_ends_warm|knee_ends_warm_orders|waves|wave_ends|refill_ends|width_ends|width_ends64|tile_ends|naive32_ends|naive32_progress|block_starts|wide_strips|one_warp_blocks) ;; *) echo "unknown mode $MODE" >&2; exit 2;; esac
mkdir -p "$OUT/logs"
. scripts/device_common.sh
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/logs/environment.txt" 2>&1

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target progressprobe gpubench >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }

if [ "$MODE" = ends ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  cuobjdump -sass "$GPUBENCH" >"$OUT/logs/gpubench.sass" 2>&1
  echo "== warp ends"
  "$GPUBENCH" --kernel matmul --size 1024x1024 --blocks 128,256,1024 --schedules linear --counters none --reps 1 \
    --warmup 1 --placement-reps 2 --warp-ends "$OUT/ends_linear.csv" --out "$OUT/logs/times_ends.csv" 2>>"$OUT/logs/ends.log"
  echo "rc=$?"
  gzip -9 "$OUT/ends_linear.csv"
  echo "== ncu"
  METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
  timeout 300 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled \
    --kernel-name "regex:(EndStamped|Profiled)Launch" --cache-control all --clock-control none \
    "$GPUBENCH" --kernel matmul --size 1024x1024 --blocks 128,256,1024 --schedules linear \
    --counters ncu --reps 1 --warmup 1 --placement-reps 2 --warp-ends /tmp/e.csv --out /tmp/rows.csv \
    >"$OUT/logs/ncu_ends.csv" 2>"$OUT/logs/ncu_ends.log"
  echo "rc=$?"
  ncu_raw_rows "$OUT/logs/ncu_ends.csv" "$OUT/ends_ncu.csv"
  pack_logs
  exit 0
fi

# warm_knee_ends NAME SIZES SCHEDULE VARIANT: the warp ends of the knee's launches at SIZES, started
# with their arrays in the L2, into $OUT/knee_ends_NAME.csv.gz
warm_knee_ends() {
  local name=$1 sizes=$2 schedule=$3 variant=$4
  "$GPUBENCH" --kernel matmul --size "$sizes" --depth 3072 --blocks 128 --schedules "$schedule" --variants "$variant" \
    --counters none --reps 1 --warmup 1 --placement-reps 2 --warm-l2 --no-check \
    --warp-ends "$OUT/ends_$name.csv" --out "$OUT/logs/times_$name.csv" 2>>"$OUT/logs/ends.log"
  echo "warm warp ends $name rc=$?"
  gzip -9 <"$OUT/ends_$name.csv" >"$OUT/knee_ends_$name.csv.gz" && rm -f "$OUT/ends_$name.csv"
}

if [ "$MODE" = knee_ends_warm_orders ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  for schedule in linear tiled:32x32 column:32; do warm_knee_ends "warm_orders_${schedule//:/-}" 128x2112 "$schedule" index32; done
  pack_logs
  exit 0
fi

if [ "$MODE" = knee_ends_warm ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  for v in index32 index64; do warm_knee_ends "warm_$v" 128x1584,128x2112 linear "$v"; done
  pack_logs
  exit 0
fi

if [ "$MODE" = knee_ends ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  cuobjdump -sass "$GPUBENCH" >"$OUT/logs/gpubench.sass" 2>&1
  # the knee's first layout (every block the same lines of B) at 8/12/16 warps a scheduler, its
  # second (each column of blocks its own lines), and the depth probe's longest 768^2 loop
  # (KNEE_SIZES, KNEE_DEPTH and DEPTH_SIZES replace the launches, VARIANTS the compilations)
  KNEE=(--kernel matmul --size "${KNEE_SIZES:-128x1056,128x1584,128x2112,16896x8,16896x12,16896x16}"
        --depth "${KNEE_DEPTH:-3072}" --blocks 128 --schedules linear)
  DEPTH=(--kernel matmul --size "${DEPTH_SIZES:-768x768}" --depth 3072 --blocks 128,256 --schedules linear,column:128)
  METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,gpc__cycles_elapsed.max
  VARIANTS=(${VARIANTS:-index32 index64})
  for v in "${VARIANTS[@]}"; do
    echo "== warp ends $v"
    for args in KNEE DEPTH; do
      declare -n a=$args
      "$GPUBENCH" "${a[@]}" --variants "$v" --counters none --reps 1 --warmup 1 --placement-reps 2 \
        --warp-ends "$OUT/ends_${args}_$v.csv" --out "$OUT/logs/times_${args}_$v.csv" 2>>"$OUT/logs/ends.log"
      echo "$args rc=$?"
      unset -n a
    done
    { cat "$OUT/ends_KNEE_$v.csv"; tail -n +2 "$OUT/ends_DEPTH_$v.csv"; } | gzip -9 >"$OUT/knee_ends_$v.csv.gz"
    rm -f "$OUT/ends_KNEE_$v.csv" "$OUT/ends_DEPTH_$v.csv"
    echo "== ncu $v"
    for args in KNEE DEPTH; do
      declare -n a=$args
      timeout 200 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled \
        --kernel-name "regex:(EndStamped|Profiled)Launch" --cache-control all --clock-control none \
        "$GPUBENCH" "${a[@]}" --variants "$v" --counters ncu --reps 1 --warmup 0 --placement-reps 1 \
        --warp-ends /tmp/e.csv --out "$OUT/logs/rows_${args}_$v.csv" \
        >>"$OUT/logs/ncu_knee_ends.csv" 2>>"$OUT/logs/ncu_knee_ends.log"
      echo "ncu $args rc=$?"
      unset -n a
    done
  done
  ncu_raw_rows "$OUT/logs/ncu_knee_ends.csv" "$OUT/knee_ends_ncu.csv"
  # the configurations of those ncu rows (a profiled and an end-stamped launch each), in order
  { head -1 "$OUT/logs/rows_KNEE_${VARIANTS[0]}.csv"
    for v in "${VARIANTS[@]}"; do for args in KNEE DEPTH; do tail -n +2 "$OUT/logs/rows_${args}_$v.csv"; done; done
  } >"$OUT/knee_ends_rows.csv"
  pack_logs
  exit 0
fi

# Warp ends and the Nsight Compute pairs of the gpubench argument arrays named after the directory
# name: $1 the directory (and file stem), the rest the arrays' names.
ends_with_ncu() {
  local dir=$1 args v
  shift
  local GPUBENCH=build-device/apps/gpubench/gpubench
  mkdir -p "$OUT/$dir"
  cuobjdump -sass "$GPUBENCH" >"$OUT/logs/gpubench.sass" 2>&1
  local METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum,gpc__cycles_elapsed.max
  : >"$OUT/$dir/${dir}_rows.csv"
  for args in "$@"; do
    declare -n a=$args
    v=${a[-1]}
    echo "== warp ends $args"
    "$GPUBENCH" "${a[@]}" --counters none --reps 1 --warmup 1 --placement-reps 1 \
      --warp-ends "/tmp/ends_$v.csv" --out "$OUT/logs/times_$v.csv" 2>>"$OUT/logs/ends.log"
    echo "rc=$?"
    gzip -9 -c "/tmp/ends_$v.csv" >"$OUT/$dir/${dir}_$v.csv.gz"
    echo "== ncu $args"
    timeout 240 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled \
      --kernel-name "regex:(EndStamped|Profiled)Launch" --cache-control all --clock-control none \
      "$GPUBENCH" "${a[@]}" --counters ncu --reps 1 --warmup 0 --placement-reps 1 \
      --warp-ends /tmp/e.csv --out "$OUT/logs/rows_$v.csv" \
      >>"$OUT/logs/ncu_$dir.csv" 2>>"$OUT/logs/ncu_$dir.log"
    echo "ncu rc=$?"
    if [ ! -s "$OUT/$dir/${dir}_rows.csv" ]; then head -1 "$OUT/logs/rows_$v.csv" >"$OUT/$dir/${dir}_rows.csv"; fi
    tail -n +2 "$OUT/logs/rows_$v.csv" >>"$OUT/$dir/${dir}_rows.csv"
    ncu_raw_rows "$OUT/logs/ncu_$dir.csv" "$OUT/$dir/${dir}_ncu.csv"
    tar -C "$OUT" -cf "$OUT/$dir.tar.part" "$dir" && mv "$OUT/$dir.tar.part" "$OUT/$dir.tar"
    unset -n a
  done
}

if [ "$MODE" = wave_ends ]; then
  W32=(--kernel matmul --size 256x2048,512x2048,1024x2048,2048x2048,4096x2048 --depth 1024 --blocks 128
       --schedules column:128,linear,column:32 --variants index32)
  U1=(--kernel matmul --size 1280x2560 --depth 640 --blocks 256 --schedules linear,column:128,column:32
      --variants unroll1)
  ends_with_ncu wave_ends W32 U1
  pack_logs
  exit 0
fi

if [ "$MODE" = refill_ends ]; then
  U1=(--kernel matmul --size 1024x2048 --depth 1024 --blocks 128,256
      --schedules linear,column:16,column:128,tiled:32x32,morton --variants unroll1)
  ends_with_ncu refill_ends U1
  pack_logs
  exit 0
fi

if [ "$MODE" = width_ends ] || [ "$MODE" = width_ends64 ]; then
  # one launch list, the 32-bit build under width_ends and the 64-bit one under width_ends64
  if [ "$MODE" = width_ends ]; then VARIANT=index32; else VARIANT=index64; fi
  WIDTHS=(--kernel matmul --size 640x2560,1280x1280,2560x640,512x4096,2048x1024 --depth 512,640 --blocks 128
          --schedules column:128,linear --variants "$VARIANT")
  ends_with_ncu "$MODE" WIDTHS
  pack_logs
  exit 0
fi

# naive32_ends_list GPUBENCH-ARGS...: one of the naive-order probes' launches (scripts/fresh_launches.sh)
# as an argument list of its own, its size last so that each launch has its own files (ends_with_ncu)
naive32_ends_list() {
  local args=() size=""
  while [ $# -ge 2 ]; do
    if [ "$1" = --size ]; then size=$2; else args+=("$1" "$2"); fi
    shift 2
  done
  local name="N${#NAIVE32_LISTS[@]}"
  declare -g -a "$name"
  declare -n list=$name
  list=(--kernel matmul --schedules "$(set_schedules naive32)" "${args[@]}" --size "$size")
  unset -n list
  NAIVE32_LISTS+=("$name")
}

if [ "$MODE" = naive32_ends ]; then
  . scripts/fresh_launches.sh
  NAIVE32_LISTS=()
  naive32_matmul_launches naive32_ends_list
  ends_with_ncu naive32_ends "${NAIVE32_LISTS[@]}"
  pack_logs
  exit 0
fi

if [ "$MODE" = tile_ends ]; then
  TILES=(--kernel matmul --size 1280x1280 --depth 1280 --blocks 96
         --schedules linear,column:8,column:16,column:128,tiled:32x32,morton --variants index32)
  ends_with_ncu tile_ends TILES
  pack_logs
  exit 0
fi

if [ "$MODE" = block_starts ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  echo "== block starts"
  "$GPUBENCH" --kernel stencil --size 4096x4096 --stencil 3x3 --schedules column:128,linear,column:32 --blocks 128 \
    --counters none --reps 1 --warmup 1 --placement "$OUT/placement_stencil3x3.csv" --placement-reps 2 \
    --out "$OUT/times_stencil3x3.csv" 2>>"$OUT/logs/block_starts.log"
  echo "rc=$?"
  "$GPUBENCH" --kernel stencil --size 4096x4096 --stencil 9x9 --schedules column:128 --blocks 128 \
    --counters none --reps 1 --warmup 1 --placement "$OUT/placement_stencil9x9.csv" --placement-reps 1 \
    --out "$OUT/times_stencil9x9.csv" 2>>"$OUT/logs/block_starts.log"
  echo "rc=$?"
  gzip -9 "$OUT"/placement_stencil*.csv
  pack_logs
  exit 0
fi

if [ "$MODE" = stencil ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  CONFIGS="3x3:column:32:128 3x3:zigzag:32:128 3x3:column:32:256 3x3:zigzag:32:256 9x9:tiled:32x32:1024 3x3:linear:128"
  echo "== warp times"
  for c in $CONFIGS; do
    st=${c%%:*}; rest=${c#*:}; blk=${rest##*:}; sch=${rest%:*}
    name="stencil_${st}_${sch//:/-}_${blk}"
    "$GPUBENCH" --kernel stencil --size 4096x4096 --stencil "$st" --schedules "$sch" --blocks "$blk" --counters none \
      --reps 1 --warmup 1 --placement-reps 1 --warp-times "/tmp/$name.csv" --out "$OUT/logs/t_$name.csv" 2>>"$OUT/logs/warps.log"
    echo "$name rc=$?"
    awk -F, 'NR==1{print "launch,block,warp,sm,start_ns,end_ns"; next}{print $9","$10","$11","$12","$14","$15}' "/tmp/$name.csv" |
      gzip -9 >"$OUT/$name.csv.gz"
  done
  echo "== ncu"
  METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
  METRICS=$METRICS,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_srcunit_ltcfabric_op_read.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum,dram__bytes_read.sum
  METRICS=$METRICS,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum,gpu__time_duration.sum
  for c in $CONFIGS; do
    st=${c%%:*}; rest=${c#*:}; blk=${rest##*:}; sch=${rest%:*}
    timeout 120 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled \
      --kernel-name "regex:(Placed|Profiled)Launch" --cache-control all --clock-control none \
      "$GPUBENCH" --kernel stencil --size 4096x4096 --stencil "$st" --schedules "$sch" --blocks "$blk" \
      --counters ncu --reps 1 --warmup 1 --placement-reps 2 --warp-times /tmp/w.csv --out /tmp/rows.csv \
      >>"$OUT/logs/ncu_stencil.csv" 2>>"$OUT/logs/ncu_stencil.log"
    echo "ncu $c rc=$?"
  done
  ncu_raw_rows "$OUT/logs/ncu_stencil.csv" "$OUT/stencil_ncu.csv"
  pack_logs
  exit 0
fi

if [ "$MODE" = waves ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  mkdir -p "$OUT/waves"
  METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
  for launch in 2048:1024 1792:768; do
    size=${launch%:*}; depth=${launch#*:}
    for s in column:128 column:32 linear; do
      name="waves_${size}_${s/:/-}"
      "$GPUBENCH" --kernel matmul --size "${size}x$size" --depth "$depth" --blocks 128 --schedules "$s" \
        --counters none --reps 1 --warmup 1 --placement-reps 1 --warp-times "/tmp/$name.csv" \
        --out "$OUT/logs/t_$name.csv" 2>>"$OUT/logs/waves.log"
      echo "$name rc=$?"
      gzip -c "/tmp/$name.csv" >"$OUT/waves/$name.csv.gz"
    done
    timeout 200 ncu --csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled \
      --kernel-name "regex:(Placed|Profiled)Launch" --cache-control all --clock-control none \
      "$GPUBENCH" --kernel matmul --size "${size}x$size" --depth "$depth" --blocks 128 \
      --schedules column:128,column:32,linear --counters ncu --reps 1 --warmup 1 --placement-reps 2 \
      --warp-times /tmp/w.csv --out /tmp/rows.csv >>"$OUT/logs/ncu_waves.csv" 2>>"$OUT/logs/ncu_waves.log"
    echo "ncu $size rc=$?"
    ncu_raw_rows "$OUT/logs/ncu_waves.csv" "$OUT/waves/waves_ncu.csv"
    tar -C "$OUT" -cf "$OUT/waves.tar.part" waves && mv "$OUT/waves.tar.part" "$OUT/waves.tar"
  done
  pack_logs
  exit 0
fi

# placed_ncu NAME BLOCKS SCHEDULES PLACEMENT_REPS DEST: gpubench's 1024^3 matmul under Nsight Compute,
# its profiled launch and the placed ones that record warp times, into DEST (ncu's raw page).
placed_ncu() {
  local metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,gpu__time_duration.sum
  echo "== ncu"
  timeout 300 ncu --csv --page raw --print-units base --metrics "$metrics" --kernel-name-base demangled \
    --kernel-name "regex:(Placed|Profiled)Launch" --cache-control all --clock-control none \
    build-device/apps/gpubench/gpubench --kernel matmul --size 1024x1024 --blocks "$2" --schedules "$3" \
    --counters ncu --reps 1 --warmup 1 --placement-reps "$4" --warp-times /tmp/w.csv --out /tmp/rows.csv \
    >"$OUT/logs/ncu_$1.csv" 2>"$OUT/logs/ncu_$1.log"
  echo "rc=$?"
  ncu_raw_rows "$OUT/logs/ncu_$1.csv" "$5"
}

if [ "$MODE" = one_warp_blocks ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  mkdir -p "$OUT/one_warp_blocks"
  COMMON=(--kernel matmul --size 1024x1024 --blocks 32,64,128 --counters none --reps 1 --warmup 1 --placement-reps 1)
  echo "== placement and warp times"
  for s in linear column:512; do
    "$GPUBENCH" "${COMMON[@]}" --schedules "$s" --placement "$OUT/one_warp_blocks/placement_${s/:/-}.csv" \
      --warp-times "$OUT/one_warp_blocks/warps_${s/:/-}.csv" --out "$OUT/logs/times_${s/:/-}.csv" 2>>"$OUT/logs/warps.log"
    echo "$s rc=$?"
  done
  gzip -9 "$OUT"/one_warp_blocks/*.csv
  placed_ncu one_warp 32,64,128 linear,column:512 1 "$OUT/one_warp_blocks/one_warp_blocks_ncu.csv"
  tar -C "$OUT" -cf "$OUT/one_warp_blocks.tar" one_warp_blocks && rm -rf "${OUT:?}/one_warp_blocks"
  pack_logs
  exit 0
fi
if [ "$MODE" = warps ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  cuobjdump -sass "$GPUBENCH" >"$OUT/logs/gpubench.sass" 2>&1
  COMMON=(--kernel matmul --size 1024x1024 --blocks 128,256,1024 --counters none --reps 1 --warmup 1)
  echo "== warp times"
  for s in linear column:8 column:32 column:128 zigzag:32; do
    reps=1; [ "$s" = linear ] && reps=3
    "$GPUBENCH" "${COMMON[@]}" --schedules "$s" --placement-reps $reps --warp-times "$OUT/warps_${s/:/-}.csv" \
      --out "$OUT/logs/times_${s/:/-}.csv" 2>>"$OUT/logs/warps.log"
    echo "$s rc=$?"
  done
  gzip "$OUT"/warps_*.csv
  placed_ncu warps 128,256,1024 linear,column:32 2 "$OUT/warps_ncu.csv"
  pack_logs
  exit 0
fi
BIN=build-device/apps/gpubench/progressprobe
cuobjdump -sass "$BIN" >"$OUT/logs/progressprobe.sass" 2>&1

# progress_ncu NAME FULL ARGS...: progressprobe ARGS under Nsight Compute, a sample every 32 k and
# then start and end only (--every FULL), into $OUT/NAME.
progress_ncu() {
  local name=$1 full=$2
  shift 2
  local metrics=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
  metrics=$metrics,lts__t_sectors_srcunit_tex_op_read.sum,sm__cycles_elapsed.max,gpu__time_duration.sum
  local flags=(--csv --page raw --print-units base --metrics "$metrics" -k regex:progress --cache-control all
               --clock-control none)
  echo "== ncu"
  timeout 300 ncu "${flags[@]}" "$BIN" /tmp/every32 "$@" --launches 1 >"$OUT/logs/ncu_$name" 2>"$OUT/logs/ncu_$name.log"
  echo "rc=$?"
  timeout 300 ncu "${flags[@]}" "$BIN" /tmp/everyfull "$@" --launches 1 --every "$full" >>"$OUT/logs/ncu_$name" \
    2>>"$OUT/logs/ncu_$name.log"
  echo "rc=$?"
  ncu_raw_rows "$OUT/logs/ncu_$name" "$OUT/$name"
}

# progress_layouts NAME SCHEDULES BLOCKS WxH:DEPTH...: progressprobe --index32 (a sample every 64 k,
# one launch) at each layout, then progress_ncu of the same, into $OUT/NAME.tar: NAME/
# progress_<W>x<H>_d<D>_index32_<schedule>_<block>.csv.gz, NAME_ncu.csv (ncu's raw page, per
# layout the sampled launches, then the same with start and end only) and NAME_rows.csv (the layouts).
# INDEX32=0 records the 64-bit build instead (files without _index32).
progress_layouts() {
  local name=$1 schedules=$2 block=$3 layout size depth
  shift 3
  mkdir -p "$OUT/$name"
  echo "width,height,depth" >"$OUT/$name/${name}_rows.csv"
  : >"$OUT/logs/ncu_all_$name"
  for layout in "$@"; do
    size=${layout%%:*} depth=${layout##*:}
    local args=(--index32 "${INDEX32:-1}" --size "$size" --depth "$depth" --schedules "$schedules" --blocks "$block" --every 64)
    "$BIN" "$OUT/$name/progress_${size}_d$depth" "${args[@]}" --launches 1
    echo "rc=$?"
    progress_ncu "ncu_$size.csv" "$depth" "${args[@]}"
    cat "$OUT/ncu_$size.csv" >>"$OUT/logs/ncu_all_$name" && rm "$OUT/ncu_$size.csv"
    echo "${size%x*},${size#*x},$depth" >>"$OUT/$name/${name}_rows.csv"
  done
  ncu_raw_rows "$OUT/logs/ncu_all_$name" "$OUT/$name/${name}_ncu.csv"
  gzip -9 "$OUT/$name"/progress_*.csv
  tar -C "$OUT" -cf "$OUT/$name.tar" "$name" && rm -rf "${OUT:?}/$name"
}

echo "== timestamps"
if [ "$MODE" = progress_widths ]; then
  progress_layouts progress_widths linear,column:128 128 1024x1024:512 1280x1280:640 512x4096:640 2048x1024:640
elif [ "$MODE" = wide_strips ]; then
  INDEX32=0 progress_layouts wide_strips column:128,column:256,column:512 128,256 1024x1024:1024
  echo "== gpubench"
  GPUBENCH=build-device/apps/gpubench/gpubench
  timeout 400 "$GPUBENCH" --kernel matmul --size 1024x1024 --blocks 128,256 --schedules column:128,column:256,column:512 \
    --profile-reps 3 --reps 3 --warmup 1 --out "$OUT/wide_strips_gpubench.csv" 2>"$OUT/logs/gpubench.log"
  echo "rc=$?"
elif [ "$MODE" = naive32_progress ]; then
  # the 32-bit naive-order probes whose L1 rests on other blocks, one folder a block size
  progress_layouts naive32_progress_b128 linear 128 640x1280:1280 896x896:1792 2048x1536:512
  progress_layouts naive32_progress_b64 linear 64 704x1408:1408
  progress_layouts naive32_progress_b96 linear 96 768x1536:1024
  progress_layouts naive32_progress_b320 linear 320 1024x1280:640
elif [ "$MODE" = tile_progress ]; then
  progress_layouts tile_progress tiled:32x32,column:16,linear 96 1280x1280:1280
elif [ "$MODE" = index32 ]; then
  ARGS=(--index32 1 --size 768 --schedules linear,column:64,column:128 --blocks 128,256)
  "$BIN" "$OUT/progress" "${ARGS[@]}" --launches 2
  echo "rc=$?"
  gzip "$OUT"/progress_index32_*.csv
  progress_ncu progress32_ncu.csv 768 "${ARGS[@]}"
else
  "$BIN" "$OUT/progress" --schedules linear --launches 2 && "$BIN" "$OUT/progress" --schedules column:32 --launches 1
  echo "rc=$?"
  gzip "$OUT"/progress_*.csv
  progress_ncu progress_ncu.csv 1024
fi
pack_logs
