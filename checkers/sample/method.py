"""Sampling far beyond the window with hypothesis: the verification method ``sample``.

The sampler draws inside the claim's domain (``plan.domain``) and beyond its window: a name the domain
leaves unbounded goes up to a far bound (up to 10^18, as large as one evaluation allows), a name it bounds
keeps that bound (:mod:`checkers.sample.domain`). A claim whose domain is its window has nothing to sample, and a
printed table is finite: neither is extended. Hypothesis spreads the values over every size and mixes in
structured values (powers of two, multiples of the claim's moduli, their neighbours); a set claim is drawn
from both sides (:mod:`checkers.sample.sides`).

* ``holds`` claims are evaluated exactly (Josephus values at huge n come from the fast algorithms).
* grundy / p_positions / level_set claims are judged by the local certificate (checkers.certificate) at
  each drawn position: its options are listed when there are few, searched by Z3 when there are many.

Before it draws, the sampler evaluates the window's own check just past the window's edge, and at far values of a
game claim's parameters (:mod:`checkers.sample.edge`), for every kind of claim: a failure there is the verdict
(``refuted`` at the smallest counterexample found, or ``ill-defined``). A kind the sampler has no evaluator for far
away (``grundy_at_most``, ``stair``; a claim whose evaluation beyond the window costs too much) is judged there
only: ``inconclusive`` when everything held (a few instances next to the window are no sample), its scope saying
what held.

The verdict never overstates: ``sampled`` needs at least :data:`MIN_BEYOND` held instances beyond the window
and off the domain's edge (not all terminal positions with only a parameter large); with fewer the method is
``inconclusive`` and its note says what was drawn (how many beyond, how far), so the claim keeps its window
verdict. Every verdict records ``beyond`` (held instances beyond the window) and ``largest`` (the largest
magnitude a bound integer reached). The search is deterministic, so that load never changes a verdict: a count
of examples (:data:`EXAMPLES`) from a seed fixed per claim, each evaluation limited by counts (steps of the
language (:data:`EVAL_STEPS`), Z3 resource units, the engine's positions), and the work of one claim by
:data:`SEARCH_UNITS` Z3 resource units of the point searches, :data:`SEARCH_OPTIONS` options of the listed
certificates, :data:`SEARCH_STEPS` steps and :data:`SEARCH_ENGINE_POSITIONS` positions the engine explores (an
evaluation may take what is left of it, within the engine's own limit), whose reaching ends the search with a note;
after :data:`PROJECT_AFTER` evaluations, a search whose evaluations cost so much of one of these counts that the rest
allows too few for :data:`MIN_BEYOND` held instances gives up early, with that reason. The limits in seconds (CPU time, so a loaded machine does not reach them sooner)
(:data:`SAFETY_SECONDS` per claim, :data:`checkers.sample.evaluate.EVAL_SECONDS` per evaluation) are only a
safety net, far above what the counts allow; reaching one makes the verdict ``inconclusive``, with a note.

A failure shrinks to a small counterexample and is reported with a line to paste into the spec
(``sample = { pins = [...] }``) so that it is re-checked first on every run; with a results store it is also
kept in the example database beside the store (:mod:`checkers.sample.driver`). The jobs live in their own
modules: where to draw (:mod:`checkers.sample.domain`, :mod:`checkers.sample.sides`), how far
(:mod:`checkers.sample.scale`), evaluating one instance (:mod:`checkers.sample.evaluate`), the hypothesis search
and pins (:mod:`checkers.sample.driver`). This module runs them on a claim and decides the verdict.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.options import SamplingLimits
>>> v = sample_claim(spec.claims[0], RunOptions(sampling=SamplingLimits(examples=40)))
>>> v.verdict, v.method, v.beyond >= 20, v.largest > 10 ** 6
('sampled', 'sample', True, True)
"""
from __future__ import annotations

import time
from typing import Any

