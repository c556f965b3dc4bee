#!/usr/bin/env python3
"""scripts/fidelity_rows.py (fidelity_report.sh --by-row) on files made up by hand. A measured
file of three rows: a 64x64 stencil 3x3 (36,864 loads), a 128x128 stencil 3x3 (147,456) and a
32x32 stencil 9x9 (82,944), and one of two matmul rows, 64x64 at depth 8 (65,536 loads) and the
first of --head 1. `tasks` lists a row a line, the most loads first; `merge` writes each file's
rows in file order under one header, leaves out a row whose run kept none (--skip-invalid-rows),
puts the rows' reports in turn in the .txt, and refuses parts whose columns differ. With a work
folder (--work), `tasks` leaves out the rows whose .csv and .txt are there, and runs again a row
stopped part way (its report still .txt.part)."""
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "fidelity_rows.py")
MEASURED = "kernel,width,height,stencil_w,stencil_h,depth,schedule,block\n"


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        stencil = os.path.join(tmp, "heldout_stencil.csv")
        with open(stencil, "w") as f:
            f.write(MEASURED + "stencil,64,64,3,3,0,linear,128\nstencil,128,128,3,3,0,linear,128\n"
                    "stencil,32,32,9,9,0,linear,128\n")
        matmul = os.path.join(tmp, "training_matmul.csv")
        with open(matmul, "w") as f:
            f.write(MEASURED + "matmul,64,64,0,0,8,linear,128\nmatmul,512,512,0,0,512,linear,128\n")
        files = os.path.join(tmp, "files")
        with open(files, "w") as f:
            f.write("h200 heldout stencil {}\nh200 training matmul training={}\n".format(stencil, matmul))

        got = run("tasks", files, "")
        assert got.returncode == 0, got.stderr
        rows = [line.split()[-1] + line.split()[2][0] for line in got.stdout.splitlines()]
        assert rows == ["2m", "2s", "3s", "1m", "1s"], rows  # 512^3 x 2, 147,456, 82,944, 65,536, 36,864
        got = run("tasks", files, "1")
        assert [line.split()[-1] for line in got.stdout.splitlines()] == ["1", "1"], got.stdout

        work = os.path.join(tmp, "work")
        os.mkdir(work)
        header = "line,kernel,l1\n"
        parts = {"h200_heldout_stencil_1": "2,stencil,50\n", "h200_heldout_stencil_2": "3,stencil,60\n",
                 "h200_heldout_stencil_3": "", "h200_training_matmul_1": "2,matmul,70\n",
                 "h200_training_matmul_2": "3,matmul,80\n"}
        for stem, data in parts.items():
            with open(os.path.join(work, stem + ".csv"), "w") as f:
                f.write(header + data)
            with open(os.path.join(work, stem + ".txt"), "w") as f:
                f.write("report " + stem + "\n")
        out = os.path.join(tmp, "out")
        got = run("merge", files, "", work, out)
        assert got.returncode == 0, got.stderr
        with open(os.path.join(out, "h200", "fidelity_report_heldout_stencil.csv")) as f:
            assert f.read() == header + "2,stencil,50\n3,stencil,60\n"
        with open(os.path.join(out, "h200", "fidelity_report_training_matmul.csv")) as f:
            assert f.read() == header + "2,matmul,70\n3,matmul,80\n"
        with open(os.path.join(out, "h200", "fidelity_report_heldout_stencil.txt")) as f:
            text = f.read()
        assert text.index("report h200_heldout_stencil_1") < text.index("report h200_heldout_stencil_3"), text

        # resuming: rows 1 and 3 of the stencil done, row 2 stopped part way, the matmul not begun
        resume = os.path.join(tmp, "resume")
        os.mkdir(resume)
        for stem in ("h200_heldout_stencil_1", "h200_heldout_stencil_3"):
            for ext in (".csv", ".txt"):
                open(os.path.join(resume, stem + ext), "w").close()
        open(os.path.join(resume, "h200_heldout_stencil_2.txt.part"), "w").close()
        got = run("tasks", files, "", resume)
        assert got.returncode == 0, got.stderr
        rows = [line.split()[-1] + line.split()[2][0] for line in got.stdout.splitlines()]
        assert rows == ["2m", "2s", "1m"], rows
        got = run("tasks", files, "", work)  # every row done
        assert got.returncode == 0 and got.stdout == "", got.stdout

        with open(os.path.join(work, "h200_heldout_stencil_2.csv"), "w") as f:
            f.write("line,kernel,l2\n3,stencil,60\n")
        os.remove(os.path.join(out, "h200", "fidelity_report_heldout_stencil.csv"))
        got = run("merge", files, "", work, out)
        assert got.returncode != 0 and "other columns" in got.stderr, got.stderr
        assert not os.path.exists(os.path.join(out, "h200", "fidelity_report_heldout_stencil.csv"))
    print("fidelity_rows: all checks passed")


if __name__ == "__main__":
    main()
