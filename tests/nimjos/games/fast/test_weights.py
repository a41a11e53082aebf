"""The engine of P-positions of weight-band options (nimjos.games.fast.weights) against the reference engine
(differential tests): Weighted Nim of specs/003, hand-written variants, and randomly generated weight-band games;
the shapes it must refuse; and the exhaustive check of a p_positions claim that it answers."""
from __future__ import annotations

import pathlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import nimjos.games.fast.weights as weights
from nimjos.games.declared import GameDecl
from nimjos.games.engine import ReferenceEngine
from nimjos.games.fast import outcomes_fast
from nimjos.lang.compiler import Namespace
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[4]


def declare(where: str, to: str = "(x - t, y - u)", params: dict | None = None):
    decl = GameDecl.declare("g", {"params": list(params or {}), "position": ["x", "y"],
                                  "moves": [{"to": to, "where": where}]}, Namespace())
    return decl(*(params or {}).values()) if params else decl.instance(())


def reference_p(game, X: int, Y: int) -> np.ndarray:
    """The P-positions of the box by the reference engine alone (mex over every option)."""
    engine = ReferenceEngine()
    engine.use_fast = False
    engine.solve(game, [(x, y) for x in range(X) for y in range(Y)])
    return np.array([[game.lookup((x, y)) == 0 for y in range(Y)] for x in range(X)])


def test_weighted_nim_of_the_spec_agrees_with_the_reference_engine():
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    game = spec.namespace.games["weighted_nim"].instance(())
    table = weights.p_table(game, 30, 45)
    assert table is not None
    assert np.array_equal(table, reference_p(game, 30, 45))


@pytest.mark.parametrize("where", [
    "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)",
    "0 <= t <= x and 0 <= u <= y and 1 <= t + u <= 3",
    "0 <= t <= x and 0 <= u <= y and 2 <= t + 2*u <= (x + 2*y + 1) // 3 + 2",
    "0 <= t <= min(x, 2) and 0 <= u <= y and 1 <= 3*t + u <= x + y",
    "0 <= t <= x and 0 <= u <= y and 1 <= t + u and t + u < 4 and x + y != 5",   # a condition free of t and u
    "0 <= t <= x and 1 <= u <= y and 2*t + 2*u <= x + y + 1",                    # u >= 1: the weight is >= 2
])
def test_weight_band_games_agree_with_the_reference_engine(where):
    game = declare(where)
    assert weights.shape_of(game) is not None
    table = weights.p_table(game, 18, 22)
    assert table is not None
    assert np.array_equal(table, reference_p(game, 18, 22))


@given(a=st.integers(1, 3), b=st.integers(1, 3), lo=st.integers(1, 3), span=st.integers(0, 6),
       num=st.integers(1, 3), den=st.integers(1, 4), cap=st.integers(0, 5))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_weight_band_games_agree(a, b, lo, span, num, den, cap):
    where = (f"0 <= t <= x and 0 <= u <= y and t <= {cap} + x // 2 and "
             f"{lo} <= {a}*t + {b}*u <= {lo + span} + ({num}*x + {num}*y) // {den}")
    game = declare(where)
    table = weights.p_table(game, 12, 14)
    assert table is not None
    assert np.array_equal(table, reference_p(game, 12, 14))


def test_params_of_the_game_are_read():
    decl = GameDecl.declare("g", {"params": ["c"], "position": ["x", "y"], "moves": [
        {"to": "(x - t, y - u)", "where": "0 <= t <= x and 0 <= u <= y and 1 <= t + u <= c"}]}, Namespace())
    game = decl(2)
    assert np.array_equal(weights.p_table(game, 10, 10), reference_p(game, 10, 10))


@pytest.mark.parametrize("where, to", [
    ("0 <= t <= x and 0 <= u <= y and 1 <= t * u <= 4", "(x - t, y - u)"),          # not linear
    ("0 <= t <= x and 0 <= u <= y and 1 <= t - u <= 4", "(x - t, y - u)"),          # coefficients of both signs
    ("0 <= t <= x and 0 <= u <= y and 1 <= t + u <= 4 and 1 <= t + 2*u", "(x - t, y - u)"),   # two weights
    ("0 <= t <= x and 0 <= u <= y and 1 <= t + u <= 4", "(x - t, y - 2*u)"),        # not (x - t, y - u)
    ("0 <= t <= x and 0 <= u <= y and 1 <= t + u <= 4", "(y - t, x - u)"),
    ("0 <= t <= x and 0 <= u <= y and t + u != 3", "(x - t, y - u)"),
])
def test_other_shapes_are_left_to_the_reference_engine(where, to):
    assert weights.shape_of(declare(where, to)) is None


