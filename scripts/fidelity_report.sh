#!/usr/bin/env bash
# Runs every committed measured CSV through `cachesim compare` with its GPU's preset, and the
# rtx2080s preset through the thesis's 1024^3 matmul, writing the results that scripts/make_docs.sh
# turns into docs/fidelity.md's per-set tables:
#
#   tests/data/h200/fidelity_report_{training,heldout}_{stencil,matmul}.{csv,txt}   (--preset h200)
#   tests/data/h200/fidelity_report_{fresh,fresh2,fresh3,fresh4}_{stencil,matmul}.{csv,txt}   (--preset h200)
#   tests/data/h200/fidelity_report_{heldout21,fresh-21,...,fresh4-21}_matmul.{csv,txt}         (--preset h200)
#   tests/data/h100/fidelity_report_{training,heldout}_{stencil,matmul}.{csv,txt}   (--preset h100)
#   tests/data/h100/fidelity_report_{training21,heldout21}_matmul.{csv,txt}          (--preset h100)
#   tests/data/rtx2080s/thesis_sweep.csv                                            (--preset rtx2080s)
#
#   scripts/fidelity_report.sh [--jobs N] [--by-row [--work DIR]] [--head N] [--gpu KEY=VALUE ...] [--out DIR] [PART ...]
#
# PART: h200, h100, rtx2080s, or GPU:SET:KERNEL for one file (e.g. h100:heldout:matmul, h200:fresh2:stencil,
# h200:heldout21:matmul: the held-out matmul with its hit rates over 21 profiled launches, and
# h200:fresh-21:matmul to h200:fresh4-21:matmul: the fresh sets' matmul so; h100:heldout21:matmul and
# h100:training21:matmul: the H100's matmul sets so, the H200's training matmul being so already); all by
# default. --jobs: rows simulated at once, one thread each (default: all cores). --head N: only the first N rows of each
# file, written under --out (default tests/data; give another folder with --head, so that partial
# results do not replace committed ones). --gpu KEY=VALUE: override a preset parameter in every run
# (compare's --gpu, e.g. --gpu timing=cycles), to see another model on the same rows; it needs
# --out DIR too. Which file is which set is the file's name (training_*,
# heldout_*), or SET= for the H200's training files, whose names predate the sets. Rows whose
# counters contradict each other are left out and listed in the .txt (--skip-invalid-rows).
# --by-row: every row of every part its own compare run, all parts' rows at once in --jobs processes,
# longest first, each file's joined CSV then merged in row order and its .txt the rows' reports in
# turn: the same CSVs (each row is simulated alone either way) in about 3 CPU hours / N on N cores,
# where file after file leaves cores idle at the end of each. --work DIR (with --by-row): keep each
# row's results in DIR instead of a temporary folder, and run only the rows DIR does not hold yet,
# so that a run stopped part way (a time limit) goes on where it stopped when given the same DIR;
# a DIR whose rows were run with other --gpu options, another --head or another binary is refused,
# and so is a DIR another run is using.
# Long: about 3 CPU hours in all (the matmul files dominate); the cachesim binary is $CACHESIM_BIN,
# else build/apps/cachesim/cachesim.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${CACHESIM_BIN:-build/apps/cachesim/cachesim}"
jobs=0 head="" out=tests/data parts=() gpu_options=() sweep_options=() by_row= work_dir=
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --head) head="$2"; shift 2 ;;
    --by-row) by_row=1; shift ;;
    --work) work_dir="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --gpu) gpu_options+=(--gpu "$2"); sweep_options+=("--$2"); shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "fidelity_report: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) parts+=("$1"); shift ;;
  esac
