#!/usr/bin/env python3
"""The probe loops' executed instructions by opcode, beside their pipe counters.

From `scripts/device_issue_cost.sh opcodes` output (NAME_source.csv: Nsight Compute's source page,
every SASS instruction of each launch with its executed warp instructions; NAME_raw.csv: the same
launches' counters; logs/NAME.log: gpubench's progress lines, which name each launch) writes
  OUT/opcode_mix.csv       launch,kernel,box,variant,build,opcode,warp_instructions
                           (each launch's executed warp instructions summed by whole opcode)
  OUT/opcode_counters.csv  launch,kernel,box,variant,build and the counters the opcode-to-pipe table
                           (traces/instruction_pipes.hpp) is checked against
Usage: scripts/opcode_mix.py DEVICE_OUT_DIR OUT_DIR
"""
import collections
import csv
import re
import sys

from issue_cost_table import number  # scripts/, beside this file

PARTS = [("opcodes_stencil", "O3"), ("opcodes_matmul", "O3"), ("opcodes_o1_matmul", "O1")]
COUNTERS = [
    ("load_requests", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("warp_instructions", "smsp__inst_executed.sum"),
    ("alu_instructions", "smsp__inst_executed_pipe_alu.sum"),
    ("fma_instructions", "smsp__inst_executed_pipe_fma.sum"),
    ("alu_cycles", "sm__pipe_alu_cycles_active.sum"),
    ("fmaheavy_cycles", "sm__pipe_fmaheavy_cycles_active.sum"),
    ("fmalite_cycles", "sm__pipe_fmalite_cycles_active.sum"),
]


def source_listings(path):
    """Each launch's (address, SASS, executed) rows; ncu prints every listing twice in a row."""
    listings, header, current = [], None, None
    for row in csv.reader(open(path, newline="")):
        if not row:
            continue
        if row[0] == "Kernel Name":
            current = {"kernel": row[1], "rows": []}
            listings.append(current)
        elif row[0] == "Address":
            header = row
        else:
            current["rows"].append(dict(zip(header, row)))
    unique = []
    for listing in listings:
        key = (listing["kernel"], [(r["Address"], r["Instructions Executed"]) for r in listing["rows"]])
        if unique and key == unique[-1][0]:
            continue
        unique.append((key, listing))
    return [listing for _, listing in unique]


def opcode(sass):
    tokens = sass.split()
    if tokens and tokens[0].startswith("@"):  # a predicate guard
        tokens = tokens[1:]
    return tokens[0] if tokens else ""


def launches(log):
    """(kernel, box, variant) of each launch from gpubench's '[k/n] stencil ..., 3x5 box, ...' lines."""
    out = []
    for line in open(log):
        m = re.match(r"\[\d+/\d+\] (\w+) [^,]*(?:, (\d+x\d+) box)?.*?(?:, (index32|unroll1))?: ", line)
        if m:
            out.append((m.group(1), m.group(2) or "", m.group(3) or "index64"))
    return out


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, dst = sys.argv[1], sys.argv[2]
    mix_rows, counter_rows, launch = [], [], 0
    for name, build in PARTS:
        listings = source_listings(f"{src}/{name}_source.csv")
        raw = list(csv.DictReader(open(f"{src}/{name}_raw.csv", newline="")))
        labels = launches(f"{src}/logs/{name}.log")
        if not (len(listings) == len(raw) == len(labels)):
            sys.exit(f"{name}: {len(listings)} listings, {len(raw)} counter rows, {len(labels)} launches logged")
        for listing, counters, (kernel, box, variant) in zip(listings, raw, labels):
            if kernel not in listing["kernel"]:
                sys.exit(f"{name}: launch {launch} is {listing['kernel']}, the log says {kernel}")
            key = [launch, kernel, box, variant, build]
            by_opcode = collections.Counter()
            for r in listing["rows"]:
                executed = int(number(r["Instructions Executed"]))
                if executed:
                    by_opcode[opcode(r["Source"])] += executed
            mix_rows += [key + [op, n] for op, n in sorted(by_opcode.items())]
            counter_rows.append(key + [int(number(counters[metric])) for _, metric in COUNTERS])
            launch += 1
    head = ["launch", "kernel", "box", "variant", "build"]
    with open(f"{dst}/opcode_mix.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([head + ["opcode", "warp_instructions"]] + mix_rows)
    with open(f"{dst}/opcode_counters.csv", "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([head + [c for c, _ in COUNTERS]] + counter_rows)


if __name__ == "__main__":
    main()
