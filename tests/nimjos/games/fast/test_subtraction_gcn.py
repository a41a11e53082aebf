"""The subtraction and GCN engines (nimjos/games/fast/subtraction.py, gcn.py) against the reference engine
(mex over the game graph, no fast engine) on overlapping boxes: differential tests."""
from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from nimjos.games.declared import GameDecl, gcn, subtraction
from nimjos.games.engine import ReferenceEngine
from nimjos.games.fast import gcn as gcn_engine
from nimjos.games.fast import offsets, pinned, solve_fast
from nimjos.games.fast import subtraction as sub_engine
from nimjos.lang.compiler import Namespace
from nimjos.spec.budget import estimate
from nimjos.spec.loader import load_spec
from nimjos.spec.plan import plan_claim
from nimjos.spec.reach import game_load


def _eager():
    """A reference engine whose fast engines take every box, however small."""
    engine = ReferenceEngine()
    engine.fast_min_work = engine.fast_min_positions = 0
    return engine


def _reference(game, positions):
    """Grundy values by the reference engine alone, on a fresh instance's table."""
    engine = ReferenceEngine()
    engine.use_fast = False
    table = {}
    saved_table, saved_dense = game.table, game.dense
    game.table, game.dense = table, None
    try:
        engine.solve(game, positions)
        return {p: table[p] for p in positions}
    finally:
        game.table, game.dense = saved_table, saved_dense


SETS = [frozenset(), frozenset({1}), frozenset({2, 3}), frozenset({1, 4, 5}), range(2, 6),
        frozenset({3, 7, 8, 11})]
PREDICATES = [lambda s: s % 3 != 0, lambda s: True, lambda s: s % 2 == 0 or s == 5]


@pytest.mark.parametrize("S", SETS + PREDICATES)
def test_subtraction_engine_agrees_with_the_reference(S):
    game = subtraction(S)
    game.dense = None
    assert sub_engine.solve(game, [60], None) == sub_engine.NAME
    ref = _reference(game, list(range(61)))
    assert [int(game.dense[n]) for n in range(61)] == [ref[n] for n in range(61)]


@pytest.mark.parametrize("where", ["1 <= s <= n and s % 3 != 1",
                                   "s in {2, 5, 6} and s <= n",
                                   "1 <= s <= n and (s % h != 0 or s // h in {1, 3})",
                                   "n >= s and s >= 2 and s <= 60 and (m >> (s - 2)) % 2 == 1"])
def test_declared_subtraction_shape_agrees_with_the_reference(where):
    decl = GameDecl.declare("g", {"params": ["h", "m"], "position": ["n"],
                                  "moves": [{"to": "n - s", "where": where}]}, Namespace())
    for h, m in [(1, 5), (2, 11), (3, 6)]:
        game = decl(h, m)
        assert sub_engine.solve(game, [70], None) == sub_engine.NAME
        ref = _reference(game, list(range(71)))
        assert [int(game.dense[n]) for n in range(71)] == [ref[n] for n in range(71)]


@pytest.mark.parametrize("where", ["0 <= s <= n",          # s = 0 is a move to itself
                                   "1 <= s <= n - 1",      # n appears other than as the bound of s
                                   "1 <= s <= n and n % 2 == 0"])
def test_other_shapes_are_left_to_the_other_engines(where):
    decl = GameDecl.declare("g", {"position": ["n"], "moves": [{"to": "n - s", "where": where}]}, Namespace())
    assert sub_engine.solve(decl.instance(()), [30], None) is None


@pytest.mark.parametrize("h", [1, 2, 3, 5])
def test_gcn_engine_agrees_with_the_reference_on_two_heaps(h):
    rng = random.Random(h)
    for _ in range(4):
        sets = tuple(frozenset(rng.sample(range(1, 8), rng.randint(0, 4))) for _ in range(2))
        game = gcn(h, sets)
        game.dense = None
        assert gcn_engine.solve(game, [(14, 13)], None) == gcn_engine.NAME
        points = list(itertools.product(range(15), range(14)))
        ref = _reference(game, points)
        assert all(int(game.dense[p]) == ref[p] for p in points)


def test_gcn_engine_agrees_with_the_reference_on_one_three_and_four_heaps():
    for h, sets, top in [(3, (frozenset({2, 3}),), (20,)), (2, (frozenset({1, 3}), frozenset({2}), frozenset({1})), (6, 5, 7)),
                         (4, (lambda s: True, frozenset({1}), frozenset({2, 3})), (5, 6, 4)),
                         (3, (frozenset({1}),) * 4, (3, 4, 3, 2))]:
        game = gcn(h, sets)
        game.dense = None
        corner = top[0] if len(top) == 1 else top
        assert gcn_engine.solve(game, [corner], None) == gcn_engine.NAME
        points = [p[0] if len(top) == 1 else p for p in itertools.product(*(range(t + 1) for t in top))]
        ref = _reference(game, points)
        assert all(int(game.dense[p]) == ref[p] for p in points)


