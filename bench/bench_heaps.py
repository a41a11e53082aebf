"""Benchmark the heap-game kernels: Grundy's game by the rare-value method against the plain O(n^2) mex.

Both are numba kernels of nimjos.games.heaps.fast (compiled or loaded from cache first, on a small n, not
timed). The plain mex runs to --plain (by default the same n: both measured in the same run; a smaller n is
extrapolated quadratically, and the output says so); the two must give the same values on the overlap. Each
time is given as wall-clock seconds and as the process's CPU seconds (on a shared machine the CPU seconds are
the steadier figure). Then the rare-value method runs in chunks until 60 s have passed: the largest n reached.

    python bench/bench_heaps.py                          # n = 10**6 by both kernels, then the 60 s run
    python bench/bench_heaps.py --n 100000 --plain 20000 --seconds 5
    python bench/bench_heaps.py --only rare --n 1000000  # one kernel, one n (for whole-process timings)
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.rules import GRUNDYS_GAME


def load() -> str:
    """The load average of the last 1, 5 and 15 minutes (the machine may be shared: the wall clock depends on it)."""
    return "load average " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def timed(n: int, method: str, prefix: np.ndarray | None = None) -> tuple[np.ndarray, float, float]:
    """The sequence to n by one kernel, its wall-clock seconds and the process's CPU seconds."""
    print(f"{'plain mex' if method == 'plain' else 'rare-value method'} to n = {n:,}: {load()} before", flush=True)
    t, c = time.perf_counter(), time.process_time()
    g = sequence(GRUNDYS_GAME, n, method=method, prefix=prefix)
    return g, time.perf_counter() - t, time.process_time() - c


def largest_in(seconds: float, chunk: int) -> tuple[int, float]:
    """Grow the sequence by the rare-value method, chunk by chunk, until `seconds` have passed."""
    t = time.perf_counter()
    g = sequence(GRUNDYS_GAME, chunk)
    while time.perf_counter() - t < seconds:
        g = sequence(GRUNDYS_GAME, len(g) - 1 + chunk, prefix=g)
    return len(g) - 1, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=10 ** 6)
    ap.add_argument("--plain", type=int, default=None, help="n of the plain mex (default: --n; a smaller n is "
                                                             "extrapolated as n^2)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--chunk", type=int, default=500_000)
    ap.add_argument("--only", choices=("rare", "plain"))
    args = ap.parse_args()
    sequence(GRUNDYS_GAME, 3000)  # compile or load both kernels
    sequence(GRUNDYS_GAME, 3000, method="plain")
    if args.only:
        g, s, c = timed(args.n, "auto" if args.only == "rare" else "plain")
        print(f"{args.only}: n = {args.n:,} in {s:.2f} s ({c:.2f} s CPU), max value {int(g.max())}")
        return
    plain_n = args.plain or args.n
    rare, t_rare, c_rare = timed(args.n, "auto")
    plain, t_plain, c_plain = timed(plain_n, "plain")
    same = bool((rare[:len(plain)] == plain).all())
    scale = (args.n / plain_n) ** 2
    how = "run" if plain_n == args.n else f"extrapolated from n = {plain_n:,} (x (n / {plain_n:,})^2)"
    print(f"rare-value method: n = {args.n:,} in {t_rare:.2f} s wall, {c_rare:.2f} s CPU (max value {int(rare.max())})")
    print(f"plain mex:         n = {plain_n:,} in {t_plain:.2f} s wall, {c_plain:.2f} s CPU; at n = {args.n:,} ({how}): "
          f"{t_plain * scale:.0f} s wall, {c_plain * scale:.0f} s CPU")
    print(f"same values on 0..{plain_n:,}: {same}; ratio plain / rare at n = {args.n:,}: {t_plain * scale / t_rare:.1f}x "
          f"wall, {c_plain * scale / c_rare:.1f}x CPU")
    if not same:
        first = int((rare[:len(plain)] != plain).argmax())
        raise SystemExit(f"the kernels differ on 0..{plain_n:,}: first at n = {first}")
    if args.seconds > 0:
        print(f"growing the sequence for {args.seconds:.0f} s: {load()} before", flush=True)
        reached, s = largest_in(args.seconds, args.chunk)
        print(f"rare-value method in {args.seconds:.0f} s: n = {reached:,} reached (last chunk ended at {s:.1f} s)")


if __name__ == "__main__":
    main()
