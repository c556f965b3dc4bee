"""README's tour and the thread model's pages."""

import csv
import re

from docgen.common import note, num, run, run_csv, source_line


def gen_simulate_default():
    # the last line ("simulated in 0.001 s, ...") is a timing and is left out
    out = "\n".join(l for l in run(["simulate"]).rstrip("\n").split("\n") if not l.startswith("simulated in "))
    return (note("`cachesim simulate`, without its last line (the run's time)")
            + "\n```\n$ cachesim simulate\n" + out.rstrip("\n") + "\n```\n")


GPU_TOUR = ["simulate", "--preset", "h200", "--workload", "stencil", "--size", "512x512", "--stencil", "9x9",
            "--schedule", "column:32", "--block", "256"]


def gen_simulate_gpu():
    lines = run(GPU_TOUR).rstrip("\n").split("\n")
    head = lines[0]
    body = lines[lines.index(next(l for l in lines if l.startswith("L1:"))):]
    body = [l for l in body if not l.startswith("simulated in ")]
    return (note("`cachesim {}`; the launch parameters printed after the first line and the run's time are "
                 "left out".format(" ".join(GPU_TOUR)))
            + "\n```\n$ cachesim " + " ".join(GPU_TOUR) + "\n" + head + "\n  ...\n" + "\n".join(body) + "\n```\n")


WORKED = ["--size", "256x256", "--stencil", "5x5", "--l1-size", "1K", "--l1-line", "32", "--l2-size", "16K",
          "--l2-line", "64", "--l2-ways", "8"]


def gen_worked_example():
    lines = ["| schedule | L1 ways | L1 read misses | L1 hit rate | compulsory / capacity / conflict |",
             "| --- | --- | ---: | ---: | --- |"]
    for schedule, ways in [("linear", "4"), ("column:16", "4"), ("linear", "full"), ("column:16", "full"),
                           ("column:16", "8")]:
        r = run_csv(["simulate"] + WORKED + ["--l1-ways", ways, "--schedule", schedule])
        lines.append("| {} | {} | {} | {:.2f}% | {} / {} / {} |".format(
            schedule, ways, num(r["l1_read_misses"]), 100 * float(r["l1_hit_rate"]),
            num(r["l1_compulsory"]), num(r["l1_capacity"]), num(r["l1_conflict"])))
    cmd = "cachesim simulate " + " ".join(WORKED) + " --l1-ways W --schedule S --format csv"
    return source_line(cmd) + "\n" + "\n".join(lines) + "\n"


