#!/usr/bin/env python3
"""Puts the metrics of a second gpubench run into the rows of a first one.

    scripts/merge_profile_runs.py BASE OVERRIDE --out FILE

BASE and OVERRIDE are gpubench CSVs of the same launches. Every row of OVERRIDE names one launch
by its configuration (every column that is neither a metric nor a time: kernel, sizes, schedule,
block, gpu, variant, ...), and that launch's row of BASE takes OVERRIDE's metric columns (the
Nsight Compute names, with their :min and :max) in place of its own. Everything else of BASE
stays: its other metrics, its times, its rows that OVERRIDE does not measure, its order (so a
row's line number is the same in FILE as in BASE).

Used where a few metrics need more profiled launches than the whole set was measured with: the
held-out and fresh matmuls' hit rates over 21 launches (scripts/device_heldout.sh
heldout_matmul_rates21, fresh_matmul_rates21, fresh2_matmul_rates21) in the rows measured over 3.

Refused with exit code 2, naming what is wrong, and FILE left untouched: a file that cannot be
read or has no rows, an OVERRIDE column BASE lacks, two rows of one file naming the same launch,
an OVERRIDE row whose launch BASE does not have, FILE naming an input or a folder. FILE is written whole or
not at all."""
import argparse
import csv
import os
import sys
import tempfile

# gpubench's timing columns: a run's own, never part of a launch's name
TIMING = {"time_ms", "time_ms_min", "repetitions", "rel_error"}


class Refused(Exception):
    pass


def is_metric(column):
    # Nsight Compute's names have a double underscore (l1tex__..., lts__..., dram__...)
    return "__" in column


def read(path):
    try:
        with open(path, newline="") as f:
            reader = csv.DictReader(f)
            rows = list(reader)
            columns = reader.fieldnames or []
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise Refused("cannot read {}: {}".format(path, error))
    if not columns or not rows:
        raise Refused("{} has no rows".format(path))
    for line, row in enumerate(rows, start=2):
        if None in row:
            raise Refused("{} line {}: more fields than the header's {}".format(path, line, len(columns)))
        if any(value is None for value in row.values()):
            raise Refused("{} line {}: fewer fields than the header's {}".format(path, line, len(columns)))
    return columns, rows


def index_by_launch(path, rows, key_columns):
    launches = {}
    for line, row in enumerate(rows, start=2):
        key = tuple(row[c] for c in key_columns)
        if key in launches:
            raise Refused("{} lines {} and {} name the same launch ({})".format(
                path, launches[key][0], line, describe(key_columns, key)))
        launches[key] = (line, row)
    return launches


def describe(columns, key):
    return ", ".join("{}={}".format(c, v) for c, v in zip(columns, key))


def merge(base_path, override_path):
    base_columns, base_rows = read(base_path)
    override_columns, override_rows = read(override_path)
    missing = [c for c in override_columns if c not in base_columns]
    if missing:
        raise Refused("{} has columns {} does not: {}".format(override_path, base_path, ", ".join(missing)))
    metrics = [c for c in override_columns if is_metric(c)]
    if not metrics:
        raise Refused("{} has no metric columns to merge".format(override_path))
    key_columns = [c for c in override_columns if not is_metric(c) and c not in TIMING]
    base_launches = index_by_launch(base_path, base_rows, key_columns)
    override_launches = index_by_launch(override_path, override_rows, key_columns)
    for key, (line, row) in override_launches.items():
        if key not in base_launches:
            raise Refused("{} line {}: {} has no such launch ({})".format(
                override_path, line, base_path, describe(key_columns, key)))
        base_row = base_launches[key][1]
        for c in metrics:
            base_row[c] = row[c]
    return base_columns, base_rows, len(metrics), len(override_launches)


def write_whole(path, columns, rows):
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".merge_profile_runs.")
    try:
        with os.fdopen(handle, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
            writer.writeheader()
            writer.writerows(rows)
        # mkstemp makes the file private (0600); the output is an ordinary file, as open() would make it
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base")
    parser.add_argument("override")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    try:
        out = os.path.realpath(args.out)
        if out in (os.path.realpath(args.base), os.path.realpath(args.override)):
            raise Refused("--out {} is one of the inputs; give another file".format(args.out))
        if os.path.isdir(out):
            raise Refused("--out {} is a folder; give a file".format(args.out))
        columns, rows, metrics, merged = merge(args.base, args.override)
        write_whole(args.out, columns, rows)
    except Refused as error:
        print("merge_profile_runs: " + str(error), file=sys.stderr)
        return 2
    except OSError as error:
        print("merge_profile_runs: cannot write {}: {}".format(args.out, error), file=sys.stderr)
        return 2
    print("merge_profile_runs: wrote {}: {} of {}'s {} rows with {}'s {} metric columns".format(
        args.out, merged, args.base, len(rows), args.override, metrics), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
