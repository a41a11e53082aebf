"""Run every applicable method on a claim and pick the verdict it earned.

:data:`METHODS` lists the methods (window, proving, sampling) in the order they run (sampling last: a claim
proved on its whole domain is not sampled); a method answers None when
it does not apply; the exhaustive one always applies. The final verdict is decided by nimjos.verdict.

>>> list(METHODS)
['exhaustive', 'prove', 'sample', 'periodicity']
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Any, Callable

from nimjos.spec.loader import Claim
from checkers.audit import audit_proof
from checkers.context import CheckContext
from checkers.exhaustive import check_exhaustive
from nimjos.lang.errors import NimjosError

# re-exported: the options of a run
from checkers.options import PROVE_SECONDS, RunOptions, SamplingLimits, Sharding  # noqa: F401
from checkers.prove import prove_claim
from checkers.heaps import heap_prove, heap_sample
from checkers.misere_proof import misere_prove
from checkers.periodicity import periodic_prove, periodic_sample, periodic_verdict
from checkers.sample import sample_claim
from nimjos.spec.plan import (ClaimPlan, GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PeriodicPlan, PPositionsPlan, StairPlan,
                               ValuesPlan, handler_for)
from nimjos.verdict import Verdict
from checkers.shard import ShardLog, run_sharded, shard_plan
from checkers.repair import find_repairs
from checkers.result import ClaimResult  # noqa: F401  (re-exported: the result of run_claim)


@dataclass(frozen=True)
class Earlier:
    """The verdicts the methods that ran before gave this claim in this run, as far as a later method needs them:
    the window's (the prover's soundness check; a window refutation leaves the other methods out) and the
    prover's (a claim proved on its whole domain is not sampled).

    >>> w = Verdict("c", "checked", "exhaustive", "")
    >>> e = Earlier().after("exhaustive", w); e.window is w, e.proof
    (True, None)
    """

    window: Verdict | None = None
    proof: Verdict | None = None

    def after(self, name: str, v: Verdict) -> Earlier:
        """These verdicts and method `name`'s verdict `v` (a method no later one reads is not kept).

        >>> Earlier().after("prove", Verdict("c", "proved", "prove", "")).proof.verdict
        'proved'
        """
        if name == "exhaustive":
            return replace(self, window=v)
        if name == "prove":
            return replace(self, proof=v)
        return self


def _exhaustive(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    sharding = opts.sharding
    if opts.pins is None and sharding.wanted():
        ranges = shard_plan(claim, opts.profile, sharding.shards_for_workers())
        if ranges is not None:
            path = str(claim.spec.path)
            log = ShardLog(opts.store) if opts.store else None
            key = (path, claim.spec.sha256, claim.id, opts.profile, tuple(ranges))
            done = log.load(key) if (log and sharding.resume) else {}
            progress = sharding.progress

            def on_shard(res: Any, total: int) -> None:
                if log:
                    log.save(key, res)
                if progress:
                    progress(claim, res, total)
            try:
                return run_sharded(path, claim.id, opts.profile, shards=len(ranges), workers=sharding.workers,
                                   executor=sharding.executor, scheduler=sharding.scheduler,
                                   max_counterexamples=opts.max_counterexamples, on_shard=on_shard, skip=done,
                                   ranges=ranges)
            finally:
                if log:
                    log.close()
    return check_exhaustive(claim, opts.profile, opts.max_counterexamples, opts.pins)


def _left_out(opts: RunOptions, earlier: Earlier, name: str) -> tuple[Verdict, str] | None:
    """Why method `name` is not run on this claim, as (the earlier verdict whose notes say so, the note), or None.

    A refutation by the window is the claim's verdict whatever the other methods say (nimjos.verdict.final_verdict),
    with the smallest counterexample, so proving and sampling are not run; a claim proved on its whole domain
    (``proved``, not ``proved-bounded``) is not sampled, since no sample could add to that. A method asked for by
    name (``--method``) always runs.

    >>> w = Verdict("c", "refuted", "exhaustive", "")
    >>> _left_out(RunOptions(), Earlier(window=w), "prove")[1]
    'prove not run: the window refutes the claim'
    >>> p = Verdict("c", "proved", "prove", "")
    >>> _left_out(RunOptions(), Earlier(proof=p), "sample")[1]
    'sampling not run: the proof covers the whole domain'
    >>> _left_out(RunOptions(methods=("exhaustive", "prove")), Earlier(window=w), "prove") is None
    True
    """
    if name == "exhaustive" or name in (opts.methods or ()):
        return None
    window, proof = earlier.window, earlier.proof
    if window is not None and window.verdict == "refuted":
        return window, f"{name} not run: the window refutes the claim"
    if name == "sample" and proof is not None and proof.verdict == "proved":
        return proof, "sampling not run: the proof covers the whole domain"
    return None


#: a method's handler of one kind of claim: (claim, options, earlier verdicts, the claim's context) -> Verdict, or
#: None when it has nothing to say
Handler = Callable[[Claim, RunOptions, "Earlier", CheckContext], "Verdict | None"]


def _sample_any(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
    """Sampling: the own sampler of claims over any number of heaps (checkers.heaps), else the sampler of
    checkers.sample."""
    return heap_sample(claim, opts) or sample_claim(claim, opts, context)


def _sample_periodic(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
    """Sampling a periodic claim: its own sampler (checkers.periodicity), where it applies."""
    return heap_sample(claim, opts) or periodic_sample(claim, opts) or sample_claim(claim, opts, context)


def _prove_any(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
    """Proving: misère outcomes of a heap game from its certified quotient (checkers.misere_proof), a claim over
    any number of heaps by the Sprague-Grundy reduction (checkers.heaps), else the prover, which is given the
    window's verdict (a proof the window refutes is a bug)."""
    return misere_prove(claim, opts) or heap_prove(claim, opts, context) or prove_claim(claim, opts, window=earlier.window, context=context)