from nimjos.lang.analysis import window_constants
from nimjos.games.engine import active_engine
from nimjos.lang.errors import PositionLimitError, ResourceError, SpecError
from nimjos.lang.runtime import active_budget, step_limit
from nimjos.spec.loader import Claim
from nimjos.spec.plan import (GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PeriodicPlan, SetPlan, StairPlan,
                              ValuesPlan)
from nimjos.verdict import HasId, Verdict, phrases
from nimjos.words import Note, NoteKind, PhraseKind, joined, note_kind
from checkers.options import RunOptions
from checkers.certificate import Certificate, game_kind
from checkers.context import CheckContext
from checkers.sample.domain import Domain, Drawn, build_domain, describe_draw, drawing_domain
from checkers.sample.edge import EdgeResult, edge_check
from checkers.sample.driver import db_key, parse_pin, pin_line, search, tighten
from checkers.sample.evaluate import EVAL_SECONDS, GameEvaluator, HoldsEvaluator, Outcome, run_limited
from checkers.sample.loopy import LoopyEvaluator
from checkers.sample.scale import TABLE_LIMIT, choose_far, uses_table
from checkers.sample.sides import Members

METHOD = "sample"
#: examples per claim unless the spec or the options say otherwise
EXAMPLES = 100
#: steps of the expression language (loop iterations, calls, options listed) one sampled evaluation may take (a
#: count; the window's evaluations may take up to nimjos.lang.runtime.MAX_STEPS): an instance that needs more is
#: skipped, with the reason
EVAL_STEPS = 50_000
#: Z3 resource units the point searches and the searches for members of the claimed sets of one claim may spend (a
#: count: the same on a quiet and a loaded machine;
#: about 0.7 s of Z3 at the prover's calibration, checkers.z3.budget, and up to 4 s on the queries of 60-bit
#: positions); reaching it ends the search, with a note
SEARCH_UNITS = 2_000_000
#: drawn instances where the claim's assumption is false (rejected, not counted among the examples) after which the
#: search ends, with a note
SEARCH_REJECTS = 3_000
#: options the listed certificates of one claim may label in all (a count); reaching it ends the search, with a note
SEARCH_OPTIONS = 20_000
#: steps the evaluations of one claim may take in all (an instance refused for its steps counts the steps it took);
#: reaching it ends the search, with a note
SEARCH_STEPS = 1_000_000
#: positions the engine may explore (list the options of) for the evaluations of one claim in all, where a local
#: certificate labels an option outside the claim's domain or assumption by the game's moves (a count of its work,
#: the same on a loaded machine); an evaluation may take what is left, within the engine's own limit (where the engine
#: stops and the instance is skipped, as one too large for it); reaching it ends the search, with a note. It is far
#: above what the claims of specs/ explore (a cap of 2,000 positions per evaluation and 40,000 per claim made 14 of
#: them `checked` instead of `sampled`): it binds where each position costs little, and the early give-up below and
#: the safety net bind where each costs much
SEARCH_ENGINE_POSITIONS = 20_000_000
#: evaluations (where the assumption held) after which the search estimates, from what they cost in counts, how many
#: more the rest of its budgets allow: too few to reach MIN_BEYOND held instances ends the search early, with the
#: reason
PROJECT_AFTER = 2
#: the safety net of one claim's search, in seconds of the process's CPU time (the counts should end a search long before);
#: reaching it makes the verdict inconclusive, with a note, since it would depend on the machine
SAFETY_SECONDS = 120.0
#: held instances beyond the window, off the domain's edge, that a `sampled` verdict needs (DESIGN.md, "Verdicts")
MIN_BEYOND = 20


def not_applicable(claim: HasId, reason: str, seconds: float = 0.0) -> Verdict:
    """The verdict of a claim this method cannot sample, with the reason as data (its scope says it too).

    >>> v = not_applicable(type("C", (), {"id": "c"})(), "a printed table"); v.reason, v.scope
    ('a printed table', 'not applicable: a printed table')
    """
    return Verdict.not_applicable(claim.id, METHOD, reason, seconds=seconds)



