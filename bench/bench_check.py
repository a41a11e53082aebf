"""The main job, ``nimjos check specs/``, cold, against a baseline tree in the same run: each run a fresh clone of a
commit (no kernel cache, a new results store), timed as a whole process tree (CPU seconds of the process and all
its children: the workers, Z3, Walnut's JVMs), the two commits taken in turn (A B A B ...). The figure to judge is
the ratio of the medians, measured side by side: a machine's speed moves absolute seconds by 1.5x or more from
one machine of a kind to the next, and by tens of percent between runs on a shared one.

Issue 37's target is "the main job at a third of its cost": this tree's CPU at most a third of the commit that was
main when the issue was filed (89d01ea, the default baseline), with no verdict weaker. The script also counts the
final verdicts of each run by word, and says which claims (present in both trees) changed their final verdict
between the two trees' last runs.

    python bench/bench_check.py                                   # 89d01ea against HEAD, one run each (~30 min)
    python bench/bench_check.py --baseline bf0778b --runs 2 --markdown bench/results/check-vs-baseline.md

Only committed trees are measured (each run clones the repository): commit your change first.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: main when issue 37 was filed (its 1,365 s of CPU were measured on that tree)
ISSUE_BASELINE = "89d01ea"


def commit_of(rev: str) -> str:
    """The full hash of a revision of this repository."""
    return subprocess.run(["git", "rev-parse", rev], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def cold_check(commit: str, work: Path) -> dict:
    """One cold run of ``nimjos check specs/ --json`` on a fresh clone of `commit`: its wall and CPU seconds and
    the final verdict of each claim (by file and id)."""
    tree = work / "tree"
    if tree.exists():
        shutil.rmtree(tree)
    subprocess.run(["git", "clone", "-q", str(ROOT), str(tree)], check=True)
    subprocess.run(["git", "checkout", "-q", commit], cwd=tree, check=True)
    store = work / f"results-{time.monotonic_ns()}.sqlite"
    env = {**os.environ, "CI": "true", "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", "specs/", "--json", "--store", str(store)],
                         cwd=tree, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        data = json.loads(out.stdout)
    except ValueError:
        raise SystemExit(f"nimjos check on {commit[:10]} failed (exit {out.returncode}):\n{out.stderr[-2000:]}") from None
    verdicts = {(Path(c["file"]).name, c["id"]): c["verdict"] for c in data["claims"]}
    return {"wall": wall, "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime),
            "verdicts": verdicts, "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=ISSUE_BASELINE, help=f"the commit to compare with (default {ISSUE_BASELINE})")
    parser.add_argument("--tree", default="HEAD", help="the commit measured (default HEAD)")
    parser.add_argument("--runs", type=int, default=1, help="cold runs of each commit, taken in turn")
    parser.add_argument("--markdown", help="also write the table to this file")
    args = parser.parse_args(argv)
    names = {"baseline": commit_of(args.baseline), "tree": commit_of(args.tree)}
    runs: dict[str, list[dict]] = {"baseline": [], "tree": []}
    work = Path(tempfile.mkdtemp(prefix="nimjos-bench-check-"))
    try:
        for i in range(args.runs):
            for which in ("baseline", "tree"):
                r = cold_check(names[which], work)
                runs[which].append(r)
                print(f"run {i + 1} {which} {names[which][:10]}: {r['cpu']:.1f} s CPU, {r['wall']:.1f} s wall, "
                      f"load {r['load']:.1f}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    cpu = {k: statistics.median(r["cpu"] for r in v) for k, v in runs.items()}
    lines = ["| commit | runs: CPU s (user + sys, whole tree) | median CPU s | median wall s | final verdicts |",
             "| --- | --- | --- | --- | --- |"]
    for which in ("baseline", "tree"):
        words = Counter(runs[which][-1]["verdicts"].values())
        each = ", ".join(f"{r['cpu']:.1f}" for r in runs[which])
        wall = statistics.median(r["wall"] for r in runs[which])
        counted = ", ".join(f"{w} {n}" for w, n in sorted(words.items()))
        lines.append(f"| {which} {names[which][:10]} | {each} | {cpu[which]:.1f} | {wall:.1f} | {counted} |")
    old, new = runs["baseline"][-1]["verdicts"], runs["tree"][-1]["verdicts"]
    changed = sorted(k for k in old.keys() & new.keys() if old[k] != new[k])
    table = "\n".join(lines)
    summary = (f"ratio tree / baseline (median CPU): {cpu['tree'] / cpu['baseline']:.3f}; "
               f"claims in both: {len(old.keys() & new.keys())}, final verdict changed: {len(changed)}")
    detail = "\n".join(f"- {f} {cid}: {old[(f, cid)]} -> {new[(f, cid)]}" for f, cid in changed)
    print(table, summary, detail, sep="\n\n")
    if args.markdown:
        Path(args.markdown).write_text(
            f"`bench/bench_check.py --baseline {args.baseline} --tree {args.tree} --runs {args.runs}`, "
            f"{time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores\n\n{table}\n\n{summary}\n\n{detail}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
