#!/usr/bin/env bash
# Builds gpubench on the GPU machine (CMake + nvcc only) and measures what the GPU-model
# fidelity table and the thesis tables need. Writes CSVs and logs under $OUT
# (default ./device-out). Usage: scripts/device_measure.sh [fidelity|thesis|all|tracegen|spread]
#   fidelity (default): the identity check, the fidelity sweep and an ncu cross-check;
#   thesis: the identity check and the thesis's two tables (widths 4..2048 x blocks 32..1024);
#   tracegen: only the check that the CUDA and host Thrust trace generators give the same bytes;
#   spread: only the fidelity sweeps, 7 profiled launches per metric group (CUPTI), with each
#     metric's min and max columns: fidelity_{stencil,matmul}_spread.csv.
# Counters come from CUPTI's range profiler inside gpubench; if that fails (exit code 4), every
# sweep is collected under Nsight Compute instead (gpubench --counters ncu + --merge-ncu).
set -u -o pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/device-out}
mkdir -p "$OUT/logs"
MODE=${1:-fidelity}
case $MODE in fidelity|thesis|all|tracegen|spread) ;; *) echo "unknown mode $MODE" >&2; exit 2;; esac
BIN=build-device/apps/gpubench/gpubench
METRICS=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sector_op_read_hit_rate.pct,dram__bytes_read.sum
NCU_FLAGS=(--csv --page raw --print-units base --metrics "$METRICS" --kernel-name-base demangled
           --kernel-name regex:ProfiledLaunch --cache-control all --clock-control none)

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "kernel: $(uname -r)"
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,power.limit --format=csv
  nvidia-smi
  nvcc --version
  cmake --version | head -1
  ncu --version 2>&1 | tail -1
} >"$OUT/logs/environment.txt" 2>&1
head -3 "$OUT/logs/environment.txt"

echo "== build"
cmake -S . -B build-device -DCACHESIM_CUDA_ONLY=ON -DCMAKE_BUILD_TYPE=Release >"$OUT/logs/build.log" 2>&1 &&
  cmake --build build-device -j"$(nproc)" --target gpubench >>"$OUT/logs/build.log" 2>&1 ||
  { tail -30 "$OUT/logs/build.log"; tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs; exit 1; }

if [ "$MODE" = tracegen ]; then
  echo "== tracegen_check"
  cmake --build build-device -j"$(nproc)" --target tracegen_check >>"$OUT/logs/build.log" 2>&1 ||
    { tail -30 "$OUT/logs/build.log"; exit 1; }
  timeout 400 build-device/apps/gpubench/tracegen_check 2>&1 | tee "$OUT/tracegen_check.txt"
  rc=$?
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  exit $rc
fi

COUNTERS=cupti
# measure NAME gpubench-args...: one sweep into $OUT/NAME.csv, through CUPTI or, failing that, ncu.
measure() {
  local name=$1; shift
  echo "== $name ($COUNTERS): $*"
  if [ "$COUNTERS" = cupti ]; then
    timeout 420 "$BIN" --counters cupti --metrics "$METRICS" --out "$OUT/$name.csv" "$@" 2>"$OUT/logs/$name.log"
    local rc=$?
    tail -2 "$OUT/logs/$name.log"
    return $rc
  fi
  timeout 420 ncu "${NCU_FLAGS[@]}" --log-file "$OUT/logs/$name.ncu.csv" \
    "$BIN" --counters ncu --metrics "$METRICS" --out "$OUT/logs/$name.rows.csv" "$@" 2>"$OUT/logs/$name.log"
  local rc=$?
  tail -2 "$OUT/logs/$name.log"
  [ $rc -eq 0 ] || return $rc
  "$BIN" --merge-ncu "$OUT/logs/$name.ncu.csv" --rows "$OUT/logs/$name.rows.csv" --out "$OUT/$name.csv"
}