def test_cyclic_nimhoff_by_gcn_equals_the_declared_game_by_the_reference():
    decl = GameDecl.declare("cn", {"params": ["h"], "position": ["x", "y"], "moves": [
        {"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"},
        {"to": "(x - s, y - t)", "where": "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t"}]},
        Namespace())
    for h in (2, 4):
        game = gcn(h, (lambda s: True, lambda s: True))
        assert gcn_engine.solve(game, [(20, 20)], None) == gcn_engine.NAME
        points = list(itertools.product(range(21), range(21)))
        ref = _reference(decl(h), points)
        assert all(int(game.dense[p]) == ref[p] for p in points)


def test_a_growing_table_keeps_its_values():
    game = gcn(2, (frozenset({1, 2}), frozenset({3})))
    game.dense = None
    gcn_engine.solve(game, [(3, 3)], None)
    first = np.array(game.dense)
    gcn_engine.solve(game, [(30, 2)], None)
    assert game.dense.shape[0] >= 31 and (game.dense[:first.shape[0], :first.shape[1]] == first).all()


def test_over_the_limits_the_work_is_left_to_the_reference_engine():
    small = ReferenceEngine(max_positions=1000)
    assert gcn_engine.solve(gcn(2, (frozenset({1}), frozenset({1}))), [(100, 100)], small) is None
    assert sub_engine.solve(subtraction(frozenset({1, 2, 9})), [5000], small) is None
    assert solve_fast(subtraction(frozenset({4, 1})), [50], None) == sub_engine.NAME


def test_a_long_interval_goes_to_the_line_engine_first():
    nim = GameDecl.declare("nim", {"position": ["m"], "moves": [{"to": "m - t", "where": "1 <= t <= m"}]},
                           Namespace()).instance(())
    assert sub_engine.solve(nim, [10 ** 5], ReferenceEngine()) == "fast engine (1-D interval options, numba)"
    # an interval the line-interval engine cannot read (a condition it does not translate): computed here
    odd = GameDecl.declare("odd", {"params": ["m"], "position": ["n"], "moves": [{"to": "n - s",
                           "where": "1 <= s <= n and (s < 500 or (m >> (s % 7)) % 2 == 1)"}]}, Namespace())(0)
    assert sub_engine.solve(odd, [300], _eager()) == sub_engine.NAME
    assert [int(v) for v in odd.dense[:301]] == list(range(301))


CYCLIC_NIMHOFF = {"params": ["h"], "position": ["x", "y"], "moves": [
    {"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"},
    {"to": "(x - s, y - t)", "where": "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t"}]}


@pytest.mark.parametrize("h", [1, 2, 3, 5])
def test_pinned_engine_agrees_with_the_reference_on_cyclic_nimhoff(h):
    decl = GameDecl.declare("cn", CYCLIC_NIMHOFF, Namespace())
    game = decl(h)
    game.dense = None
    assert pinned.solve(game, [(24, 21)], _eager()).endswith(pinned.NOTE)
    points = list(itertools.product(range(25), range(22)))
    ref = _reference(game, points)
    assert all(int(game.dense[p]) == ref[p] for p in points)
    pinned.solve(game, [(60, 3)], _eager())      # the box grows: the values already computed stay
    assert all(int(game.dense[p]) == ref[p] for p in points)


@pytest.mark.parametrize("where", ["1 <= s <= min(x, 3) and 0 <= t <= x - s", "0 <= s <= x % 4 and 1 <= t <= x - s",
                                   "1 <= s <= 2 and 0 <= t <= min(2, x - s)"])
def test_pinned_engine_agrees_with_the_reference_on_one_heap(where):
    game = GameDecl.declare("g", {"position": ["x"], "moves": [{"to": "x - s - t", "where": where}]},
                            Namespace()).instance(())
    assert pinned.solve(game, [80], _eager())
    ref = _reference(game, list(range(81)))
    assert [int(game.dense[n]) for n in range(81)] == [ref[n] for n in range(81)]


def test_a_family_of_one_name_is_not_the_pinned_engines():
    nim2 = GameDecl.declare("n2", {"position": ["x", "y"], "moves": [{"to": "(x - t, y)", "where": "1 <= t <= x"}]},
                            Namespace()).instance(())
    assert pinned.solve(nim2, [(5, 5)], _eager()) is None


CYCLIC_NIMHOFF_3 = {"params": ["h"], "position": ["x", "y", "z"], "moves": [
    {"to": "(x - t, y, z)", "where": "1 <= t <= x"}, {"to": "(x, y - t, z)", "where": "1 <= t <= y"},
    {"to": "(x, y, z - t)", "where": "1 <= t <= z"},
    {"to": "(x - s, y - t, z - u)",
     "where": "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 <= u <= min(z, h - 1 - s - t) and 0 < s + t + u"}]}


