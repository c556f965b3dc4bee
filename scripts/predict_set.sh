#!/usr/bin/env bash
# The h200 preset's predictions for a fresh set, to be committed before the set is measured: every
# launch that `scripts/device_heldout.sh SET` measures (SET_matmul_launches and
# SET_stencil_launches in scripts/fresh_launches.sh, the same lists), simulated with the preset as
# it stands, its L1 and L2 hit rates and its load requests and sectors as Nsight Compute names them.
#   scripts/predict_set.sh [--hit-sources] [--gpu KEY=VALUE ...] SET [OUT.csv]
# SET: fresh, fresh2, fresh3, fresh4, lockstep or lockstep2 (the lock-step probes), naive32 (the
# 32-bit naive-order probes), placement (the first-wave placement probes); OUT defaults to
# tests/data/h200/SET_predicted.csv.
# --hit-sources adds l1_hit_rate_other_block.pct: the points of the L1 hit rate from sectors another
# block of the SM brought (cachesim simulate --hit-sources), the share `cachesim compare` reports.
# --gpu KEY=VALUE overrides a preset parameter (as compare's --gpu: e.g. --gpu cta-order=floorplan-turns),
# to predict the same launches with a variant beside the preset.
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/fresh_launches.sh
sets=$(declare -F | sed -n 's/^declare -f \(.*\)_matmul_launches$/\1/p' | sort -V | tr '\n' ' ')
hit_sources=() overrides=()
while [ $# -gt 0 ]; do
  case "$1" in
    --hit-sources) hit_sources=(--hit-sources); shift ;;
    --gpu)
      [[ "${2:-}" == ?*=?* ]] || { echo "predict_set: --gpu takes KEY=VALUE (got '${2:-}')" >&2; exit 2; }
      overrides+=("--$2"); shift 2 ;;
    *) break ;;
  esac
done
set_name="${1:-}"
if [ -z "$set_name" ] || ! declare -F "${set_name}_matmul_launches" >/dev/null; then
  echo "predict_set: usage: scripts/predict_set.sh [--hit-sources] [--gpu KEY=VALUE ...] SET [OUT.csv], SET one of ${sets% } (got '${set_name}')" >&2
  exit 2
fi
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
out="${2:-tests/data/h200/${set_name}_predicted.csv}"
[ -x "$bin" ] || { echo "predict_set: no cachesim binary at $bin (build with scripts/build.sh)" >&2; exit 2; }
schedules=$(set_schedules "$set_name")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# predict WORKLOAD gpubench-args...: the same launches through cachesim sweep, appended to sweep.csv.
predict() {
  local workload=$1 size="" depth=""
  shift
  local args=(--workload "$workload")
  while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || { echo "predict_set: gpubench's $1 has no value" >&2; exit 2; }
    case $1 in
      --size) size=$2; args+=(--size "$2") ;;
      --depth) depth=$2; args+=(--depth "$2") ;;
      --stencil) args+=(--stencil "$2") ;;
      --blocks) args+=(--block "$2") ;;
      --variants) args+=(--compilation "$2") ;;
      --smem-per-block) args+=(--smem-per-block "$2") ;;
      *) echo "predict_set: no cachesim sweep option for gpubench's $1" >&2; exit 2 ;;
    esac
    shift 2
  done
  # gpubench's matmul depth defaults to the output's width.
  if [ "$workload" = matmul ] && [ -z "$depth" ]; then args+=(--depth "${size%%x*}"); fi
  "$bin" sweep --model gpu --preset h200 --schedule "$schedules" -o "$work/sweep.csv" "${args[@]}" \
    ${hit_sources[@]+"${hit_sources[@]}"} ${overrides[@]+"${overrides[@]}"} >/dev/null
}
predict_matmul() { predict matmul "$@"; }
predict_stencil() { predict stencil "$@"; }
"${set_name}_matmul_launches" predict_matmul
if declare -F "${set_name}_stencil_launches" >/dev/null; then "${set_name}_stencil_launches" predict_stencil; fi

python3 - "$work/sweep.csv" "$work/predicted.csv" "${#hit_sources[@]}" <<'PY'
import csv, sys
keep = ["workload", "width", "height", "stencil_w", "stencil_h", "depth", "block", "compilation", "schedule",
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
sources = sys.argv[3] != "0"
with open(sys.argv[1], newline="") as f:
    swept = list(csv.DictReader(f))
# a set with shared memory in its launches says how much (the column gpubench writes)
if any(r.get("smem_per_block_bytes", "0") not in ("", "0") for r in swept):
    keep.insert(keep.index("compilation"), "smem_per_block")
    for r in swept:
        r["smem_per_block"] = r["smem_per_block_bytes"]
with open(sys.argv[2], "w", newline="") as g:
    w = csv.writer(g)
    w.writerow(keep + (["l1_hit_rate_other_block.pct"] if sources else []))
    for r in swept:
        row = [r[k] for k in keep]
        if sources:
            sectors = float(r["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"])
            row.append("{:.4f}".format(100.0 * float(r["l1_hits_other_block"]) / sectors if sectors else 0.0))
        w.writerow(row)
PY
mv "$work/predicted.csv" "$out"
echo "predict_set: $(($(wc -l < "$out") - 1)) launches of $set_name in $out"