if [ "$MODE" = spread ]; then
  # Run-to-run spread of the counters: no ncu fallback (one launch per configuration has none).
  SCHEDULES=linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton
  measure fidelity_stencil_spread --kernel stencil --size 4096x4096 --stencil 9x9,3x3 \
    --schedules "$SCHEDULES" --blocks 128,256,1024 --profile-reps 7
  rc_stencil=$?
  measure fidelity_matmul_spread --kernel matmul --size 1024x1024 \
    --schedules "$SCHEDULES" --blocks 128,256,1024 --profile-reps 7
  rc_matmul=$?
  tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
  echo "== spread summary: L1 / L2 read hit rate % as median [min, max] of 7"
  python3 - "$OUT" <<'PY'
import csv, glob, os, sys
L1, L2 = "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct"
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_spread.csv"))):
    for r in csv.DictReader(open(path)):
        f = lambda k: float(r[k])
        print(f"{r['kernel']:6} {r['stencil_w']}x{r['stencil_h']} {r['schedule']:11} b{r['block']:4} "
              f"L1 {f(L1):6.2f} [{f(L1 + ':min'):6.2f},{f(L1 + ':max'):6.2f}] "
              f"L2 {f(L2):6.2f} [{f(L2 + ':min'):6.2f},{f(L2 + ':max'):6.2f}]")
PY
  [ $rc_stencil -eq 0 ] && [ $rc_matmul -eq 0 ]
  exit
fi

# The identity check: naive 1024^3 matmul, linear, block 128 -> 167,772,160 L1 sector lookups.
measure identity --kernel matmul --size 1024x1024 --schedules linear --blocks 128
rc=$?
if [ $rc -eq 4 ]; then
  echo "CUPTI failed; collecting every sweep with Nsight Compute instead"
  COUNTERS=ncu
  measure identity --kernel matmul --size 1024x1024 --schedules linear --blocks 128
fi
grep -v '^kernel' "$OUT/identity.csv" 2>/dev/null | cut -d, -f1,7,8,15,16

if [ "$MODE" != thesis ]; then
FIDELITY_SCHEDULES=linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton
measure fidelity_stencil --kernel stencil --size 4096x4096 --stencil 9x9,3x3 \
  --schedules "$FIDELITY_SCHEDULES" --blocks 128,256,1024
measure fidelity_matmul --kernel matmul --size 1024x1024 \
  --schedules "$FIDELITY_SCHEDULES" --blocks 128,256,1024

# Cross-check of the in-process counters against Nsight Compute on a few configurations.
if [ "$COUNTERS" = cupti ]; then
  COUNTERS=ncu measure ncu_crosscheck_stencil --kernel stencil --size 4096x4096 --stencil 9x9 \
    --schedules linear,column:32 --blocks 128,1024
  COUNTERS=ncu measure ncu_crosscheck_matmul --kernel matmul --size 1024x1024 \
    --schedules linear,column:32 --blocks 128,1024
fi
fi

if [ "$MODE" != fidelity ]; then
  # The thesis's tables are about time: one profiled launch per metric group is enough here.
  measure thesis_stencil --kernel stencil --size 4096x4096 --stencil 9x9 --profile-reps 1
  measure thesis_matmul --kernel matmul --size 1024x1024 --profile-reps 1
fi

tar -C "$OUT" -czf "$OUT/logs.tar.gz" logs && rm -rf "$OUT/logs"
echo "== summary (L1 and L2 hit rates in %, time in ms)"
python3 - "$OUT" <<'PY'
import csv, glob, os, sys
out = sys.argv[1]
for path in sorted(glob.glob(os.path.join(out, "*.csv"))):
    rows = list(csv.DictReader(open(path)))
    print(f"-- {os.path.basename(path)}: {len(rows)} rows")
    if "thesis" in path:
        continue
    for r in rows:
        def g(k):
            return r.get(k, "")
        print(f"{g('kernel'):7} {g('stencil_w')}x{g('stencil_h')} {g('schedule'):12} b{g('block'):5} "
              f"t={float(g('time_ms')):7.3f} "
              f"req={g('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum'):>10} "
              f"sect={g('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'):>10} "
              f"L1={g('l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct')[:6]:>6} "
              f"L2={g('lts__t_sector_op_read_hit_rate.pct')[:6]:>6} "
              f"L2tex={g('lts__t_sectors_srcunit_tex_op_read.sum'):>10}/{g('lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum'):>10} "
              f"dram={g('dram__bytes_read.sum'):>10}")
PY
