#!/usr/bin/env bash
# Sweep scaling benchmark: 100 configurations of the thesis's 9x9 stencil at 512 x 512
# (5 schedules x 4 L1 sizes x 5 associativities), on two cores with 1 and 2 worker threads.
# Usage: tests/bench/bench_sweep.sh [path/to/cachesim] [cores, default 0,1]
set -euo pipefail
cachesim="${1:-build/apps/cachesim/cachesim}"
cores="${2:-0,1}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
sweep=(sweep --size 512x512 --stencil 9x9 --schedule linear,column:8,column:16,column:32,column:64
       --l1-size 16K..128K*2 --l1-line 128 --l1-ways 4,8,16,32,full --no-analysis -q)
for jobs in 1 2; do
  /usr/bin/time -f "jobs=$jobs: wall %e s, user %U s, CPU %P" \
    taskset -c "$cores" "$cachesim" "${sweep[@]}" --jobs "$jobs" -o "$out/sweep_j$jobs.csv"
done
cmp "$out/sweep_j1.csv" "$out/sweep_j2.csv" && echo "identical CSV from 1 and 2 threads"
