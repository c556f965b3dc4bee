#!/usr/bin/env bash
# What each request of a compiled loop costs its warp scheduler (docs/model-studies.md, "Issue cost"):
# builds gpubench with CMake + nvcc only and profiles, under Nsight Compute (clocks untouched),
# probe launches that are in no validation set -- the stencils on 1024x1024 (block 256, linear;
# every box gpubench specialises and three it does not) and the matmul on 512x512, depth 512
# (block 128, linear) -- each compiled three ways, with the issue and pipe counters; and, to see
# why the 32-bit build of the matmul shares less in L1, the warp states (why warps did not issue)
# of held-out launches compiled both ways; and the knee: how many warps a scheduler runs at full
# speed in each compiled matmul loop (the same loop with 1 to 16 warps per scheduler, one wave:
# cycles stay flat while each warp's own latency limits it and grow once the scheduler does); and
# the probe loops' executed instructions, PC by PC (what a recorded trace holds), beside each pipe's
# instructions and active cycles, to check the opcode-to-pipe table a recorded kernel's loop is
# read with (docs/trace-format.md). Usage:
#   scripts/device_issue_cost.sh [probe|states|knee|knee_timed|opcodes|all]   (default all: probe and states)
# Writes under $OUT (default ./device-out): probe: ncu_{stencil,matmul}.csv (ncu --page raw),
# rows_{stencil,matmul}.csv (gpubench's rows, in the same order; scripts/issue_cost_table.py
# turns them into issue_cost.csv); states: warp_states_{1536,1024}.csv and
# rows_warp_states_{1536,1024}.csv; knee: {knee,knee_spread}.csv and rows_{knee,knee_spread}.csv;
# knee_timed: knee_timed_{cold,warm}.csv, the knee's first layout timed by gpubench alone (no
# profiler), each launch started with a cold L2 and with its arrays in the L2 (--warm-l2): whether
# the warps a scheduler runs at a lone warp's pace depend on where the loop's data comes from;
# opcodes: opcodes_source.csv (ncu --page source: every SASS instruction of each probe launch with
# its executed warp instructions, launch after launch), opcodes_raw.csv (the launches' counters),
# rows_opcodes.csv (gpubench's rows), likewise opcodes_o1_* for gpubench built with ptxas -O1;
# and environment.txt.
set -u -o pipefail
cd "$(dirname "$0")/.."
PART=${1:-all}
case $PART in probe|states|knee|knee_timed|opcodes|all) ;; *) echo "unknown part $PART (probe, states, knee, knee_timed, opcodes or all)" >&2; exit 2;; esac
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target gpubench >>"$OUT/logs/build.log" 2>&1 ||
  { tail -20 "$OUT/logs/build.log"; exit 1; }
