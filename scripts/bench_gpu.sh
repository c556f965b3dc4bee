#!/usr/bin/env bash
# Speed of the GPU model on several threads, whole process (`cachesim simulate --preset h200`, as
# a user runs it): the 4096 x 4096 9x9 stencil (block 256) and the naive 1024^3 matmul (block
# 128), on each thread count asked for. Every figure is the median of the rounds, wall seconds and
# CPU seconds (user + system, from wait4); the runs take turns round by round (each launch, thread
# count and binary in order), so load from other work falls on all of them alike. The speed-up is
# the median one-thread wall time over the median wall time. The machine (nproc, load average) is
# printed before and after.
#
# Usage: scripts/bench_gpu.sh [-n ROUNDS] [--threads LIST] [--cores LIST] [--build DIR]
#                             [--bench-model PATH]
#   -n ROUNDS       rounds (default 3)
#   --threads LIST  thread counts, comma-separated (default 1,2,all cores)
#   --cores LIST    run pinned to these cores (taskset -c LIST), e.g. 2,3 for two cores of a larger
#                   machine; --threads then defaults to 1 and the number of cores listed
#   --build DIR     the build whose apps/cachesim/cachesim runs (default build)
#   --bench-model PATH  run this bench_gpu_model binary (tests/bench_gpu_model.cpp, the same
#                   launches) instead of the command line, for a machine without the command
#                   line's libraries (the GPU machine: carry the binary there); its figures are the
#                   wall and CPU seconds it prints for the run, not for the dispatch plan it works
#                   out first, and its counters are its ncu line
# Environment:
#   CACHESIM_BASELINE  another binary of the same kind (a build of an older commit): its rows
#                      beside, in the same rounds, so that before and after are measured under one load;
#                      where its counters differ from this build's (a model change), a line says so.
set -euo pipefail
cd "$(dirname "$0")/.."

rounds=3
threads=""
cores=""
build=build
bench_model=""
while [ $# -gt 0 ]; do
  case "$1" in
    -n) rounds="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --cores) cores="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --bench-model) bench_model="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "bench_gpu.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "bench_gpu.sh: -n wants a number of rounds (1 or more), not '$rounds'" >&2; exit 2 ;; esac
cachesim="$build/apps/cachesim/cachesim"
if [ -n "$bench_model" ]; then
  if [ ! -x "$bench_model" ]; then
    echo "bench_gpu.sh: --bench-model '$bench_model' is not an executable (cmake --build $build --target bench_gpu_model)" >&2
    exit 1
  fi
elif [ ! -x "$cachesim" ]; then
  echo "bench_gpu.sh: $cachesim is missing; build it (cmake --build $build --target cachesim)" >&2
  exit 1
fi
if [ -n "${CACHESIM_BASELINE:-}" ] && [ ! -x "$CACHESIM_BASELINE" ]; then
  echo "bench_gpu.sh: CACHESIM_BASELINE '$CACHESIM_BASELINE' is not an executable" >&2
  exit 1
fi
if [ -n "$cores" ] && ! command -v taskset >/dev/null 2>&1; then
  echo "bench_gpu.sh: --cores needs taskset (util-linux)" >&2
  exit 1
fi

export BENCH_CACHESIM="$cachesim" BENCH_MODEL="$bench_model" BENCH_ROUNDS="$rounds" BENCH_THREADS="$threads" \
  BENCH_CORES="$cores"
exec python3 - <<'PY'
import csv, io, os, re, statistics, subprocess, sys, time

env = os.environ
rounds = int(env["BENCH_ROUNDS"])
cores = env["BENCH_CORES"]
pin = ["taskset", "-c", cores] if cores else []
def core_count(cores):
    """How many cores a taskset list names ("2,3", "0-7,12")."""
    named = set()
    for part in cores.split(","):
        first, _, last = part.partition("-")
        named.update(range(int(first), int(last or first) + 1))
    return len(named)

try:
    available = core_count(cores) if cores else len(os.sched_getaffinity(0))
except ValueError:
    sys.exit(f"bench_gpu.sh: --cores wants core numbers and ranges separated by commas (2,3 or 0-7), not '{cores}'")
try:
    # By default one thread, every core available, and two where the machine is not pinned.
    thread_counts = sorted({int(t) for t in env["BENCH_THREADS"].split(",")} if env["BENCH_THREADS"]
                           else {1, available} | (set() if cores else {min(2, available)}))
except ValueError:
    sys.exit(f"bench_gpu.sh: --threads wants numbers separated by commas, not '{env['BENCH_THREADS']}'")
