"""The scalar path of the window: a claim judged at one instance, the reference that the vectorised path
(:mod:`checkers.window.vectorised`) is confirmed by. Failures and undefined instances go to a
:class:`~checkers.window.collector.Collector`.
"""
from __future__ import annotations

from typing import Any, Callable

from checkers.window.collector import Collector
from nimjos.games.engine import active_engine
from nimjos.lang.errors import EvalError
from nimjos.lang.runtime import active_budget
from nimjos.spec.plan import GrundyPlan, HoldsPlan, LevelSetPlan, PPositionsPlan
from nimjos.verdict import Counterexample


def one_at_a_time(prefetched: bool) -> dict:
    """The evidence of a holds check: whether G was called one position at a time (it was, when the engine was
    asked for G but the window's positions were not solved at once beforehand).

    >>> one_at_a_time(True)
    {}
    """
    evidence: dict = {}
    if not prefetched and active_engine().asked:
        # G was called, but never at the window's own bindings: one position at a time (docs: What is fast)
        evidence["observations"] = ["G is evaluated one position at a time here (called inside a comprehension, "
                                    "a lambda or a definition, or at a computed position): see 'What is fast' in "
                                    "docs/spec-format.md"]
    return evidence


def holds_instance(plan: HoldsPlan, env: dict, col: Collector, assumed: bool = False) -> int:
    """Check a holds claim at one binding (the scalar path, the reference); 1 when the assumption held.

    >>> import pathlib, tempfile
    >>> from nimjos.spec.loader import load_spec
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "h.toml"
    >>> _ = p.write_text('[source]\\nid = "h"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 3"\\nholds = "n * n > n"\\n')
    >>> plan, col = load_spec(p).claims[0].plan(), Collector(5)
    >>> holds_instance(plan, {"n": 3}, col), holds_instance(plan, {"n": 1}, col), col.n_fail
    (1, 1, 1)
    """
    active_budget().restart()  # the step budget is per evaluation, not per window
    assert plan.window is not None, "a holds plan has a window"
    names = plan.window.names
    try:
        if not assumed and plan.assume is not None and not plan.assume(env):
            return 0
        ok = plan.formula(env)
    except EvalError as exc:
        col.undef(Counterexample.undefined_at({n: env[n] for n in names if n in env}, exc))
        return 1
    if not ok:
        lhs, rhs = plan.sides_at(env)
        col.fail(Counterexample({n: env[n] for n in names if n in env}, lhs, rhs))
    return 1



def formula_row(plan: GrundyPlan | PPositionsPlan, env: dict, actual: int, col: Collector) -> tuple | None:
    """Check a grundy claim, or a p_positions claim stated by a predicate, at one binding against the actual
    value (the scalar path, the reference): (the claimed value,), or None when the formula cannot be evaluated
    there.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> plan = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan()
    >>> col = Collector(5)
    >>> formula_row(plan, {"x": 4}, 4, col), formula_row(plan, {"x": 4}, 0, col), col.n_fail
    ((4,), (4,), 1)
    """
    assert plan.formula is not None, "a grundy or predicate plan has its formula"
    try:
        claimed = plan.formula(env)
    except EvalError as exc:
        col.undef(Counterexample.undefined_at(env, exc, actual))
        return None
    if isinstance(plan, PPositionsPlan):
        if bool(claimed) != (actual == 0):   # actual -1: an N-position whose Grundy value was not computed
            col.fail(Counterexample(env, "P" if actual == 0 else "N", "P" if claimed else "N",
                                    detail={"grundy": actual} if actual >= 0 else {}))
    elif claimed != actual:
        col.fail(Counterexample(env, actual, claimed))
    return (claimed,)


def level_row(plan: LevelSetPlan, env: dict, pos: Any, actual: int, s_value: Any, col: Collector,
              member: Callable | None = None) -> None:
    """Check a level_set claim at one binding and level s_value (in `env`) against the actual value, the scalar
    path; `member` (env, pos) -> bool replaces the formula when the set is given by families.

    >>> import pathlib
    >>> from nimjos.spec.loader import load_spec
    >>> plan = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan()
    >>> col = Collector(5)
    >>> level_row(plan, {"x": 4}, 4, 0, 0, col, member=lambda env, pos: pos % 2 == 0); col.n_fail
    0
    """
    try:
        if member is not None:
            claimed = member(env, pos)
        else:
            assert plan.formula is not None, "a level set is given by families or a formula"
            claimed = bool(plan.formula(env))
    except EvalError as exc:
        col.undef(Counterexample.undefined_at(env, exc, actual))
        return
    if claimed != (actual == s_value):
        col.fail(Counterexample(env, actual, f"{'in' if claimed else 'not in'} the set for "
                                f"{plan.level_names[0]} = {s_value}", detail={"grundy": actual}))
