"""The row checks of the window's game claims: the rows of a window (binding values, game instance, position),
grouped by game instance, judged against the engines by the check of the claim's kind (:data:`ROW_CHECKS`:
a formula for G or for the P-positions, families of P-positions, level sets, periodic and stair patterns, bounds
on G).

>>> sorted(plan.__name__ for plan in ROW_CHECKS)
['GrundyBoundPlan', 'GrundyPlan', 'LevelSetPlan', 'PPositionsPlan', 'PatternPlan']
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable

import numpy as np

from checkers.window.collector import Collector
from checkers.window.evidence import window_evidence
from checkers.window.scalar import formula_row, level_row
from checkers.window.families import family_points
from nimjos.games.declared import MISERE
from nimjos.games.engine import active_engine
from nimjos.games.fast import outcomes_fast
from nimjos.games.heaps.misere import quotient_outcome
from nimjos.games.periodicity import first_stair_break
from nimjos.lang.errors import EvalError
from nimjos.lang.values import format_value
from nimjos.spec.plan import (ClaimPlan, GrundyBoundPlan, GrundyPlan, LevelSetPlan, PatternPlan, PeriodicPlan,
                              PPositionsPlan)
from nimjos.verdict import Counterexample
from nimjos.words import Undefined


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
        claimed_set = family_points(plan, plan.families, env0, [p for _, _, p in grows], col, names)
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
                claimed_set = family_points(plan, plan.families, dict(lenv), [p for _, _, p in grows], col, names)
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
