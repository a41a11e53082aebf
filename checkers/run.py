"""Run every applicable method on a claim and pick the verdict it earned.

:data:`METHODS` lists the methods (window, proving, sampling) in the order they run (sampling last: a claim
proved on its whole domain is not sampled); a method answers None when
it does not apply; the exhaustive one always applies. The final verdict is decided by nimjos.verdict.

>>> list(METHODS)
['exhaustive', 'prove', 'sample', 'periodicity']
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from checkers.audit import audit_proof
from checkers.context import CheckContext
from checkers.exhaustive import check_exhaustive
from nimjos.lang.errors import NimjosError

from checkers.options import PROVE_SECONDS, RunOptions  # noqa: F401  (re-exported: the options of a run)
from checkers.prove import prove_claim
from checkers.heaps import heap_prove, heap_sample
from checkers.periodicity import periodic_prove, periodic_sample, periodic_verdict
from checkers.sample import sample_claim
from nimjos.verdict import Verdict, final_verdict
from checkers.shard import ShardLog, run_sharded, shard_plan
from checkers.repair import find_repairs


@dataclass
class ClaimResult:
    claim: Any
    verdicts: list[Verdict]
    repairs: list = field(default_factory=list)
    repair_seconds: float = 0.0  # the search for candidate corrections of a refuted claim

    @property
    def seconds(self) -> float:
        """The claim's time: its methods' seconds (each the whole call of the method) and the search for corrections.

        >>> ClaimResult(None, [Verdict("c", "checked", "exhaustive", "", seconds=2.0),
        ...                    Verdict("c", "proved", "prove", "", seconds=0.5)], repair_seconds=0.25).seconds
        2.75
        """
        return sum(v.seconds for v in self.verdicts) + self.repair_seconds

    @property
    def final(self) -> Verdict:
        """The verdict the claim earned from its methods (the rule: :func:`nimjos.verdict.final_verdict`)."""
        return final_verdict(self.verdicts)


def _exhaustive(claim: Any, opts: RunOptions, context: CheckContext) -> Verdict:
    workers = opts.extra.get("workers", 1)
    executor = opts.extra.get("executor", "local")
    if opts.pins is None and (workers > 1 or executor == "dask"):
        ranges = shard_plan(claim, opts.profile, opts.extra.get("shards") or max(2, workers))
        if ranges is not None:
            path = str(claim.spec.path)
            log = ShardLog(opts.extra["store"]) if opts.extra.get("store") else None
            key = (path, claim.spec.sha256, claim.id, opts.profile, tuple(ranges))
            done = log.load(key) if (log and opts.extra.get("resume")) else {}
            progress = opts.extra.get("progress")

            def on_shard(res: Any, total: int) -> None:
                if log:
                    log.save(key, res)
                if progress:
                    progress(claim, res, total)
            try:
                return run_sharded(path, claim.id, opts.profile, shards=len(ranges), workers=workers,
                                   executor=executor, scheduler=opts.extra.get("scheduler"),
                                   max_counterexamples=opts.max_counterexamples, on_shard=on_shard, skip=done,
                                   ranges=ranges)
            finally:
                if log:
                    log.close()
    return check_exhaustive(claim, opts.profile, opts.max_counterexamples, opts.pins)


def _left_out(opts: RunOptions, name: str) -> tuple[Verdict, str] | None:
    """Why method `name` is not run on this claim, as (the earlier verdict whose notes say so, the note), or None.

    A refutation by the window is the claim's verdict whatever the other methods say (nimjos.verdict.final_verdict),
    with the smallest counterexample, so proving and sampling are not run; a claim proved on its whole domain
    (``proved``, not ``proved-bounded``) is not sampled, since no sample could add to that. A method asked for by
    name (``--method``) always runs.

    >>> w = Verdict("c", "refuted", "exhaustive", "")
    >>> _left_out(RunOptions(extra={"verdicts": {"exhaustive": w}}), "prove")[1]
    'prove not run: the window refutes the claim'
    >>> p = Verdict("c", "proved", "prove", "")
    >>> _left_out(RunOptions(extra={"verdicts": {"prove": p}}), "sample")[1]
    'sampling not run: the proof covers the whole domain'
    >>> _left_out(RunOptions(methods=("exhaustive", "prove"), extra={"verdicts": {"exhaustive": w}}), "prove") is None
    True
    """
    if name == "exhaustive" or name in (opts.methods or ()):
        return None
    earlier = opts.extra.get("verdicts", {})
    window, proof = earlier.get("exhaustive"), earlier.get("prove")
    if window is not None and window.verdict == "refuted":
        return window, f"{name} not run: the window refutes the claim"
    if name == "sample" and proof is not None and proof.verdict == "proved":
        return proof, "sampling not run: the proof covers the whole domain"
    return None


def _sample(claim: Any, opts: RunOptions, context: CheckContext) -> Verdict | None:
    """Sampling: the own samplers of claims over any number of heaps (checkers.heaps) and of periodic claims
    (checkers.periodicity), else the sampler of checkers.sample."""
    return heap_sample(claim, opts) or periodic_sample(claim, opts) or sample_claim(claim, opts, context)


def _prove(claim: Any, opts: RunOptions, context: CheckContext) -> Verdict | None:
    """Proving: a claim over any number of heaps by the Sprague-Grundy reduction (checkers.heaps); a periodic
    claim is proved by the periodicity method (this one says so); else the prover."""
    return heap_prove(claim, opts, context) or periodic_prove(claim, opts) or prove_claim(claim, opts, context)


def _periodicity(claim: Any, opts: RunOptions, context: CheckContext) -> Verdict | None:
    """Periodicity for every heap size (checkers.periodicity)."""
    return periodic_verdict(claim, opts)


#: the methods, in the order they run and their verdicts are listed: name -> callable(claim, options, the claim's
#: context) -> Verdict, or None when the method does not apply to the claim
METHODS: dict[str, Callable[[Any, RunOptions, CheckContext], Verdict | None]] = {
    "exhaustive": _exhaustive,
    "prove": _prove,
    "sample": _sample,
    "periodicity": _periodicity,
}


def _audit(claim: Any, opts: RunOptions, v: Verdict) -> Verdict | None:
    """The audit of a proof (checkers.audit) before it prints: None unless `v` is ``proved`` or
    ``proved-bounded`` and the claim has probe points beyond its window."""
    if v.verdict not in ("proved", "proved-bounded") or opts.pins:
        return None
    started = time.perf_counter()
    try:
        audit = audit_proof(claim, v, opts.profile)
    except Exception as exc:  # noqa: BLE001  (a failure of the audit must not lose the claim's other verdicts)
        audit = Verdict(claim.id, "inconclusive", "audit", f"the audit failed: {type(exc).__name__}: {exc}"[:300])
    if audit is not None:
        audit.seconds = time.perf_counter() - started
        opts.extra["verdicts"]["audit"] = audit
    return audit


def run_claim(claim: Any, opts: RunOptions | None = None) -> ClaimResult:
    """Run the selected methods (default: all that apply) on one claim, in a context of its own
    (:class:`checkers.context.CheckContext`: engine, evaluation budget, Z3 contexts)."""
    with CheckContext.for_claim().installed() as context:
        return _run_methods(claim, opts or RunOptions(), context)


def _run_methods(claim: Any, opts: RunOptions, context: CheckContext) -> ClaimResult:
    """The body of :func:`run_claim`: each method in turn, the audit of a proof, the repairs of a refutation."""
    names = opts.methods or tuple(METHODS)
    verdicts: list[Verdict] = []
    # later methods see the earlier verdicts of this claim (the prover's soundness check reads the window's)
    opts = replace(opts, extra={**opts.extra, "verdicts": {}})
    for name in names:
        fn = METHODS.get(name)
        if fn is None:
            continue
        if opts.pins and name != "exhaustive":
            continue  # a pinned re-run checks exactly that instance
        skip = _left_out(opts, name)
        if skip is not None:
            skip[0].notes.append(skip[1])
            continue
        started = time.perf_counter()
        if name == "exhaustive":
            v = fn(claim, opts, context)
        else:
            # a failure inside a method beyond the window must not lose the window's verdict: it is
            # reported as that method's inconclusive answer, with the error, never as a stronger word
            try:
                v = fn(claim, opts, context)
            except NimjosError:
                raise
            except Exception as exc:  # noqa: BLE001
                v = Verdict(claim.id, "inconclusive", name,
                            f"method failed: {type(exc).__name__}: {exc}"[:300])
        if v is not None:
            v.seconds = time.perf_counter() - started  # the method's whole call, its setup included
            verdicts.append(v)
            opts.extra["verdicts"][name] = v
            audit = _audit(claim, opts, v)
            if audit is not None:
                verdicts.append(audit)
    result = ClaimResult(claim, verdicts)
    final = result.final if verdicts else None
    if opts.repair and not opts.pins and final is not None and final.verdict == "refuted":
        started = time.perf_counter()
        result.repairs = find_repairs(claim, opts.profile, budget_seconds=opts.repair_seconds,
                                      counterexamples=final.counterexamples)
        result.repair_seconds = time.perf_counter() - started
        final.evidence["repairs"] = [r.to_json() for r in result.repairs]
    return result