BIN=build-device/apps/gpubench/gpubench
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/environment.txt"
M=gpc__cycles_elapsed.max,sm__cycles_active.sum,smsp__inst_executed.sum,sm__inst_executed_pipe_lsu.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__issue_active.avg.per_cycle_active
for p in alu fma fmaheavy fmalite fp64 lsu uniform xu adu cbu tensor; do M=$M,sm__pipe_${p}_cycles_active.sum; done
run() {
  local name=$1
  shift
  timeout 200 ncu --csv --page raw --print-units base --kernel-name-base demangled --kernel-name regex:ProfiledLaunch \
    --cache-control all --clock-control none --metrics "$M" \
    "$BIN" --counters ncu "$@" --variants index64,index32,unroll1 --reps 1 --warmup 0 --no-check \
    --out "$OUT/rows_$name.csv" >"$OUT/ncu_$name.csv" 2>"$OUT/logs/$name.err"
  echo "rc=$? $name"
}
if [ "$PART" = opcodes ]; then
  . scripts/device_common.sh
  ncu --version >>"$OUT/environment.txt"
  # Each pipe's instructions and active cycles, where this ncu knows the metric.
  ncu --query-metrics --chip gh100 >"$OUT/logs/query_metrics.txt" 2>&1
  OPM=smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  for p in alu fma fmaheavy fmalite fp64 lsu uniform xu adu cbu tensor fp16; do
    for m in smsp__inst_executed_pipe_$p sm__pipe_${p}_cycles_active; do
      grep -q "^$m " "$OUT/logs/query_metrics.txt" && OPM=$OPM,$m.sum
    done
  done
  echo "$OPM" >"$OUT/logs/opcode_metrics.txt"
  # opcode_run NAME GPUBENCH ARGS...: the launches with the source counters into a report, then its
  # source page (SASS, executed instructions per PC) and raw page.
  opcode_run() {
    local name=$1 bin=$2
    shift 2
    timeout 300 ncu --kernel-name-base demangled --kernel-name regex:ProfiledLaunch --cache-control all \
      --clock-control none --section SourceCounters --metrics "$OPM" -f -o "$OUT/logs/$name" \
      "$bin" --counters ncu "$@" --variants index64,index32,unroll1 --reps 1 --warmup 0 --no-check \
      --out "$OUT/rows_$name.csv" >"$OUT/logs/$name.log" 2>&1
    echo "rc=$? $name"
    ncu -i "$OUT/logs/$name.ncu-rep" --page source --csv --print-source sass >"$OUT/${name}_source.csv" 2>"$OUT/logs/${name}_source.err"
    echo "rc=$? $name source"
    ncu -i "$OUT/logs/$name.ncu-rep" --page raw --csv --print-units base >"$OUT/logs/${name}_raw_all.csv" 2>&1
    ncu_raw_rows "$OUT/logs/${name}_raw_all.csv" "$OUT/${name}_raw.csv"
  }
  opcode_run opcodes_stencil "$BIN" --kernel stencil --size 1024x1024 --stencil 3x3,5x5,7x7,9x9,3x5,11x11,13x13 \
    --blocks 256 --schedules linear
  opcode_run opcodes_matmul "$BIN" --kernel matmul --size 512x512 --depth 512 --blocks 128 --schedules linear
  cmake -S . -B build-device-o1 -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release "-DCMAKE_CUDA_FLAGS=-Xptxas -O1" \
    >"$OUT/logs/build_o1.log" 2>&1 &&
    cmake --build build-device-o1 -j"$(nproc)" --target gpubench >>"$OUT/logs/build_o1.log" 2>&1 &&
    opcode_run opcodes_o1_matmul build-device-o1/apps/gpubench/gpubench --kernel matmul --size 512x512 --depth 512 \
      --blocks 128 --schedules linear
  pack_logs
  exit 0
fi
# The knee's warps a scheduler (one wave of 132 x m blocks of 128 threads: m on each scheduler);
# knee_timed takes others from KNEE_WARPS (the first must be 1, the lone warp every time is divided
# by) and the compilations from KNEE_VARIANTS.
KNEE_WARPS=${KNEE_WARPS:-1 2 3 4 6 8 12 16}
KNEE_VARIANTS=${KNEE_VARIANTS:-index64,index32}
if [ "$PART" = knee_timed ]; then
  . scripts/device_common.sh
  for start in cold warm; do
    for m in $KNEE_WARPS; do
      timeout 100 "$BIN" --counters none --kernel matmul --size "128x$((132 * m))" --depth 3072 --blocks 128 \
        --schedules linear --variants "$KNEE_VARIANTS" --reps 11 --warmup 2 --no-check \
        $([ $start = warm ] && echo --warm-l2) --out "$OUT/logs/knee_timed_${start}_$m.csv" 2>>"$OUT/logs/knee_timed.log"
      echo "rc=$? $start $m"
    done
  done
  for start in cold warm; do
    { head -1 "$OUT/logs/knee_timed_${start}_1.csv"
      for m in $KNEE_WARPS; do tail -n +2 "$OUT/logs/knee_timed_${start}_$m.csv"; done; } >"$OUT/knee_timed_$start.csv"
  done
  pack_logs
  exit 0
