"""The exhaustive checker: evaluate a claim at every instance of its window, against ground truth from the
game's moves (the engines) or from the Josephus algorithms. A large window is checked on arrays
(:mod:`checkers.window.vectorised`), any other one instance at a time (the scalar path, :mod:`checkers.window.scalar`, which
also confirms every failure the arrays find). The failures are kept by :class:`checkers.window.collector.Collector`;
the evidence for reports is gathered by :mod:`checkers.window.evidence`. A game claim's rows are judged by the row
check of its kind (:mod:`checkers.window.rows`), its families enumerated by :mod:`checkers.window.families`; a
printed table is checked by :mod:`checkers.window.values`; a pinned instance and the command that re-checks one are
:mod:`checkers.window.rerun`'s.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> v = check_exhaustive(spec.claims[0])
>>> v.verdict, v.instances
('checked', 21)
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Any, Callable, Iterable

from checkers.window.collector import Collector
from checkers.window.evidence import fixed_names, josephus_evidence, options_evidence, position_of
from checkers.window.loopy import loopy_rows
from checkers.window.scalar import holds_instance, one_at_a_time
from checkers.window.vectorised import check_vectorised
from checkers.window.families import family_points
from checkers.window.rerun import pinned_place, rerun_command
from checkers.window.rows import ROW_CHECKS
from checkers.window.values import check_values, printed_extent
from nimjos.games.declared import as_instance
from nimjos.games.engine import active_engine
from nimjos.games.heaps.misere import QUOTIENT_ENGINE
from nimjos.lang.analysis import grundy_calls
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import suggest
from nimjos.lang.values import format_value
from nimjos.spec.budget import enforce_limits
from nimjos.spec.loader import Claim
from nimjos.spec.plan import (ClaimPlan, DrawsPlan, GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PatternPlan,
                              PPositionsPlan, ValuesPlan, handler_for, locate_error)
from nimjos.verdict import Counterexample, Phrase, Phrases, Verdict, phrases, window_word
from nimjos.words import PhraseKind

METHOD = "exhaustive"


def window_scope(plan: ClaimPlan, engine_note: str = "") -> Phrases:
    """The scope of a window verdict: the window's bounds (or a table's extent), the levels, the game, the engines.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> [(p.kind, p.text) for p in window_scope(spec.claims[0].plan(), "ground truth: reference")]
    [('window', '0 <= x <= 20'), ('game', 'game nim1'), ('engine', 'ground truth: reference')]
    """
    parts: list[tuple[PhraseKind, str]] = []
    if plan.window is not None:
        parts.append((PhraseKind.WINDOW, plan.window.describe()))
    elif isinstance(plan, ValuesPlan):
        parts.append((PhraseKind.WINDOW, printed_extent(plan.values)))
    if isinstance(plan, LevelSetPlan):
        parts.append((PhraseKind.WINDOW, "levels " + plan.levels.describe()))
    if plan.game_text:
        parts.append((PhraseKind.GAME, f"game {plan.game_text}"
                      + (" in misère play (a terminal position is an N-position; each "
                         "position valued as a whole, no nim-sum)" if plan.misere else "")
                      + (" (loopy: its moves may cycle)" if plan.loopy else "")))
    if engine_note:
        parts.append((PhraseKind.ENGINE, engine_note))
    return phrases(*parts)


def window_ranges(plan: ClaimPlan) -> tuple[str, ...]:
    """The window's range of each bound name, as written (the scope's data: :class:`nimjos.verdict.Scope`).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> window_ranges(spec.claims[0].plan())
    ('0 <= x <= 20',)
    """
    return tuple(level.describe() for level in plan.window.levels) if plan.window is not None else ()


def ground_truth_note(engines: tuple[str, ...]) -> str:
    """The words of a window's scope that name the engines its ground truth came from ("" for none).

    >>> ground_truth_note(("reference", "subtraction")), ground_truth_note(())
    ('ground truth: reference, subtraction', '')
    """
    return "ground truth: " + ", ".join(engines) if engines else ""


def check_exhaustive(claim: Claim, profile: str = "default", max_counterexamples: int = 10,
                     pins: dict[str, Any] | None = None, shard: tuple[int, int] | None = None,
                     window_limits: bool = True, first_only: bool = False) -> Verdict:
    """Check `claim` at every instance of its window under `profile`; return the verdict.

    `first_only`: the caller asks only whether the claim holds on the window (a correction's candidate): the check
    of a holds claim one instance at a time ends at the first instance that fails or is ill-defined, and the
    verdict's counts are of the instances checked until then.

    `shard` = (a, b) checks only the part of the window whose outermost variable lies in [a, b]
    (checkers.window.shard splits a window this way and merges the parts). A point pinned beyond the window is checked
    only where the whole window's resource limits hold (:func:`nimjos.spec.budget.enforce_limits`); a caller that
    checks many such points and has enforced them itself (the audit) passes `window_limits` = False.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0]
    >>> check_exhaustive(claim, pins={"x": 1000}, window_limits=False).scope[:22]
    'only at x=1000 (beyond'
    """
    start = time.perf_counter()
    plan = claim.plan(profile)
    if pins:
        known = set(plan.window.names) if plan.window is not None else set()
        unknown = [n for n in pins if n not in known]
        if unknown:
            raise SpecError(f"--at names {unknown[0]!r}, which the window does not bind "
                            f"(it binds {', '.join(sorted(known)) or 'nothing'})", hint=suggest(unknown[0], known))
    place = pinned_place(plan, pins) if pins else "window"
    if window_limits or place != "domain":
        enforce_limits(plan, pins if place != "domain" else None)  # refuses a window over the resource limits
    active_engine().begin_claim()  # this claim's ground truth names only the games this claim asks G about
    col = Collector(max_counterexamples, first_only)
    check = handler_for(WINDOW_CHECKS, plan)
    assert check is not None, f"the window checks every kind of claim ({type(plan).__name__})"
    try:
        fast = None if pins or isinstance(plan, ValuesPlan) or plan.loopy else check_vectorised(plan, col, shard)
        if fast is not None:
            instances, held, evidence = fast
        else:
            instances, held, evidence = check(plan, col, pins, shard)
    except SpecError as exc:
        raise locate_error(claim, exc) from None
    failures = col.sorted(col.failures)
    undefined = col.sorted(col.undefined)
    left_out = evidence.get("loopy", {}).get("undecided", 0)   # a loopy game's positions its graph did not decide
    verdict = window_word(bool(failures), bool(undefined), instances, held, left_out)
    engines = evidence.pop("engines", None)
    asked = active_engine().describe_claim()
    # the engines by name, or the engine's own description of those it asked (one text: a name may hold ", ")
    ground = tuple(engines) if engines else (asked,) if asked else ()
    scope = window_scope(plan, ground_truth_note(ground))
    if pins:
        at = ", ".join(f"{k}={format_value(x)}" for k, x in pins.items())
        where = f"beyond the window, inside the {plan.domain.describe()}" if place == "domain" and plan.domain else "pinned"
        scope = phrases((PhraseKind.PINNED, f"only at {at} ({where})"), Phrase(PhraseKind.WINDOW, "window"),
                        tuple(replace(p, join=" ") if i == 0 else p for i, p in enumerate(scope)),
                        (PhraseKind.FINDING, "the window has no instance with the pinned values" if instances == 0
                         else ""))
    v = Verdict(claim.id, verdict, METHOD, scope, instances=instances,
                assumption_held=held, counterexamples=failures, failures=col.n_fail, undefined=undefined,
                seconds=time.perf_counter() - start, evidence=evidence, engines=ground, window=window_ranges(plan))
    if col.n_undef and failures:
        v.notes.append(f"also ill-defined at {col.n_undef} instance(s)")
    if profile != "default":
        v.notes.append(f"profile {profile}")
    v.notes.extend(v.evidence.pop("observations", []))
    first = next(iter(failures or undefined), None)
    if first is not None:
        v.evidence["rerun"] = rerun_command(claim, profile, first.bindings)
        options_evidence(plan, first, v.evidence)
        if first.reason:
            v.evidence.setdefault("reason", first.reason)
    josephus_evidence(claim, first, v.evidence)
    return v


def _window_bindings(plan: ClaimPlan, pins: dict | None, shard: tuple | None) -> Iterable[dict]:
    """The window's bindings (with the pinned values), or the pinned point alone when it lies beyond the window
    inside the domain."""
    if pins and pinned_place(plan, pins) == "domain":
        return [dict(pins)]
    assert plan.window is not None, "a checked claim has a window"
    return plan.window.bindings({}, pins, shard=shard)


# ----------------------------------------------------------------------------- holds

def _check_holds(plan: HoldsPlan, col: Collector, pins: dict | None, shard: tuple | None = None) -> tuple[int, int, dict]:
    instances = held = 0
    # a check that ends at its first failure (a correction's candidate, which most often fails early) asks G for
    # the positions it reaches, not for every position of the window at once
    prefetched = col.first_only or _prefetch_grundy(plan, pins, shard)
    for env in _window_bindings(plan, pins, shard):
        instances += 1
        held += holds_instance(plan, env, col)
        if col.done:
            break
    return instances, held, one_at_a_time(prefetched)


def _prefetch_grundy(plan: HoldsPlan, pins: dict | None, shard: tuple | None) -> bool:
    """Solve at once, with the engines a grundy claim uses, every position a holds statement asks G for at the
    window's bindings (``G(g, x)`` with x bound by the window), so that the check itself only looks values up.
    False when the statement has no such call."""
    ns = plan.claim.spec.namespace
    assert plan.window is not None, "a holds plan has a window"
    names = set(plan.window.names)
    calls = grundy_calls(plan.expression_trees(), names, ns)
    if not calls:
        return False
    fns = [(compile_tree(g, ns, names), compile_tree(p, ns, names)) for g, p in calls]
    groups: dict = {}
    for env in _window_bindings(plan, pins, shard):
        try:
            if plan.assume is not None and not plan.assume(env):
                continue
            for game, position in fns:
                inst = as_instance(evaluate(game, env))
                groups.setdefault(inst, []).append(inst.normalise(evaluate(position, env)))
        except (EvalError, SpecError):
            continue  # the check itself reports what cannot be evaluated
    engine = active_engine()
    for inst, positions in groups.items():
        try:
            engine.solve(inst, positions)
        except ResourceError:
            raise
        except SpecError:
            continue  # a fault of the game where the statement asks for it is reported by the check itself
    return True


def _check_game_claim(plan: ClaimPlan, col: Collector, pins: dict | None, shard: tuple | None = None) -> tuple[int, int, dict]:
    """A claim about the positions of a game at every instance of the window: the rows grouped by game instance,
    then judged by the row check of the plan's type (:data:`ROW_CHECKS`)."""
    assert plan.window is not None and plan.game is not None, "a game claim's plan has a window and a game"
    names = plan.window.names
    coords = plan.coords
    param_names = tuple(n for n in names if n not in coords)
    # pass 1: the window, grouped by game instance
    rows: list[tuple[tuple, Any, Any]] = []  # (binding values, instance, position)
    by_inst: dict[Any, list] = {}
    instances = held = 0
    for env in _window_bindings(plan, pins, shard):
        instances += 1
        values = tuple(env[n] for n in names)
        try:
            if plan.assume is not None and not plan.assume(env):
                continue
            inst = plan.game_instance(env)
            pos = inst.normalise(position_of(env, coords))
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(dict(zip(names, values)), exc))
            continue
        held += 1
        rows.append((values, inst, pos))
        by_inst.setdefault(inst, []).append(pos)
    if plan.loopy:   # generalized Sprague-Grundy values; the instances whose values the graph cannot decide left out
        evidence = loopy_rows(plan, rows, by_inst, param_names, col, family_points)
        instances -= evidence["loopy"]["undecided"]   # not judged: the note says how many and why
        held -= evidence["loopy"]["undecided"]
    else:
        check_rows = handler_for(ROW_CHECKS, plan)
        assert check_rows is not None, f"a game claim's plan has a row check ({type(plan).__name__})"
        evidence = check_rows(plan, rows, by_inst, param_names, col)
    engines = set().union(*(i.solved_by for i in by_inst)) if by_inst else set()
    if evidence.pop("quotient", False):
        engines.add(QUOTIENT_ENGINE)
    evidence["engines"] = sorted(engines)
    if plan.misere:
        evidence["play"] = "misere"  # the report says "misère play" beside the game
    for key in ("grid", "sequence"):
        if key in evidence:
            evidence[key]["coords"] = list(coords)
            evidence[key]["fixed"] = fixed_names(rows, names, coords)
    return instances, held, evidence


#: the window's check of each kind of claim: (plan, collector, pins, shard) -> (instances, assumption held, evidence);
#: every kind has one (the window always applies)
WINDOW_CHECKS: dict[type[ClaimPlan], Callable[..., tuple[int, int, dict]]] = {
    HoldsPlan: _check_holds,
    ValuesPlan: check_values,
    GrundyPlan: _check_game_claim,
    PPositionsPlan: _check_game_claim,
    DrawsPlan: _check_game_claim,
    LevelSetPlan: _check_game_claim,
    PatternPlan: _check_game_claim,
    GrundyBoundPlan: _check_game_claim,
}
