#!/usr/bin/env bash
# Measures how the H200 counts loads of a sector that is already on its way from L2:
# l1probe's cases under Nsight Compute, with the L2 cold (ncu flushes it: the first request goes
# to DRAM) and warm (a kernel of l1probe's own reads the lines into L2 first). Builds with CMake +
# nvcc only. Usage: scripts/device_l1probe.sh [probe|lrc|pending]. Writes under $OUT (default ./device-out):
#   probe (default):
#   l1probe_cold.csv, l1probe_warm.csv            ncu's raw page, one row per probe launch
#   l1probe_cases_cold.csv, l1probe_cases_warm.csv the case table and per-warp clocks (unprofiled run)
#   lrc: the 81 fidelity configurations with the L2 request coalescer's counters (gpubench, CUPTI)
#   lrc_stencil.csv, lrc_matmul.csv
#   pending: how the L2 counts lookups of sectors on their way from DRAM (l1probe --pending)
#   l1probe_pending.csv, l1probe_cases_pending.csv  ncu's raw page (L2 cold) and the case table
#   logs.tar.gz                                    build log, SASS, the chip's lrc__ metric names
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
MODE=${1:-probe}
. scripts/device_common.sh
case $MODE in probe|lrc|pending) ;; *) echo "unknown mode $MODE" >&2; exit 2;; esac
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/logs/environment.txt" 2>&1

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target l1probe gpubench >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }
BIN=build-device/apps/gpubench/l1probe
cuobjdump -sass "$BIN" >"$OUT/logs/l1probe.sass" 2>&1

if [ "$MODE" = lrc ]; then
  GPUBENCH=build-device/apps/gpubench/gpubench
  METRICS=$(accepted_metrics "$GPUBENCH" \
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
    lts__t_sectors_srcunit_tex_op_read.sum \
    lrc__xbar2lrc_requests_op_read.sum \
    lrc__request_sectors_op_read_coalescable.sum \
    lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum \
    lrc__lts2lrc_sectors_op_read.sum \
    lrc__lrc2xbar_sectors_op_read.sum \
    lrc__lrc2xbar_sectors_op_read_coalescing_achieved.sum \
    lrc__xbar2gpc_sectors_op_read.sum)
  echo "metrics: $METRICS"
  fidelity_sweep "$GPUBENCH" "$METRICS" lrc
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  exit 0
fi

if [ "$MODE" = pending ]; then
  METRICS=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_requests_srcunit_tex_op_read.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_ltcfabric_op_read.sum,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum
  METRICS=$METRICS,lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum,dram__sectors_read.sum
  METRICS=$METRICS,lrc__request_sectors_op_read_coalescing_achieved_type_hardware.sum
  echo "metrics: $METRICS"
  "$BIN" "$OUT/l1probe_cases_pending.csv" --pending >/dev/null; echo "rc=$?"
  timeout 300 ncu --csv --page raw --print-units base --metrics "$METRICS" -k regex:probe --clock-control none \
    --cache-control all --log-file "$OUT/logs/pending_ncu.log" "$BIN" "$OUT/logs/cases_ncu_pending.csv" --pending \
    >"$OUT/logs/pending.out" 2>&1
  echo "rc=$?"
  ncu_raw_rows "$OUT/logs/pending_ncu.log" "$OUT/l1probe_pending.csv"
  pack_logs
  exit 0
fi

ncu --query-metrics --chip gh100 >"$OUT/logs/query_metrics.txt" 2>&1
grep -i -E "^(lrc|lts__t_.*(merge|coalesc))" "$OUT/logs/query_metrics.txt" >"$OUT/logs/lrc_metrics.txt"
echo "lrc metrics: $(wc -l <"$OUT/logs/lrc_metrics.txt")"; head -20 "$OUT/logs/lrc_metrics.txt"

METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
METRICS=$METRICS,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum
METRICS=$METRICS,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex_op_read.sum
METRICS=$METRICS,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_requests_srcunit_tex_op_read.sum
METRICS=$METRICS,lts__t_sectors_srcunit_ltcfabric_op_read.sum,dram__sectors_read.sum
echo "metrics: $METRICS"

FLAGS=(--csv --page raw --print-units base --metrics "$METRICS" -k regex:probe --clock-control none)
echo "== plain runs"
"$BIN" "$OUT/l1probe_cases_cold.csv" >/dev/null && "$BIN" "$OUT/l1probe_cases_warm.csv" --warm >/dev/null; echo "rc=$?"
echo "== ncu cold"
timeout 200 ncu "${FLAGS[@]}" --cache-control all --log-file "$OUT/l1probe_cold.csv" "$BIN" "$OUT/logs/cases_ncu_cold.csv" >"$OUT/logs/cold.out" 2>&1
echo "rc=$?"
echo "== ncu warm"
timeout 200 ncu "${FLAGS[@]}" --cache-control none --log-file "$OUT/l1probe_warm.csv" "$BIN" "$OUT/logs/cases_ncu_warm.csv" --warm >"$OUT/logs/warm.out" 2>&1
echo "rc=$?"
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
