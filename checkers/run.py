"""Run every applicable method on a claim and pick the verdict it earned: the one dispatcher of the methods.

:data:`METHODS` lists the methods (window, proving, sampling, periodicity) in the order they run (sampling after
proving: a claim proved on its whole domain is not sampled); the exhaustive one always applies. The others are
dispatched by one table, :data:`HANDLERS`: method x the type of the claim's plan -> routes (a handler and the
claims it takes) or the reason the method does not apply (:func:`route`). A method never answers None: it gives a
verdict, or a :class:`nimjos.verdict.LeftOut` with its reason when it has nothing to say. What is left out has one
rule here (:func:`_left_out`, and a LeftOut answer: no verdict listed, the reason kept with the result); so has a
proof against the window (:func:`checkers.prove.soundness.against_window`, applied by :func:`_dispatch` to the
verdict of every route of every method), and so has the audit of a proof (:func:`_audit`). The final verdict is
decided by nimjos.verdict.

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
from checkers.window.exhaustive import check_exhaustive
from nimjos.lang.errors import NimjosError

# re-exported: the options of a run
from checkers.options import PROVE_SECONDS, RunOptions, SamplingLimits, Sharding  # noqa: F401
from checkers.prove import prove_claim
from checkers.prove.finite import covers_domain
from checkers.prove.soundness import against_window
from checkers.heaps.reduction import heap_prove, heap_sample, over_heaps
from checkers.heaps.misere_proof import misere_applies, misere_prove
from checkers.heaps.periodicity import (heap_grundy_verdict, periodic_applies, periodic_prove, periodic_sample,
                                        periodic_verdict)
from checkers.sample import sample_claim
from nimjos.spec.plan import (ClaimPlan, GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PeriodicPlan, PPositionsPlan, StairPlan,
                               ValuesPlan, handler_for)
from nimjos.verdict import LeftOut, Verdict, clipped, phrases
from nimjos.words import Method, PhraseKind
from checkers.window.shard import ShardLog, run_sharded, shard_plan
from checkers.repair import find_repairs
from checkers.result import ClaimResult  # noqa: F401  (re-exported: the result of run_claim)


@dataclass(frozen=True)
class Earlier:
    """The verdicts the methods that ran before gave this claim in this run, as far as a later method needs them:
    the window's (a proof is held to it; a window refutation leaves the other methods out), whether the window
    evaluated every instance of the claim's finite domain (:func:`checkers.prove.finite.covers_domain`, asked once,
    when the window found the claim ill-defined) and the prover's (a claim proved on its whole domain is not sampled).

    >>> w = Verdict("c", "checked", "exhaustive", "")
    >>> e = Earlier().after("exhaustive", w); e.window is w, e.proof
    (True, None)
    """

    window: Verdict | None = None
    whole: bool = False
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
    with the smallest counterexample, so proving and sampling are not run; so is an ill-defined instance found by a
    window that evaluated every instance of a finite domain (:func:`checkers.prove.finite.covers_domain`: no other
    method can find a refutation there, which alone would outrank it). A claim proved on its whole domain
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
    >>> bad = Verdict("c", "ill-defined", "exhaustive", "", instances=11)
    >>> _left_out(RunOptions(), Earlier(window=bad, whole=True), "prove")[1]
    'prove not run: the window found the claim ill-defined and evaluated every instance of its finite domain'
    >>> _left_out(RunOptions(), Earlier(window=bad), "prove") is None
    True
    """
    if name == "exhaustive" or name in (opts.methods or ()):
        return None
    window, proof = earlier.window, earlier.proof
    if window is not None and window.verdict == "refuted":
        return window, f"{name} not run: the window refutes the claim"
    if window is not None and window.verdict == "ill-defined" and earlier.whole:
        return window, f"{name} not run: the window found the claim ill-defined and evaluated every instance of its " \
                       "finite domain"
    if name == "sample" and proof is not None and proof.verdict == "proved":
        return proof, "sampling not run: the proof covers the whole domain"
    return None


#: a method's handler of the claims a route takes: (claim, options, earlier verdicts, the claim's context) -> its
#: verdict, or a LeftOut (it has nothing to say: no verdict is listed, the reason is kept); never None
Handler = Callable[[Claim, RunOptions, "Earlier", CheckContext], "Verdict | LeftOut"]


@dataclass(frozen=True)
class Route:
    """One handler of a method, for the claims of its plan types that `applies` accepts (None: every one). With
    `skip`, the claim's own ``skip`` for the method (``sample.skip``, ``prove.skip``) makes it not apply, read here,
    before the handler runs; without, the handler reads it (the prover reads ``prove.skip`` backend by backend).

    >>> Route(_prove).applies is None, Route(_heap_sample, over_heaps).skip
    (True, True)
    """

    handler: Handler
    applies: Callable[[ClaimPlan], bool] | None = None
    skip: bool = True


