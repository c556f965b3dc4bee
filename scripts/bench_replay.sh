#!/usr/bin/env bash
# GPU-model replay of a recorded launch against the built-in workload that wrote it:
# `cachesim trace` writes the launch (timed), then `cachesim simulate --preset P` runs the built-in
# workload and `--trace` the file, taking turns, on each thread count; every pair must give the
# same counters (the script checks it). Prints a markdown table: the median CPU time (user +
# system) and wall time of each, the ratio, and peak resident memory.
#
#   scripts/bench_replay.sh [-n RUNS] [--threads 1,2,0] [--preset h200] [--build DIR] [WORKLOAD ...]
#
# WORKLOAD: the built-in workload's options joined by commas, e.g.
#   stencil,4096x4096,9x9,linear,256      (kind, size, box, schedule, block)
#   matmul,1024x1024,1024,linear,128      (kind, size, depth, schedule, block)
# default: the 2048^2 9x9 stencil and the 512^3 naive matmul. --threads 0 is all cores. The traces
# go to a temporary folder (about 4 MB for the 2048^2 stencil; 14 MB for the 4096^2 one).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3 threads=1 preset=h200 build=build workloads=()
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --preset) preset="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "bench_replay: unknown option $1 (see --help)" >&2; exit 2 ;;
    *) workloads+=("$1"); shift ;;
  esac
done
[ ${#workloads[@]} -gt 0 ] || workloads=(stencil,2048x2048,9x9,linear,256 matmul,512x512,512,linear,128)
bin="$build/apps/cachesim/cachesim"
[ -x "$bin" ] || { echo "bench_replay: no cachesim at $bin (scripts/build.sh)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

python3 - "$bin" "$runs" "$threads" "$preset" "$work" "${workloads[@]}" <<'EOF'
import json, os, resource, statistics, subprocess, sys, time

bin, runs, threads, preset, work = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]
workloads = sys.argv[6:]

def options(spec):
    parts = spec.split(",")
    if len(parts) != 5 or parts[0] not in ("stencil", "matmul"):
        sys.exit(f"bench_replay: workload '{spec}' is not KIND,SIZE,BOX|DEPTH,SCHEDULE,BLOCK")
    kind, size, third, schedule, block = parts
    extra = ["--stencil", third] if kind == "stencil" else ["--depth", third]
    return ["--workload", kind, "--size", size] + extra + ["--schedule", schedule, "--block", block]

def timed(args):
    """CPU seconds (user + system, from wait4), wall seconds, peak resident MB, stdout."""
    start = time.monotonic()
    with open(os.path.join(work, "out.json"), "w") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    err = proc.stderr.read().decode()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench_replay: {' '.join(args)} failed:\n{err}")
    with open(os.path.join(work, "out.json")) as f:
        text = f.read()
    return usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024, text

def counters(text):
    result = json.loads(text)
    for key in ("workload", "trace", "seconds", "accesses_per_second"):
        result.pop(key, None)
    return result

print(f"cachesim {preset} preset; machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start")
print()
print("| workload | threads | trace written (s) | built-in CPU s | replay CPU s | CPU ratio | built-in wall s | replay wall s | wall ratio | built-in MB | replay MB |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for spec in workloads:
    opts = options(spec)
    trace = os.path.join(work, "launch.cst")
    _, written, _, _ = timed([bin, "trace"] + opts + ["-o", trace, "--quiet"])
    for t in threads.split(","):
        built_in = [bin, "simulate", "--preset", preset, "--threads", t, "--format", "json"] + opts
        replay = [bin, "simulate", "--preset", preset, "--threads", t, "--format", "json", "--trace", trace]
        rows = {"built-in": [], "replay": []}
        for _ in range(runs):
            for name, args in (("built-in", built_in), ("replay", replay)):
                rows[name].append(timed(args))
        if counters(rows["built-in"][0][3]) != counters(rows["replay"][0][3]):
            sys.exit(f"bench_replay: {spec}: the replay's counters differ from the built-in run's")
        med = {name: [statistics.median(r[i] for r in rows[name]) for i in range(3)] for name in rows}
        b, r = med["built-in"], med["replay"]
        print(f"| {spec} | {t if t != '0' else 'all'} | {written:.1f} | {b[0]:.2f} | {r[0]:.2f} | {r[0] / b[0]:.2f}x "
              f"| {b[1]:.2f} | {r[1]:.2f} | {r[1] / b[1]:.2f}x | {b[2]:.0f} | {r[2]:.0f} |", flush=True)
    os.remove(trace)
print()
print(f"medians of {runs} runs each, taking turns; load average {os.getloadavg()[0]:.2f} at the end")
EOF
