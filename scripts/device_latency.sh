#!/usr/bin/env bash
# Measures the latency of a global load that hits in L1, hits in L2 or goes to DRAM on the GPU this
# runs on (apps/gpubench/latencyprobe.cu: one thread chasing a random chain of 128 B lines).
# Builds with CMake + nvcc only. Usage: OUT=DIR scripts/device_latency.sh
# Writes under $OUT (default ./device-out):
#   latencyprobe.txt        the summary of each run (median, p10, p90 cycles per case)
#   latencyprobe_64.csv     every timed load of the 64-line (8 KiB) region
#   latencyprobe_512.csv    the same for 512 lines (64 KiB: still within the smallest L1 carve-out)
#   logs.tar.gz             build log and environment
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv >"$OUT/logs/environment.txt" 2>&1
echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target latencyprobe >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }
status=0
for lines in 64 512; do
  dir=$(mktemp -d)
  build-device/apps/gpubench/latencyprobe "$dir" --lines "$lines" 2>&1 | tee -a "$OUT/latencyprobe.txt" || status=1
  cp "$dir/latencyprobe.csv" "$OUT/latencyprobe_$lines.csv" 2>/dev/null || status=1
  rm -rf "$dir"
done
tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
exit $status
