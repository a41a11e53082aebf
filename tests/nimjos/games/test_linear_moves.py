"""A move family listed a block at a time (nimjos.games.linear_moves) gives what the value-by-value listing gives:
the same options in the same order, the same error, the same steps of the evaluation's budget, over families drawn
from bounds, filters and targets that qualify, that qualify only at some positions (a fraction), and that do not."""
from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings, strategies as st

from nimjos.games.declared import GameDecl
from nimjos.games.linear_moves import LinearFamily, _cut
from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.runtime import EvaluationBudget, using_budget

#: bounds of the two names (u's may depend on t)
T_BOUNDS = ["0 <= t <= x", "1 <= t <= x", "1 <= t <= (x + y) // 2", "0 <= t < x + 1", "x - 3 <= t <= x"]
U_BOUNDS = [None, "0 <= u <= y", "0 <= u <= y - t", "1 <= u <= floor((2*x + y) / 2) - 2*t", "t <= u <= y + 1",
            "0 <= u <= y and u <= x"]
#: conditions left as filters: affine comparisons (an interval), and some that are not (listed value by value)
FILTERS = ["1 <= 2*t + u", "t + u <= x", "2*u < x + 3 - t", "u == t", "x - t >= 2*u", "t > u", "3*u >= t - 1",
           "u - 2 <= t < u + 2", "2*t == x - u", "t != u", "t * u <= x", "u % 2 == 0", "1 <= 2*t + u <= y + 1",
           "3 <= t + u <= 5", "x > u >= t - 1"]
#: targets: affine in the innermost name, a fraction (not an integer at some positions), a negative option, and not
#: affine
TARGETS = ["(x - t, y - u)", "(x - t, y + u - 2*t)", "(x - t, y - u + 0 * t)", "(x - t, y - u - 1)",
           "(x - t, floor(y / 2))", "(x - u, y - t)", "(x - t, y - u * u)", "(x - t, y - u / 2)", "(x - t,)",
           "(x - t, y - u, 0)", "(x - t - u, y)"]


def _game(where: str, to: str) -> GameDecl:
    return GameDecl.declare("g", {"position": ["x", "y"], "moves": [{"to": to, "where": where}]}, Namespace())


def _listed(decl: GameDecl, pos: tuple, linear: bool) -> tuple:
    """The options at `pos` (or the error, as its type and message) and the steps spent, with the block listing on or
    off."""
    fam = decl.moves[0]
    kept, fam.linear = fam.linear, (fam.linear if linear else None)
    budget = EvaluationBudget()
    try:
        with using_budget(budget):
            try:
                return decl.instance(()).options(pos), budget.spent
            except (SpecError, EvalError, ResourceError) as exc:
                return (type(exc).__name__, str(exc)), budget.spent
    finally:
        fam.linear = kept


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(T_BOUNDS), st.sampled_from(U_BOUNDS), st.lists(st.sampled_from(FILTERS), max_size=2),
       st.sampled_from(TARGETS), st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), min_size=1, max_size=6))
def test_blocks_list_what_values_list(t_bound, u_bound, filters, target, positions):
    if u_bound is None:
        filters = [f for f in filters if "u" not in f]
        target = target.replace("u", "1")
    where = " and ".join([t_bound] + ([u_bound] if u_bound else []) + filters)
    try:
        decl = _game(where, target)
    except SpecError:
        return
    for pos in positions:
        assert _listed(decl, pos, True) == _listed(decl, pos, False), (where, target, pos)


@pytest.mark.parametrize("where", [
    "0 <= t <= x and 0 <= u <= y and 3 <= t + u <= 5",          # a chain: its first comparison moves lo
    "0 <= t <= x and 0 <= u <= y and x > 2*u >= t - 1",         # ... and a chain the other way
    "0 <= t <= x and 0 <= u <= y and u == 2*t - 1",
    "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u and t + u <= floor((2*x + y) / 2)",
])
def test_chains_and_equalities_at_every_small_position(where):
    decl = _game(where, "(x - t, y - u)")
    assert decl.moves[0].linear is not None
    for pos in [(x, y) for x in range(9) for y in range(9)]:
        assert _listed(decl, pos, True) == _listed(decl, pos, False), pos


def test_which_families_are_listed_a_block_at_a_time():
    def linear(where: str, to: str) -> bool:
        return _game(where, to).moves[0].linear is not None
    assert linear("0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u", "(x - t, y - u)")
    assert linear("1 <= t <= x", "(x - t, y)")
    assert not linear("0 <= t <= x and 0 <= u <= y and t != u", "(x - t, y - u)")      # != is no interval
    assert not linear("0 <= t <= x and 0 <= u <= y", "(x - t, y - u * u)")           # not affine in u
    assert not linear("0 <= t <= x and u in {1, 2} and u <= y", "(x - t, y - u)")    # a set, not a range
    # a definition of the spec may spend the evaluation's budget: a family naming one is listed value by value
    ns = Namespace()
    b = Binder.from_text("0 <= t <= x", ns, {"x", "y"}, coords=("x", "y"))
    ns.definitions["d"] = object()   # type: ignore[assignment]  # only its name is read here
    assert LinearFamily.of(b, ast.parse("(x - t, d)", mode="eval").body, ns, {"x", "y", "t"}) is None


@pytest.mark.parametrize("op", [ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq])
@pytest.mark.parametrize("c", range(-7, 8))
@pytest.mark.parametrize("d", range(-3, 4))
def test_cut_keeps_exactly_the_solutions(op, c, d):
    """_cut against the comparison evaluated at each value of a range."""
    holds = {ast.Lt: lambda v: v < 0, ast.LtE: lambda v: v <= 0, ast.Gt: lambda v: v > 0,
             ast.GtE: lambda v: v >= 0, ast.Eq: lambda v: v == 0}[op]
    lo, hi = 3, 9
    got = _cut(lo, hi, c, d, op)
    assert list(range(got[0], got[1] + 1)) == [v for v in range(lo, hi + 1) if holds(c + d * (v - lo))]
