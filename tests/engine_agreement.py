"""The fast Grundy engines against the reference engine: helpers shared by tests/nimjos/games/test_fast_engines.py and
tests/slow/nimjos/games/test_fast_engines_specs.py."""
from __future__ import annotations

import itertools
import pathlib

import pytest

from nimjos.games.declared import GameDecl
from nimjos.games.engine import ReferenceEngine
from nimjos.lang.errors import NimjosError, ResourceError
from nimjos.lang.expr import compile_expression
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[1]
SPEC_FILES = sorted((ROOT / "specs").glob("*.toml")) + [ROOT / "tests" / "data" / "contract.toml"]


#: both engines refuse to explore more (a random game may move upwards, without end)
LIMIT = 50_000
#: ... and to hold more moves than this (a game may also widen as it climbs)
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


def candidates(spec):
    """Parameter values to try on a spec's game: numbers, a set, rule functions."""
    ns = spec.namespace
    return [3, 2, frozenset({1, 3}), compile_expression("lambda x: x // 3", ns)({}),
            compile_expression("lambda x: x // 3 + 1", ns)({})]


def spec_games():
    """A pytest parameter (spec path, game name) for every game of specs/ and of the contract spec."""
    for path in SPEC_FILES:
        if path.exists():
            spec = load_spec(path)
            for name in spec.games:
                yield pytest.param(path, name, id=f"{path.stem}::{name}")
