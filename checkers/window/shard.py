"""Sharded exhaustive checks: split a window along its outermost variable, check the parts on a local process
pool or a Dask cluster, and merge them into the verdict an unsharded check gives (same counts, same
counterexamples in the same smallest-first order).

Workers load each spec once per process and keep its game instances, so ground-truth tables are computed
once per worker, not once per shard.

>>> split(1, 10, 3)
[(1, 4), (5, 7), (8, 10)]
>>> v = run_sharded("tests/data/tiny.toml", "nim1-grundy", shards=3)  # doctest: +SKIP
"""
from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from nimjos.verdict import Counterexample, Verdict, phrases, window_word
from nimjos.words import PhraseKind
from nimjos.spec.loader import Claim, load_spec
from nimjos.spec.plan import ClaimPlan, PatternPlan, ValuesPlan
from checkers.context import CheckContext
from checkers.window.exhaustive import check_exhaustive, ground_truth_note, window_ranges
from checkers.window.exhaustive import window_scope
from nimjos.lang.errors import SpecError
import sqlite3
import pickle

#: claim kinds whose instances compare positions with each other, so the window cannot be cut
UNSHARDABLE: tuple[type[ClaimPlan], ...] = (PatternPlan, ValuesPlan)

_SPECS: dict[str, Any] = {}


def split(lo: int, hi: int, n: int) -> list[tuple[int, int]]:
    """Cut [lo, hi] into at most n contiguous, nearly equal ranges."""
    total = hi - lo + 1
    if total <= 0:
        return [(lo, hi)]
    n = max(1, min(n, total))
    out, start = [], lo
    for i in range(n):
        size = total // n + (1 if i < total % n else 0)
        out.append((start, start + size - 1))
        start += size
    return out


def balanced_split(lo: int, hi: int, n: int, weight: Callable[[int], int] | None = None) -> list[tuple[int, int]]:
    """Cut [lo, hi] into n ranges of nearly equal total weight (weight(v) ~ instances at outer value v).

    >>> balanced_split(1, 4, 2, weight=lambda v: v)
    [(1, 3), (4, 4)]
    """
    if weight is None:
        return split(lo, hi, n)
    weights = [max(1, weight(v)) for v in range(lo, hi + 1)]
    total = sum(weights)
    out: list[tuple[int, int]] = []
    start, acc, k = lo, 0, 1
    for i, w in enumerate(weights):
        acc += w
        v = lo + i
        if acc >= total * k / n and v < hi and len(out) < n - 1:
            out.append((start, v))
            start, k = v + 1, k + 1
    out.append((start, hi))
    return out


def shard_plan(claim: Claim, profile: str, shards: int) -> list[tuple[int, int]] | None:
    """The shard ranges of a claim's window, or None when it cannot be cut."""
    plan = claim.plan(profile)
    if isinstance(plan, UNSHARDABLE) or shards <= 1:
        return None
    if plan.window is None:
        return None
    outer = plan.window.outer_range()
    if outer is None:
        return None
    _, lo, hi = outer
    # with dependent inner bounds (1 <= m <= n) later outer values carry more instances: balance by a
    # quick count of the instances at each outer value when the window is small enough to count
    weight: Callable[[int], int] | None = None
    window = plan.window
    if len(plan.window.levels) > 1 and hi - lo < 100_000:
        name = plan.window.levels[0].name
        inner = plan.window.levels[1]
        if inner.highs and inner.lows and inner.members is None:
            def count(v: int, inner=inner, name=name) -> int:
                try:
                    a, b = window.range_of(inner, {name: v})
                    return max(1, b - a + 1)
                except Exception:  # noqa: BLE001 - a weight is only a hint for balancing
                    return 1
            weight = count
    return balanced_split(lo, hi, shards * 4 if weight else shards, weight)


def _load(path: str) -> Any:
    spec = _SPECS.get(path)
    if spec is None:
        spec = _SPECS[path] = load_spec(path)
    return spec