def _prove(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """The prover (checkers.prove), given the window's verdict (a finite domain the window enumerated is proved)."""
    return prove_claim(claim, opts, window=earlier.window, context=context)


def _misere(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """Misère outcomes of a heap game from its certified quotient (checkers.heaps.misere_proof)."""
    return misere_prove(claim, opts)


def _heap_prove(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """A claim over any number of heaps, by the Sprague-Grundy reduction (checkers.heaps.reduction)."""
    return heap_prove(claim, opts, context)


def _periodic_prove(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """A periodic claim is proved by the periodicity method (the prover says so: checkers.heaps.periodicity)."""
    return periodic_prove(claim, opts)


def _sample(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """The sampler (checkers.sample)."""
    return sample_claim(claim, opts, context)


def _heap_sample(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """The sampler of claims over any number of heaps (checkers.heaps.reduction)."""
    return heap_sample(claim, opts)


def _periodic_sample(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict:
    """The sampler of a periodic claim about a game (checkers.heaps.periodicity)."""
    return periodic_sample(claim, opts)


def _periodicity(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | LeftOut:
    """Periodicity for every heap size (checkers.heaps.periodicity), or left out when no theorem decides it."""
    return periodic_verdict(claim, opts)


def _mex_certificate(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | LeftOut:
    """The mex certificate of a grundy claim about a one-heap code (checkers.heaps.periodicity), or left out."""
    return heap_grundy_verdict(claim, opts)


#: the prover's routes for a claim that is not periodic: misère outcomes from the certified quotient, the
#: Sprague-Grundy reduction of a claim over any number of heaps, else the prover
_PROVING = (Route(_misere, misere_applies, skip=False), Route(_heap_prove, over_heaps), Route(_prove, skip=False))
#: the sampler's routes: the own sampler of claims over any number of heaps, else the sampler
_SAMPLING = (Route(_heap_sample, over_heaps), Route(_sample))

#: the one dispatcher's table: method x the type of the claim's plan (nimjos.spec.plan; a subtype takes its
#: parent's entry) -> its routes, the first that applies taking the claim, or the reason the method does not apply
#: to that kind (a verdict "not applicable", the reason as data). The window handles every kind
#: (checkers.window.exhaustive.WINDOW_CHECKS). A kind missing here has no route: the method does not apply, with the
#: reason, except for the methods in :data:`SILENT`, which leave it out.
HANDLERS: dict[Method, dict[type[ClaimPlan], tuple[Route, ...] | str]] = {
    Method.PROVE: {HoldsPlan: _PROVING, GrundyPlan: _PROVING, PPositionsPlan: _PROVING, LevelSetPlan: _PROVING,
                   StairPlan: "a stair is a statement about the Grundy sequence as a whole, with no local certificate "
                              "and no theorem that extends a finite check of it: the window checks it",
                   ValuesPlan: _PROVING,
                   PeriodicPlan: (Route(_heap_prove, over_heaps), Route(_periodic_prove, skip=False)),
                   GrundyBoundPlan: "a bound on G has no local certificate (it does not say what G is); the window "
                                    "checks it from the engine's values"},
    Method.SAMPLE: {HoldsPlan: _SAMPLING, GrundyPlan: _SAMPLING, PPositionsPlan: _SAMPLING, LevelSetPlan: _SAMPLING,
                    StairPlan: _SAMPLING, ValuesPlan: _SAMPLING, GrundyBoundPlan: _SAMPLING,
                    PeriodicPlan: (Route(_heap_sample, over_heaps), Route(_periodic_sample, periodic_applies),
                                   Route(_sample))},
    Method.PERIODICITY: {PeriodicPlan: (Route(_periodicity, skip=False),),
                         GrundyPlan: (Route(_mex_certificate, skip=False),)},
}

#: a claim on a loopy game (its moves may cycle), whatever its kind: sampled by the exact values of each drawn
#: instance's finite game graph (checkers.sample.loopy); no proof method knows generalized Sprague-Grundy values
#: (their local certificates assume that every play ends), and no periodicity theorem speaks of them
LOOPY: dict[Method, tuple[Route, ...] | str] = {
    Method.PROVE: "a loopy game (its moves may cycle): no proof method knows generalized Sprague-Grundy values; the "
                  "window and the sampler compute them from the moves",
    Method.SAMPLE: (Route(_sample),),
    Method.PERIODICITY: "a loopy game (its moves may cycle): no periodicity theorem speaks of generalized "
                        "Sprague-Grundy values",
}

#: the methods that list no verdict for a claim they do not apply to (left out, the reason kept with the result):
#: the periodicity method speaks only of the claims a theorem decides
SILENT: frozenset[Method] = frozenset({Method.PERIODICITY})


def route(method: Method, plan: ClaimPlan) -> Route | str:
    """The route of method `method` for a planned claim (the first of its plan type's routes that applies), or the
    reason it does not apply: the one place that decides which handler takes a claim.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "examples" / "heap_games.toml")
    >>> route(Method.PROVE, spec.claim("bouton").plan()).handler.__name__
    '_heap_prove'
    >>> route(Method.SAMPLE, spec.claim("kayles-period-12").plan()).handler.__name__
    '_periodic_sample'
    >>> route(Method.PERIODICITY, spec.claim("bouton").plan())
    'the periodicity method has no handler for a p_positions claim'
    """
    entry = LOOPY[method] if plan.loopy else handler_for(HANDLERS[method], plan)
    if entry is None:
        return f"the {method} method has no handler for a {plan.claim.kind} claim"
    if isinstance(entry, str):
        return entry
    for r in entry:
        if r.applies is None or r.applies(plan):
            return r
    return f"no handler of the {method} method takes this {plan.claim.kind} claim"


def _skipped(method: Method, claim: Claim) -> str | None:
    """The claim's own reason not to run `method` (its ``sample.skip`` or ``prove.skip``), or None."""
    cfg = claim.sample if method is Method.SAMPLE else claim.prove if method is Method.PROVE else None
    return str(cfg.skip) if cfg is not None and cfg.skip else None


def _dispatch(method: Method) -> Handler:
    """Method `method` as one callable: its :func:`route` for the claim, or the reason it does not apply (a verdict
    "not applicable", or, for a method in :data:`SILENT`, left out). A proof a route gives is held to the window
    (the earlier verdict, else checked there): a proof the window contradicts inside its class is a prover bug,
    ``inconclusive`` (:mod:`checkers.prove.soundness`).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml").claims[0]
    >>> _dispatch(Method.PERIODICITY)(claim, RunOptions(), Earlier(), CheckContext.for_claim())
    LeftOut(method='periodicity', reason="the mex certificate reads a one-heap heap game (a code, Lasker's Nim)")
    """
    def method_fn(claim: Claim, opts: RunOptions, earlier: Earlier, context: CheckContext) -> Verdict | LeftOut:
        found = route(method, claim.plan(opts.profile))
        if isinstance(found, str):
            if method in SILENT:
                return LeftOut(method, found)
            return Verdict.not_applicable(claim.id, method, found)
        skip = _skipped(method, claim) if found.skip else None
        if skip is not None:
            return Verdict.not_applicable(claim.id, method, skip)
        v = found.handler(claim, opts, earlier, context)
        if isinstance(v, Verdict):
            against_window(claim, v, earlier.window, opts.profile)
        return v
    method_fn.__name__ = f"_{method}"
    return method_fn


#: the methods, in the order they run and their verdicts are listed: name -> callable(claim, options, the
#: verdicts of the methods before it, the claim's context) -> its Verdict, or a LeftOut (no verdict is listed)
METHODS: dict[Method, Handler] = {
    Method.EXHAUSTIVE: _exhaustive,
    Method.PROVE: _dispatch(Method.PROVE),
    Method.SAMPLE: _dispatch(Method.SAMPLE),
    Method.PERIODICITY: _dispatch(Method.PERIODICITY),
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
        audit = Verdict(claim.id, "inconclusive", "audit", clipped(phrases(
            (PhraseKind.REASON, f"{AUDIT_FAILED}: {type(exc).__name__}: {exc}")), 300))
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
    left_out: list[LeftOut] = []   # the methods that gave no verdict, each with its reason
    failures: list[str] = []   # the methods (and audits) that failed with an error: the result is not complete
    # later methods are given the earlier verdicts of this claim (a proof is held to the window's)
    earlier = Earlier()
    for name in names:
        fn = METHODS.get(Method(name)) if name in tuple(Method) else None
        if fn is None:
            continue
        if opts.pins and name != "exhaustive":
            continue  # a pinned re-run checks exactly that instance
        skip = _left_out(opts, earlier, name)
        if skip is not None:
            skip[0].notes.append(skip[1])
            left_out.append(LeftOut(name, skip[1]))
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
                v = Verdict(claim.id, "inconclusive", name, clipped(phrases(
                    (PhraseKind.REASON, f"method failed: {type(exc).__name__}: {exc}")), 300))
                failures.append(name)
        if isinstance(v, LeftOut):
            left_out.append(v)     # the method has nothing to say: no verdict is listed
            continue
        v.seconds = time.perf_counter() - started  # the method's whole call, its setup included
        verdicts.append(v)
        earlier = earlier.after(name, v)
        if name == "exhaustive" and v.verdict == "ill-defined":
            earlier = replace(earlier, whole=covers_domain(claim, opts, v))
        audit, audit_failed = _audit(claim, opts, v)
        if audit is not None:
            verdicts.append(audit)
        if audit_failed:
            failures.append("audit")
    result = ClaimResult(claim, verdicts, complete=not failures, left_out=left_out)
    final = result.final if verdicts else None
    if opts.repair and not opts.pins and final is not None and final.verdict == "refuted":
        started = time.perf_counter()
        # rechecked at every counterexample any method found (the final verdict's first), not only the window's
        found = final.counterexamples + [cx for v in verdicts if v is not final for cx in v.counterexamples]
        result.repairs = find_repairs(claim, opts.profile, budget_seconds=opts.repair_seconds, counterexamples=found)
        result.repair_seconds = time.perf_counter() - started
        final.evidence["repairs"] = [r.to_json() for r in result.repairs]
    return result
