"""Benchmark the heap-game kernels: Grundy's game by the rare-value method against the plain O(n^2) mex.

Both are numba kernels of nimjos.games.heaps.fast (compiled or loaded from cache first, on a small n, not
timed). The plain mex runs to a smaller n (its time grows as n^2) and is extrapolated quadratically to the
rare-value method's n; the two must give the same values on the overlap. Then the rare-value method runs in
chunks until 60 s have passed: the largest n reached.

    python bench/bench_heaps.py                          # n = 10**6, plain to 10**5, the 60 s run
    python bench/bench_heaps.py --n 100000 --plain 20000 --seconds 5
    python bench/bench_heaps.py --only rare --n 1000000  # one kernel, one n (for whole-process timings)
"""
from __future__ import annotations

import argparse
import time

import numpy as np

from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.rules import GRUNDYS_GAME


def timed(n: int, method: str, prefix: np.ndarray | None = None) -> tuple[np.ndarray, float]:
    t = time.perf_counter()
    g = sequence(GRUNDYS_GAME, n, method=method, prefix=prefix)
    return g, time.perf_counter() - t


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
    ap.add_argument("--plain", type=int, default=10 ** 5, help="n of the plain mex (extrapolated as n^2)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--chunk", type=int, default=500_000)
    ap.add_argument("--only", choices=("rare", "plain"))
    args = ap.parse_args()
    sequence(GRUNDYS_GAME, 3000)  # compile or load both kernels
    sequence(GRUNDYS_GAME, 3000, method="plain")
    if args.only:
        g, s = timed(args.n, "auto" if args.only == "rare" else "plain")
        print(f"{args.only}: n = {args.n:,} in {s:.2f} s, max value {int(g.max())}")
        return
    rare, t_rare = timed(args.n, "auto")
    plain, t_plain = timed(args.plain, "plain")
    same = bool((rare[:len(plain)] == plain).all())
    t_extra = t_plain * (args.n / args.plain) ** 2
    print(f"rare-value method: n = {args.n:,} in {t_rare:.2f} s (max value {int(rare.max())})")
    print(f"plain mex:         n = {args.plain:,} in {t_plain:.2f} s; extrapolated to n = {args.n:,}: "
          f"{t_extra:.0f} s (x (n / {args.plain:,})^2)")
    print(f"same values on 0..{args.plain:,}: {same}; ratio (extrapolated plain / rare) at n = {args.n:,}: "
          f"{t_extra / t_rare:.0f}x")
    if args.seconds > 0:
        reached, s = largest_in(args.seconds, args.chunk)
        print(f"rare-value method in {args.seconds:.0f} s: n = {reached:,} reached (last chunk ended at {s:.1f} s)")


if __name__ == "__main__":
    main()
