#!/usr/bin/env bash
# Instructions the GPU model executes, counted by callgrind (valgrind): a figure that does not
# move with the machine's load, for comparing builds on a shared machine where times wander.
# Runs `cachesim simulate --preset h200` (whole process) on the 9x9 stencil on 4096 x 512 (block
# 256) and the 1024 x 1024 matmul at depth 128 (block 128), both linear, on one and on two
# threads, and prints the instructions in all and per warp request. About 25 s of CPU a run.
#
# Usage: scripts/gpu_instructions.sh [--build DIR]
# Environment:
#   CACHESIM_BASELINE  another cachesim binary (a build of an older commit): its rows beside.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "gpu_instructions.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
cachesim="$build/apps/cachesim/cachesim"
[ -x "$cachesim" ] || { echo "gpu_instructions.sh: $cachesim is missing; build it (cmake --build $build --target cachesim)" >&2; exit 1; }
command -v valgrind >/dev/null 2>&1 || { echo "gpu_instructions.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
if [ -n "${CACHESIM_BASELINE:-}" ] && [ ! -x "$CACHESIM_BASELINE" ]; then
  echo "gpu_instructions.sh: CACHESIM_BASELINE '$CACHESIM_BASELINE' is not an executable" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
binaries=("cachesim:$cachesim")
[ -n "${CACHESIM_BASELINE:-}" ] && binaries+=("baseline:$CACHESIM_BASELINE")

printf '%-24s %-10s %8s %16s %14s\n' launch binary threads instructions per_request
for launch in "stencil 4096x512 9x9|--workload stencil --size 4096x512 --stencil 9x9 --block 256" \
              "matmul 1024^2 depth 128|--workload matmul --size 1024x1024 --depth 128 --block 128"; do
  name="${launch%%|*}"
  read -r -a args <<<"${launch#*|}"
  for entry in "${binaries[@]}"; do
    label="${entry%%:*}"
    binary="${entry#*:}"
    for threads in 1 2; do
      valgrind --tool=callgrind --callgrind-out-file="$work/out" "$binary" simulate --preset h200 \
        --schedule linear --threads "$threads" "${args[@]}" >"$work/stdout" 2>"$work/stderr" ||
        { echo "gpu_instructions.sh: $binary failed: $(tail -3 "$work/stderr")" >&2; exit 1; }
      instructions=$(sed -n 's/.*I *refs: *//p' "$work/stderr" | tr -d ',')
      requests=$(awk '/^ *(load|store)_requests:/ {n += $2} END {print n}' "$work/stdout")
      awk -v n="$name" -v l="$label" -v t="$threads" -v i="$instructions" -v r="$requests" \
        'BEGIN { printf "%-24s %-10s %8s %16s %14.0f\n", n, l, t, i, i / r }'
    done
  done
done
