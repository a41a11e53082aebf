"""Benchmark the heap-game kernels against a C program of the SAME method (bench/c/heaps.c, a line-by-line
transcription of nimjos/games/heaps/fast.py and grow.py), as whole processes, start-up included.

Kayles (0.77), Dawson's Kayles (0.07) and Grundy's game at n = 10^6 and 10^7. Each row times two commands, A
(nimjos: ``python bench/bench_heaps_c.py run ...``, which imports numba and loads the compiled kernels from the
cache) and B (the C program, gcc -O3 -march=native), in turn A B A B ... (--runs pairs, after a warm-up of each at a
hundredth of n, not counted), and quotes each one's median CPU seconds (user + system, from the operating system's accounting of the
finished process) and wall seconds, and the ratio of the medians. Both print the checksum of their table (see
:func:`nimjos.josephus.checksum.table_checksum`) and their cost counters (splits marked, value-split comparisons): the
same method gives the same counts. At 10^6 both also write the table and the script compares them value by value.

Two methods per game where they differ: "computed" (every value by the kernels: ``fast.sequence``) and "extended"
(``grow.grown_sequence``: the table computed in rounds until the Guy-Smith theorem proves its period, the rest
repeated; the C program does the same with --extend). Grundy's game has no such theorem (unequal parts): computed
only. Dawson's Kayles is computed only to 10^6 (the plain mex: O(n^2), about 1,000 s at 10^7).

Then Grundy's game's reach: each program grows the table 500,000 heaps at a time until --reach CPU seconds have
passed (start-up included for nimjos: its clock counts from the process's start), once each.

    python bench/bench_heaps_c.py --markdown bench/results/heaps-vs-c.md            # everything (~15 min)
    python bench/bench_heaps_c.py --quick                                           # 10^5 and 10^6, 2 pairs, 5 s reach
    python bench/bench_heaps_c.py run grundy 1000000 computed [--out FILE]          # one nimjos process

The mode ``cli`` (issue 37: tables at the kernel's speed) times the whole command ``nimjos grundy GAME --window
"0 <= n <= N" --out FILE.npy`` (``python -m nimjos.app.cli``, start-up, the table, the periodicity note and the
file included) against the C program writing the same table (``--out``), A B A B, after a warm-up of each, for
the three workloads of the issue: Kayles to 2*10^7 and Grundy's game to 10^7 against the rare-value method (the
C program's default, ``auto``), Dawson's Kayles to 3*10^5 against the plain mex (``plain``). The two tables are
compared value by value after the runs. Target: every ratio nimjos / C at most 1.5.

    python bench/bench_heaps_c.py cli --markdown bench/results/grundy-cli-vs-c.md   # 3 pairs each (~12 min)
    python bench/bench_heaps_c.py cli --quick                                       # n 100 times smaller, 2 pairs
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent
#: (label, the C program's and run's name of the game, method, n) of the rows
ROWS = [("Kayles (0.77)", "0.77", "computed", 6), ("Kayles (0.77)", "0.77", "computed", 7),
        ("Kayles (0.77)", "0.77", "extended", 7),
        ("Dawson's Kayles (0.07)", "0.07", "computed", 6), ("Dawson's Kayles (0.07)", "0.07", "extended", 6),
        ("Dawson's Kayles (0.07)", "0.07", "extended", 7),
        ("Grundy's game", "grundy", "computed", 6), ("Grundy's game", "grundy", "computed", 7)]
CHUNK = 500_000
#: the workloads of ``cli`` (issue 37): (label, game expression of nimjos grundy, the C program's code, its method, n)
CLI_ROWS = [("Kayles (0.77)", 'octal("0.77")', "0.77", "auto", 20_000_000),
            ("Grundy's game", "grundys_game()", "grundy", "auto", 10_000_000),
            ("Dawson's Kayles (0.07)", 'octal("0.07")', "0.07", "plain", 300_000)]
#: the name of each method of the C program in the table
C_METHOD = {"auto": "rare-value method", "plain": "plain mex"}


def run(game: str, n: int, method: str, out: str | None, reach: float) -> None:
    """One nimjos process: the table of `game` to n by `method`, printed as the C program prints it."""
    import numpy as np

    from nimjos.games.heaps.fast import MASK_PREFIX, periodic_tail, sequence
    from nimjos.games.heaps.grow import grown_sequence
    from nimjos.games.heaps.rules import GRUNDYS_GAME, octal_rules
    from nimjos.josephus.checksum import table_checksum
    rules = GRUNDYS_GAME if game == "grundy" else octal_rules(game)
    stats = np.zeros(2, dtype=np.int64)
    if reach:
        g = sequence(rules, n, stats=stats)
        while time.process_time() < reach:
            g = sequence(rules, len(g) - 1 + n, prefix=g, stats=stats)
        print(f"reached {len(g) - 1} in {time.process_time():.2f} s CPU")
        return
    start = -1
    # the compiled kernels loaded from numba's cache (the counters ask for them: a small table without numba
    # running would be numpy's): start-up, not computation
    sequence(rules, MASK_PREFIX + 100, stats=np.zeros(2, dtype=np.int64))
    periodic_tail(np.zeros(12, dtype=np.int64))
    began = time.process_time()
    if method == "extended":
        grown = grown_sequence(rules, n)
        g = grown.values
        start = grown.computed + 1 if grown.proof is not None else -1
    else:
        g = sequence(rules, n, stats=stats)
    compute = time.process_time() - began
    print(f"n {n} checksum {table_checksum(g)} max {int(g.max())} marked {stats[0]} compared {stats[1]} "
          f"extended_from {start} compute_s {compute:.3f}")
    if out:
        g.astype("<i8").tofile(out)


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """Run one whole process: (CPU seconds user + system, wall seconds, its output)."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    if status:
        raise SystemExit(f"{' '.join(cmd)} failed (status {status}):\n{out}")
    return usage.ru_utime + usage.ru_stime, wall, out.strip()


