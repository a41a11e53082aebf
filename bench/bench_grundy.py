"""Benchmark the fast Grundy engines against the reference engine, on games as declared in the specs.

Each workload runs in its own process (so its peak memory is its own): the fast engine fills the Grundy
table of the whole window from the declared moves (numba's compile or cache load is done first, on a
small window, and reported apart); the baseline is the reference engine (networkx game graph, fast path
off) on a smaller window of the same game, measured in the same run. The ratio compares positions per
second. Prints a table; ``--markdown FILE`` also writes it.

    python bench/bench_grundy.py            # the target workloads (about a minute on an idle machine)
    python bench/bench_grundy.py --quick    # the same games on small windows (no targets)

>>> fmt_rate(1234567.0)
'1.23e+06'
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTRACT = ROOT / "tests" / "data" / "contract.toml"
sys.path.insert(0, str(ROOT))

#: name -> (spec file, game, params, full side, quick side, reference side, target seconds)
WORKLOADS = {
    "maxnim": ("specs/000_maxnim_josephus.toml", "maxnim", (3,), 10**8 + 1, 10**6, 5000, 15.0),
    "josephus_nim": ("specs/002_josephus_nim.toml", "josephus_nim", (), 4000, 400, 400, 20.0),
    "wythoff": (str(CONTRACT), "wythoff", (), 2000, 300, 200, None),
}
RATIO_TARGET = 1000.0


def fmt_rate(x: float) -> str:
    """A rate with three significant digits.

    >>> fmt_rate(512.0), fmt_rate(2.5e6)
    ('512', '2.50e+06')
    """
    return f"{x:.3g}" if x < 1e4 else f"{x:.2e}"


def _game(name: str):
    from nimjos.spec.loader import load_spec
    path, game, params, *_ = WORKLOADS[name]
    return load_spec(ROOT / path).games[game](*params)


def _positions(game, side: int) -> list:
    if game.dim == 1:
        return [side - 1]
    return [(side - 1, side - 1)]


def run_fast(name: str, side: int) -> dict:
    """The fast engine on the window of `side` positions per coordinate (in this process).

    >>> run_fast("maxnim", 30_000)["positions"]
    30000
    """
    from nimjos.games.engine import ReferenceEngine
    import nimjos.games.fast.lines as lines
    engine = ReferenceEngine(max_positions=10**9)
    t0 = time.perf_counter()
    warm = _game(name)
    lines.solve(warm, _positions(warm, 300 if warm.dim == 1 else 20), engine, min_positions=0)
    warmup = time.perf_counter() - t0
    game = _game(name)
    c0, t0 = time.process_time(), time.perf_counter()
    engine_name = lines.solve(game, _positions(game, side), engine, min_positions=0)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    positions = side if game.dim == 1 else side * side
    return {"engine": engine_name, "positions": positions, "wall": wall, "cpu": cpu, "warmup": warmup,
            "max_value": int(game.dense.max()),
            "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}


def run_reference(name: str, side: int) -> dict:
    """The reference engine alone on every position of the smaller window (in this process).

    >>> run_reference("josephus_nim", 5)["positions"]
    25
    """
    import itertools
    from nimjos.games.engine import ReferenceEngine
    game = _game(name)
    engine = ReferenceEngine()
    engine.use_fast = False
    positions = list(range(side)) if game.dim == 1 else list(itertools.product(range(side), repeat=2))
    c0, t0 = time.process_time(), time.perf_counter()
    engine.solve(game, positions)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"engine": engine.describe_last(), "positions": len(positions), "wall": wall, "cpu": cpu}


def _child(kind: str, name: str, side: int) -> dict:
    out = subprocess.run([sys.executable, __file__, "--child", kind, name, str(side)], capture_output=True,
                         text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


@dataclass
class Row:
    """One workload: the fast run, the reference baseline and the targets.

    >>> Row("w", 10, {"positions": 100, "wall": 1.0, "cpu": 1.0, "warmup": 0.1, "peak_rss": 0, "engine": "e",
    ...     "max_value": 3}, {"positions": 10, "wall": 1.0, "cpu": 1.0}, None).ratio
    10.0
    """
    name: str
    side: int
    fast: dict
    ref: dict
    target: float | None

    @property
    def ratio(self) -> float:
        """Fast positions per CPU second over the reference's.

        >>> r = Row("w", 1, {"positions": 8, "cpu": 1.0}, {"positions": 2, "cpu": 1.0}, None); r.ratio
        4.0
        """
        return (self.fast["positions"] / self.fast["cpu"]) / (self.ref["positions"] / self.ref["cpu"])

    @property
    def same_window_ratio(self) -> float | None:
        """The same ratio with the fast engine timed on the reference's own window (fixed costs included).

        >>> Row("w", 1, {"positions": 8, "cpu": 1.0, "same": {"positions": 2, "cpu": 0.5}},
        ...     {"positions": 2, "cpu": 1.0}, None).same_window_ratio
        2.0
        """
        same = self.fast.get("same")
        if not same:
            return None
        return (same["positions"] / max(same["cpu"], 1e-9)) / (self.ref["positions"] / self.ref["cpu"])

    def cells(self) -> list[str]:
        """The row's cells, in the order of HEADER.

        >>> fast = {"positions": 8, "wall": 1.0, "cpu": 1.0, "warmup": 0.5, "peak_rss": 2**20, "engine": "e"}
        >>> Row("w", 8, fast, {"positions": 2, "cpu": 1.0}, 2.0).cells()[7]
        '<= 2 s: yes'
        """
        f, r = self.fast, self.ref
        window = f"0..{self.side - 1}" + ("" if f["positions"] == self.side else f" squared")
        met_time = "-" if self.target is None else ("yes" if f["wall"] <= self.target else
                                                    ("cpu yes" if f["cpu"] <= self.target else "no"))
        return [self.name, window, f"{f['positions']:,}", f"{f['wall']:.2f}", f"{f['cpu']:.2f}",
                f"{f['warmup']:.1f}", f"{f['peak_rss'] / 2**20:,.0f}",
                "-" if self.target is None else f"<= {self.target:g} s: {met_time}",
                f"{r['positions']:,}", fmt_rate(r["positions"] / r["cpu"]), fmt_rate(f["positions"] / f["cpu"]),
                f"{self.ratio:,.0f}x ({'yes' if self.ratio >= RATIO_TARGET else 'no'})",
                "-" if self.same_window_ratio is None else f"{self.same_window_ratio:,.0f}x"]


HEADER = ["workload", "window", "positions", "fast wall s", "fast cpu s", "warm-up s", "peak MiB", "target",
          "reference positions", "reference pos/cpu-s", "fast pos/cpu-s", f"ratio (>= {RATIO_TARGET:g}x)",
          "ratio, both on the reference's window"]


def table(rows: list[Row]) -> str:
    """The rows as a Markdown table.

    >>> table([]).count("|") == 2 * len(HEADER) + 2
    True
    """
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(r.cells()) + " |" for r in rows]
    return "\n".join(lines)


def machine() -> str:
    """Where and when the figures were measured.

    >>> "cores" in machine()
    True
    """
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{platform.node()}: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, load average {load:.1f} at start, "
            f"{datetime.datetime.now().isoformat(timespec='minutes')}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the table (``--child`` runs one measurement and prints it as JSON).

    >>> main(["--child", "reference", "josephus_nim", "3"])  # doctest: +ELLIPSIS
    {"engine": ..., "positions": 9, ...}
    0
    """
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small windows, no targets")
    parser.add_argument("--only", action="append", choices=sorted(WORKLOADS), help="run only this workload")
    parser.add_argument("--markdown", help="also write the table to this file")
    parser.add_argument("--child", nargs=3, metavar=("KIND", "NAME", "SIDE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        kind, name, side = args.child
        result = (run_fast if kind == "fast" else run_reference)(name, int(side))
        print(json.dumps(result))
        return 0
    header = machine()
    print(header, flush=True)
    rows = []
    for name in args.only or WORKLOADS:
        _, _, _, full, quick, ref_side, target = WORKLOADS[name]
        side = quick if args.quick else full
        ref = _child("reference", name, ref_side if not args.quick else min(ref_side, 120))
        fast = _child("fast", name, side)
        fast["same"] = _child("fast", name, ref_side if not args.quick else min(ref_side, 120))
        rows.append(Row(name, side, fast, ref, None if args.quick else target))
        print(f"  {name}: {fast['wall']:.2f} s wall, {fast['cpu']:.2f} s cpu ({fast['engine']}); "
              f"reference {ref['positions']:,} positions in {ref['cpu']:.2f} s cpu", flush=True)
    text = table(rows)
    print(text)
    if args.markdown:
        Path(args.markdown).write_text(f"Measured on {header}\n\n{text}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
