"""An unchanged re-run of ``nimjos check``: a cold run into a new results store, then re-runs with nothing changed
(every verdict reused), each a whole process; wall and CPU seconds (the process and its children), and how many
verdicts each reused (from ``--json``). Target (issue 37): an unchanged re-run of specs/ within 5 s wall.

    python bench/bench_rerun.py specs/000_*.toml                 # a few minutes: the cold run checks everything
    python bench/bench_rerun.py specs/000_*.toml --reruns 5 --markdown bench/results/rerun.md
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed_check(paths: list[str], store: Path) -> tuple[float, float, int, int]:
    """(wall seconds, CPU seconds of the process and its children, claims, verdicts reused) of one whole
    ``nimjos check --json`` process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", *paths, "--store", str(store), "--json"],
                         cwd=ROOT, capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        data = json.loads(out.stdout)
    except ValueError:
        raise SystemExit(f"nimjos check failed (exit {out.returncode}):\n{out.stderr[-2000:]}") from None
    return wall, cpu, len(data["claims"]), data.get("reused", 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="spec files or folders, as nimjos check takes them")
    parser.add_argument("--reruns", type=int, default=3, help="unchanged re-runs after the cold run (median quoted)")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    store = Path(tempfile.mkdtemp()) / "results.sqlite"
    rows = [("cold", *timed_check(args.paths, store))]
    reruns = [timed_check(args.paths, store) for _ in range(args.reruns)]
    rows.append((f"unchanged re-run (median of {args.reruns})", statistics.median(r[0] for r in reruns),
                 statistics.median(r[1] for r in reruns), reruns[-1][2], min(r[3] for r in reruns)))
    lines = ["| run | wall s | CPU s | claims | reused |", "| --- | --- | --- | --- | --- |"]
    lines += [f"| {name} | {wall:.2f} | {cpu:.2f} | {n} | {reused} |" for name, wall, cpu, n, reused in rows]
    table = "\n".join(lines)
    print(table)
    if args.markdown:
        Path(args.markdown).write_text(f"`bench/bench_rerun.py {' '.join(args.paths)}`, {time.strftime('%Y-%m-%d')}, "
                                       f"{os.cpu_count()} cores\n\n{table}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
