#!/usr/bin/env bash
# Records the example kernels on the GPU this runs on (traces/recorder_cuda.cuh, examples/) and
# checks them against the host recording. Builds record_kernel_cuda and record_kernel_host with
# CMake + nvcc only (CUDA-only build; libzstd must be installed). Usage:
#   OUT=DIR scripts/device_record.sh
# Writes under $OUT (default ./device-out):
#   record.txt           what each recording printed (accesses, seconds) and the checks;
#   transpose_cuda.cst   the naive 64x64 transpose in blocks of 32x8, recorded on the GPU;
#   logs.tar.gz          build and run logs.
# Checks: the GPU and host recordings of the transpose, and of a 512x512 9x9 stencil, are
# byte-identical; the 4096x4096 9x9 stencil (blocks of 256, 1.38 billion accesses) is recorded
# and its wall time reported (the target: under 30 s). Its trace is not kept (about 14 MB).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
. scripts/device_common.sh
mkdir -p "$OUT/logs"
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$OUT/logs/environment.txt" 2>&1
nvcc --version >>"$OUT/logs/environment.txt" 2>&1
head -2 "$OUT/logs/environment.txt"

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target record_kernel_cuda record_kernel_host >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; pack_logs; exit 1; }
CUDA_BIN=build-device/examples/record_kernel_cuda
HOST_BIN=build-device/examples/record_kernel_host
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
status=0

# same NAME ARGS...: records ARGS on the GPU and on the host, compares the files.
same() {
  local name=$1
  shift
  "$CUDA_BIN" "$@" "$WORK/${name}_cuda.cst" 2>&1 | tee -a "$OUT/record.txt"
  "$HOST_BIN" "$@" "$WORK/${name}_host.cst" 2>&1 | tee -a "$OUT/record.txt"
  if cmp -s "$WORK/${name}_cuda.cst" "$WORK/${name}_host.cst"; then
    echo "$name: GPU and host recordings are byte-identical" | tee -a "$OUT/record.txt"
  else
    echo "$name: GPU and host recordings DIFFER" | tee -a "$OUT/record.txt"
    status=1
  fi
}

echo "== transpose and small stencil: GPU against host"
same transpose transpose 64x64 32x8
cp "$WORK/transpose_cuda.cst" "$OUT/transpose_cuda.cst"
same stencil512 stencil 512x512 9x9 256

echo "== 4096x4096 9x9 stencil on the GPU (timed)"
start=$(date +%s.%N)
timeout 300 "$CUDA_BIN" stencil 4096x4096 9x9 256 "$WORK/stencil4096.cst" 2>&1 | tee -a "$OUT/record.txt"
rc=$?
end=$(date +%s.%N)
echo "stencil4096: rc=$rc, wall $(awk "BEGIN{printf \"%.1f\", $end - $start}") s, file $(stat -c %s "$WORK/stencil4096.cst" 2>/dev/null) bytes" |
  tee -a "$OUT/record.txt"
[ "$rc" = 0 ] || status=1
pack_logs
exit $status
