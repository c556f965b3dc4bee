"""Stand-ins for cachesim in the script tests: a Python program written to a path and made
executable, which a script under test then runs as $CACHESIM_BIN."""
import os
import stat
import subprocess


def write_stand_in(path, program):
    """Writes `program` (a Python script with its #! line) to `path`, executable."""
    with open(path, "w") as f:
        f.write(program)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)


# A stand-in that logs its arguments (tab-separated, one line a call) to $CALLS, fails when $FAIL
# is set, and otherwise writes a small CSV where --out points and prints a line.
LOGGING_STAND_IN = """#!/usr/bin/env python3
import os, sys
args = sys.argv[1:]
with open(os.environ["CALLS"], "a") as f:
    f.write("\\t".join(args) + "\\n")
if os.environ.get("FAIL"):
    sys.exit("made-up failure")
with open(args[args.index("--out") + 1], "w") as f:
    f.write("line\\n2\\n")
print("report")
"""


def run_logged(script, stand_in, calls, args, cwd, fail=False):
    """Runs `script` with `args` and `stand_in` (LOGGING_STAND_IN written by write_stand_in) as
    $CACHESIM_BIN; returns the completed process and the stand-in's calls, each a list of its
    arguments."""
    open(calls, "w").close()
    env = dict(os.environ, CACHESIM_BIN=stand_in, CALLS=calls, FAIL="1" if fail else "")
    got = subprocess.run([script, *args], capture_output=True, text=True, env=env, cwd=cwd)
    with open(calls) as f:
        return got, [line.rstrip("\n").split("\t") for line in f if line.strip()]


def logging_runner(folder, script, cwd):
    """LOGGING_STAND_IN written into `folder`, and a function that runs `script` with its arguments
    and that stand-in (run_logged), failing the stand-in when given fail=True."""
    stand_in = os.path.join(folder, "cachesim")
    write_stand_in(stand_in, LOGGING_STAND_IN)
    calls = os.path.join(folder, "calls")
    return lambda *args, fail=False: run_logged(script, stand_in, calls, args, cwd, fail)


def assert_refused(run, cases):
    """Each (arguments, message) of `cases` run through `run` (a logging_runner) is refused: exit 2,
    the message on stderr, and cachesim never called."""
    for args, message in cases:
        got, logged = run(*args)
        assert got.returncode == 2 and message in got.stderr and logged == [], (args, got.stderr, logged)
