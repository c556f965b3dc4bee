#!/usr/bin/env bash
# How the GPU model scales with threads on a machine of many cores: `bench_gpu_model` (the h200
# preset on the 4096 x 4096 9x9 stencil, block 256, and the naive 1024^3 matmul, block 128, both
# linear) on 1, 2, 4, 8 ... threads up to all cores, each thread count a process of its own, the
# counts taking turns round by round so that other guests' load falls on all of them alike.
# Prints every run (CSV) and then, per launch and thread count, the median wall time over the
# rounds and the speed-up over one thread's median. Built for the GPU machine, which cannot
# install packages: it needs only bash, awk, sort and the bench binary (carry it there).
#
# Usage: scripts/gpu_scaling.sh [-n ROUNDS] [--threads LIST] [--bench PATH]
#   -n ROUNDS       rounds (default 3)
#   --threads LIST  thread counts, comma-separated (default 1,2,4,8,... up to nproc, and nproc)
#   --bench PATH    the bench_gpu_model binary (default build/tests/bench_gpu_model)
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
threads=""
bench=build/tests/bench_gpu_model
while [ $# -gt 0 ]; do
  case "$1" in
    -n) rounds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --bench) bench="$2"; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "gpu_scaling.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "gpu_scaling.sh: -n wants a number of rounds (1 or more), not '$rounds'" >&2; exit 2 ;; esac
[ -x "$bench" ] || { echo "gpu_scaling.sh: $bench is missing; build it (cmake --build build --target bench_gpu_model)" >&2; exit 1; }
cores=$(nproc)
if [ -z "$threads" ]; then
  threads=1
  for ((t = 2; t < cores; t *= 2)); do threads="$threads,$t"; done
  [ "$cores" -gt 1 ] && threads="$threads,$cores"
fi
IFS=, read -r -a counts <<<"$threads"
for t in "${counts[@]}"; do
  case "$t" in ''|*[!0-9]*|0) echo "gpu_scaling.sh: --threads wants thread counts of 1 or more, not '$t'" >&2; exit 2 ;; esac
done

echo "# $(uname -n): $cores cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo); load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
runs=$(mktemp)
trap 'rm -f "$runs"' EXIT
echo "round,launch,threads,wall_s"
for ((round = 1; round <= rounds; ++round)); do
  for launch in stencil matmul; do
    for t in "${counts[@]}"; do
      out=$("$bench" "$launch" 0 linear "$t") || { echo "gpu_scaling.sh: $bench $launch 0 linear $t failed" >&2; exit 1; }
      wall=$(awk '/ threads +[0-9]+: .* wall / { for (i = 1; i < NF; ++i) if ($(i + 1) == "s" && $(i + 2) == "wall") { print $i; exit } }' <<<"$out")
      [ -n "$wall" ] || { echo "gpu_scaling.sh: no wall time in the output of $bench $launch 0 linear $t" >&2; exit 1; }
      echo "$round,$launch,$t,$wall" | tee -a "$runs"
    done
  done
done
echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| launch | threads | median wall s | speed-up over 1 thread |"
echo "| --- | ---: | ---: | ---: |"
for launch in stencil matmul; do
  one=""
  for t in "${counts[@]}"; do
    median=$(awk -F, -v l="$launch" -v t="$t" '$2 == l && $3 == t { print $4 }' "$runs" | sort -g |
             awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    [ "$t" = 1 ] && one=$median
    speedup=$([ -n "$one" ] && awk -v a="$one" -v b="$median" 'BEGIN { printf "%.2fx", a / b }' || echo "")
    echo "| $launch | $t | $median | $speedup |"
  done
done
