"""The points of a union of families (a P-positions or level-set claim given by families of points), enumerated as
far as the window needs, each unbounded index stopped where the family's points leave the window for good.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "contract.toml")
>>> plan = next(c for c in spec.claims if isinstance(c.statement, list)).plan()
>>> family_members(plan, {}, (5, 3))
[(2, {'k': 2})]
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from checkers.window.collector import Collector
from nimjos.lang.errors import EvalError
from nimjos.spec.plan import ClaimPlan, FamilyPlan, SetPlan
from nimjos.verdict import Counterexample


def family_members(plan: SetPlan, env0: dict, position: Any) -> list[tuple[int, dict]]:
    """The members of a claim's families that give `position` (at the outer values `env0`): each as (the family's
    number from 1, the values of its indices), in the families' order; empty when no family gives it.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "contract.toml")
    >>> plan = next(c for c in spec.claims if isinstance(c.statement, list)).plan()
    >>> family_members(plan, {}, (3, 5)), family_members(plan, {}, (0, 0)), family_members(plan, {}, (2, 2))
    ([(1, {'k': 2})], [(1, {'k': 0}), (2, {'k': 0})], [])
    """
    assert plan.families is not None, "a claim of families"
    members: dict[Any, list[tuple[int, dict]]] = {}
    family_points(plan, plan.families, dict(env0), [position], Collector(1), plan.coords, members)
    return members.get(position, [])


def family_points(plan: ClaimPlan, families: Sequence[FamilyPlan], env0: dict, positions: list, col: Collector,
                   names: tuple, members: dict | None = None) -> set:
    """The points of the union of families for the outer values in env0, enumerated as far as the window
    (given by its positions) needs; `members`, when given, gets for each point the (family number from 1, index
    values) of every member that gives it.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "contract.toml")
    >>> plan = next(c for c in spec.claims if isinstance(c.statement, list)).plan()
    >>> sorted(family_points(plan, plan.families, {}, [(0, 0), (6, 6)], Collector(1), ()))   # Wythoff's P-positions
    [(0, 0), (1, 2), (2, 1), (3, 5), (5, 3)]
    """
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