fi
if [ "$PART" = knee ]; then
  # 128-thread blocks of the matmul, 132*m rows, depth 3072 (a long launch): m blocks an SM in one
  # wave, so m warps on each of its four schedulers. knee: width 128, one block a row, every block
  # reading the same lines of B; knee_spread: width 128*132, 132 blocks a row, each reading its own
  # 128 columns of B (only the m blocks of a column share them).
  KNEE_METRICS=gpc__cycles_elapsed.max,sm__cycles_active.avg,smsp__issue_active.avg.per_cycle_active
  KNEE_METRICS=$KNEE_METRICS,sm__warps_active.avg.per_cycle_active,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  KNEE_METRICS=$KNEE_METRICS,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
  . scripts/device_common.sh
  for probe in knee:128:1 knee_spread:16896:132; do
    IFS=: read -r name width per_row <<<"$probe"
    for m in $KNEE_WARPS; do
      timeout 100 ncu --csv --page raw --print-units base --kernel-name-base demangled --kernel-name regex:ProfiledLaunch \
        --cache-control all --clock-control none --metrics "$KNEE_METRICS" \
        "$BIN" --counters ncu --kernel matmul --size "${width}x$((132 * m / per_row))" --depth 3072 --blocks 128 \
        --schedules linear --variants index64,index32 --reps 1 --warmup 0 --no-check \
        --out "$OUT/logs/rows_${name}_$m.csv" >"$OUT/logs/${name}_$m.csv" 2>"$OUT/logs/${name}_$m.err"
      echo "rc=$? $name $m"
    done
    for m in $KNEE_WARPS; do cat "$OUT/logs/${name}_$m.csv"; done >"$OUT/logs/${name}_all.csv"  # rows' order
    ncu_raw_rows "$OUT/logs/${name}_all.csv" "$OUT/$name.csv"
    { head -1 "$OUT/logs/rows_${name}_1.csv"; for m in $KNEE_WARPS; do tail -n +2 "$OUT/logs/rows_${name}_$m.csv"; done; } \
      >"$OUT/rows_$name.csv"
  done
  pack_logs
  exit 0
fi
if [ "$PART" != states ]; then
  run stencil --kernel stencil --size 1024x1024 --stencil 3x3,5x5,7x7,9x9,3x5,11x11,13x13 --blocks 256 --schedules linear
  run matmul --kernel matmul --size 512x512 --depth 512 --blocks 128 --schedules linear
fi
STATE_METRICS=l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,gpc__cycles_elapsed.max,smsp__inst_executed.sum
STATE_METRICS=$STATE_METRICS,sm__warps_active.avg.per_cycle_active,launch__registers_per_thread,launch__shared_mem_config_size
STATE_METRICS=$STATE_METRICS,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_blocks
STATE_METRICS=$STATE_METRICS,launch__occupancy_limit_shared_mem,smsp__issue_active.avg.pct_of_peak_sustained_active
STATE_METRICS=$STATE_METRICS,smsp__average_warp_latency_per_inst_issued.ratio
# states SIZE DEPTH BLOCK SCHEDULES: warp states, issue activity and occupancy of held-out matmul
# launches, index64 and index32.
states() {
  timeout 200 ncu --csv --page raw --print-units base --kernel-name-base demangled --kernel-name regex:ProfiledLaunch \
    --cache-control all --clock-control none --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --metrics "$STATE_METRICS" \
    "$BIN" --counters ncu --kernel matmul --size "$1x$1" --depth "$2" --blocks "$3" --schedules "$4" \
    --variants index64,index32 --reps 1 --warmup 0 --no-check --out "$OUT/rows_warp_states_$1.csv" \
    >"$OUT/warp_states_$1.csv" 2>"$OUT/logs/states_$1.err"
  echo "rc=$? states $1"
}
if [ "$PART" != probe ]; then
  states 1536 1536 96 column:128,column:64,linear,tiled:32x32
  states 1024 512 128 linear
fi