if not thread_counts or thread_counts[0] < 1:
    sys.exit("bench_gpu.sh: thread counts start at 1")
model = env["BENCH_MODEL"]
binaries = [("bench_gpu_model" if model else "cachesim", model or env["BENCH_CACHESIM"])]
if env.get("CACHESIM_BASELINE"):
    binaries.append(("baseline", env["CACHESIM_BASELINE"]))

# (name, bench_gpu_model's name for it, the command line's arguments, warp requests)
launches = [("stencil 4096x4096 9x9", "stencil", ["--workload", "stencil", "--size", "4096x4096", "--stencil", "9x9",
                                                   "--block", "256"], 4096 * 4096 // 32 * 82),
            ("matmul 1024^3 naive", "matmul", ["--workload", "matmul", "--size", "1024x1024", "--depth", "1024",
                                                "--block", "128"], 1024 * 1024 // 32 * 2049)]

def machine(when):
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"# {when}: nproc {os.cpu_count()}, load average {load}" + (f", pinned to cores {cores}" if cores else ""),
          flush=True)

def run(binary, threads, kind, args):
    """One run: wall and CPU seconds, and its counters (a dict)."""
    if model:
        argv = pin + [binary, kind, "0", "linear", str(threads)]
    else:
        argv = pin + [binary, "simulate", "--preset", "h200", "--format", "csv", "--threads", str(threads)] + args
    before = os.times()
    start = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = p.communicate()
    wall = time.monotonic() - start
    after = os.times()
    if p.returncode != 0:
        sys.exit(f"bench_gpu.sh: {' '.join(argv)} exited with {p.returncode}: {err.decode(errors='replace').strip()}")
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    text = out.decode()
    if not model:
        rows = list(csv.reader(io.StringIO(text)))  # quoted fields hold commas
        return wall, cpu, dict(zip(rows[0], rows[-1]))
    timed = re.search(r"threads +\d+: +([\d.]+) s wall .*?([\d.]+) s CPU", text)
    ncu = re.search(r"ncu:(.*)", text)
    if not timed or not ncu:
        sys.exit(f"bench_gpu.sh: no times or counters in the output of {' '.join(argv)}")
    return float(timed.group(1)), float(timed.group(2)), {"ncu": ncu.group(1).strip()}

machine("start")
print(f"# {rounds} rounds; medians of wall and CPU seconds (whole process); counters checked equal across runs",
      flush=True)
times = {}
counters = {}   # (launch, binary) -> the counters of its first run
differing = set()  # launches whose baseline counters differ from this build's (said once)
for r in range(rounds):
    for name, kind, args, _ in launches:
        for threads in thread_counts:
            for label, binary in binaries:
                wall, cpu, row = run(binary, threads, kind, args)
                times.setdefault((name, label, threads), []).append((wall, cpu))
                # The counters must not depend on the thread count. A baseline's may differ from
                # this build's where the model changed between them (its columns are compared where
                # they share a name): that is said, not refused, so that the speed is still measured.
                first = counters.setdefault((name, label), row)
                if any(first[k] != v for k, v in row.items() if k in first):
                    sys.exit(f"bench_gpu.sh: {label} on {threads} threads gave other counters for {name}")
                ours = counters[(name, binaries[0][0])]
                if label != binaries[0][0] and name not in differing and any(
                        ours[k] != v for k, v in row.items() if k in ours):
                    differing.add(name)
                    print(f"# {name}: the {label}'s counters differ from this build's (the model changed "
                          "between them)", flush=True)
    print(f"# round {r + 1} done", flush=True)

print()
print(f"{'launch':<24}{'binary':>16}{'threads':>8}{'wall s':>9}{'(min..max)':>16}{'CPU s':>9}{'speed-up':>10}{'M req/s':>9}")
for name, _, _, requests in launches:
    for label, _ in binaries:
        one = statistics.median(w for w, _ in times[(name, label, thread_counts[0])])
        for threads in thread_counts:
            walls = [w for w, _ in times[(name, label, threads)]]
            cpus = [c for _, c in times[(name, label, threads)]]
            wall = statistics.median(walls)
            spread = f"({min(walls):.2f}..{max(walls):.2f})"
            print(f"{name:<24}{label:>16}{threads:>8}{wall:>9.2f}{spread:>16}{statistics.median(cpus):>9.2f}"
                  f"{one / wall:>9.2f}x{requests / wall / 1e6:>9.1f}")
print()
machine("end")
PY
