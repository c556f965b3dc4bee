#!/usr/bin/env bash
# Measures the latency of a global load that hits in L1, hits in L2 or goes to DRAM on the GPU this
# runs on (apps/gpubench/latencyprobe.cu: one thread chasing a random chain of 128 B lines).
# Builds with CMake + nvcc only. Usage: OUT=DIR scripts/device_latency.sh [latency|l1policy|loaded|loaded_l2]
# Writes under $OUT (default ./device-out):
#   latency (the default):
#     latencyprobe.txt        the summary of each run (median, p10, p90 cycles per case)
#     latencyprobe_64.csv     every timed load of the 64-line (8 KiB) region
#     latencyprobe_512.csv    the same for 512 lines (64 KiB: still within the smallest L1 carve-out)
#   loaded (the same probe with --loaded K: a DRAM miss while every SM streams from DRAM with K
#   loads in flight a thread, K = 1, 4 and 8, each run twice, on the 512-line region):
#     latencyprobe_loaded.txt             the summary of each run, with the stream's bandwidth and
#                                         when the chase ran within it
#     latencyprobe_loaded_kK_runR.csv     every timed load of run R with K, dram_loaded included
#   loaded_l2 (the same with --stream-mib 16: every SM reads a 16 MiB buffer the L2 holds):
#     latencyprobe_loaded_l2.txt, latencyprobe_loaded_l2_kK_runR.csv   as above (l2_loaded: the
#                                         chase's second pass, L2 hits while the L2 is busy)
#   l1policy (apps/gpubench/l1policyprobe.cu: which lines a full L1 keeps):
#     l1policyprobe.txt       its summary (hits of the counted phases of each program)
#     l1policyprobe.csv       program, size, half, phase, visits, hits, median cycles
#     l1policyprobe_sass.txt  the probe's SASS (the timed loop's loads, stores and clock reads)
#   logs.tar.gz               build log and environment
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
MODE=${1:-latency}
case $MODE in latency | loaded | loaded_l2) TARGET=latencyprobe ;; l1policy) TARGET=l1policyprobe ;; *) echo "unknown mode $MODE (latency, loaded, loaded_l2 or l1policy)" >&2; exit 2 ;; esac
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/logs/environment.txt" 2>&1
echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target "$TARGET" >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }
status=0
if [ "$MODE" = l1policy ]; then
  dir=$(mktemp -d)
  build-device/apps/gpubench/l1policyprobe "$dir" 2>&1 | tee "$OUT/l1policyprobe.txt" || status=1
  cp "$dir/l1policyprobe.csv" "$OUT/l1policyprobe.csv" 2>/dev/null || status=1
  cuobjdump -sass build-device/apps/gpubench/l1policyprobe >"$OUT/l1policyprobe_sass.txt" 2>&1 || status=1
  rm -rf "$dir"
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  exit $status
fi
if [ "$MODE" = loaded ] || [ "$MODE" = loaded_l2 ]; then
  name=latencyprobe_$MODE
  mib=2048
  [ "$MODE" = loaded_l2 ] && mib=16
  for k in 1 4 8; do
    for run in 1 2; do
      dir=$(mktemp -d)
      build-device/apps/gpubench/latencyprobe "$dir" --lines 512 --loaded "$k" --stream-mib "$mib" 2>&1 | tee -a "$OUT/$name.txt" || status=1
      cp "$dir/latencyprobe.csv" "$OUT/${name}_k${k}_run$run.csv" 2>/dev/null || status=1
      rm -rf "$dir"
    done
  done
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  exit $status
fi
for lines in 64 512; do
  dir=$(mktemp -d)
  build-device/apps/gpubench/latencyprobe "$dir" --lines "$lines" 2>&1 | tee -a "$OUT/latencyprobe.txt" || status=1
  cp "$dir/latencyprobe.csv" "$OUT/latencyprobe_$lines.csv" 2>/dev/null || status=1
  rm -rf "$dir"
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
exit $status
