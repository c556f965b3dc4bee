#!/usr/bin/env bash
# Measures how the GPU's two L2 partitions behave, for the GPU model's L2: the latency
# probe (l2probe: which SMs share a partition, which lines an SM finds far) and the fidelity sweeps
# with the L2 fabric counters (what misses in the near partition, what the far one answers).
# Builds with CMake + nvcc only. Usage: scripts/device_partition.sh [all|probe] (probe: l2probe
# only). Writes under $OUT (default ./device-out):
#   l2probe_sm.csv, l2probe_lines.csv, l2probe_granule.csv, l2probe.txt  the probe's tables, summary
#   partition_stencil.csv, partition_matmul.csv     gpubench sweeps with the fabric counters
#   logs.tar.gz                                     build log, SASS of the probe, metric checks
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
MODE=${1:-all}
. scripts/device_common.sh
case $MODE in all|probe) ;; *) echo "unknown mode $MODE" >&2; exit 2;; esac
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/logs/environment.txt" 2>&1

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target gpubench l2probe >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }
BIN=build-device/apps/gpubench/gpubench
cuobjdump -sass build-device/apps/gpubench/l2probe >"$OUT/logs/l2probe.sass" 2>&1

echo "== l2probe"
timeout 120 build-device/apps/gpubench/l2probe "$OUT" 2>&1 | tee "$OUT/l2probe.txt"
if [ "$MODE" = probe ]; then
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  exit 0
fi

# Keep the candidate counters this chip and CUPTI accept (each tried alone on a tiny launch).
METRICS=$(accepted_metrics "$BIN" \
  lts__t_sectors_srcunit_tex_op_read.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum \
  lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_ltcfabric_op_read.sum \
  lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum \
  lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum \
  lts__t_sectors_srcunit_ltcfabric.sum \
  lts__t_sectors_op_read.sum \
  lts__t_sectors_op_read_lookup_hit.sum \
  lts__t_sectors_op_read_lookup_miss.sum \
  lts__t_requests_srcunit_tex_op_read.sum \
  lts__t_requests_srcunit_ltcfabric_op_read.sum \
  lts__d_sectors_fill_device.sum \
  lts__d_sectors_fill_sysmem.sum \
  dram__sectors_read.sum \
  l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum \
  l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
  l1tex__m_xbar2l1tex_read_sectors_mem_global_op_ld.sum \
  l1tex__m_xbar2l1tex_read_sectors.sum \
  l1tex__m_l1tex2xbar_req.sum \
  l1tex__m_l1tex2xbar_write_sectors.sum)
echo "metrics: $METRICS"
fidelity_sweep "$BIN" "$METRICS" partition
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
