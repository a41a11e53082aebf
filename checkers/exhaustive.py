"""The exhaustive checker: evaluate a claim at every instance of its window, against ground truth from the
game's moves (the engines) or from the Josephus algorithms. A large window is checked on arrays
(:mod:`checkers.vectorised`), any other one instance at a time (the scalar path, :mod:`checkers.scalar`, which
also confirms every failure the arrays find). The failures are kept by :class:`checkers.collector.Collector`;
the evidence for reports is gathered by :mod:`checkers.evidence`.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> v = check_exhaustive(spec.claims[0])
>>> v.verdict, v.instances
('checked', 21)
"""
from __future__ import annotations

import shlex
import time
from dataclasses import replace
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from checkers.collector import Collector
from checkers.evidence import (fixed_names, josephus_evidence,
                               options_evidence, position_of, window_evidence)
from checkers.loopy_window import loopy_rows
from checkers.scalar import formula_row, holds_instance, level_row, one_at_a_time
from checkers.vectorised import check_vectorised
from nimjos.games.declared import MISERE, as_instance
from nimjos.games.engine import active_engine
from nimjos.games.fast import outcomes_fast
from nimjos.games.heaps.misere import QUOTIENT_ENGINE, quotient_outcome
from nimjos.games.periodicity import first_stair_break
from nimjos.lang.analysis import grundy_calls
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import suggest
from nimjos.lang.values import format_value
from nimjos.spec.budget import enforce_limits
from nimjos.spec.loader import Claim
from nimjos.spec.plan import (ClaimPlan, DrawsPlan, FamilyPlan, GrundyBoundPlan, GrundyPlan, HoldsPlan, LevelSetPlan, PatternPlan, PeriodicPlan, PPositionsPlan, SetPlan,
                               ValuesPlan, handler_for, locate_error)
from nimjos.verdict import Counterexample, Phrase, Phrases, Verdict, phrases, window_word
from nimjos.words import PhraseKind, Undefined

METHOD = "exhaustive"


def _scope(plan: ClaimPlan, engine_note: str = "") -> Phrases:
    """The window's scope: its ranges (or a printed table's extent, a level set's levels), the game, the engines.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> [(p.kind, p.text) for p in _scope(spec.claims[0].plan(), "ground truth: reference")]
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
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
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
                     window_limits: bool = True) -> Verdict:
    """Check `claim` at every instance of its window under `profile`; return the verdict.

    `shard` = (a, b) checks only the part of the window whose outermost variable lies in [a, b]
    (checkers.shard splits a window this way and merges the parts). A point pinned beyond the window is checked
    only where the whole window's resource limits hold (:func:`nimjos.spec.budget.enforce_limits`); a caller that
    checks many such points and has enforced them itself (the audit) passes `window_limits` = False.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> claim = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml").claims[0]
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
    col = Collector(max_counterexamples)
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
    scope = _scope(plan, ground_truth_note(ground))
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


def rerun_command(claim: Claim, profile: str, bindings: dict) -> str:
    """The command that re-checks exactly one instance.

    >>> class C: id = "c"; spec = type("S", (), {"path": "s.toml"})()
    >>> rerun_command(C(), "default", {"x": 0, "y": 2})
    'nimjos check s.toml --claim c --at x=0,y=2'
    >>> rerun_command(C(), "deep", {"y": (1, 2)})
    "nimjos check s.toml --claim c --at 'y=(1, 2)' --profile deep"

    A closed statement (no variables) has one instance, the claim itself: no ``--at``.

    >>> rerun_command(C(), "default", {})
    'nimjos check s.toml --claim c'
    """
    at = ",".join(f"{k}={format_value(v)}" for k, v in bindings.items())
    cmd = f"nimjos check {shlex.quote(str(claim.spec.path))} --claim {shlex.quote(claim.id)}"
    if at:
        cmd += f" --at {shlex.quote(at)}"
    if profile != "default":
        cmd += f" --profile {profile}"
    return cmd


