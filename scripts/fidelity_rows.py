#!/usr/bin/env python3
"""The row-by-row half of scripts/fidelity_report.sh --by-row.

  fidelity_rows.py tasks FILES HEAD [WORK]     one line a row: GPU SET KERNEL MEASURED ROW, largest first;
                                               with WORK, only the rows whose report WORK does not hold
  fidelity_rows.py merge FILES HEAD WORK OUT   each file's rows' joined CSVs and reports, merged

FILES lists one measured file a line: GPU SET KERNEL MEASURED (MEASURED as compare's --measured
argument, [SET=]FILE). HEAD: only the first HEAD rows of each file (empty: all). The rows' results
are WORK/GPU_SET_KERNEL_ROW.csv and .txt; the merged ones OUT/GPU/fidelity_report_SET_KERNEL.csv
and .txt, written whole or not at all.
"""
import csv
import os
import sys


def measured_files(files_path):
    with open(files_path) as f:
        return [line.split() for line in f if line.strip()]


def measured_rows(measured, head):
    path = measured.split("=", 1)[1] if "=" in measured else measured
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return rows[:int(head)] if head else rows


def loads(row, kernel):
    """About how many loads the launch makes: what its simulation's length follows."""
    number = lambda key: int(row.get(key) or 0)
    cells = number("width") * number("height")
    if kernel == "stencil":
        return cells * max(1, number("stencil_w")) * max(1, number("stencil_h"))
    return cells * max(1, number("depth")) * 2


def row_stem(work, gpu, set_name, kernel, index):
    return os.path.join(work, "{}_{}_{}_{}".format(gpu, set_name, kernel, index))


def tasks(files_path, head, work=None):
    out = []
    for gpu, set_name, kernel, measured in measured_files(files_path):
        for index, row in enumerate(measured_rows(measured, head), 1):
            stem = row_stem(work, gpu, set_name, kernel, index) if work else None
            if stem and os.path.exists(stem + ".txt") and os.path.exists(stem + ".csv"):
                continue  # done in an earlier run
            out.append((loads(row, kernel), gpu, set_name, kernel, measured, index))
    out.sort(key=lambda t: -t[0])
    for _, *fields in out:
        print(" ".join(str(f) for f in fields))


def write_whole(path, text):
    with open(path + ".new", "w") as f:
        f.write(text)
    os.replace(path + ".new", path)


def merge(files_path, head, work, out):
    for gpu, set_name, kernel, measured in measured_files(files_path):
        header, data, reports = None, [], []
        for index in range(1, len(measured_rows(measured, head)) + 1):
            stem = row_stem(work, gpu, set_name, kernel, index)
            with open(stem + ".csv") as f:
                lines = f.read().splitlines(keepends=True)
            if header is None:
                header = lines[0]
            elif lines[0] != header:
                sys.exit("fidelity_rows: {}.csv has other columns than the file's first row".format(stem))
            data += lines[1:]  # none when --skip-invalid-rows left the row out
            with open(stem + ".txt") as f:
                reports.append(f.read())
        if header is None:
            continue
        directory = os.path.join(out, gpu)
        os.makedirs(directory, exist_ok=True)
        name = os.path.join(directory, "fidelity_report_{}_{}".format(set_name, kernel))
        write_whole(name + ".csv", header + "".join(data))
        write_whole(name + ".txt", "Rows simulated one at a time (scripts/fidelity_report.sh --by-row); "
                    "each row's report in turn.\n\n" + "\n".join(reports))
        print("fidelity_report: wrote {}.csv ({} rows)".format(name, len(data)), file=sys.stderr)


def main(argv):
    if len(argv) in (4, 5) and argv[1] == "tasks":
        tasks(argv[2], argv[3], argv[4] if len(argv) == 5 else None)
    elif len(argv) == 6 and argv[1] == "merge":
        merge(argv[2], argv[3], argv[4], argv[5])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
