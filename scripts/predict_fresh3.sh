#!/usr/bin/env bash
# The presets' predictions for the fourth held-out set (fresh3), written before it was measured:
# every launch that `scripts/device_heldout.sh fresh3` measures (the same configurations as its
# fresh3_matmul_launches and fresh3_stencil_launches), simulated with the h200 preset as it
# stands, its L1 and L2 hit rates and its load requests and sectors as Nsight Compute names them.
#   scripts/predict_fresh3.sh [OUT.csv]   (default tests/data/h200/fresh3_predicted.csv)
# The cachesim binary is $CACHESIM_BIN, else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
out="${1:-tests/data/h200/fresh3_predicted.csv}"
[ -x "$bin" ] || { echo "predict_fresh3: no cachesim binary at $bin (build with scripts/build.sh)" >&2; exit 2; }
schedules=linear,column:8,column:16,column:32,column:64,column:128,zigzag:32,tiled:32x32,morton
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sweep() { "$bin" sweep --model gpu --preset h200 --schedule "$schedules" -o "$work/sweep.csv" "$@" >/dev/null; }
for v in index64 index32; do sweep --workload matmul --size 1408x1408 --depth 704 --block 160 --compilation "$v"; done
sweep --workload matmul --size 2304x1152 --depth 576 --block 320 --compilation index64
sweep --workload matmul --size 896x1792 --depth 1792 --block 224 --compilation unroll1
sweep --workload matmul --size 1664x1664 --depth 832 --block 128 --compilation index32
sweep --workload stencil --size 3584x2304 --stencil 3x7 --block 160 --compilation index64
sweep --workload stencil --size 3584x3584 --stencil 9x9 --block 320 --compilation index32
sweep --workload stencil --size 2816x2816 --stencil 7x3 --block 224 --compilation unroll1
python3 - "$work/sweep.csv" "$work/predicted.csv" <<'PY'
import csv, sys
keep = ["workload", "width", "height", "stencil_w", "stencil_h", "depth", "block", "compilation", "schedule",
        "l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct",
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
with open(sys.argv[1], newline="") as f, open(sys.argv[2], "w", newline="") as g:
    w = csv.writer(g)
    w.writerow(keep)
    for r in csv.DictReader(f):
        w.writerow([r[k] for k in keep])
PY
mv "$work/predicted.csv" "$out"
echo "predict_fresh3: $(($(wc -l < "$out") - 1)) launches in $out"
