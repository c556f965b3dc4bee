#!/usr/bin/env bash
# Whole-process speed of `cachesim simulate`, in one table:
#   - the three 10 M-access u64 traces (stream, random over 8 MiB, 50/50 mix; the addresses of
#     tests/bench/bench_core.cpp) through L1 32 KiB 8-way 64 B + L2 1 MiB 16-way 64 B, LRU,
#     write-back: cachesim default (analysis on), cachesim --no-analysis, the minimal C loop
#     (tests/bench/lru_loop.cpp: reads the whole file, then a plain two-level LRU; the
#     speed-of-light reference), and up to two peers when given;
#   - the thread-model 4096 x 4096 9x9 stencil (1.38 G accesses; L1 128 KiB 4-way 128 B
#     write-through, L2 4 MiB 16-way 128 B write-back, linear), default and --no-analysis;
#   - the GPU model (h200 preset) on that stencil and the naive 1024^3 matmul on 1, 2 and all
#     threads: scripts/bench_gpu.sh, one round (BENCH_GPU=0 leaves them out).
# Every figure is accesses per CPU second (user + system of the whole process, from wait4), the
# median of N runs; the programs take turns run by run, so load from other work on the machine
# falls on all of them alike. The machine (nproc, load average) is printed before and after.
#
# Usage: scripts/bench.sh [-n RUNS] [--stencil-runs N] [--stencil WxH] [--no-stencil]
#                         [--accesses N] [--build DIR]
# Environment:
#   CACHESIM_PEER_CMD   a peer's command line, {trace} replaced by the u64 trace's path (for
#                       example tests/bench/pycachesim_runner.py, see docs/speed.md); its row is
#                       'peer' or CACHESIM_PEER_NAME. When it prints "L1 misses N L2 misses N",
#                       as the C loop does, those must equal cachesim's.
#   CACHESIM_PEER2_CMD  a second peer, named by CACHESIM_PEER2_NAME ('peer 2'), likewise.
#   CACHESIM_BASELINE   another cachesim binary (say, a build of an older commit): two more rows,
#                       so that before and after are measured in the same run.
set -euo pipefail
cd "$(dirname "$0")/.."

runs=5
stencil_runs=""
stencil_size=4096x4096
do_stencil=1
accesses=10000000
build=build
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs="$2"; shift 2 ;;
    --stencil-runs) stencil_runs="$2"; shift 2 ;;
    --stencil) stencil_size="$2"; shift 2 ;;
    --no-stencil) do_stencil=0; shift ;;
    --accesses) accesses="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0 ;;
    *) echo "bench.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
stencil_runs="${stencil_runs:-$runs}"

cachesim="$build/apps/cachesim/cachesim"
make_trace="$build/tests/bench_make_u64_trace"
lru_loop="$build/tests/bench_lru_loop"
for program in "$cachesim" "$make_trace" "$lru_loop"; do
  if [ ! -x "$program" ]; then
    echo "bench.sh: $program is missing; build it (cmake --build $build --target cachesim bench_make_u64_trace bench_lru_loop)" >&2
    exit 1
  fi
done

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for kind in stream random mix; do "$make_trace" "$kind" "$accesses" "$work/$kind.u64"; done

export BENCH_BUILD="$build" BENCH_CACHESIM="$cachesim" BENCH_LRU_LOOP="$lru_loop" BENCH_WORK="$work" BENCH_RUNS="$runs" \
  BENCH_STENCIL_RUNS="$stencil_runs" BENCH_STENCIL="$stencil_size" BENCH_DO_STENCIL="$do_stencil" \
  BENCH_ACCESSES="$accesses"
exec python3 - <<'PY'
import os, re, shlex, statistics, subprocess, sys, time

env = os.environ
cachesim = env["BENCH_CACHESIM"]
work = env["BENCH_WORK"]
runs = int(env["BENCH_RUNS"])
accesses = int(env["BENCH_ACCESSES"])
peers = [(env.get(f"CACHESIM_{key}_NAME", default), env[f"CACHESIM_{key}_CMD"])
         for key, default in (("PEER", "peer"), ("PEER2", "peer 2")) if env.get(f"CACHESIM_{key}_CMD")]

def peer_argv(cmd, trace):
    return ["sh", "-c", cmd.replace("{trace}", shlex.quote(trace))]
baseline = env.get("CACHESIM_BASELINE", "")

def machine(when):
    load = " ".join(open("/proc/loadavg").read().split()[:3])
    print(f"# {when}: nproc {os.cpu_count()}, load average {load}", flush=True)

def cpu_seconds(argv):
    """CPU time (user + system) of one whole process, children included."""
    with open(os.devnull, "wb") as null:
        p = subprocess.Popen(argv, stdout=null, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"bench.sh: {' '.join(argv)} exited with {code}: {err.strip()}")
    return usage.ru_utime + usage.ru_stime

trace_levels = ["--trace-format", "u64", "--l1-size", "32K", "--l1-line", "64", "--l1-ways", "8",
                "--l1-write", "back", "--l2-size", "1M", "--l2-line", "64", "--l2-ways", "16",
                "--format", "csv"]

def trace_rows(trace):
    rows = [("cachesim default (analysis)", [cachesim, "simulate", "--trace", trace] + trace_levels),
            ("cachesim --no-analysis", [cachesim, "simulate", "--trace", trace, "--no-analysis"] + trace_levels),
            ("minimal C loop (whole file, then LRU)", [env["BENCH_LRU_LOOP"], trace])]
    rows += [(name, peer_argv(cmd, trace)) for name, cmd in peers]
    if baseline:
        rows.append(("baseline default", [baseline, "simulate", "--trace", trace] + trace_levels))
        rows.append(("baseline --no-analysis", [baseline, "simulate", "--trace", trace, "--no-analysis"] + trace_levels))
    return rows