FIGURES = [
    # (file under viz/doc, caption, simulation options, drawing-only options)
    ("fig3_1_stencil_linear.png", "Figure 3.1", ["--preset", "thesis-stencil"],
     ["--title", "Figure 3.1: 7x7 stencil, linear order (thesis Table 3.1)"]),
    ("fig4_4_stencil_column4.png", "Figure 4.4", ["--preset", "thesis-stencil", "--schedule", "column:4"],
     ["--title", "Figure 4.4: 7x7 stencil, column width 4"]),
    ("fig3_3_matmul_linear.png", "Figure 3.3", ["--preset", "thesis-matmul"],
     ["--title", "Figure 3.3: 16x16 matmul, linear order (thesis Table 3.2)"]),
    ("fig4_6_matmul_column4.png", "Figure 4.6", ["--preset", "thesis-matmul", "--schedule", "column:4"],
     ["--title", "Figure 4.6: 16x16 matmul, column width 4"]),
    ("array_view_stencil_step40.png", "array view, step 40", ["--preset", "thesis-stencil"],
     ["--view", "array", "--time", "40", "--width", "1200", "--height", "700",
      "--title", "Array view: 7x7 stencil, linear, step 40"]),
    ("stencil_column4_l1_l2.png", "column:4 with an L2",
     ["--preset", "thesis-stencil", "--schedule", "column:4", "--l2-size", "1K", "--l2-line", "16"],
     ["--title", "7x7 stencil, column 4, with a 1 KiB L2 behind the 24-line L1"]),
    ("stencil256_density.png", "zoomed out: miss density",
     ["--preset", "thesis-stencil", "--size", "256x256", "--stencil", "5x5"],
     ["--title", "256x256 5x5 stencil, thesis cache: miss density and miss rate"]),
    ("stencil256_lines.png", "a band enlarged (--lines)",
     ["--preset", "thesis-stencil", "--size", "256x256", "--stencil", "5x5"],
     ["--lines", "in[0,100]:in[0,108]", "--from", "25000", "--to", "28500",
      "--title", "256x256 5x5 stencil: rows 100-107 of in, steps 25,000-28,500"]),
    ("gpu_stencil128_sm.png", "GPU model, coloured by SM",
     ["--model", "gpu", "--sms", "4", "--block", "128", "--size", "128x128", "--stencil", "5x5"],
     ["--colour-by", "sm", "--title", "128x128 5x5 stencil, GPU model on 4 SMs, coloured by SM"]),
    ("gpu_stencil128_source.png", "GPU model, coloured by hit source",
     ["--model", "gpu", "--sms", "4", "--block", "128", "--size", "128x128", "--stencil", "5x5"],
     ["--colour-by", "source", "--title", "128x128 5x5 stencil, GPU model on 4 SMs: who brought what L1 hits found"]),
]


def quote(args):
    return " ".join("'{}'".format(a) if " " in a else a for a in args)


def gen_thesis_figures():
    lines = ["| figure | PNG | `cachesim diagram` options (and `--out viz/doc/PNG`) | L1 read misses | L2 read misses |",
             "| --- | --- | --- | ---: | ---: |"]
    for name, caption, args, draw in FIGURES:
        r = run_csv(["simulate"] + args)
        l2 = num(r["l2_read_misses"]) if "--l2-size" in args or "gpu" in args else "(no L2)"
        lines.append("| {} | [{}](../viz/doc/{}) | `{}` | {} | {} |".format(
            caption, name, name, quote(args + draw), num(r["l1_read_misses"]), l2))
    return (note("the figures by `cachesim diagram OPTIONS --out viz/doc/PNG`, the misses by "
                 "`cachesim simulate OPTIONS --format csv` (simulation options only)") + "\n" + "\n".join(lines) + "\n")


SWEEP_PLOT = "sweep_thesis_stencil.png"
SWEEP = ["--preset", "thesis-stencil", "--schedule", "linear,column:2,column:4,column:8",
         "--l1-lines", "16,24,32,48", "--quiet"]


def gen_sweep_tour():
    rows = list(csv.DictReader(run(["sweep"] + SWEEP).splitlines()))
    sizes = []
    table = {}
    for r in rows:
        cfg = r["sweep_config"]
        sched = re.search(r"--schedule[= ](\S+)", cfg).group(1)
        lines_ = re.search(r"--l1-lines[= ](\S+)", cfg).group(1)
        if lines_ not in sizes:
            sizes.append(lines_)
        table.setdefault(sched, {})[lines_] = r
    out = ["| schedule | " + " | ".join("{} lines".format(s) for s in sizes) + " |",
           "| --- |" + " ---: |" * len(sizes)]
    for sched, by in table.items():
        out.append("| {} | ".format(sched) + " | ".join(
            "{} misses ({:.2f}%)".format(num(by[s]["l1_read_misses"]), 100 * float(by[s]["l1_hit_rate"])) for s in sizes) + " |")
    cmd = "cachesim sweep " + " ".join(SWEEP).replace("--quiet", "").strip()
    return (note("`{}`: each configuration's L1 read misses and hit rate, and its heat map "
                 "(`--plot viz/doc/{}`)".format(cmd, SWEEP_PLOT)) + "\n" + "\n".join(out) + "\n")
