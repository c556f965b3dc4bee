"""Stand-ins for cachesim in the script tests: a Python program written to a path and made
executable, which a script under test then runs as $CACHESIM_BIN."""
import os
import stat


def write_stand_in(path, program):
    """Writes `program` (a Python script with its #! line) to `path`, executable."""
    with open(path, "w") as f:
        f.write(program)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
