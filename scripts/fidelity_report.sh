#!/usr/bin/env bash
# Runs every committed measured CSV through `cachesim compare` with its GPU's preset, and the
# rtx2080s preset through the thesis's 1024^3 matmul, writing the results that scripts/make_docs.sh
# turns into docs/fidelity.md's per-set tables:
#
#   tests/data/h200/fidelity_report_{training,heldout}_{stencil,matmul}.{csv,txt}   (--preset h200)
#   tests/data/h200/fidelity_report_{fresh,fresh2}_{stencil,matmul}.{csv,txt}       (--preset h200)
#   tests/data/h100/fidelity_report_{training,heldout}_{stencil,matmul}.{csv,txt}   (--preset h100)
#   tests/data/rtx2080s/thesis_sweep.csv                                            (--preset rtx2080s)
#
#   scripts/fidelity_report.sh [--jobs N] [--head N] [--gpu KEY=VALUE ...] [--out DIR] [PART ...]
#
# PART: h200, h100, rtx2080s, or GPU:SET:KERNEL for one file (e.g. h100:heldout:matmul, h200:fresh2:stencil); all by
# default. --jobs: rows simulated at once, one thread each (default: all cores). --head N: only the first N rows of each
# file, written under --out (default tests/data; give another folder with --head, so that partial
# results do not replace committed ones). --gpu KEY=VALUE: override a preset parameter in every run
# (compare's --gpu, e.g. --gpu timing=cycles), to see another model on the same rows; it needs
# --out DIR too. Which file is which set is the file's name (training_*,
# heldout_*), or SET= for the H200's training files, whose names predate the sets. Rows whose
# counters contradict each other are left out and listed in the .txt (--skip-invalid-rows).
# Long: about 3 CPU hours in all (the matmul files dominate); the cachesim binary is $CACHESIM_BIN,
# else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=0 head="" out=tests/data parts=() gpu_options=() sweep_options=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --head) head="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --gpu) gpu_options+=(--gpu "$2"); sweep_options+=("--$2"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fidelity_report: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) parts+=("$1"); shift ;;
  esac
done
[ ${#parts[@]} -gt 0 ] || parts=(h200 h100 rtx2080s)
if [ ! -x "$bin" ]; then
  echo "fidelity_report: no cachesim binary at $bin (build with scripts/build.sh, or set CACHESIM_BIN)" >&2
  exit 2
fi
if [ -n "$head" ] && [ "$out" = tests/data ]; then
  echo "fidelity_report: --head writes partial results; give --out DIR so that they do not replace tests/data's" >&2
  exit 2
fi
if [ ${#gpu_options[@]} -gt 0 ] && [ "$out" = tests/data ]; then
  echo "fidelity_report: --gpu changes the presets; give --out DIR so that the results do not replace tests/data's" >&2
  exit 2
fi

# The measured file of GPU, SET and KERNEL, as compare's --measured argument.
measured() {
  local gpu=$1 set=$2 kernel=$3
  if [ "$gpu" = h200 ] && [ "$set" = training ]; then
    case "$kernel" in
      stencil) echo "training=tests/data/h200/fidelity_stencil_spread.csv" ;;
      matmul) echo "training=tests/data/h200/fidelity_matmul_spread21.csv" ;;
    esac
  else
    echo "tests/data/$gpu/${set}_$kernel.csv"
  fi
}

compare_one() {
  local gpu=$1 set=$2 kernel=$3
  local dir="$out/$gpu" name="fidelity_report_${set}_$kernel"
  mkdir -p "$dir"
  local rows=()
  [ -z "$head" ] || rows=(--rows "1-$head")
  echo "fidelity_report: $gpu $set $kernel" >&2
  # rows at once, one thread each (compare's default splits the cores the same way)
  local parallel=()
  [ "$jobs" = 0 ] || parallel=(--jobs "$jobs" --threads 1)
  "$bin" compare --preset "$gpu" --measured "$(measured "$gpu" "$set" "$kernel")" --skip-invalid-rows \
    "${gpu_options[@]}" "${parallel[@]}" --no-progress "${rows[@]}" --out "$dir/$name.csv" > "$dir/$name.txt.new"
  mv "$dir/$name.txt.new" "$dir/$name.txt"
}

# The thesis's 1024^3 naive matmul, naive and column:32, at every block size the thesis tabulates.
thesis_sweep() {
  mkdir -p "$out/rtx2080s"
  local blocks=32,64,128,256,512,1024
  [ -z "$head" ] || blocks=256
  echo "fidelity_report: rtx2080s thesis matmul" >&2
  "$bin" sweep --model gpu --preset rtx2080s --workload matmul --size 1024x1024 --depth 1024 \
    --schedule linear,column:32 --block "$blocks" "${sweep_options[@]}" --jobs "$jobs" --quiet --fresh -o "$out/rtx2080s/thesis_sweep.csv"
}

for part in "${parts[@]}"; do
  case "$part" in
    h200|h100)
      for set in training heldout; do
        for kernel in stencil matmul; do compare_one "$part" "$set" "$kernel"; done
      done
      if [ "$part" = h200 ]; then
        for set in fresh fresh2; do
          for kernel in stencil matmul; do compare_one h200 "$set" "$kernel"; done
        done
      fi ;;
    rtx2080s) thesis_sweep ;;
    h200:*:*|h100:*:*)
      IFS=: read -r gpu set kernel <<< "$part"
      case "$set:$kernel" in
        training:stencil|training:matmul|heldout:stencil|heldout:matmul) compare_one "$gpu" "$set" "$kernel" ;;
        fresh:stencil|fresh:matmul|fresh2:stencil|fresh2:matmul)
          if [ "$gpu" != h200 ]; then echo "fidelity_report: only the H200 has the fresh sets" >&2; exit 2; fi
          compare_one "$gpu" "$set" "$kernel" ;;
        *) echo "fidelity_report: unknown part $part (GPU:training|heldout:stencil|matmul, h200:fresh|fresh2:stencil|matmul)" >&2; exit 2 ;;
      esac ;;
    *) echo "fidelity_report: unknown part $part (h200, h100, rtx2080s or GPU:SET:KERNEL)" >&2; exit 2 ;;
  esac
done
