"""Sharded checks: the same verdict, counts and counterexample order on one process, a local pool and a
Dask LocalCluster; a worker killed mid-run does not change the result; shards resume from the store."""
from __future__ import annotations

import os
import signal

import pytest

from checkers.window.exhaustive import check_exhaustive
from checkers.run import RunOptions, Sharding, run_claim
from checkers.window.shard import ShardLog, balanced_split, run_sharded, shard_plan, split
from nimjos.spec.loader import load_spec

SPEC = '''[source]
id = "sharded"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[game.maxnim]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= floor(x / k)" } ]
[[claim]]
id = "parity"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 40 and y <= 40"
p_positions = "(x + y) % 2 == 0"
expect = "refuted"
[[claim]]
id = "josephus"
for_all = "2 <= k <= 4 and 1 <= n and 1 <= m <= n"
window = "n <= 50"
holds = "JJ(k, n, m) == G(maxnim(k), n * k - m)"
expect = "holds"
'''


def summary(v):
    return (v.verdict, v.instances, v.assumption_held, v.failures,
            [(c.bindings, c.lhs, c.rhs) for c in v.counterexamples])


def test_split_covers_exactly():
    assert split(0, 9, 3) == [(0, 3), (4, 6), (7, 9)]
    parts = balanced_split(1, 100, 4, weight=lambda v: v)
    assert parts[0][0] == 1 and parts[-1][1] == 100
    assert all(a[1] + 1 == b[0] for a, b in zip(parts, parts[1:]))


@pytest.mark.parametrize("claim_id", ["parity", "josephus"])
def test_local_pool_equals_single_process(write_spec, claim_id, starts_processes):
    path = write_spec(SPEC)
    claim = load_spec(path).claim(claim_id)
    plain = check_exhaustive(claim)
    for workers in (1, 2):
        sharded = run_sharded(str(path), claim_id, shards=3, workers=workers)
        assert summary(sharded) == summary(plain)
        assert "shards" in sharded.scope


def test_resume_from_shard_log(write_spec, tmp_path, starts_processes):
    path = write_spec(SPEC)
    claim = load_spec(path).claim("parity")
    ranges = shard_plan(claim, "default", 3)
    key = (str(path), claim.spec.sha256, "parity", "default", tuple(ranges))
    log = ShardLog(str(tmp_path / "r.sqlite"))
    first = []
    run_sharded(str(path), "parity", shards=3, workers=1, ranges=ranges,
                on_shard=lambda r, t: (log.save(key, r), first.append(r.index)) if r.index == 0 else None)
    done = log.load(key)
    assert list(done) == [0]
    ran = []
    resumed = run_sharded(str(path), "parity", shards=3, workers=1, ranges=ranges, skip=done,
                          on_shard=lambda r, t: ran.append(r.index))
    assert 0 not in ran and summary(resumed) == summary(check_exhaustive(claim))


def test_cli_options_reach_the_sharded_runner(write_spec, starts_processes):
    path = write_spec(SPEC)
    claim = load_spec(path).claim("josephus")
    opts = RunOptions(methods=("exhaustive",), repair=False, sharding=Sharding(workers=2, shards=2))
    v = run_claim(claim, opts).final
    assert summary(v) == summary(check_exhaustive(claim)) and "local worker" in v.scope


@pytest.fixture
def cluster(starts_processes):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  scheduler_port=0) as c:
        yield c


def test_dask_local_cluster_equals_local(write_spec, cluster):
    path = write_spec(SPEC)
    for claim_id in ("parity", "josephus"):
        local = run_sharded(str(path), claim_id, shards=4, workers=2)
        dask = run_sharded(str(path), claim_id, shards=4, executor="dask", scheduler=cluster.scheduler_address)
        assert summary(dask) == summary(local)


def test_dask_survives_a_killed_worker(write_spec, cluster):
    from distributed import Client
    path = write_spec(SPEC.replace("1 <= n <= 50", "1 <= n <= 90"))
    expected = summary(check_exhaustive(load_spec(path).claim("josephus")))
    with Client(cluster.scheduler_address) as client:
        pids = list(client.run(os.getpid).values())
    killed = []

    def kill_one(result, total):
        if not killed:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(pids[0])
    v = run_sharded(str(path), "josephus", shards=8, executor="dask", scheduler=cluster.scheduler_address,
                    on_shard=kill_one)
    assert killed and summary(v) == expected