def pinned_place(plan: ClaimPlan, pins: dict) -> str:
    """Where a pinned instance (``--at``) lies: "window" (an instance of the window), "domain" (beyond the window
    but inside the claim's domain: it is evaluated by itself), or "part" (the pins leave some of the window's names
    free: the window's instances with the pinned values). A point outside the domain is an error: the claim says
    nothing there.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan("default")
    >>> pinned_place(plan, {"x": 3}), pinned_place(plan, {"x": 10 ** 6})
    ('window', 'domain')
    >>> pinned_place(plan, {"x": -1})
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: --at x=-1 is outside the claim's domain (domain 0 <= x): the claim says nothing there
    """
    if plan.window is None or any(n not in pins for n in plan.window.names):
        return "part"
    if next(iter(plan.window.bindings({}, pins)), None) is not None:
        return "window"
    if plan.domain is not None and not plan.domain.contains(dict(pins)):
        at = ", ".join(f"{k}={format_value(x)}" for k, x in pins.items())
        raise SpecError(f"--at {at} is outside the claim's domain ({plan.domain.describe()}): the claim says "
                        "nothing there")
    return "domain"


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
    prefetched = _prefetch_grundy(plan, pins, shard)
    for env in _window_bindings(plan, pins, shard):
        instances += 1
        held += holds_instance(plan, env, col)
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


# ----------------------------------------------------------------------------- game claims

def _solve_all(groups: dict) -> None:
    engine = active_engine()
    for inst, positions in groups.items():
        engine.solve(inst, positions)


def _outcomes(by_inst: dict) -> dict | None:
    """{(instance, position): 0 at a P-position, -1 elsewhere} when an engine of P-positions answers for every
    instance (:func:`nimjos.games.fast.outcomes_fast`; a misère heap game's quotient,
    :func:`nimjos.games.heaps.misere.quotient_outcome`); None to ask for the Grundy values."""
    out: dict = {}
    engine = active_engine()
    for inst, positions in by_inst.items():
        if getattr(inst, "play", None) == MISERE and getattr(inst, "heaps", False):
            answers = [quotient_outcome(inst, p) for p in positions]
            if any(a is None for a in answers):
                return None
            out.update({(inst, p): 0 if a else -1 for p, a in zip(positions, answers)})
            continue
        if getattr(inst, "dim", 1) < 2 or not positions:
            return None
        coords = [np.array([p[j] for p in positions], dtype=np.int64) for j in range(inst.dim)]
        is_p = outcomes_fast(inst, coords, engine)
        if is_p is None:
            return None
        out.update({(inst, p): 0 if v else -1 for p, v in zip(positions, is_p.tolist())})
    return out


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
        evidence = loopy_rows(plan, rows, by_inst, param_names, col, _family_points)
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


def _formula_rows(plan: GrundyPlan | PPositionsPlan, rows: list, by_inst: dict, param_names: tuple,
                  col: Collector) -> dict:
    """grundy, or P-positions by a predicate: the claimed value (or membership) at each row against the engine's."""
    if isinstance(plan, PPositionsPlan) and plan.families is not None:
        return _family_rows(plan, rows, by_inst, param_names, col)
    assert plan.window is not None, "a game claim's plan has a window"
    names = plan.window.names
    predicate = isinstance(plan, PPositionsPlan)
    outcomes = _outcomes(by_inst) if predicate else None
    if outcomes is None:
        _solve_all(by_inst)
    claimed_map: dict = {}
    for values, inst, pos in rows:
        actual = outcomes[(inst, pos)] if outcomes is not None else inst.lookup(pos)
        claimed = formula_row(plan, dict(zip(names, values)), actual, col)
        if claimed is not None:
            claimed_map[(inst, pos)] = (1 if claimed[0] else 0) if predicate else claimed[0]
    if outcomes is not None:   # no Grundy values to plot from an engine of P-positions only
        return {"quotient": True} if any(getattr(i, "play", None) == MISERE for i in by_inst) else {}
    return window_evidence(rows, claimed_map, "claimed P-positions" if predicate else "claimed value")


