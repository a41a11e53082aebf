"""The fast engines against the reference engine on every game of specs/ (a loop over the spec folder, from
tests/test_fast_engines.py), slow by its folder."""
from __future__ import annotations


import itertools


import pathlib


import random


import numpy as np


import pytest


from hypothesis import HealthCheck, event, given, settings


from hypothesis import strategies as st


from nimjos.games.engine import ReferenceEngine


from nimjos.lang.errors import NimjosError, ResourceError


from nimjos.lang.compiler import Namespace


from nimjos.lang.expr import compile_expression


from nimjos.games.fast import solve_fast


import nimjos.games.fast.arith as arith


import nimjos.games.fast.kernels as kernels


import nimjos.games.fast.lines as lines


from nimjos.games.declared import GameDecl


from nimjos.spec.loader import load_spec


ROOT = pathlib.Path(__file__).resolve().parents[2]


SPEC_FILES = sorted((ROOT / "specs").glob("*.toml")) + [ROOT / "tests" / "data" / "contract.toml"]


LIMIT = 50_000


EDGE_LIMIT = 400_000


def reference(game, positions):
    """Values by the reference engine alone, or the error it raises."""
    engine = ReferenceEngine(max_positions=LIMIT, max_edges=EDGE_LIMIT)
    engine.use_fast = False
    try:
        engine.solve(game, positions)
    except NimjosError as exc:
        return exc
    return {p: game.lookup(p) for p in positions}


def fast(game, positions, engine=None):
    """Values by the engine with the fast path forced on small windows (name of the engine that answered)."""
    engine = engine or ReferenceEngine(max_positions=LIMIT, max_edges=EDGE_LIMIT)
    engine.fast_min_positions = 0
    try:
        engine.solve(game, positions)
    except NimjosError as exc:
        return exc, None
    return {p: game.lookup(p) for p in positions}, engine.describe_last()


def window(dim, side):
    if dim == 1:
        return list(range(side))
    return list(itertools.product(range(side), repeat=2))


def agree(decl, params, side):
    """Both engines on separate instances of the same game; returns the fast result's engine name."""
    want = reference(decl.instance(params), window(len(decl.position), side))
    twin = GameDecl(decl.name, decl.title, decl.params, decl.position, decl.moves)
    got, name = fast(twin.instance(params), window(len(decl.position), side))
    if isinstance(want, ResourceError):
        return None   # the reference engine cannot say; nothing to compare
    if isinstance(want, Exception):
        assert isinstance(got, Exception), f"reference raised {want}, the fast path did not"
        return None
    assert not isinstance(got, Exception), got
    assert got == want
    return name


def _candidates(spec):
    ns = spec.namespace
    return [3, 2, frozenset({1, 3}), compile_expression("lambda x: x // 3", ns)({}),
            compile_expression("lambda x: x // 3 + 1", ns)({})]


def _spec_games():
    for path in SPEC_FILES:
        if path.exists():
            spec = load_spec(path)
            for name in spec.games:
                yield pytest.param(path, name, id=f"{path.stem}::{name}")


SHAPED = [("000_maxnim_josephus", "maxnim", (3,)), ("000_maxnim_josephus", "rulenim", None),
          ("002_josephus_nim", "josephus_nim", ()), ("contract", "wythoff", ()), ("contract", "sub23", ()),
          ("contract", "nim2", ())]


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


def maxnim(k=3):
    decl = GameDecl.declare("maxnim", {"params": ["k"], "position": ["x"],
                                       "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
    return decl(k)


@pytest.mark.parametrize("path,name", list(_spec_games()))
def test_every_spec_game_agrees_with_the_reference(path, name):
    spec = load_spec(path)
    decl = spec.games[name]
    if len(decl.position) > 2:
        pytest.skip("the fast engines handle one or two coordinates")
    side = 160 if len(decl.position) == 1 else 24
    for params in itertools.product(_candidates(spec), repeat=len(decl.params)):
        probe = reference(decl.instance(params), window(len(decl.position), 3))
        if isinstance(probe, Exception):
            continue   # these param values do not suit the game
        agree(decl, params, side)
        return
    pytest.skip("no candidate param values suit this game")
