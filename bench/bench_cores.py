"""Benchmark: how much faster two processes finish two equal pieces of pure-Python work than one process
finishes both, on this machine. This is the ceiling any 2-worker speed-up can reach here (bench_shard's
target is 1.7x); it measures the machine (shared cores, frequency scaling), not nimjos.

    python bench/bench_cores.py [SECONDS_OF_WORK]
"""
from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor


def work(n: int) -> int:
    """A CPU-bound loop of `n` steps (integer arithmetic, like the exhaustive checker's inner loop).

    >>> work(10)
    285
    """
    acc = 0
    for i in range(n):
        acc += i * i % 1_000_003
    return acc


def calibrate(seconds: float) -> int:
    """Steps of :func:`work` that take about `seconds` on one core."""
    n = 200_000
    while True:
        t = time.perf_counter()
        work(n)
        dt = time.perf_counter() - t
        if dt > 0.2:
            return int(n * seconds / dt)
        n *= 2


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 20.0
    n = calibrate(seconds / 2)
    with ProcessPoolExecutor(max_workers=1) as pool:
        pool.submit(work, 10).result()   # start the worker before timing
        t = time.perf_counter()
        list(pool.map(work, [n, n]))
        one = time.perf_counter() - t
    with ProcessPoolExecutor(max_workers=2) as pool:
        list(pool.map(work, [10, 10]))
        t = time.perf_counter()
        list(pool.map(work, [n, n]))
        two = time.perf_counter() - t
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"# two pieces of {n:,} steps; {cores} cores available")
    print("| run | seconds | ratio |")
    print("| --- | --- | --- |")
    print(f"| 1 process, both pieces | {one:.2f} | 1.00x |")
    print(f"| 2 processes, one piece each | {two:.2f} | {one / two:.2f}x |")


if __name__ == "__main__":
    main()