def measure(rows, n, count):
    """Median accesses per CPU second of each row; row i starts run r at position (r + i) mod k."""
    times = {name: [] for name, _ in rows}
    for r in range(n):
        order = rows[r % len(rows):] + rows[:r % len(rows)]
        for name, argv in order:
            times[name].append(cpu_seconds(argv))
    return {name: (count / statistics.median(t), statistics.median(t), min(t), max(t))
            for name, t in times.items()}

def check_misses(trace):
    """The C loop simulates the same caches: its miss counts must equal cachesim's."""
    c = subprocess.run([env["BENCH_LRU_LOOP"], trace], capture_output=True, text=True, check=True).stdout.split()
    out = subprocess.run([cachesim, "simulate", "--trace", trace, "--no-analysis"] + trace_levels[:-2] +
                         ["--format", "json"], capture_output=True, text=True, check=True).stdout
    import json
    levels = json.loads(out)["levels"]
    ours = [lv["read_misses"] + lv["write_misses"] for lv in levels]
    theirs = [int(c[4]), int(c[7])]
    if ours != theirs:
        sys.exit(f"bench.sh: {trace}: cachesim misses {ours} but the C loop {theirs}")
    for peer_name, cmd in peers:  # a peer that prints the C loop's "L1 misses N L2 misses N" is checked too
        out = subprocess.run(peer_argv(cmd, trace), capture_output=True, text=True, check=True).stdout
        found = re.search(r"L1 misses (\d+) L2 misses (\d+)", out)
        if not found:
            print(f"# {peer_name}: miss counts not checked (its output has no 'L1 misses N L2 misses N')")
        elif [int(found[1]), int(found[2])] != ours:
            sys.exit(f"bench.sh: {trace}: cachesim misses {ours} but {peer_name} {[int(found[1]), int(found[2])]}")

machine("start")
print(f"# {runs} runs per program, alternated; medians; M accesses per CPU second (user + system)")
kinds = ["stream", "random", "mix"]
results = {}
for kind in kinds:
    trace = os.path.join(work, kind + ".u64")
    check_misses(trace)
    results[kind] = measure(trace_rows(trace), runs, accesses)
    print(f"# {kind} done", flush=True)

names = [name for name, _ in trace_rows("x")]
print()
print(f"{'u64 trace, ' + str(accesses // 1000000) + ' M accesses':<40}" + "".join(f"{k:>10}" for k in kinds))
for name in names:
    print(f"{name:<40}" + "".join(f"{results[k][name][0] / 1e6:>10.1f}" for k in kinds))
def ratio(label, a, b):
    print(f"{label:<40}" + "".join(f"{results[k][a][0] / results[k][b][0]:>9.2f}x" for k in kinds))
ratio("default / --no-analysis", names[0], names[1])
ratio("--no-analysis / C loop", names[1], names[2])
for peer_name, _ in peers:
    ratio(f"--no-analysis / {peer_name}", names[1], peer_name)
if baseline:
    ratio("default / baseline default", names[0], "baseline default")
    ratio("--no-analysis / baseline --no-analysis", names[1], "baseline --no-analysis")
print("(CPU seconds, median [min..max]: " + "; ".join(
    f"{k} " + ", ".join(f"{results[k][n][1]:.3f} [{results[k][n][2]:.3f}..{results[k][n][3]:.3f}]" for n in names)
    for k in kinds) + ")")

if env["BENCH_DO_STENCIL"] == "1":
    size = env["BENCH_STENCIL"]
    w, h = (int(v) for v in size.split("x"))
    total = w * h * 82
    levels = ["--size", size, "--stencil", "9x9", "--l1-size", "128K", "--l1-line", "128", "--l1-ways", "4",
              "--l2-size", "4M", "--l2-line", "128", "--l2-ways", "16", "--format", "csv"]
    rows = [("cachesim default (analysis)", [cachesim, "simulate"] + levels),
            ("cachesim --no-analysis", [cachesim, "simulate", "--no-analysis"] + levels)]
    if baseline:
        rows += [("baseline default", [baseline, "simulate"] + levels),
                 ("baseline --no-analysis", [baseline, "simulate", "--no-analysis"] + levels)]
    s = measure(rows, int(env["BENCH_STENCIL_RUNS"]), total)
    print()
    print(f"{'thread model, stencil ' + size + ' 9x9 (' + format(total / 1e9, '.2f') + ' G)':<40}{'M/s':>10}{'CPU s':>10}")
    for name, _ in rows:
        print(f"{name:<40}{s[name][0] / 1e6:>10.1f}{s[name][1]:>10.2f}")
    print(f"{'default / --no-analysis':<40}{s[rows[0][0]][0] / s[rows[1][0]][0]:>9.2f}x")

# GPU model: scripts/bench_gpu.sh, one round (the h200 preset on the 4096 x 4096 9x9 stencil and
# the naive 1024^3 matmul, on 1, 2 and all threads; the baseline's rows too). BENCH_GPU=0 leaves
# it out.
if env.get("BENCH_GPU", "1") == "1":
    print(flush=True)
    subprocess.run(["scripts/bench_gpu.sh", "-n", "1", "--build", env["BENCH_BUILD"]], check=True)

print()
machine("end")
PY