def test_an_option_outside_the_box_or_not_lighter_is_refused():
    # t may exceed x: an option with a negative coordinate; the weight removed may be 0: not a smaller position
    assert weights.p_table(declare("0 <= t <= x + 1 and 0 <= u <= y and 1 <= t + u <= 3"), 6, 6) is None
    assert weights.p_table(declare("0 <= t <= x and 0 <= u <= y and 0 <= t + u <= 3"), 6, 6) is None


def test_the_work_limit_is_a_count():
    game = declare("0 <= t <= x and 0 <= u <= y and 1 <= t + u <= x + y")
    assert weights.p_table(game, 40, 40, max_work=10) is None
    assert weights.p_table(game, 40, 40) is not None


def test_outcomes_fast_answers_only_above_the_small_window_floor():
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    game = spec.namespace.games["weighted_nim"].instance(())
    engine = ReferenceEngine()
    small = [np.arange(5), np.arange(5)]
    assert outcomes_fast(game, small, engine) is None                 # the reference engine answers small boxes
    engine.fast_min_positions = 0
    found = outcomes_fast(game, small, engine)
    truth = reference_p(game, 5, 5)
    assert found.tolist() == [bool(truth[i, i]) for i in range(5)]
    assert weights.NAME in game.solved_by


def test_exhaustive_check_of_theorem_3_1_uses_the_engine_on_a_million_positions():
    from checkers.window.exhaustive import check_exhaustive
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    v = check_exhaustive(spec.claim("thm-3.1-corrected"))
    assert v.verdict == "checked" and v.instances >= 10 ** 6
    assert weights.NAME in v.scope
    printed = check_exhaustive(spec.claim("thm-3.1"))
    assert printed.verdict == "refuted" and printed.counterexamples[0].bindings == {"x": 0, "y": 0}


def test_a_condition_naming_the_binding_is_not_searched():
    from checkers.window.vectorised import ARRAY_CALLS
    from nimjos.lang.syntax import parse
    from nimjos.lang.vector import NotVectorisable, vectorise
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    f = vectorise(parse("any(h[0] == x - 1 for h in WN(x, y))"), spec.namespace, ARRAY_CALLS)
    with pytest.raises(NotVectorisable):
        f({"x": np.arange(5), "y": np.arange(5)})


WRONG = '''
[source]
id = "wrong-p-set"

[game.wn]
position = ["x", "y"]
moves = [{ to = "(x - t, y - u)", where = "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)" }]

[[claim]]
id = "wrong"
game = "wn"
for_all = "0 <= x <= SIDE and 0 <= y <= SIDE"
p_positions = "x == 2**ilog2(x + 1) - 1 and y == 0 or (x == 0 and y <= 1) or x + y == 40"
'''


@pytest.mark.parametrize("side", [49, 79])   # 2,500 instances one at a time, 6,400 vectorised
def test_a_wrong_p_set_is_refuted_from_the_engine_of_p_positions(tmp_path, side):
    from checkers.window.exhaustive import check_exhaustive
    path = tmp_path / "w.toml"
    path.write_text(WRONG.replace("SIDE", str(side)))
    v = check_exhaustive(load_spec(path).claim("wrong"))
    assert v.verdict == "refuted" and weights.NAME in v.scope
    first = v.counterexamples[0]
    truth = reference_p(load_spec(path).namespace.games["wn"].instance(()), 12, 12)
    assert first.bindings == {"x": 0, "y": 3} and truth[0, 3]       # (0, 3) is a P-position the set leaves out
    assert (first.lhs, first.rhs) == ("P", "N") and "grundy" not in first.detail or first.detail["grundy"] == 0


def test_a_pinned_position_far_out_asks_the_engine_of_p_positions():
    from checkers.window.exhaustive import check_exhaustive
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    v = check_exhaustive(spec.claim("thm-3.1-corrected"), pins={"x": 999, "y": 998})
    assert v.verdict == "checked" and v.instances == 1 and weights.NAME in v.scope
