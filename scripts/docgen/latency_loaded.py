"""Load latencies while every SM streams from DRAM or from the L2 (latencyprobe --loaded)."""

import re

from docgen.common import H200, note


LOADED_DRAM = H200 + "/latency_loaded/latencyprobe_loaded.txt"
LOADED_L2 = H200 + "/latency_loaded/latencyprobe_loaded_l2.txt"


def loaded_runs(path):
    """Per run, in order: the stream's MiB, loads in flight, GB/s, and per case (median, p10, p90) cycles."""
    runs = []
    with open(path) as f:
        for line in f:
            m = re.match(r"stream of (\d+) MiB, (\d+) loads in flight a thread: [\d.]+ ms, (\d+) GB/s", line)
            if m:
                runs.append({"mib": int(m.group(1)), "k": int(m.group(2)), "gbs": int(m.group(3)), "cases": {}})
                continue
            m = re.match(r"(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+-?\d+$", line.strip())
            if m and runs:
                runs[-1]["cases"][m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return runs


def rows(runs, loaded_case, idle_case, what):
    out = []
    for k in sorted({r["k"] for r in runs}):
        mine = [r for r in runs if r["k"] == k]
        cell = lambda f: ", ".join(f(r) for r in mine)
        out.append("| {} | {} | {} TB/s | {} | {} | {} | {} |".format(
            what, k, cell(lambda r: "{:.2f}".format(r["gbs"] / 1000)),
            cell(lambda r: str(r["cases"][loaded_case][0])), cell(lambda r: str(r["cases"][loaded_case][1])),
            cell(lambda r: str(r["cases"][loaded_case][2])), cell(lambda r: str(r["cases"][idle_case][0]))))
    return out


def gen_latency_loaded():
    out = ["| the stream reads, and the chase times | loads in flight a streaming thread | the stream's bandwidth "
           "| median | p10 | p90 | the same read on the idle chip, median |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    out += rows(loaded_runs(LOADED_DRAM), "dram_loaded", "dram", "2 GiB from DRAM; a DRAM read")
    out += rows(loaded_runs(LOADED_L2), "l2_loaded", "l2", "16 MiB from the L2; an L2 hit")
    return note("from `{}` and `{}`, written by `scripts/device_latency.sh loaded` and `loaded_l2` "
                "(apps/gpubench/latencyprobe.cu `--lines 512 --loaded K`, `--stream-mib 16` for the L2: one thread "
                "chasing 512 lines while every SM streams a buffer; cycles, each run's figures in "
                "order)".format(LOADED_DRAM, LOADED_L2)) + "\n" + "\n".join(out) + "\n"