@dataclass
class ShardResult:
    """What one shard found (picklable: plain data only)."""

    index: int
    rng: tuple[int, int]
    verdict: dict
    failures: list[tuple[dict, Any, Any, str | None, dict]]
    undefined: list[tuple[dict, Any, Any, str | None, dict]]
    seconds: float
    pid: int


def check_shard(path: str, claim_id: str, profile: str, rng: tuple[int, int], index: int,
                max_counterexamples: int) -> ShardResult:
    """Check one shard of a claim (runs in a worker process), in a context of its own (checkers.context): what the
    worker checked before does not change it."""
    start = time.perf_counter()
    claim = _load(path).claim(claim_id)
    with CheckContext.for_claim().installed():
        v = check_exhaustive(claim, profile, max_counterexamples, shard=rng)

    def pack(cs: list[Counterexample]) -> list:
        return [(c.bindings, c.lhs, c.rhs, c.reason, c.detail, c.undefined, c.confirmed) for c in cs]

    head = {"verdict": v.verdict, "instances": v.instances, "held": v.assumption_held, "failures": v.failures,
            "undefined_count": len(v.undefined), "scope": v.scope, "engines": list(v.engines),
            "evidence": v.evidence if index == 0 else {},
            "notes": v.notes if index == 0 else []}
    return ShardResult(index, rng, head, pack(v.counterexamples), pack(v.undefined),
                       time.perf_counter() - start, os.getpid())


def merge(claim: Claim, parts: Iterable[ShardResult], max_counterexamples: int, executor: str,
          workers: int, seconds: float, profile: str = "default") -> Verdict:
    """Merge shard results into one verdict, smallest counterexamples first."""
    parts = sorted(parts, key=lambda p: p.index)
    instances = sum(p.verdict["instances"] for p in parts)
    held = sum(p.verdict["held"] or 0 for p in parts)
    n_fail = sum(p.verdict["failures"] for p in parts)

    def unpack(rows: list) -> list[Counterexample]:
        return [Counterexample(*row) for row in rows]   # a row of an older shard log has no undefined kind, no confirmed flag

    failures = sorted((c for p in parts for c in unpack(p.failures)), key=lambda c: c.key())[:max_counterexamples]
    undefined = sorted((c for p in parts for c in unpack(p.undefined)), key=lambda c: c.key())[:max_counterexamples]
    verdict = window_word(bool(failures), bool(undefined), instances, held)
    first = parts[0].verdict
    engines = _engines(first)
    scope = window_scope(claim.plan(profile), ground_truth_note(engines))
    scope = phrases(scope, (PhraseKind.ENGINE, f"{len(parts)} shards on {workers} {executor} worker(s)"))
    v = Verdict(claim.id, verdict, "exhaustive", scope, instances=instances, assumption_held=held,
                counterexamples=failures, failures=n_fail, undefined=undefined, seconds=seconds,
                evidence=dict(first["evidence"]), notes=list(first["notes"]), engines=engines,
                window=window_ranges(claim.plan(profile)))
    return v


def _engines(head: dict) -> tuple[str, ...]:
    """The ground-truth engines a shard's verdict names. A shard result recorded before the engines were kept as
    data (a resumed run's :class:`ShardLog`) has them only in its scope's words, read there.

    >>> _engines({"engines": ["subtraction"], "scope": ""})
    ('subtraction',)
    >>> _engines({"scope": "0 <= n <= 9; ground truth: reference, subtraction"})
    ('reference, subtraction',)
    """
    if "engines" in head:
        return tuple(head["engines"])
    words = head.get("scope", "").split("ground truth: ")   # the legacy record: its scope's last part, one text
    return (words[-1],) if len(words) > 1 else ()