def compile_c(workdir: pathlib.Path) -> str | None:
    """The C program built with gcc -O3 -march=native; None when gcc is not on the PATH."""
    gcc = shutil.which("gcc")
    if gcc is None:
        return None
    exe = workdir / "heaps"
    subprocess.run([gcc, "-O3", "-march=native", "-o", str(exe), str(HERE / "c" / "heaps.c")], check=True)
    return str(exe)


def ratio(a: float, b: float) -> str:
    """a / b as "1.23x"; "-" when b is below the clock's resolution.

    >>> ratio(3.0, 2.0), ratio(1.0, 0.0)
    ('1.50x', '-')
    """
    return f"{a / b:.2f}x" if b >= 0.005 else "-"


def load() -> str:
    """The load average of the last 1, 5 and 15 minutes."""
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def fields(line: str) -> dict[str, str]:
    """The `name value` pairs of a program's output line."""
    words = line.split()
    return dict(zip(words[::2], words[1::2]))


def pairs(ours: list[str], theirs: list[str], runs: int) -> dict:
    """Time the two commands in turn, `runs` pairs: medians, and the last outputs."""
    cpu_a, cpu_b, wall_a, wall_b, in_a, in_b = [], [], [], [], [], []
    out_a = out_b = ""
    for i in range(runs):
        ca, wa, out_a = timed(ours)
        cb, wb, out_b = timed(theirs)
        cpu_a.append(ca); wall_a.append(wa); cpu_b.append(cb); wall_b.append(wb)
        in_a.append(float(fields(out_a.splitlines()[-1])["compute_s"]))
        in_b.append(float(fields(out_b.splitlines()[-1])["compute_s"]))
    med = statistics.median
    return {"cpu": (med(cpu_a), med(cpu_b)), "wall": (med(wall_a), med(wall_b)), "compute": (med(in_a), med(in_b)),
            "range": ((min(cpu_a), max(cpu_a)), (min(cpu_b), max(cpu_b))), "out": (out_a, out_b)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3, help="counted pairs of runs per row")
    ap.add_argument("--reach", type=float, default=60.0, help="CPU seconds of Grundy's game's reach (0: skip)")
    ap.add_argument("--quick", action="store_true", help="n 100 times smaller, 2 pairs, a 5 s reach")
    ap.add_argument("--only", help="only the rows whose game (0.77, 0.07, grundy) is this")
    ap.add_argument("--markdown", help="also write the table to this file")
    args = ap.parse_args()
    runs, reach, shrink = (2, 5.0, 2) if args.quick else (args.runs, args.reach, 0)
    lines = [f"# Heap games: nimjos against a C program of the same method", "",
             f"`python bench/bench_heaps_c.py{' --quick' if args.quick else ''}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
             f"{os.cpu_count()} cores, load average {load()} at the start). Whole processes, start-up included, "
             f"{runs} pairs after a warm-up of each at n / 100, A B A B; medians; ratio = nimjos / C. \"computation\": the CPU "
             f"seconds each program measured around its computation alone (no start-up, no checksum).", ""]
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        exe = compile_c(work)
        if exe is None:
            lines.append("gcc was not found: the C program was not built, the comparison was skipped.")
            print("\n".join(lines))
            return
        lines += ["| game | method | n | nimjos CPU s (min-max) | C CPU s (min-max) | ratio CPU | nimjos wall s | C wall s "
                  "| ratio wall | nimjos computation CPU s | C computation CPU s | ratio computation | same values "
                  "| splits marked / compared per heap | load before |",
                  "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for label, game, method, exp in ROWS:
            if args.only and game != args.only:
                continue
            n = 10 ** (exp - shrink)
            before = load()
            ours = [sys.executable, str(HERE / "bench_heaps_c.py"), "run", game, str(n), method]
            theirs = [exe, game, str(n)] + (["--extend"] if method == "extended" else [])
            full = n <= 10 ** 6
            if full:
                ours += ["--out", str(work / "ours.bin")]
                theirs += ["--out", str(work / "theirs.bin")]
            print(f"{label} {method} n = {n:,} (load {before})", flush=True)
            warm = [str(max(n // 100, 1000)) if w == str(n) else w for w in ours]
            timed(warm)  # a warm-up of each (kernels from the cache, files read), a hundred times smaller, not counted
            timed([str(max(n // 100, 1000)) if w == str(n) else w for w in theirs])
            r = pairs(ours, theirs, runs)
            a, b = (fields(o.splitlines()[-1]) for o in r["out"])
            same = a["checksum"] == b["checksum"] and a["extended_from"] == b["extended_from"]
            if full:
                same = same and (work / "ours.bin").read_bytes() == (work / "theirs.bin").read_bytes()
            how = ("checksum and every value" if full else "checksum") if same else "**NO**"
            cost = (f"{int(a['marked']) / n:,.1f} / {int(a['compared']) / n:,.1f}" if method == "computed" else
                    f"extended from {int(a['extended_from']) - 1:,}")
            if method == "computed" and (a["marked"], a["compared"]) != (b["marked"], b["compared"]):
                cost += f" (C: {int(b['marked']) / n:,.1f} / {int(b['compared']) / n:,.1f})"
            (ca, cb), (wa, wb), (ia, ib), ((a0, a1), (b0, b1)) = r["cpu"], r["wall"], r["compute"], r["range"]
            row = (f"| {label} | {method} | 10^{exp - shrink} | {ca:.2f} ({a0:.2f}-{a1:.2f}) | {cb:.2f} ({b0:.2f}-{b1:.2f}) "
                   f"| {ratio(ca, cb)} | {wa:.2f} | {wb:.2f} | {ratio(wa, wb)} | {ia:.3f} | {ib:.3f} | {ratio(ia, ib)} "
                   f"| {how} | {cost} | {before} |")
            print(row, flush=True)
            lines.append(row)
            if not same:
                print(r["out"], flush=True)
        if reach > 0 and args.only in (None, "grundy"):
            before = load()
            _, _, mine = timed([sys.executable, str(HERE / "bench_heaps_c.py"), "run", "grundy", str(CHUNK), "computed",
                                "--reach", str(reach)])
            _, _, c = timed([exe, "grundy", str(CHUNK), "--reach", str(reach)])
            lines += ["", f"Grundy's game's reach in {reach:.0f} s of CPU time (chunks of {CHUNK:,} heaps, once each, "
                      f"load {before} before): nimjos {mine}; C {c}."]
            print(lines[-1], flush=True)
    if args.markdown:
        pathlib.Path(args.markdown).write_text("\n".join(lines) + "\n")


def cli_main(argv: list[str]) -> None:
    """``cli``: the whole ``nimjos grundy ... --out`` process against the C program writing the same table."""
    import numpy as np

    ap = argparse.ArgumentParser(prog="bench_heaps_c.py cli")
    ap.add_argument("--runs", type=int, default=3, help="counted pairs of runs per workload")
    ap.add_argument("--quick", action="store_true", help="n 100 times smaller, 2 pairs")
    ap.add_argument("--only", help="only the workload whose C code (0.77, grundy, 0.07) is this")
    ap.add_argument("--markdown", help="also write the table to this file")
    args = ap.parse_args(argv)
    runs = 2 if args.quick else args.runs
    lines = ["# `nimjos grundy --out` against the C programs (issue 37)", "",
             f"`python bench/bench_heaps_c.py cli{' --quick' if args.quick else ''}` "
             f"({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.uname().nodename}, {os.cpu_count()} cores, "
             f"load average {load()} at the start). Whole processes, start-up included: A = `python -m nimjos.app.cli "
             f"grundy GAME --window \"0 <= n <= N\" --out FILE.npy`, B = `c/heaps.c` (gcc -O3 -march=native) "
             f"writing the same table with `--out`; {runs} pairs A B A B after a warm-up of each (not counted); CPU "
             f"seconds = user + system of the finished process; medians, and the median of the pairwise ratios A / B. "
             f"Target: at most 1.5x.", "",
             "| workload | C method | nimjos CPU s (min-max) | C CPU s (min-max) | ratio CPU (median of pairs) "
             "| nimjos wall s | C wall s | same table | load before |",
             "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    print("\n".join(lines[:3]), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = pathlib.Path(tmp)
        exe = compile_c(work)
        if exe is None:
            print("gcc was not found: the C program was not built, the comparison was skipped.")
            return
        for label, game, code, method, n in CLI_ROWS:
            if args.only and code != args.only:
                continue
            n = n // 100 if args.quick else n
            ours = [sys.executable, "-m", "nimjos.app.cli", "grundy", game, "--window", f"0 <= n <= {n}",
                    "--out", str(work / "ours.npy")]
            theirs = [exe, code, str(n), method, "--out", str(work / "theirs.bin")]
            before = load()
            print(f"{label} to {n:,} (load {before})", flush=True)
            timed(ours)     # the warm-ups: numba's cache, the files read
            timed(theirs)
            cpu_a, cpu_b, wall_a, wall_b = [], [], [], []
            for _ in range(runs):
                for cmd, cpu, wall in ((ours, cpu_a, wall_a), (theirs, cpu_b, wall_b)):
                    c, w, _ = timed(cmd)
                    cpu.append(c)
                    wall.append(w)
            mine = np.load(work / "ours.npy")
            same = mine.dtype == np.int64 and mine.shape == (n + 1,) and bool(
                (mine == np.fromfile(work / "theirs.bin", dtype="<i8")).all())
            med = statistics.median
            pair = med(a / b for a, b in zip(cpu_a, cpu_b))
            row = (f"| {label} to {n:,} | {C_METHOD[method]} | {med(cpu_a):.2f} ({min(cpu_a):.2f}-{max(cpu_a):.2f}) "
                   f"| {med(cpu_b):.2f} ({min(cpu_b):.2f}-{max(cpu_b):.2f}) | {pair:.2f}x | {med(wall_a):.2f} "
                   f"| {med(wall_b):.2f} | {'every value' if same else '**NO**'} | {before} |")
            print(row, flush=True)
            lines.append(row)
    if args.markdown:
        pathlib.Path(args.markdown).write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "cli":
        cli_main(sys.argv[2:])
    elif len(sys.argv) > 1 and sys.argv[1] == "run":
        cli = argparse.ArgumentParser()
        cli.add_argument("game"); cli.add_argument("n", type=int); cli.add_argument("method", nargs="?", default="computed")
        cli.add_argument("--out"); cli.add_argument("--reach", type=float, default=0.0)
        a = cli.parse_args(sys.argv[2:])
        run(a.game, a.n, a.method, a.out, a.reach)
    else:
        main()
