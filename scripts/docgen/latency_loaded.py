"""The DRAM read latency while every SM streams from DRAM (latencyprobe --loaded)."""

import re

from docgen.common import H200, note


LOADED = H200 + "/latency_loaded/latencyprobe_loaded.txt"


def loaded_runs():
    """Per run, in order: loads in flight, GB/s, and per case (median, p10, p90) cycles."""
    runs = []
    with open(LOADED) as f:
        for line in f:
            m = re.match(r"stream, (\d+) loads in flight a thread: [\d.]+ ms, (\d+) GB/s", line)
            if m:
                runs.append({"k": int(m.group(1)), "gbs": int(m.group(2)), "cases": {}})
                continue
            m = re.match(r"(\w+)\s+(\d+)\s+(\d+)\s+(\d+)\s+-?\d+$", line.strip())
            if m and runs:
                runs[-1]["cases"][m.group(1)] = tuple(int(m.group(i)) for i in (2, 3, 4))
    return runs


def gen_latency_loaded():
    runs = loaded_runs()
    out = ["| loads in flight a streaming thread | the stream's bandwidth | DRAM read, median | p10 | p90 "
           "| the same launch's DRAM read unloaded, median |",
           "|---:|---:|---:|---:|---:|---:|"]
    for k in sorted({r["k"] for r in runs}):
        mine = [r for r in runs if r["k"] == k]
        cell = lambda f: ", ".join(f(r) for r in mine)
        out.append("| {} | {} TB/s | {} | {} | {} | {} |".format(
            k, cell(lambda r: "{:.2f}".format(r["gbs"] / 1000)),
            cell(lambda r: str(r["cases"]["dram_loaded"][0])), cell(lambda r: str(r["cases"]["dram_loaded"][1])),
            cell(lambda r: str(r["cases"]["dram_loaded"][2])), cell(lambda r: str(r["cases"]["dram"][0]))))
    return note("from `{}`, written by `scripts/device_latency.sh loaded` (apps/gpubench/latencyprobe.cu "
                "`--lines 512 --loaded K`: one thread chasing 512 lines from DRAM while every SM streams a 2 GiB "
                "buffer; cycles, each run's figures in order)".format(LOADED)) + "\n" + "\n".join(out) + "\n"
