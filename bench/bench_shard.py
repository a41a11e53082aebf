"""Benchmark: a shardable deep claim (000 Theorem 3.4 / 001 Theorem 2.5, JJ_k(n, m) = G(nk - m) for all
1 <= m <= n <= N) on 1 local worker, 2 local workers, and a Dask LocalCluster with 2 workers.
Prints a table with the ratios the issue targets (>= 1.7x for 2 local workers; Dask within 15% of local).

    python bench/bench_shard.py [N] [K]
"""
from __future__ import annotations

import datetime
import os
import platform
import sys
import tempfile
import time

from checkers.shard import run_sharded

SPEC = """[source]
id = "bench-shard"
[game.maxnim]
params = ["k"]
position = ["x"]
moves = [ {{ to = "x - t", where = "1 <= t <= floor(x / k)" }} ]
[[claim]]
id = "thm-3.4"
text = "JJ_k(n, m) = G(nk - m) for 1 <= m <= n"
for_all = "1 <= n <= {N} and 1 <= m <= n"
holds = "JJ({K}, n, m) == G(maxnim({K}), n * {K} - m)"
expect = "holds"
"""


def timed(fn):
    t = time.perf_counter()
    v = fn()
    return time.perf_counter() - t, v


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    path = os.path.join(tempfile.mkdtemp(), "bench.toml")
    with open(path, "w") as f:
        f.write(SPEC.format(N=n, K=k))
    rows = []
    t1, v1 = timed(lambda: run_sharded(path, "thm-3.4", shards=8, workers=1))
    rows.append(("1 local worker", t1, v1))
    t2, v2 = timed(lambda: run_sharded(path, "thm-3.4", shards=8, workers=2))
    rows.append(("2 local workers", t2, v2))
    try:
        from distributed import LocalCluster
        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
            t3, v3 = timed(lambda: run_sharded(path, "thm-3.4", shards=8, executor="dask",
                                               scheduler=cluster.scheduler_address))
        rows.append(("Dask LocalCluster, 2 workers", t3, v3))
    except ImportError:
        t3 = None
    print(f"# sharded check of JJ_{k}(n, m) = G({k}n - m), 1 <= m <= n <= {n}: {v1.instances:,} instances")
    print(f"# {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
          f"{datetime.date.today()}")
    print("| run | seconds | verdict | instances | ratio |")
    print("| --- | --- | --- | --- | --- |")
    for name, t, v in rows:
        print(f"| {name} | {t:.2f} | {v.verdict} | {v.instances:,} | {t1 / t:.2f}x vs 1 worker |")
    same = all((v.verdict, v.instances, v.failures) == (v1.verdict, v1.instances, v1.failures) for _, _, v in rows)
    print(f"\nsame verdict and counts on every executor: {same}")
    print(f"2 local workers speed-up: {t1 / t2:.2f}x (target >= 1.7x): {'met' if t1 / t2 >= 1.7 else 'NOT met'}")
    if t3 is not None:
        print(f"Dask vs local pool: {t3 / t2:.2f} (target <= 1.15): {'met' if t3 / t2 <= 1.15 else 'NOT met'}")


if __name__ == "__main__":
    main()