@pytest.mark.parametrize("h", [1, 2, 3, 4])
def test_offsets_engine_agrees_with_the_reference_on_cyclic_nimhoff_of_three_heaps(h):
    game = GameDecl.declare("cn3", CYCLIC_NIMHOFF_3, Namespace())(h)
    game.dense = None
    assert offsets.solve(game, [(9, 8, 7)], _eager()) == offsets.NAME
    points = list(itertools.product(range(10), range(9), range(8)))
    ref = _reference(game, points)
    assert all(int(game.dense[p]) == ref[p] for p in points)


@pytest.mark.parametrize("moves", [
    [{"to": "(x - t, y, z)", "where": "1 <= t <= x and t % 2 == 1"}, {"to": "(x, y - 2, z - 1)", "where": "y >= 2 and z >= 1"},
     {"to": "(x, y, z - t)", "where": "t in {1, 3} and t <= z"}],
    [{"to": "(x - 1, y - t, z)", "where": "x >= 1 and 1 <= t <= min(y, 2)"}, {"to": "(x, y, z - t)", "where": "1 <= t <= z"}],
])
def test_offsets_engine_agrees_with_the_reference_on_other_shapes(moves):
    game = GameDecl.declare("g", {"position": ["x", "y", "z"], "moves": moves}, Namespace()).instance(())
    assert offsets.solve(game, [(8, 9, 7)], _eager()) == offsets.NAME
    points = list(itertools.product(range(9), range(10), range(8)))
    ref = _reference(game, points)
    assert all(int(game.dense[p]) == ref[p] for p in points)


def test_an_offset_whose_condition_is_not_where_it_fits_is_left_to_the_reference_engine():
    for where in ("x >= 1 and y >= 1 and x != y", "x >= 2 and y >= 1"):
        game = GameDecl.declare("g", {"position": ["x", "y"], "moves": [
            {"to": "(x - 1, y - 1)", "where": where}]}, Namespace()).instance(())
        assert offsets.solve(game, [(6, 6)], _eager()) is None


def test_a_small_table_asked_through_an_engine_is_left_to_the_reference_engine():
    assert sub_engine.solve(subtraction(frozenset({2, 7})), [30], ReferenceEngine()) is None
    assert gcn_engine.solve(gcn(2, (frozenset({2}), frozenset({1}))), [(5, 5)], ReferenceEngine()) is None
    assert sub_engine.solve(subtraction(frozenset({2, 7})), [3000], ReferenceEngine()) == sub_engine.NAME


GUARDED = '''[source]
id = "guard"
[game.cn]
params = ["h"]
position = ["x", "y"]
moves = [
  { to = "(x - t, y)", where = "1 <= t <= x" },
  { to = "(x, y - t)", where = "1 <= t <= y" },
  { to = "(x - s, y - t)", where = "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t" },
]
[[claim]]
id = "declared"
game = "cn(h)"
for_all = "2 <= h <= 3 and 0 <= x and 0 <= y"
window = "x <= 999 and y <= 999"
grundy = "xor(x // h, y // h) * h + (x + y) % h"
[[claim]]
id = "builtin"
game = "gcn(2, ({1, 2}, {1, 3}))"
position = ["x1", "x2"]
for_all = "0 <= x1 and 0 <= x2"
window = "x1 <= 999 and x2 <= 999"
grundy = "x1 + x2"
'''


def test_the_resource_guard_sizes_a_window_by_the_fast_engine_that_computes_it(tmp_path):
    path = tmp_path / "guard.toml"
    path.write_text(GUARDED)
    spec = load_spec(path)
    for cid in ("declared", "builtin"):
        est = estimate(plan_claim(spec.claim(cid)))
        assert est.over == "" and est.positions >= 10 ** 6, (cid, est.describe())
        assert est.bytes < 2 ** 30, (cid, est.describe())   # the tables and the window's rows, no game graph
    # the same game when no fast engine reads its moves: the game graph of the reference engine is estimated
    reference_only = GameDecl.declare("cn", CYCLIC_NIMHOFF, Namespace())
    fast = game_load(reference_only(2), [999, 999])
    assert fast.bytes < 2 ** 28
    broken = dict(CYCLIC_NIMHOFF, moves=CYCLIC_NIMHOFF["moves"] + [{"to": "(x - s, y - s)",
                  "where": "1 <= s <= min(x, y) and 1 <= u <= s and s * u == x"}])
    slow = game_load(GameDecl.declare("cn2", broken, Namespace())(2), [999, 999])
    assert slow.bytes > 10 * fast.bytes