def _family_rows(plan: PPositionsPlan, rows: list, by_inst: dict, param_names: tuple, col: Collector) -> dict:
    """P-positions by a union of families: the family points near the window's positions, against the engine."""
    assert plan.window is not None and plan.families is not None, "a family claim has a window and families"
    names = plan.window.names
    _solve_all(by_inst)
    claimed_map = {}
    for key, grows in _group(rows, names, param_names).items():
        env0 = dict(zip(param_names, key))
        claimed_set = _family_points(plan, plan.families, env0, [p for _, _, p in grows], col, names)
        for values, inst, pos in grows:
            actual = inst.lookup(pos)
            in_set = pos in claimed_set
            claimed_map[(inst, pos)] = 1 if in_set else 0
            if in_set != (actual == 0):
                col.fail(Counterexample(dict(zip(names, values)), "P" if actual == 0 else "N",
                                        "P" if in_set else "N", detail={"grundy": actual}))
    return window_evidence(rows, claimed_map, "claimed P-positions")


def _pattern_rows(plan: PatternPlan, rows: list, by_inst: dict, param_names: tuple, col: Collector) -> dict:
    """periodic and stair claims: the pattern of the Grundy sequence on each instance of the window."""
    assert plan.window is not None, "a game claim's plan has a window"
    _solve_all(by_inst)
    _check_pattern(plan, rows, plan.window.names, param_names, col)
    return window_evidence(rows, {}, "")


def _level_rows(plan: LevelSetPlan, rows: list, by_inst: dict, param_names: tuple, col: Collector) -> dict:
    """level sets: for each level s, the positions the claim puts in the set against those of Grundy value s."""
    assert plan.window is not None, "a game claim's plan has a window"
    names = plan.window.names
    _solve_all(by_inst)
    level_names = plan.level_names
    for key, grows in _group(rows, names, param_names).items():
        env0 = dict(zip(param_names, key))
        for lenv in plan.levels.bindings(dict(env0)):
            lvals = {n: lenv[n] for n in level_names}
            s_value = lvals[level_names[0]] if level_names else None
            if plan.families is not None:
                claimed_set = _family_points(plan, plan.families, dict(lenv), [p for _, _, p in grows], col, names)
                member = lambda env, pos: pos in claimed_set  # noqa: E731
            else:
                member = None
            for values, inst, pos in grows:
                env = dict(zip(names, values))
                env.update(lvals)
                level_row(plan, env, pos, inst.lookup(pos), s_value, col, member)
    return window_evidence(rows, {}, "")


def _bound_rows(plan: GrundyBoundPlan, rows: list, by_inst: dict, param_names: tuple, col: Collector) -> dict:
    """A bound on G: the engine's value at each row against the bound (a failure shows both)."""
    names = plan.window.names
    _solve_all(by_inst)
    for values, inst, pos in rows:
        env = dict(zip(names, values))
        actual = inst.lookup(pos)
        try:
            bound = plan.bound(env)
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(env, exc, actual))
            continue
        if isinstance(bound, bool) or not isinstance(bound, (int, Fraction)):
            col.undef(Counterexample(env, actual, None, reason=f"the bound {format_value(bound)} is not a number",
                                          undefined=Undefined.LANGUAGE))
            continue
        if not actual <= bound:
            col.fail(Counterexample(env, actual, f"at most {format_value(bound)}"))
    return window_evidence(rows, {}, "")


#: the row check of each kind of game claim: (plan, rows, rows by game instance, param names, collector) -> evidence
ROW_CHECKS: dict[type[ClaimPlan], Callable[..., dict]] = {
    GrundyPlan: _formula_rows,
    PPositionsPlan: _formula_rows,
    LevelSetPlan: _level_rows,
    PatternPlan: _pattern_rows,
    GrundyBoundPlan: _bound_rows,
}


