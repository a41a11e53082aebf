"""The long differential test of tests/nimjos/games/test_fast_engines.py (tens of seconds of CPU: the reference
engine on a box with millions of moves), slow by its folder."""
from __future__ import annotations

from nimjos.games.declared import GameDecl
from nimjos.games.engine import ReferenceEngine
from nimjos.games.fast import solve_fast
import nimjos.games.fast.lines as lines
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError

#: as in tests/nimjos/games/test_fast_engines.py
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


def maxnim(k=3):
    decl = GameDecl.declare("maxnim", {"params": ["k"], "position": ["x"],
                                       "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
    return decl(k)


def test_a_small_box_with_many_moves_goes_to_the_fast_engine():
    # Maximum Nim with f(x) = floor(x / 2): 6,000 positions but about 9 million moves for the reference engine
    g = maxnim(2)
    assert 6000 < lines.MIN_POSITIONS
    assert solve_fast(g, [5999], ReferenceEngine()) == lines.NAME_1D
    some = list(range(0, 1000, 7))
    assert [int(g.dense[x]) for x in some] == [reference(maxnim(2), some)[x] for x in some]
    # a box with few moves per position stays with the reference engine (no numba start-up)
    assert solve_fast(maxnim(1000), [5999], ReferenceEngine()) is None
