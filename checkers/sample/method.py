"""Sampling far beyond the window with hypothesis: the verification method ``sample``.

Each name of a claim's window keeps its lower bound and every bound that depends on other names; a
constant upper bound (the window's edge) is replaced by a far bound (up to 10^18, as large as one
evaluation allows). Hypothesis spreads the values over every size, so instances of every magnitude appear, and shrinks
failures to small ones. Functions and sets bound by ``functions`` / ``nondecreasing`` / ``subsets`` are drawn from
wider families.

* ``holds`` claims are evaluated exactly (Josephus values at huge n come from the fast algorithms).
* grundy / p_positions / level_set claims are judged by the local certificate (checkers.prove.certificate) at
  each drawn position: its options are listed when there are few, searched by Z3 when there are many.

A failure shrinks to a small counterexample, is stored in the hypothesis database under ``.nimjos/hypothesis``
and is reported with a line to paste into the spec (``sample = { pins = [...] }``) so that it is re-checked
first on every run. With CI=true the search is derandomized.

The jobs live in their own modules: where to draw (:mod:`checkers.sample.domain`), how far
(:mod:`checkers.sample.scale`), evaluating one instance (:mod:`checkers.sample.evaluate`), the hypothesis
search and pins (:mod:`checkers.sample.driver`). This module runs them on a claim and decides the verdict.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> v = sample_claim(spec.claims[0], RunOptions(extra={"sample_examples": 20}))
>>> v.verdict, v.method
('sampled', 'sample')
"""
from __future__ import annotations

import time
from typing import Any

from nimjos.lang.analysis import window_constants
from nimjos.lang.binders import Binder
from nimjos.lang.errors import SpecError
from nimjos.lang.runtime import BUDGET
from nimjos.lang.syntax import parse
from nimjos.spec.plan import ClaimPlan
from nimjos.verdict import Verdict
from checkers.options import RunOptions
from checkers.prove.certificate import Certificate, game_kind
from checkers.prove.solver import fresh_context
from checkers.sample.domain import Domain, build_domain
from checkers.sample.driver import db_key, parse_pin, pin_line, search
from checkers.sample.evaluate import EVAL_SECONDS, GameEvaluator, HoldsEvaluator, Outcome, Timeout, time_limit
from checkers.sample.scale import choose_far

METHOD = "sample"
#: examples per claim and seconds per claim unless the spec or the options say otherwise
EXAMPLES = 100
SECONDS = 2.0


def not_applicable(claim: Any, reason: str, seconds: float = 0.0) -> Verdict:
    """The verdict of a claim this method cannot sample, with the reason in its scope.

    >>> not_applicable(type("C", (), {"id": "c"})(), "a printed table").scope
    'not applicable: a printed table'
    """
    return Verdict(claim.id, "inconclusive", METHOD, f"not applicable: {reason}", seconds=seconds)