def _check_pattern(plan: PatternPlan, rows: list, names: tuple, param_names: tuple, col: Collector) -> None:
    """periodic: G(n + p) = G(n) + s for n >= n0 with n + p in the window; stair: G(xh + r) = G(xh) + r,
    h | G(xh), for every whole block of h positions in the window."""
    coord = plan.coords[0]
    for key, grows in _group(rows, names, param_names).items():
        env0 = dict(zip(param_names, key))
        inst = grows[0][1]
        try:
            pat = {k: fn(env0) for k, fn in plan.pattern.items()}
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(env0, exc))
            continue
        present = {pos for _, _, pos in grows}
        if isinstance(plan, PeriodicPlan):
            p, n0, s = pat["period"], pat.get("preperiod", 0), pat.get("saltus", 0)
            if type(p) is not int or p < 1:
                col.undef(Counterexample(env0, reason=f"period {p!r} is not a positive integer", undefined=Undefined.LANGUAGE))
                continue
            for n in sorted(present):
                if n >= n0 and n + p in present:
                    a, b = inst.lookup(n + p), inst.lookup(n) + s
                    if a != b:
                        col.fail(Counterexample({**env0, coord: n}, a, b,
                                                detail={"statement": f"G({n} + {p}) = G({n}) + {s}"}))
        else:
            h = pat["h"]
            if type(h) is not int or h < 1:
                col.undef(Counterexample(env0, reason=f"h = {h!r} is not a positive integer", undefined=Undefined.LANGUAGE))
                continue
            top = max(present)
            seq = [inst.lookup(n) for n in range(0, top + 1)] if all(n in present for n in range(top + 1)) else None
            if seq is None:
                col.undef(Counterexample(env0, reason="a stair claim needs a window 0 <= n <= N", undefined=Undefined.LANGUAGE))
                continue
            brk = first_stair_break(seq[: (len(seq) // h) * h], h)
            if brk is not None:
                base = (brk // h) * h
                col.fail(Counterexample({**env0, coord: brk}, seq[brk], seq[base] + brk - base,
                                        detail={"statement": f"{h}-stair"}))


def _group(rows: list, names: tuple, param_names: tuple) -> dict:
    idx = [names.index(n) for n in param_names]
    groups: dict = {}
    for row in rows:
        key = tuple(row[0][i] for i in idx)
        groups.setdefault(key, []).append(row)
    return groups


def family_members(plan: SetPlan, env0: dict, position: Any) -> list[tuple[int, dict]]:
    """The members of a claim's families that give `position` (at the outer values `env0`): each as (the family's
    number from 1, the values of its indices), in the families' order; empty when no family gives it.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "contract.toml")
    >>> plan = next(c for c in spec.claims if isinstance(c.statement, list)).plan()
    >>> family_members(plan, {}, (3, 5)), family_members(plan, {}, (0, 0)), family_members(plan, {}, (2, 2))
    ([(1, {'k': 2})], [(1, {'k': 0}), (2, {'k': 0})], [])
    """
    assert plan.families is not None, "a claim of families"
    members: dict[Any, list[tuple[int, dict]]] = {}
    _family_points(plan, plan.families, dict(env0), [position], Collector(1), plan.coords, members)
    return members.get(position, [])


def _family_points(plan: ClaimPlan, families: Sequence[FamilyPlan], env0: dict, positions: list, col: Collector,
                   names: tuple, members: dict | None = None) -> set:
    """The points of the union of families for the outer values in env0, enumerated as far as the window
    (given by its positions) needs; `members`, when given, gets for each point the (family number from 1, index
    values) of every member that gives it."""
    if not positions:
        return set()
    if isinstance(positions[0], tuple):
        dim = len(positions[0])
        lo = [min(p[j] for p in positions) for j in range(dim)]
        hi = [max(p[j] for p in positions) for j in range(dim)]
    else:
        lo, hi = [min(positions)], [max(positions)]
    points: set = set()
    for number, fam in enumerate(families, 1):
        stops_by_index: dict[str, list] = {}
        for name, j, d, fn in fam.stop_fns:
            stops_by_index.setdefault(name, []).append((j, d, fn))
        for level in fam.binder.levels:
            if level.unbounded:
                level.stop = _make_stop(stops_by_index.get(level.name, []), lo, hi)
        try:
            for env in fam.binder.bindings(dict(env0)):
                try:
                    p = fam.point(env)
                except EvalError as exc:
                    col.undef(Counterexample.undefined_at(dict(env0), exc,
                                                          reason=f"family point {fam.point_text!r} at "
                                                                 f"{ {n: env[n] for n in fam.binder.names} }: {exc}"))
                    continue
                if isinstance(p, tuple) and len(p) == 1:
                    p = p[0]
                points.add(p)
                if members is not None:
                    members.setdefault(p, []).append((number, {n: env[n] for n in fam.binder.names}))
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(dict(env0), exc, reason=f"family {fam.where_text!r}: {exc}"))
    return points


def _make_stop(stops: list, lo: list, hi: list) -> Callable:
    def stop(env: dict) -> bool:
        for j, d, fn in stops:
            try:
                v = fn(env)
            except EvalError:
                continue
            if d == "inc" and v > hi[j]:
                return True
            if d == "dec" and v < lo[j]:
                return True
        return False
    return stop


# ----------------------------------------------------------------------------- printed tables

def printed_extent(values: dict) -> str:
    """What a `values` claim's printed table covers, for its scope.

    >>> printed_extent({"of": "fib(k)", "var": "k", "from": 0, "equal": [0, 1, 1, 2]})
    'the printed terms k = 0..3'
    >>> printed_extent({"grundy": [0, 0, 1], "from": 2}), printed_extent({"grundy": [[0, 1], [1, 0]]})
    ('the printed table G(2)..G(4)', 'the printed table of 2 x 2 values from (0, 0)')
    """
    start = values.get("from", 0)
    if "equal" in values:
        return f"the printed terms {values['var']} = {start}..{start + len(values['equal']) - 1}"
    cells = printed_cells(values)
    if cells and isinstance(cells[0][0], tuple):
        table = values["grundy"]
        return (f"the printed table of {len(table)} x {max(len(r) for r in table)} values from "
                f"{format_value(cells[0][0])}")
    return f"the printed table G({cells[0][0]})..G({cells[-1][0]})" if cells else "the printed table (empty)"


def printed_cells(values: dict) -> list[tuple[Any, Any]]:
    """The (position, printed Grundy value) pairs of a `values` claim's printed table.

    >>> printed_cells({"grundy": [0, 0, 1], "from": 2})
    [(2, 0), (3, 0), (4, 1)]
    >>> printed_cells({"grundy": [[0, 1], [1, 0]]})
    [((0, 0), 0), ((0, 1), 1), ((1, 0), 1), ((1, 1), 0)]
    """
    start = values.get("from", 0)
    table = values["grundy"]
    if table and isinstance(table[0], list):
        x0, y0 = (start if isinstance(start, list) else [start, start])[:2]
        return [((x0 + i, y0 + j), val) for i, row in enumerate(table) for j, val in enumerate(row)]
    s0 = start[0] if isinstance(start, list) else start
    return [(s0 + i, val) for i, val in enumerate(table)]


def _check_values(plan: ValuesPlan, col: Collector, pins: dict | None = None,
                  shard: tuple | None = None) -> tuple[int, int, dict]:
    """A printed table: each printed value against the engine's (Grundy values) or the expression's (terms)."""
    v = plan.values
    instances = 0
    if "grundy" in v:
        assert plan.game is not None, "a printed table has its game"
        inst = plan.game_instance({})
        cells = printed_cells(v)
        positions = [inst.normalise(p) for p, _ in cells]
        active_engine().solve(inst, positions)
        coords = plan.coords
        for p, printed in cells:
            instances += 1
            actual = inst.lookup(inst.normalise(p))
            b = dict(zip(coords, p if isinstance(p, tuple) else (p,)))
            if actual != printed:
                col.fail(Counterexample(b, actual, printed))
        return instances, instances, {"engines": sorted(inst.solved_by)}
    var, start, printed_seq = v["var"], v.get("from", 0), v["equal"]
    assert plan.values_expr is not None, "a printed sequence has its expression"
    for i, printed in enumerate(printed_seq):
        instances += 1
        env = {var: start + i}
        try:
            actual = plan.values_expr(env)
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(env, exc, None, printed))
            continue
        if actual != printed:
            col.fail(Counterexample(env, actual, printed))
    return instances, instances, {}




#: the window's check of each kind of claim: (plan, collector, pins, shard) -> (instances, assumption held, evidence);
#: every kind has one (the window always applies)
WINDOW_CHECKS: dict[type[ClaimPlan], Callable[..., tuple[int, int, dict]]] = {
    HoldsPlan: _check_holds,
    ValuesPlan: _check_values,
    GrundyPlan: _check_game_claim,
    PPositionsPlan: _check_game_claim,
    DrawsPlan: _check_game_claim,
    LevelSetPlan: _check_game_claim,
    PatternPlan: _check_game_claim,
    GrundyBoundPlan: _check_game_claim,
}
