#!/usr/bin/env python3
"""Issue cost per request of gpubench's compiled loops, from scripts/device_issue_cost.sh's output.

For each profiled launch: the cycles of one warp scheduler (SM sub-partition) that each global
load request takes, counting the loop's other instructions, as the busiest of
  - the issue port: warp instructions issued (one a cycle per scheduler),
  - each pipe's active cycles (sm__pipe_*_cycles_active, summed over the SM's four schedulers;
    the fma pipe is its heavy and lite halves together, which run side by side, so it counts half),
per load request (l1tex__t_requests_pipe_lsu_mem_global_op_ld). Both sums run over the same four
schedulers, so their ratio is one scheduler's cycles per one of its requests.

Usage: scripts/issue_cost_table.py DIR > DIR/issue_cost.csv
(DIR holds ncu_{stencil,matmul}.csv and rows_{stencil,matmul}.csv.)
"""
import csv
import sys
from pathlib import Path


def ncu_rows(path):
    lines = Path(path).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith('"ID"'))
    rows = list(csv.reader(lines[start:]))
    header, data = rows[0], rows[2:]  # rows[1]: units
    return [dict(zip(header, r)) for r in data]


def number(text):
    return float(text.replace(",", "")) if text not in ("", "n/a") else 0.0


def unit_costs(counters, requests):
    """{"issue" or a pipe's name: its cycles per load request} from a launch's counters (column ->
    text); the issue port first, so that it wins a tie under max()."""
    cost = {"issue": number(counters["smsp__inst_executed.sum"]) / requests}
    for key, value in counters.items():
        if key.startswith("sm__pipe_") and key.endswith("_cycles_active.sum"):
            pipe = key[len("sm__pipe_"):-len("_cycles_active.sum")]
            cost[pipe] = number(value) / requests / (2 if pipe == "fma" else 1)
    return cost


def busiest_unit(cost):
    """The unit of unit_costs() that limits the loop: the issue port wins a tie."""
    return max(cost, key=cost.get)


def loop_limit(busiest):
    """What limits a loop whose busiest unit is `busiest`: the issue port, or a pipe."""
    return "issue" if busiest == "issue" else "pipe"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = Path(sys.argv[1])
    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["kernel", "stencil_w", "stencil_h", "depth", "variant", "load_requests", "issue", "alu",
                  "fmaheavy", "fmalite", "fma_half", "busiest", "cycles_per_request"])
    for kind in ("stencil", "matmul"):
        launches = ncu_rows(folder / f"ncu_{kind}.csv")
        configs = list(csv.DictReader(open(folder / f"rows_{kind}.csv")))
        if len(launches) != len(configs):
            sys.exit(f"{kind}: {len(launches)} profiled launches but {len(configs)} configurations")
        for launch, config in zip(launches, configs):
            requests = number(launch["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"])
            cost = unit_costs(launch, requests)
            busiest = busiest_unit(cost)
            out.writerow([kind, config["stencil_w"], config["stencil_h"], config["depth"], config["variant"],
                          int(requests), *(f"{cost.get(p, 0):.2f}" for p in ("issue", "alu", "fmaheavy", "fmalite")),
                          f"{cost.get('fma', 0):.2f}", busiest, f"{cost[busiest]:.2f}"])


if __name__ == "__main__":
    main()
