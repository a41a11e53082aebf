"""The fast Grundy engines against the reference engine (differential tests), on every game of the specs
and on randomly generated declared games; and the pieces they are built from."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from nimjos.games.engine import ReferenceEngine
from nimjos.lang.errors import ResourceError
from nimjos.lang.compiler import Namespace
from nimjos.lang.expr import compile_expression
from nimjos.games.fast import solve_fast
import nimjos.games.fast.arith as arith
import nimjos.games.fast.kernels as kernels
import nimjos.games.fast.lines as lines
from nimjos.games.declared import GameDecl
from nimjos.spec.loader import load_spec
from engine_agreement import SPEC_FILES, agree, fast, reference

# ---------------------------------------------------------------------------------------------- every spec game

SHAPED = [("000_maxnim_josephus", "maxnim", (3,)), ("000_maxnim_josephus", "rulenim", None),
          ("002_josephus_nim", "josephus_nim", ()), ("contract", "wythoff", ()), ("contract", "sub23", ()),
          ("contract", "nim2", ())]


@pytest.mark.parametrize("stem,name,params", SHAPED)
def test_interval_shaped_games_use_the_fast_engine(stem, name, params):
    path = next((p for p in SPEC_FILES if p.stem == stem and p.exists()), None)
    if path is None:
        pytest.skip(f"{stem} is not here")
    spec = load_spec(path)
    if params is None:
        params = (compile_expression("lambda x: x // 3 + x % 2", spec.namespace)({}),)
    assert "fast engine" in (agree(spec.games[name], params, 60 if len(spec.games[name].position) == 1 else 20) or "")


# ---------------------------------------------------------------------------------------------- random games

COEF = st.integers(1, 3)
SMALL = st.integers(0, 3)


@st.composite
def bound_1d(draw):
    a, b = draw(COEF), draw(SMALL)
    return draw(st.sampled_from([
        "x", f"floor(x / {a})", f"floor(x / {a}) + {b}", f"min(x, {b + 1})", f"x - {b}", f"(x + {b}) // {a + 1}",
        f"{b + 2}", f"ceil(x / {a + 1})", f"x // {a} - x // {a + 2}"]))


@st.composite
def family_1d(draw):
    kind = draw(st.sampled_from(["range", "range", "range", "set", "point"]))
    c = draw(SMALL)
    if kind == "set":
        members = sorted(draw(st.sets(st.integers(1, 6), min_size=1, max_size=3)))
        return {"to": f"x - s - {c}", "where": f"s in {{{', '.join(map(str, members))}}} and s + {c} <= x"}
    if kind == "point":
        return {"to": f"x - {c + 1}", "where": f"x >= {c + 1} and x % {draw(COEF) + 1} == {draw(SMALL) % 2}"}
    lo = draw(st.sampled_from(["1", "2", f"floor(x / {draw(COEF) + 3}) + 1"]))
    where = f"{lo} <= t <= {draw(bound_1d())}"
    extra = draw(st.sampled_from(["", f" and 2 * t <= x + {c}", f" and t <= x - {c}", f" and -t >= {c} - x",
                                  f" and 3 * t < x + {c + 1}"]))
    to = draw(st.sampled_from(["x - t", f"x - t - {c}", f"x + {c} - t"]))
    guard = f" and t + {c} <= x" if "- t" in to and to != "x - t" else ""
    return {"to": to, "where": where + extra + guard}


@st.composite
def family_2d(draw):
    a, b, c = draw(COEF), draw(COEF), draw(SMALL)
    shape = draw(st.sampled_from(["row", "col", "diag", "josephus_row", "josephus_col", "point", "set"]))
    if shape == "row":
        return {"to": "(x - t, y)", "where": draw(st.sampled_from([
            "1 <= t <= x", f"1 <= t <= floor(x / {a})", f"{c + 1} <= t <= x", f"1 <= t <= min(x, y + {c})"]))}
    if shape == "col":
        return {"to": "(x, y - t)", "where": draw(st.sampled_from([
            "1 <= t <= y", f"1 <= t <= floor((x + y) / {a + 1})  and t <= y", f"1 <= t <= min(y, {c + 2})"]))}
    if shape == "diag":
        return {"to": "(x - t, y - t)", "where": draw(st.sampled_from([
            "1 <= t <= min(x, y)", f"1 <= t <= min(x, y, {c + 1})"]))}
    if shape == "josephus_row":
        return {"to": "(x - t, y)", "where": f"1 <= t <= x and t <= floor((x - {a}*y) / {b + 1})"}
    if shape == "josephus_col":
        return {"to": "(x, y - t)", "where": f"1 <= t <= y and -{a}*t <= floor((x - {a}*y) / {b + 1})"}
    if shape == "set":
        return {"to": "(x - s, y)", "where": f"s in {{1, {c + 2}}} and s <= x"}
    return {"to": f"(x - 1, y - {c % 2})", "where": f"x >= 1 and y >= {c % 2}"}


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.lists(family_1d(), min_size=1, max_size=3), st.integers(20, 120))
def test_random_1d_games_agree(moves, side):
    decl = GameDecl.declare("g", {"position": ["x"], "moves": moves}, Namespace())
    name = agree(decl, (), side)
    event(name or "fell back or failed in both")


@SETTINGS
@given(st.lists(family_2d(), min_size=1, max_size=3), st.integers(3, 14), st.integers(3, 14))
def test_random_2d_games_agree(moves, sx, sy):
    decl = GameDecl.declare("g", {"position": ["x", "y"], "moves": moves}, Namespace())
    positions = list(itertools.product(range(sx), range(sy)))
    want = reference(decl.instance(()), positions)
    twin = GameDecl(decl.name, decl.title, decl.params, decl.position, decl.moves)
    got, name = fast(twin.instance(()), positions)
    event(name or "fell back or failed in both")
    if isinstance(want, ResourceError):
        return
    if isinstance(want, Exception):
        assert isinstance(got, Exception)
    else:
        assert got == want


# ---------------------------------------------------------------------------------------------- the engine itself

def maxnim(k=3):
    decl = GameDecl.declare("maxnim", {"params": ["k"], "position": ["x"],
                                       "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
    return decl(k)


def test_dense_grows_on_a_later_request():
    g = maxnim()
    engine = ReferenceEngine()
    assert lines.solve(g, [100], engine, min_positions=0)
    assert len(g.dense) == 101
    assert lines.solve(g, [150], engine, min_positions=0)
    assert len(g.dense) >= 202                      # at least doubles
    want = reference(GameDecl("m", "", ("k",), ("x",), g.decl.moves).instance((3,)), list(range(202)))
    assert [int(v) for v in g.dense[:202]] == [want[x] for x in range(202)]


def test_resource_guard_names_the_estimate():
    g = maxnim()
    engine = ReferenceEngine(max_positions=1000)
    with pytest.raises(ResourceError, match="positions"):
        lines.solve(g, [5000], engine, min_positions=0)


def test_small_windows_are_left_to_the_reference_engine():
    assert solve_fast(maxnim(), [50], ReferenceEngine()) is None


def test_overflowing_params_fall_back():
    g = maxnim(10**30)
    assert lines.solve(g, [30000], ReferenceEngine(), min_positions=0) is None   # x / 10**30 is not int64-safe


def test_two_bound_names_fall_back():
    decl = GameDecl.declare("w", {"position": ["x", "y"], "moves": [
        {"to": "(x - t, y - u)", "where": "0 <= t <= x and 0 <= u <= y and 1 <= t + u"}]}, Namespace())
    assert lines.plan(decl.instance(())) is None


def test_options_beyond_the_box_in_y_grow_it():
    decl = GameDecl.declare("up", {"position": ["x", "y"], "moves": [
        {"to": "(x - t, y + 1)", "where": "1 <= t <= x and y < 3"}, {"to": "(x, y - 1)", "where": "y >= 1"}]},
        Namespace())
    assert agree(decl, (), 6)


def test_finite_function_param():
    decl = GameDecl.declare("rule", {"params": ["f"], "position": ["x"],
                                     "moves": [{"to": "x - t", "where": "1 <= t <= min(x, f(x % 3 + 1))"}]},
                            Namespace())
    from nimjos.lang.builtins import FiniteFunction
    assert "fast" in agree(decl, (FiniteFunction((1, 3, 2)),), 50)


def test_next_absent_against_a_set():
    rng = random.Random(3)
    for values in (70, 300, 5000):
        state = kernels.State.allocate(1, values)
        nlev = len(state.offs) - 1
        present = set()
        for _ in range(400):
            v = rng.randrange(min(values, 140)) if rng.random() < 0.7 else rng.randrange(values)
            if v in present:
                kernels._remove(state.counts, state.bits, 0, state.offs, nlev, v)
                present.discard(v)
            else:
                kernels._add(state.counts, state.bits, 0, state.offs, nlev, v)
                present.add(v)
            q = rng.randrange(min(values, 150))
            want = q
            while want in present:
                want += 1
            assert kernels._next_absent(state.bits, 0, state.offs, q) == want


def test_arith_refuses_overflow():
    x = arith.Vec.array(np.arange(5), 4)
    with pytest.raises(arith.Unsupported):
        arith.mul(x, arith.Vec.const(1 << 61))
    assert arith.mul(x, arith.Vec.const(1 << 50)).num.tolist()[1] == 1 << 50