def sample_claim(claim: Any, opts: RunOptions) -> Verdict:
    """Sample one claim far beyond its window (see the module docstring)."""
    start = time.perf_counter()
    cfg = claim.sample   # fields and types checked by the loader (nimjos.spec.schema.SAMPLE_FIELDS)
    if cfg.skip:
        return not_applicable(claim, str(cfg.skip))
    if claim.kind == "values":
        return not_applicable(claim, "a printed table is finite: the window check covers all of it")
    plan = claim.plan(opts.profile)
    ns = claim.spec.namespace
    binder = plan.window
    if cfg.for_all:
        binder = Binder(parse(cfg.for_all), ns, set(), text=cfg.for_all)
    if not binder.names:
        return not_applicable(claim, "a closed statement (no free names): nothing to sample")
    kind = game_kind(claim, plan)
    if kind is None:
        evaluator: Any = HoldsEvaluator(plan)
    else:
        fresh_context()   # the point search's answers must not depend on the claims sampled before
        evaluator = GameEvaluator(claim, plan, opts.profile)
        if kind == "level" and plan.levels is not None:
            try:
                Certificate.for_claim(claim, {n: v for n, v in next(iter(plan.window.bindings({}))).items()
                                              if n not in plan.coords}, opts.profile)
            except SpecError as exc:
                return not_applicable(claim, str(exc.message))
            except StopIteration:
                return not_applicable(claim, "the window is empty")
    fixed = [] if cfg.for_all else window_constants(binder)
    if fixed:
        return not_applicable(claim, f"{', '.join(fixed)} ties the statement to the window's sizes (state a domain "
                                     "with sample = { for_all = \"...\" })")
    dom = build_domain(plan, binder, ns, widen_sets=bool(cfg.widen))
    if not any(d.extended or d.family for d in dom.names):
        return not_applicable(claim, "every bound is stated (no window edge to go beyond); the window check covers the claim")

    def evaluate(env: dict) -> Outcome:
        BUDGET.steps = 0
        BUDGET.depth = 0
        return evaluator(env)

    seed = int.from_bytes(db_key(claim, opts.profile)[:4], "big")
    far = cfg.scale
    note = ""
    if isinstance(far, int) and far > 0:
        dom.far = far
    else:
        far, note = choose_far(claim, plan, dom, evaluate, kind, evaluator, seed)
        if far is None:
            return not_applicable(claim, note, time.perf_counter() - start)
        dom.far = far
    count = int(cfg.count or opts.extra.get("sample_examples") or EXAMPLES)
    seconds = float(cfg.seconds or opts.extra.get("sample_seconds") or SECONDS)
    stats = {"held": 0, "assume": 0, "skip": 0, "beyond": 0, "pins": 0}
    failures: list[Outcome] = []
    skips: dict[str, int] = {}

    def run_one(env: dict, beyond: bool) -> Outcome:
        try:
            with time_limit(EVAL_SECONDS):
                out = evaluate(env)
        except Timeout:
            out = Outcome(Outcome.SKIP, note=f"an evaluation took over {EVAL_SECONDS:g} s")
        if out.kind == Outcome.HELD:
            stats["held"] += 1
            stats["beyond"] += beyond
        elif out.kind == Outcome.ASSUME:
            stats["assume"] += 1
        elif out.kind == Outcome.SKIP:
            stats["skip"] += 1
            skips[out.note] = skips.get(out.note, 0) + 1
        return out

    # pinned instances first
    for text in cfg.pins:
        env = parse_pin(text)
        stats["pins"] += 1
        out = run_one(env, False)
        if out.kind in (Outcome.FAIL, Outcome.UNDEF):
            failures.append(out)
    if not failures:
        failures = search(claim, opts.profile, dom, run_one, count, seconds, start)
    return _verdict(claim, plan, opts, dom, stats, failures, skips, evaluator, note, start)



def _verdict(claim: Any, plan: ClaimPlan, opts: RunOptions, dom: Domain, stats: dict, failures: list,
             skips: dict, evaluator: Any, note: str, start: float) -> Verdict:
    held = stats["held"]
    scope_parts = [f"{held:,} instances held ({stats['beyond']:,} beyond the window)"]
    desc = dom.describe()
    if desc:
        scope_parts.append(desc)
    if isinstance(evaluator, GameEvaluator):
        how = "local certificate (a), (b) at each position"
        if evaluator.symbolic:
            how += f"; options searched by Z3 at {evaluator.symbolic:,} positions with too many to list"
        scope_parts.append(how)
    if stats["pins"]:
        scope_parts.append(f"{stats['pins']} pinned")
    notes = []
    if note:
        notes.append(note)
    if stats["assume"]:
        notes.append(f"assumption false at {stats['assume']:,} drawn instances")
    for why, n in sorted(skips.items(), key=lambda kv: -kv[1])[:3]:
        notes.append(f"{n:,} instances skipped: {why}")
    seconds = time.perf_counter() - start
    if failures:
        out = failures[0]
        cx = out.cx
        if isinstance(evaluator, GameEvaluator) and out.kind == Outcome.FAIL:
            cx = evaluator.reevaluate(cx)
        word = "refuted" if out.kind == Outcome.FAIL else "ill-defined"
        v = Verdict(claim.id, word, METHOD, "; ".join(scope_parts), instances=held + 1, assumption_held=held + 1,
                    counterexamples=[cx] if word == "refuted" else [], failures=1,
                    undefined=[cx] if word == "ill-defined" else [], seconds=seconds, notes=notes)
        v.evidence["pin"] = pin_line(out.cx.bindings)
        v.notes.append("pin it: " + v.evidence["pin"])
        return v
    if held == 0:
        reason = "no drawn instance could be evaluated" if stats["skip"] else "the assumption held at no drawn instance"
        v = Verdict(claim.id, "inconclusive", METHOD, f"{reason}; " + "; ".join(scope_parts[1:]), seconds=seconds,
                    notes=notes)
        return v
    return Verdict(claim.id, "sampled", METHOD, "; ".join(scope_parts), instances=held + stats["assume"],
                   assumption_held=held, seconds=seconds, notes=notes)
