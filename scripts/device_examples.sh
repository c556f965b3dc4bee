#!/usr/bin/env bash
# Measures the example kernels (examples/kernels.hpp: naive and tiled transpose, 3D stencil, tiled
# GEMM in row-major and grouped block order, CSR SpMV) on the GPU this runs on, and records each
# launch's trace there to check that the host recording the comparison uses is the same. Builds
# gpubench, record_kernel_cuda and record_kernel_host with CMake + nvcc only (CUDA-only build;
# the recorders need libzstd). Usage:
#   OUT=DIR scripts/device_examples.sh [SPEC,SPEC,...]
# Writes under $OUT (default ./device-out):
#   examples.csv            gpubench --examples: one row per launch (CUPTI counters, median of 3
#                           profiled launches per metric group with :min/:max), its trace named
#                           examples/<name>.cst relative to the CSV (tests/data/h200/examples.csv);
#   examples_traces.sha256  sha256 of each trace recorded on the GPU (record_kernel_cuda), named
#                           as in the CSV: `sha256sum -c` it beside host recordings
#                           (scripts/record_examples.sh does);
#   examples.txt            what each step printed: the recordings (accesses, seconds), whether the
#                           GPU and host recordings of every launch are byte-identical, gpubench's
#                           rows, each example kernel's global loads in the SASS;
#   logs.tar.gz             build and run logs.
# About 3 minutes on an H200 (the build most of it); every step has a timeout.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
. scripts/device_common.sh
mkdir -p "$OUT/logs"
SPECS=${1:-transpose:4096x4096,transpose_tiled:4096x4096,stencil3d:256x256x256,gemm:1024x1024x1024:rowmajor,gemm:1024x1024x1024:grouped:8,gemm:2048x2048x2048:rowmajor,gemm:2048x2048x2048:grouped:8,spmv:1048576}
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum
TXT=$OUT/examples.txt
export PATH=$PATH:/usr/local/cuda/bin  # nvcc, cuobjdump

# sass_memory_ops SASS: per example kernel (mangled name), its global loads and stores, shared
# loads and stores and barriers in program order (LDG.E etc., predicates left out).
sass_memory_ops() {
  awk '/Function :/ { name = $3; next }
       name ~ /example_kernel/ {
         for (i = 1; i <= NF; ++i)
           if ($i ~ /^(LDG|STG|LDS|STS|BAR)/) { ops[name] = ops[name] " " $i; break }
       }
       END { for (k in ops) print k ":" ops[k] }' "$1"
}
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm --format=csv
  nvcc --version
} >"$OUT/logs/environment.txt" 2>&1
head -2 "$OUT/logs/environment.txt" | tee "$TXT"

echo "== build" | tee -a "$TXT"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  timeout 400 cmake --build build-device -j"$(nproc)" --target gpubench >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log" | tee -a "$TXT"; pack_logs; exit 1; }
BIN=build-device/apps/gpubench/gpubench
CUDA_REC=build-device/examples/record_kernel_cuda
HOST_REC=build-device/examples/record_kernel_host
recorders=1
timeout 300 cmake --build build-device -j"$(nproc)" --target record_kernel_cuda record_kernel_host \
  >>"$OUT/logs/build.log" 2>&1 || { recorders=0; echo "recorders not built (libzstd missing?): see logs/build.log" | tee -a "$TXT"; }
status=0

echo "== SASS: global loads and stores of each example kernel" | tee -a "$TXT"
cuobjdump -sass "$BIN" >"$OUT/logs/gpubench.sass" 2>&1 || echo "cuobjdump failed: see logs/gpubench.sass" | tee -a "$TXT"
sass_memory_ops "$OUT/logs/gpubench.sass" | tee -a "$TXT"

echo "== gpubench --examples" | tee -a "$TXT"
timeout 300 "$BIN" --examples "$SPECS" --metrics "$METRICS" --profile-reps 3 --out "$OUT/examples.csv" \
  2>"$OUT/logs/gpubench.log"
rc=$?
echo "gpubench rc=$rc" | tee -a "$TXT"
tail -12 "$OUT/logs/gpubench.log" | tee -a "$TXT"
[ "$rc" = 0 ] || status=1
cut -d, -f1-8,11,14,16 "$OUT/examples.csv" 2>/dev/null | tee -a "$TXT"

if [ "$recorders" = 1 ]; then
  echo "== recordings: GPU against host" | tee -a "$TXT"
  WORK=$(mktemp -d)
  trap 'rm -rf "$WORK"' EXIT
  mkdir -p "$WORK/examples"
  : >"$OUT/examples_traces.sha256"
  for spec in ${SPECS//,/ }; do
    name=$(echo "$spec" | sed 's/:/_/g; s/=/-/g').cst
    timeout 120 "$CUDA_REC" example "$spec" "$WORK/examples/$name" 2>&1 | tee -a "$TXT" || status=1
    (cd "$WORK" && sha256sum "examples/$name") >>"$OUT/examples_traces.sha256"
    timeout 150 "$HOST_REC" example "$spec" "$WORK/host.cst" 2>&1 | tee -a "$TXT" || status=1
    if cmp -s "$WORK/examples/$name" "$WORK/host.cst"; then
      echo "$spec: GPU and host recordings are byte-identical ($(stat -c %s "$WORK/host.cst") bytes)" | tee -a "$TXT"
    else
      echo "$spec: GPU and host recordings DIFFER" | tee -a "$TXT"
      status=1
    fi
    rm -f "$WORK/examples/$name" "$WORK/host.cst"
  done
  cat "$OUT/examples_traces.sha256" | tee -a "$TXT"
fi
pack_logs
exit $status
