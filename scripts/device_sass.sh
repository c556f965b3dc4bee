#!/usr/bin/env bash
# How gpubench's kernels issue their loads (docs/h200-data.md, "How gpubench's kernels issue their loads"): builds
# gpubench with CMake + nvcc only, disassembles it (cuobjdump -sass, sm_90) and writes, for the
# profiled stencil (3x3, 9x9) and matmul kernels, the order of their global loads (L), the float
# adds and multiply-adds that use them (F), stores (S) and branches (B), and how many loads come
# before the first use. Needs no GPU: any machine with the CUDA toolkit. Usage:
#   scripts/device_sass.sh [GPUBENCH]   (default: build it in build-device)
# Writes under $OUT (default ./device-out): sass_loads.txt, gpubench.sass.gz.
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT"
BIN=${1:-}
if [ -z "$BIN" ]; then
  cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/build.log" 2>&1 &&
    cmake --build build-device -j"$(nproc)" --target gpubench >>"$OUT/build.log" 2>&1 ||
    { tail -30 "$OUT/build.log"; exit 1; }
  BIN=build-device/apps/gpubench/gpubench
fi
SASS=$OUT/gpubench.sass
cuobjdump -sass "$BIN" >"$SASS" || exit 1

# kernel_sequence PATTERN: the L/F/S/B sequence of the first function whose name matches PATTERN.
kernel_sequence() {
  awk -v pat="$1" '
    /Function :/ { inside = ($0 ~ pat) && !done; if (!inside && seen) done = 1; seen = seen || inside; next }
    inside {
      for (i = 1; i <= NF; ++i) {
        op = $i
        if (op ~ /^@/) continue                      # predicate
        if (op ~ /^LDG/) { printf "L"; break }
        if (op ~ /^(FADD|FFMA)/) { printf "F"; break }
        if (op ~ /^STG/) { printf "S"; break }
        if (op ~ /^BRA/) { printf "B"; break }
        if (op ~ /^[A-Z]/) break                     # any other instruction
      }
    }' "$SASS"
}

{
  echo "# gpubench kernels (ProfiledLaunch, the measured ones), nvcc -arch=sm_90, cuobjdump -sass:"
  echo "# L global load, F float add / multiply-add, S global store, B branch (in program order)."
  for k in "stencil_kernelINS_14ProfiledLaunchELi3E:stencil 3x3" \
           "stencil_kernelINS_14ProfiledLaunchELi9E:stencil 9x9" \
           "matmul_kernelINS_14ProfiledLaunch:matmul"; do
    seq=$(kernel_sequence "${k%%:*}")
    loads=$(tr -cd 'L' <<<"$seq" | wc -c)
    first=$(sed 's/F.*//' <<<"$seq" | tr -cd 'L' | wc -c)
    echo
    echo "${k#*:}: $loads loads, $first before the first F"
    # the loads and uses only, in lines of 100
    tr -cd 'LFSB' <<<"$seq" | fold -w 100
    echo
  done
} >"$OUT/sass_loads.txt"
gzip -f "$SASS"
cat "$OUT/sass_loads.txt"
