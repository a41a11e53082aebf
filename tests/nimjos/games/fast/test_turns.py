"""The turn engine (nimjos.games.fast.turns) against the reference engine (differential tests) on Turn Nim of
specs/003 with every nondecreasing and every other f of small tables, with lambdas, and on random climbing games;
and the vectorised sums and lambdas that Theorem 2.1's sets P^f need, against the scalar language."""
from __future__ import annotations

import itertools
import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nimjos.games.fast.turns as turns
from nimjos.games.declared import GameDecl
from nimjos.games.engine import ReferenceEngine
from nimjos.lang.builtins import FiniteFunction
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError
from nimjos.lang.expr import compile_expression
from nimjos.lang.syntax import parse
from nimjos.lang.vector import NotVectorisable, vectorise
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def spec():
    return load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")


def agree(game, fresh, X: int, Y: int) -> int:
    """Every value the turn engine gives on the box equals the reference engine's (on a fresh instance, `fresh`);
    the number of values compared."""
    values = turns.table(game, X, Y)
    assert values is not None
    compared = 0
    for x in range(X):
        for k in range(Y):
            if values[x, k] < 0:
                continue
            engine = ReferenceEngine()
            engine.use_fast = False
            engine.solve(fresh, [(x, k)])
            assert fresh.lookup((x, k)) == values[x, k], (x, k)
            compared += 1
    return compared


@pytest.mark.parametrize("table", list(itertools.product(range(1, 4), repeat=4)))
def test_turn_nim_with_every_small_table_agrees(spec, table):
    decl = spec.namespace.games["turn_nim"]
    f = FiniteFunction(table)
    # rows beyond the table (f undefined there) are listed by the language: unknown but at x = 0
    assert agree(decl(f), decl(f), 6, 8) >= 15       # every (x, k) with k >= 1 and x + k <= 5


def test_turn_nim_with_a_lambda_agrees_and_every_requested_value_is_known(spec):
    ns = spec.namespace
    f = compile_expression("lambda i: 1 + i // 3", ns)({})
    decl = ns.games["turn_nim"]
    game = decl(f)
    assert agree(game, decl(f), 14, 30) > 300
    game = decl(f)
    assert turns.solve(game, [(13, 5)], None) == turns.NAME
    assert (game.dense[:14, 1:6] >= 0).all()


@given(c=st.integers(1, 2), lo=st.integers(1, 2), span=st.integers(0, 3), m=st.integers(1, 3))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_climbing_games_agree(c, lo, span, m):
    decl = GameDecl.declare("g", {"position": ["x", "k"], "moves": [
        {"to": f"(x - t, k + {c})", "where": f"{lo} <= t <= min(x, {lo + span} + k % {m + 1})"}]}, Namespace())
    agree(decl.instance(()), decl.instance(()), 9, 12)


def test_games_that_never_climb_are_left_to_the_line_engine():
    nim = GameDecl.declare("nim", {"position": ["x", "k"], "moves": [{"to": "(x - t, k)", "where": "1 <= t <= x"}]},
                           Namespace()).instance(())
    assert turns.table(nim, 5, 5) is None


def test_a_position_whose_options_leave_the_box_stays_unknown():
    g = GameDecl.declare("g", {"position": ["x", "k"], "moves": [{"to": "(x - t, k + 1)", "where": "1 <= t <= x"}]},
                         Namespace()).instance(())
    values = turns.table(g, 4, 3)
    assert values[3, 2] == -1 and values[0, 2] == 0     # (3, 2) moves to row 3, outside the box
    with pytest.raises(KeyError):
        g.dense = values
        g.lookup((3, 2))


@pytest.mark.parametrize("text", [
    "in_Pk(lambda i: a + c * (i // b), x, k)",
    "A(lambda i: a + c * (i // b), k, x // 3) + B(lambda i: a + i, k, 2)",
    "sum(t * a for t in range(k, x)) - sum(1 for t in range(b))",
])
def test_sums_and_lambdas_are_vectorised_as_the_scalar_language_evaluates_them(spec, text):
    names = "abckx"
    rows = list(itertools.product(range(1, 3), range(1, 3), range(3), range(1, 7), range(17)))
    env = {n: np.array([r[j] for r in rows], dtype=np.int64) for j, n in enumerate(names)}
    vector = vectorise(parse(text), spec.namespace)(env)
    scalar = compile_expression(text, spec.namespace, set(names))
    assert np.asarray(vector).tolist() == [scalar(dict(zip(names, r))) for r in rows]


def test_a_lambda_called_in_place_is_not_vectorised(spec):
    with pytest.raises((NotVectorisable, NimjosError)):
        vectorise(parse("(lambda g: 0)(1) == x"), spec.namespace)({"x": np.arange(3)})