#: the words of each counted budget of the search, and its size (Z3 units: the run's, given by the caller)
_COUNTS = {"steps": ("steps", SEARCH_STEPS), "positions": ("positions explored by the engine", SEARCH_ENGINE_POSITIONS),
           "options": ("options listed", SEARCH_OPTIONS), "units": ("Z3 resource units", SEARCH_UNITS)}


def _too_costly(stats: dict, spent: dict[str, int], units: int) -> str:
    """Why the search gives up early ('' to go on): after :data:`PROJECT_AFTER` evaluations where the assumption
    held, even the cheapest evaluation that held (``stats["least"]``: its cost in each count) costs so much of a
    counted budget that the rest of it allows too few more to reach :data:`MIN_BEYOND` held instances beyond the
    window. An estimate in counts (the same on a loaded machine) that errs towards going on: every further
    evaluation is assumed to cost no more than the cheapest so far and to hold beyond the window.

    >>> stats = {"drawn": 3, "assume": 0, "held": 3, "beyond": 3, "edge": 1,
    ...          "least": {"steps": 0, "positions": 2_000, "options": 0, "units": 0}}
    >>> _too_costly(stats, {"steps": 0, "positions": 6_000, "options": 0, "units": 0}, SEARCH_UNITS)
    ''
    >>> stats["least"]["positions"] = 3_000_000
    >>> _too_costly(stats, {"steps": 0, "positions": 9_000_000, "options": 0, "units": 0}, SEARCH_UNITS)
    'each evaluation that held cost at least 3,000,000 positions explored by the engine (3 evaluations: 9,000,000); the rest of the budget of 20,000,000 allows at most 3 more, and a sampled verdict needs 20 held instances beyond the window (2 so far): the search gave up early'
    """
    done = stats["drawn"] - stats["assume"]
    have = stats["beyond"] - stats["edge"]
    if done < PROJECT_AFTER or have >= MIN_BEYOND:
        return ""
    for key, (words, limit) in _COUNTS.items():
        limit = units if key == "units" else limit
        used = spent.get(key, 0)
        each = stats.get("least", {}).get(key, 0)
        if each <= 0:
            continue
        more = int(max(0, limit - used) // each)
        if have + more < MIN_BEYOND:
            return (f"each evaluation that held cost at least {each:,} {words} ({done:,} evaluations: {used:,}); the "
                    f"rest of the budget of {limit:,} allows at most {more:,} more, and a sampled verdict needs "
                    f"{MIN_BEYOND} held instances beyond the window ({have:,} so far): the search gave up early")
    return ""


def sample_claim(claim: Claim, opts: RunOptions, context: CheckContext | None = None) -> Verdict:
    """Sample one claim far beyond its window (see the module docstring); its point searches ask Z3 in a new
    context of the claim's `context` (None: a context of its own, installed for the call)."""
    if context is None:
        context = CheckContext.for_claim()
        with context.installed():
            return sample_claim(claim, opts, context)
    start = time.perf_counter()
    cfg = claim.sample   # fields and types checked by the loader (nimjos.spec.schema.SAMPLE_FIELDS)
    if cfg.skip:
        return not_applicable(claim, str(cfg.skip))
    plan = claim.plan(opts.profile)
    if isinstance(plan, ValuesPlan):
        return not_applicable(claim, "a printed table is finite: the window check covers all of it")
    ns = claim.spec.namespace
    binder = plan.window
    assert binder is not None, "a claim over a window has its binder"
    if not binder.names:
        return not_applicable(claim, "a closed statement (no free names): nothing to sample")
    fixed = [] if cfg.for_all else window_constants(binder)
    if fixed:
        return not_applicable(claim, f"{', '.join(fixed)} ties the statement to the window's sizes (say where to "
                                     "draw with sample = { for_all = \"...\" })")
    seed = int.from_bytes(db_key(claim, opts.profile)[:4], "big")
    # one step past the window first, with the window's own check: every kind of claim, however costly far away
    edge = edge_check(plan, seed)
    if edge.failed:
        return edge.verdict(claim, opts.profile, time.perf_counter() - start)
    if not isinstance(plan, (HoldsPlan, GrundyPlan, SetPlan)) and not plan.loopy:
        return _edge_only(claim, edge, WINDOW_ONLY.get(type(plan), "the sampler has no evaluator for this kind of "
                                                       "claim"), start)
    kind = None if plan.loopy else game_kind(plan)
    members = None
    if plan.loopy:   # the exact values of each drawn instance's finite game graph, never the local certificate
        evaluator: Any = LoopyEvaluator(claim, opts.profile)
    elif isinstance(plan, HoldsPlan):
        evaluator = HoldsEvaluator(plan)
    else:
        assert kind is not None and isinstance(plan, (GrundyPlan, SetPlan)), \
            f"the sampler evaluates statements and game claims with a local certificate ({type(plan).__name__})"
        solver = context.solver_context()   # the point search's answers must not depend on other claims
        evaluator = GameEvaluator(plan, opts.profile, solver.ctx)
        members = Members(plan, kind, solver.ctx)
        if isinstance(plan, LevelSetPlan):
            try:
                Certificate.for_claim(claim, {n: v for n, v in next(iter(plan.window.bindings({}))).items()
                                              if n not in plan.coords}, opts.profile)
            except SpecError as exc:
                return not_applicable(claim, str(exc.message))
            except StopIteration:
                return not_applicable(claim, "the window is empty")
    wide = build_domain(plan, binder, ns, widen_sets=bool(cfg.widen), members=members)
    dom = wide
    if cfg.for_all:
        dom = drawing_domain(plan, (cfg.for_all,) if isinstance(cfg.for_all, str) else tuple(cfg.for_all), ns)
    elif not any(d.extended or d.family for d in dom.names):
        where = plan.domain.describe() if plan.domain is not None else "the window"
        return _edge_only(claim, edge, f"the domain is the window ({where}): nothing lies beyond it; the window "
                                       "check covers the claim", start)

    stats: dict[str, Any] = {"held": 0, "assume": 0, "skip": 0, "beyond": 0, "edge": 0, "pins": 0, "timeouts": 0, "largest": 0,
             "drawn": 0, "steps": 0, "positions": 0, "least": {}}

    def evaluate(env: dict) -> Outcome:
        # at most EVAL_STEPS steps per evaluation (each evaluation inside, of the assumption, the formula or a
        # certificate's condition, restarts the budget's count; `spent` counts them all), and the engine explores
        # at most what is left of SEARCH_ENGINE_POSITIONS (counted where it explores: it stops there)
        budget = active_budget()
        budget.depth = 0
        before = budget.spent
        engine = active_engine()
        guard, explore = engine.max_positions, engine.explore
        engine.max_positions = max(1, min(guard, SEARCH_ENGINE_POSITIONS - stats["positions"]))

        def counted(game: Any, positions: Any) -> dict:
            try:
                adj = explore(game, positions)
            except ResourceError as exc:
                if isinstance(exc, PositionLimitError):
                    stats["positions"] += engine.max_positions   # explored that many before it stopped
                raise
            stats["positions"] += len(adj)
            return adj
        engine.explore = counted   # type: ignore[method-assign]  # counted for this evaluation, restored below
        try:
            with step_limit(EVAL_STEPS):
                out = evaluator(env)
        finally:
            stats["steps"] += budget.spent - before
            engine.max_positions = guard
            del engine.explore   # the class's method again
        if out.kind == Outcome.SKIP and note_kind(out.note) is NoteKind.STEP_LIMIT:
            out.note = f"an evaluation took more than {EVAL_STEPS:,} steps"
        return out

    far = cfg.scale
    note = ""
    if isinstance(far, int) and far > 0:
        dom.far = far
    else:
        far, note = choose_far(plan, dom, evaluate, kind, evaluator, seed)
        if far is None:
            return _edge_only(claim, edge, note, start)
        dom.far = far
        stats["steps"] = stats["positions"] = 0   # the probes' work is not the search's
        if members is not None and isinstance(evaluator, GameEvaluator) and evaluator.box is not None:
            members.use_points(evaluator.p_positions())
    limits = opts.sampling
    count = int(cfg.count or limits.examples or EXAMPLES)
    safety = float(cfg.seconds or limits.seconds or SAFETY_SECONDS)
    units = int(limits.units or SEARCH_UNITS)
    deadline = time.process_time() + safety   # CPU seconds: a loaded machine does not reach it sooner

    def spent_now() -> dict[str, int]:
        """What the evaluations have spent so far, in the counts their budgets limit."""
        return {"units": (evaluator.units if isinstance(evaluator, GameEvaluator) else 0)
                         + (members.units if members else 0),
                "steps": stats["steps"], "positions": stats["positions"],
                "options": evaluator.options if isinstance(evaluator, GameEvaluator) else 0}

    def stop() -> str:
        """Why the search must end now ('' to go on): a count spent, the rest of the counts too small for the
        instances a verdict needs, or the safety net."""
        spent = spent_now()["units"]
        if spent >= units:
            return (f"the point searches and the searches for members of the claimed sets spent their {units:,} Z3 "
                    f"resource units after {stats['drawn']:,} instances")
        if stats["assume"] >= SEARCH_REJECTS:
            return (f"the assumption was false at {SEARCH_REJECTS:,} drawn instances (after {stats['held']:,} held "
                    "ones)")
        if stats["steps"] >= SEARCH_STEPS:
            return f"the evaluations spent their {SEARCH_STEPS:,} steps after {stats['drawn']:,} instances"
        if isinstance(evaluator, GameEvaluator) and evaluator.options >= SEARCH_OPTIONS:
            return f"the certificates listed their {SEARCH_OPTIONS:,} options after {stats['drawn']:,} instances"
        if stats["positions"] >= SEARCH_ENGINE_POSITIONS:
            return (f"the engine explored its {SEARCH_ENGINE_POSITIONS:,} positions for the certificates after "
                    f"{stats['drawn']:,} instances")
        short = _too_costly(stats, spent_now(), units)
        if short:
            return short
        if time.process_time() > deadline:
            return Note(NoteKind.SAFETY_NET, f"the safety net ({safety:g} s of CPU time) stopped the search")
        return ""
    failures: list[Outcome] = []
    skips: dict[str, int] = {}

    table = uses_table(plan)

    def run_one(drawn: Drawn) -> Outcome:
        stats["drawn"] += 1
        if table and drawn.largest > TABLE_LIMIT:
            stats["skip"] += 1
            why = f"values above {TABLE_LIMIT:,}, too large for the engine's table"
            skips[why] = skips.get(why, 0) + 1
            return Outcome(Outcome.SKIP, note=why, env=drawn.env)
        before = spent_now()
        out, late = run_limited(lambda: evaluate(drawn.env), EVAL_SECONDS)
        if late:
            stats["timeouts"] += 1
            out = Outcome(Outcome.SKIP, note=f"an evaluation took over {EVAL_SECONDS:g} s of CPU time (the safety net)")
        out.env = drawn.env
        if out.kind == Outcome.HELD:
            # the cheapest evaluation that held, in each count: what the early give-up projects with
            least = stats["least"]
            for key, value in spent_now().items():
                cost = value - before[key]
                least[key] = cost if key not in least else min(least[key], cost)
            stats["held"] += 1
            stats["beyond"] += drawn.beyond
            stats["edge"] += drawn.beyond and drawn.edge
            stats["largest"] = max(stats["largest"], drawn.largest)
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
        out = run_one(describe_draw(wide, env, {}))
        if out.kind in (Outcome.FAIL, Outcome.UNDEF):
            failures.append(out)
            stats["pinned_failure"] = True
    stopped = ""
    if not failures:
        found = search(claim, opts.profile, dom, run_one, count, stop, opts.store)
        failures, stopped = found.failures, found.stopped
    if failures and failures[0].env is not None:
        failures = [_smaller(wide, failures[0], evaluate)]
    if stopped:
        note = joined(NoteKind.SAFETY_NET, note, stopped)
    return _verdict(claim, dom, stats, failures, skips, evaluator, note, start, edge)


def _smaller(dom: Domain, out: Outcome, evaluate: Any) -> Outcome:
    """The failure with its integers made smaller by bisection (each step re-evaluated; see driver.tighten)."""
    seen: dict = {}

    def fails(env: dict) -> bool:
        o, late = run_limited(lambda: evaluate(env), EVAL_SECONDS)
        if late:
            return False
        if o.kind == out.kind:
            o.env = env
            seen["last"] = o
            return True
        return False

    assert out.env is not None, "the caller shrinks a failure with its instance only"
    env = tighten(dom, out.env, fails)
    if env == out.env:
        return out
    best = seen.get("last")
    return best if best is not None and best.env == env else out


def _magnitude(n: int) -> str:
    """A magnitude in words.

    >>> _magnitude(10 ** 18), _magnitude(12345), _magnitude(3 * 10 ** 17)
    ('10^18', '12,345', '3.0 x 10^17')
    """
    if n >= 10 ** 6:
        e = len(str(n)) - 1
        return f"10^{e}" if n == 10 ** e else f"{n / 10 ** e:.1f} x 10^{e}"
    return f"{n:,}"


def _drawn(stats: dict, failures: list) -> str:
    """What the search drew, in words: the held instances, or the pinned instance or first draw that failed.

    >>> stats = {"held": 0, "beyond": 0, "edge": 0, "largest": 0, "pinned_failure": True}
    >>> _drawn(stats, [object()])
    'a pinned instance failed (pins are checked first, before any instance is drawn)'
    >>> _drawn({**stats, "pinned_failure": False}, [object()])
    'the first instance drawn failed (none held before it)'
    >>> _drawn({**stats, "held": 30, "beyond": 25, "largest": 10 ** 6}, [])
    '30 instances held (25 beyond the window; largest value 10^6)'
    """
    held, beyond, edge, largest = stats["held"], stats["beyond"], stats["edge"], stats["largest"]
    if failures and stats.get("pinned_failure"):
        return "a pinned instance failed (pins are checked first, before any instance is drawn)"
    if failures and held == 0:
        return "the first instance drawn failed (none held before it)"
    drawn = f"{held:,} instances held ({beyond:,} beyond the window"
    drawn += f", {edge:,} of them on the domain's edge" if edge else ""
    return drawn + f"; largest value {_magnitude(largest)})"


#: why the sampler has nothing to draw far beyond the window for a kind of claim (it evaluates the instances just
#: past the window's edge only, with the window's check)
WINDOW_ONLY: dict[type, str] = {
    GrundyBoundPlan: "a bound on G has no local certificate to judge one position far away by",
    PeriodicPlan: "the periodic sampler does not apply to this claim, and a period has no local certificate",
    StairPlan: "a stair is a statement about the sequence as a whole, with no local certificate",
}


def _edge_only(claim: Claim, edge: EdgeResult, reason: str, start: float) -> Verdict:
    """The verdict of a claim the sampler evaluates only just past the window's edge (`reason`: why no further),
    when nothing failed there: ``inconclusive`` (a few instances next to the window are not a sample), its scope
    saying what held; not applicable when nothing lies past the edge."""
    seconds = time.perf_counter() - start
    if not edge.moves:
        return not_applicable(claim, reason, seconds)
    return Verdict(claim.id, "inconclusive", METHOD, phrases((PhraseKind.DRAWS, edge.describe())),
                   instances=edge.evaluated,
                   assumption_held=edge.held, seconds=seconds,
                   notes=[f"nothing drawn far beyond the window: {reason}", *edge.notes])


def _verdict(claim: Claim, dom: Domain, stats: dict, failures: list, skips: dict, evaluator: Any, note: str,
             start: float, near: EdgeResult) -> Verdict:
    held, beyond, edge, largest = stats["held"], stats["beyond"], stats["edge"], stats["largest"]
    spread = beyond - edge
    drawn: list[tuple[PhraseKind, str]] = [(PhraseKind.DRAWS, _drawn(stats, failures))]
    rest: list[tuple[PhraseKind, str]] = [(PhraseKind.DRAWS, near.describe()), (PhraseKind.CLASS, dom.describe())]
    if isinstance(evaluator, GameEvaluator):
        how = "local certificate (a), (b) at each position"
        if evaluator.by_engine:
            how = (f"the P-positions engine's table at {evaluator.by_engine:,} positions (up to {evaluator.box:,}), "
                   "the local certificate (a), (b) elsewhere")
        rest.append((PhraseKind.ENGINE, how))
        if evaluator.symbolic:
            rest.append((PhraseKind.ENGINE, f"options searched by Z3 at {evaluator.symbolic:,} positions with too "
                                            "many to list"))
        if dom.members is not None and dom.members.found:
            rest.append((PhraseKind.DRAWS, f"{dom.members.found:,} drawn inside the claimed sets"))
    if stats["pins"]:
        rest.append((PhraseKind.DRAWS, f"{stats['pins']} pinned"))
    scope = phrases(*drawn, *rest)
    notes = [note] if note else []
    notes.extend(near.notes)
    if stats["assume"]:
        notes.append(f"assumption false at {stats['assume']:,} drawn instances")
    for why, n in sorted(skips.items(), key=lambda kv: -kv[1])[:3]:
        notes.append(f"{n:,} instances skipped: {why}")
    seconds = time.perf_counter() - start
    common = dict(seconds=seconds, notes=notes, beyond=beyond, largest=largest)
    if failures:
        out = failures[0]
        cx = out.cx
        if isinstance(evaluator, GameEvaluator) and out.kind == Outcome.FAIL:
            cx = evaluator.reevaluate(cx)
            if "unconfirmed" in cx.detail:
                return Verdict(claim.id, "inconclusive", METHOD, scope, instances=held + 1 + near.evaluated,
                               assumption_held=held + 1 + near.held, **{**common, "notes": [cx.detail["unconfirmed"], *notes]})
        word = "refuted" if out.kind == Outcome.FAIL else "ill-defined"
        v = Verdict(claim.id, word, METHOD, scope, instances=held + 1 + near.evaluated,
                    assumption_held=held + 1 + near.held,
                    counterexamples=[cx] if word == "refuted" else [], failures=1,
                    undefined=[cx] if word == "ill-defined" else [], **common)
        v.evidence["pin"] = pin_line(out.cx.bindings)
        v.notes.append("pin it: " + v.evidence["pin"])
        return v
    if held == 0:
        reason = "no drawn instance could be evaluated" if stats["skip"] else "the assumption held at no drawn instance"
        return Verdict(claim.id, "inconclusive", METHOD, phrases((PhraseKind.REASON, reason), *rest), **common)
    why = ""
    if stats["timeouts"] or note_kind(note) is NoteKind.SAFETY_NET:
        why = "the CPU-time safety net stopped evaluations (the verdict would depend on the machine's speed)"
    elif spread < MIN_BEYOND:
        why = (f"only {spread:,} held instances beyond the window off the domain's edge (at least {MIN_BEYOND} needed): "
               f"{beyond:,} beyond, {edge:,} on the edge, largest value {_magnitude(largest)}")
    instances = held + stats["assume"] + near.evaluated
    if why:
        return Verdict(claim.id, "inconclusive", METHOD, scope, instances=instances,
                       assumption_held=held + near.held, **{**common, "notes": [why, *notes]})
    return Verdict(claim.id, "sampled", METHOD, scope, instances=instances,
                   assumption_held=held + near.held, **common)