def _prove_periodic(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
    """A periodic claim is proved by the periodicity method (the prover says so)."""
    return heap_prove(claim, opts, context) or periodic_prove(claim, opts)


def _periodicity(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
    """Periodicity for every heap size, and the mex certificate of a grundy claim about a one-heap code
    (checkers.periodicity); None for any other claim."""
    return periodic_verdict(claim, opts)


#: each method's handler of each kind of claim (the type of its plan, nimjos.spec.plan), or the reason it does
#: not apply to that kind (a verdict "not applicable", the reason as data). The window handles every kind
#: (checkers.exhaustive.WINDOW_CHECKS); a kind missing from a table here is one the method does not apply to,
#: except for the periodicity method, which lists no verdict for a claim it has no entry for.
HANDLERS: dict[str, dict[type[ClaimPlan], Handler | str]] = {
    "prove": {HoldsPlan: _prove_any, GrundyPlan: _prove_any, PPositionsPlan: _prove_any, LevelSetPlan: _prove_any,
              StairPlan: "a stair is a statement about the Grundy sequence as a whole, with no local certificate and "
                         "no theorem that extends a finite check of it: the window checks it",
              ValuesPlan: _prove_any, PeriodicPlan: _prove_periodic,
              GrundyBoundPlan: "a bound on G has no local certificate (it does not say what G is); the window checks "
                               "it from the engine's values"},
    "sample": {HoldsPlan: _sample_any, GrundyPlan: _sample_any, PPositionsPlan: _sample_any, LevelSetPlan: _sample_any,
               StairPlan: _sample_any, ValuesPlan: _sample_any, PeriodicPlan: _sample_periodic,
               GrundyBoundPlan: _sample_any},
    "periodicity": {PeriodicPlan: _periodicity, GrundyPlan: _periodicity},
}


def _loopy(name: str, claim: Claim, opts: RunOptions, context: CheckContext) -> Verdict | None:
    """A claim on a loopy game: sampled by the exact values of each drawn instance's finite game graph
    (checkers.sample.loopy); no proof method knows generalized Sprague-Grundy values (their local certificates
    assume that every play ends), so the prover does not apply, and the periodicity method has nothing to say."""
    if name == "sample":
        return sample_claim(claim, opts, context)
    if name == "prove":
        return Verdict.not_applicable(claim.id, name, "a loopy game (its moves may cycle): no proof method knows "
                                                      "generalized Sprague-Grundy values; the window and the sampler "
                                                      "compute them from the moves")
    return None


def _dispatch(name: str) -> Handler:
    """Method `name` as one callable: the handler of the claim's kind in :data:`HANDLERS`, or a verdict that it
    does not apply (the reason as data).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml").claims[0]
    >>> _dispatch("periodicity")(claim, RunOptions(), Earlier(), CheckContext.for_claim()) is None
    True
    """
    def method(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | None:
        plan = claim.plan(opts.profile)
        if plan.loopy:
            return _loopy(name, claim, opts, context)
        handler = handler_for(HANDLERS[name], plan)
        if handler is None:
            if name == "periodicity":
                return None
            return Verdict.not_applicable(claim.id, name, f"the {name} method has no handler for a {claim.kind} claim")
        if isinstance(handler, str):
            return Verdict.not_applicable(claim.id, name, handler)
        return handler(claim, opts, earlier, context)
    method.__name__ = f"_{name}"
    return method


#: the methods, in the order they run and their verdicts are listed: name -> callable(claim, options, the
#: verdicts of the methods before it, the claim's context) -> Verdict, or None when the method does not apply
METHODS: dict[str, Handler] = {
    "exhaustive": _exhaustive,
    "prove": _dispatch("prove"),
    "sample": _dispatch("sample"),
    "periodicity": _dispatch("periodicity"),
}


#: the first words of the scope of an audit that failed with an error
AUDIT_FAILED = "the audit failed"


def _audit(claim: Claim, opts: RunOptions, v: Verdict) -> tuple[Verdict | None, bool]:
    """The audit of a proof (checkers.audit) before it prints, and whether the audit itself failed with an error:
    None unless `v` is ``proved`` or ``proved-bounded`` and the claim has probe points beyond its window."""
    if v.verdict not in ("proved", "proved-bounded") or opts.pins:
        return None, False
    started = time.perf_counter()
    failed = False
    try:
        audit = audit_proof(claim, v, opts.profile)
    except Exception as exc:  # noqa: BLE001  (a failure of the audit must not lose the claim's other verdicts)
        audit = Verdict(claim.id, "inconclusive", "audit", f"{AUDIT_FAILED}: {type(exc).__name__}: {exc}"[:300])
        failed = True
    if audit is not None:
        audit.seconds = time.perf_counter() - started
    return audit, failed


def run_claim(claim: Claim, opts: RunOptions | None = None) -> ClaimResult:
    """Run the selected methods (default: all that apply) on one claim, in a context of its own
    (:class:`checkers.context.CheckContext`: engine, evaluation budget, Z3 contexts)."""
    with CheckContext.for_claim().installed() as context:
        return _run_methods(claim, opts or RunOptions(), context)


def _run_methods(claim: Claim, opts: RunOptions, context: CheckContext) -> ClaimResult:
    """The body of :func:`run_claim`: each method in turn, the audit of a proof, the repairs of a refutation."""
    names = opts.methods or tuple(METHODS)
    verdicts: list[Verdict] = []
    failures: list[str] = []   # the methods (and audits) that failed with an error: the result is not complete
    # later methods are given the earlier verdicts of this claim (the prover's soundness check reads the window's)
    earlier = Earlier()
    for name in names:
        fn = METHODS.get(name)
        if fn is None:
            continue
        if opts.pins and name != "exhaustive":
            continue  # a pinned re-run checks exactly that instance
        skip = _left_out(opts, earlier, name)
        if skip is not None:
            skip[0].notes.append(skip[1])
            continue
        started = time.perf_counter()
        if name == "exhaustive":
            v = fn(claim, opts, earlier, context)
        else:
            # a failure inside a method beyond the window must not lose the window's verdict: it is
            # reported as that method's inconclusive answer, with the error, never as a stronger word
            try:
                v = fn(claim, opts, earlier, context)
            except NimjosError:
                raise
            except Exception as exc:  # noqa: BLE001
                v = Verdict(claim.id, "inconclusive", name,
                            f"method failed: {type(exc).__name__}: {exc}"[:300])
                failures.append(name)
        if v is not None:
            v.seconds = time.perf_counter() - started  # the method's whole call, its setup included
            verdicts.append(v)
            earlier = earlier.after(name, v)
            audit, audit_failed = _audit(claim, opts, v)
            if audit is not None:
                verdicts.append(audit)
            if audit_failed:
                failures.append("audit")
    result = ClaimResult(claim, verdicts, complete=not failures)
    final = result.final if verdicts else None
    if opts.repair and not opts.pins and final is not None and final.verdict == "refuted":
        started = time.perf_counter()
        # rechecked at every counterexample any method found (the final verdict's first), not only the window's
        found = final.counterexamples + [cx for v in verdicts if v is not final for cx in v.counterexamples]
        result.repairs = find_repairs(claim, opts.profile, budget_seconds=opts.repair_seconds, counterexamples=found)
        result.repair_seconds = time.perf_counter() - started
        final.evidence["repairs"] = [r.to_json() for r in result.repairs]
    return result