def run_sharded(path: str, claim_id: str, profile: str = "default", shards: int = 2, workers: int | None = None,
                executor: str = "local", scheduler: str | None = None, max_counterexamples: int = 10,
                on_shard: Callable[[ShardResult, int], None] | None = None,
                skip: dict[int, ShardResult] | None = None, ranges: list | None = None) -> Verdict:
    """Check a claim in shards on a local process pool (`executor="local"`) or a Dask cluster
    (`executor="dask"`, `scheduler="tcp://host:port"`); `on_shard(result, total)` is called as each
    shard finishes; `skip` holds results of shards already done (resume)."""
    claim = _load(path).claim(claim_id)
    ranges = ranges or shard_plan(claim, profile, shards)
    start = time.perf_counter()
    if ranges is None:
        return check_exhaustive(claim, profile, max_counterexamples)
    skip = dict(skip or {})
    todo = [(i, r) for i, r in enumerate(ranges) if i not in skip]
    results: list[ShardResult] = list(skip.values())
    workers = workers or os.cpu_count() or 1
    if executor == "dask":
        results.extend(_run_dask(path, claim_id, profile, todo, max_counterexamples, scheduler, on_shard, len(ranges)))
    elif workers == 1:
        for i, r in todo:
            res = check_shard(path, claim_id, profile, r, i, max_counterexamples)
            results.append(res)
            if on_shard:
                on_shard(res, len(ranges))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(check_shard, path, claim_id, profile, r, i, max_counterexamples) for i, r in todo]
            for fut in as_completed(futures):
                res = fut.result()
                results.append(res)
                if on_shard:
                    on_shard(res, len(ranges))
    return merge(claim, results, max_counterexamples, executor, workers if executor != "dask" else _dask_workers(),
                 time.perf_counter() - start, profile)


def _dask_workers() -> int:
    return int(os.environ.get("NIMJOS_DASK_WORKERS", "0"))


def _run_dask(path: str, claim_id: str, profile: str, todo: list, max_cx: int, scheduler: str | None,
              on_shard: Callable | None, total: int) -> list[ShardResult]:
    try:  # distributed: an optional dependency (nimjos[dask])
        from distributed import Client, as_completed as dask_completed
    except ImportError:
        raise SpecError("--executor dask needs dask and distributed: pip install 'nimjos[dask]'") from None
    if not scheduler:
        raise SpecError("--executor dask needs --scheduler tcp://HOST:PORT")
    path = os.path.abspath(path)
    out: list[ShardResult] = []
    with Client(scheduler) as client:
        futures = [client.submit(check_shard, path, claim_id, profile, r, i, max_cx, pure=False, retries=3)
                   for i, r in todo]
        for fut in dask_completed(futures):
            res = fut.result()
            out.append(res)
            if on_shard:
                on_shard(res, total)
    return out


class ShardLog:
    """Shard results kept in the results store's SQLite file (table ``shard_results``), committed as each
    shard finishes, so that an interrupted sharded run resumes at shard granularity.

    >>> import tempfile, os
    >>> log = ShardLog(os.path.join(tempfile.mkdtemp(), "r.sqlite"))
    >>> key = ("a.toml", "hash", "c", "default", ((1, 5), (6, 9)))
    >>> log.save(key, ShardResult(0, (1, 5), {"instances": 5}, [], [], 0.1, 1))
    >>> sorted(log.load(key))
    [0]
    """

    def __init__(self, path: str):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        self.conn = sqlite3.connect(path, timeout=30)
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("""CREATE TABLE IF NOT EXISTS shard_results (
            file TEXT, spec_hash TEXT, claim_id TEXT, profile TEXT, ranges TEXT, idx INTEGER, payload BLOB,
            PRIMARY KEY (file, spec_hash, claim_id, profile, ranges, idx))""")
        self.conn.commit()

    def save(self, key: tuple, result: ShardResult) -> None:
        file, spec_hash, claim_id, profile, ranges = key
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO shard_results VALUES (?, ?, ?, ?, ?, ?, ?)",
                              (file, spec_hash, claim_id, profile, repr(ranges), result.index, pickle.dumps(result)))

    def load(self, key: tuple) -> dict[int, ShardResult]:
        file, spec_hash, claim_id, profile, ranges = key
        rows = self.conn.execute("SELECT idx, payload FROM shard_results WHERE file=? AND spec_hash=? AND "
                                 "claim_id=? AND profile=? AND ranges=?",
                                 (file, spec_hash, claim_id, profile, repr(ranges))).fetchall()
        return {idx: pickle.loads(payload) for idx, payload in rows}

    def close(self) -> None:
        self.conn.close()