done
[ ${#parts[@]} -gt 0 ] || parts=(h200 h100 rtx2080s)
if [ -n "$work_dir" ] && [ -z "$by_row" ]; then
  echo "fidelity_report: --work keeps the rows of a --by-row run; give --by-row too" >&2
  exit 2
fi
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
  if [ -n "$by_row" ]; then
    echo "$gpu $set $kernel $(measured "$gpu" "$set" "$kernel")" >> "$row_files"
    return
  fi
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

# --by-row: compare_one lists the files; run_rows simulates their rows and merges them.
if [ -n "$by_row" ]; then
  if [ -n "$work_dir" ]; then
    mkdir -p "$work_dir"
    work=$(cd "$work_dir" && pwd)
    # two runs on one folder would run the same rows twice and rename each other's reports: the
    # second is refused while the first holds the folder's lock (released when this shell exits)
    exec 9> "$work/lock"
    if ! flock -n 9; then
      echo "fidelity_report: $work_dir is in use by another fidelity_report run; wait for it or give another folder" >&2
      exit 2
    fi
    # rows made with other options must not be merged with these: the folder keeps its options
    options="gpu options: ${gpu_options[*]}; head: $head; binary: $(cksum < "$bin")"
    if [ -f "$work/options" ] && [ "$(cat "$work/options")" != "$options" ]; then
      echo "fidelity_report: $work_dir holds rows run with other options or another binary ($(cat "$work/options")); give an empty folder" >&2
      exit 2
    fi
    echo "$options" > "$work/options"
  else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
  fi
  row_files="$work/files"
  : > "$row_files"
fi

compare_row() {  # GPU SET KERNEL MEASURED ROW
  local stem="$work/$1_$2_$3_$5"
  # the report is renamed into place only once the row has run to the end: a row whose .txt is
  # there is done (--work)
  "$bin" compare --preset "$1" --measured "$4" --skip-invalid-rows "${gpu_options[@]}" --jobs 1 --threads 1 \
    --no-progress --rows "$5" --out "$stem.csv" > "$stem.txt.part" 2>&1 ||
    { echo "fidelity_report: $1 $2 $3 row $5 failed:" >&2; cat "$stem.txt.part" >&2; return 1; }
  mv "$stem.txt.part" "$stem.txt"
}

run_rows() {
  [ -n "$by_row" ] && [ -s "$row_files" ] || return 0
  local n=$jobs
  [ "$n" != 0 ] || n=$(nproc)
  # one task a row, the largest launches (most loads) first
  python3 scripts/fidelity_rows.py tasks "$row_files" "$head" "$work" > "$work/tasks"
  echo "fidelity_report: $(wc -l < "$work/tasks") rows in $n processes" >&2
  export -f compare_row
  export bin work
  GPU_OPTIONS="${gpu_options[*]}" xargs -r -P "$n" -L 1 bash -c \
    'gpu_options=($GPU_OPTIONS); compare_row "$@"' _ < "$work/tasks"
  python3 scripts/fidelity_rows.py merge "$row_files" "$head" "$work" "$out"
}

for part in "${parts[@]}"; do
  case "$part" in
    h200|h100)
      for set in training heldout; do
        for kernel in stencil matmul; do compare_one "$part" "$set" "$kernel"; done
      done
      if [ "$part" = h200 ]; then
        for set in fresh fresh2 fresh3 fresh4; do
          for kernel in stencil matmul; do compare_one h200 "$set" "$kernel"; done
        done
        for set in heldout21 fresh-21 fresh2-21 fresh3-21 fresh4-21; do compare_one h200 "$set" matmul; done
      else
        for set in training21 heldout21; do compare_one h100 "$set" matmul; done
      fi ;;
    rtx2080s) thesis_sweep ;;
    h200:*:*|h100:*:*)
      IFS=: read -r gpu set kernel <<< "$part"
      case "$set:$kernel" in
        training:stencil|training:matmul|heldout:stencil|heldout:matmul) compare_one "$gpu" "$set" "$kernel" ;;
        heldout21:matmul) compare_one "$gpu" "$set" "$kernel" ;;
        training21:matmul)
          if [ "$gpu" != h100 ]; then echo "fidelity_report: the H200's training matmul is over 21 launches already (h200:training:matmul)" >&2; exit 2; fi
          compare_one "$gpu" "$set" "$kernel" ;;
        fresh:stencil|fresh:matmul|fresh2:stencil|fresh2:matmul|fresh3:stencil|fresh3:matmul|fresh4:stencil|fresh4:matmul|fresh-21:matmul|fresh2-21:matmul|fresh3-21:matmul|fresh4-21:matmul)
          if [ "$gpu" != h200 ]; then echo "fidelity_report: only the H200 has the fresh sets" >&2; exit 2; fi
          compare_one "$gpu" "$set" "$kernel" ;;
        *) echo "fidelity_report: unknown part $part (GPU:training|heldout:stencil|matmul, GPU:heldout21:matmul, h100:training21:matmul, h200:fresh|fresh2|fresh3|fresh4:stencil|matmul, h200:fresh-21|fresh2-21|fresh3-21|fresh4-21:matmul)" >&2; exit 2 ;;
      esac ;;
    *) echo "fidelity_report: unknown part $part (h200, h100, rtx2080s or GPU:SET:KERNEL)" >&2; exit 2 ;;
  esac
done

run_rows
