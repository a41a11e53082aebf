"""Fast Grundy engines, chosen automatically from the shape of a game's declared moves.

:func:`solve_fast` is the reference engine's hook: it tries each engine of :data:`ENGINES` in turn; an
engine answers only when it recognises the shape of the declared moves (never a formula from a paper,
never a claim) and otherwise leaves the game to the reference engine. One engine per module:

* :mod:`nimjos.games.fast.subtraction` -- one heap, options n - s for the members s <= n of a fixed set: the
  built-in subtraction(S) (S finite, a range or a predicate) and declared games of that shape (a set that is one
  long interval goes to the line-interval engine first).
* :mod:`nimjos.games.fast.lines` -- options on intervals of rows, columns, diagonals (1-D: of the axis):
  Maximum Nim with any rule function, subtraction games, Nim, Wythoff, Josephus Nim.
* :mod:`nimjos.games.fast.pinned` -- a declared game with a move family of several bound names (cyclic Nimhoff's
  moves Y), rewritten as one family per value of its outer names and computed by the line-interval engine.
* :mod:`nimjos.games.fast.offsets` -- a declared game on any number of heaps whose moves subtract a member of a
  fixed set from one heap or fixed offset vectors from several (Nim, cyclic Nimhoff on n heaps).
* :mod:`nimjos.games.fast.gcn` -- the built-in generalized cyclic Nimhoff gcn(h, (S_1, ..., S_n)), any n.
* :mod:`nimjos.games.fast.turns` -- (x, k) with options on an interval of x on a later row: Turn Nim (a move
  counter k, at most f(k) stones at the k-th turn).

:func:`outcomes_fast` tries the engines of :data:`OUTCOME_ENGINES`, which compute P-positions only (no Grundy
values; a ``p_positions`` claim needs no more):

* :mod:`nimjos.games.fast.weights` -- options (x - t, y - u) with t, u and a weight a*t + b*u in intervals:
  Weighted Nim.

Supporting modules: :mod:`~nimjos.games.fast.arith` (exact int64 arithmetic with overflow bounds),
:mod:`~nimjos.games.fast.translate` (expression trees to that arithmetic), :mod:`~nimjos.games.fast.pieces`
(move families as intervals on lines), :mod:`~nimjos.games.fast.kernels` (the compiled mex kernel),
:mod:`~nimjos.games.fast.boxes` (the compiled mex kernel of the subtraction and GCN engines).

>>> from nimjos.games.declared import subtraction
>>> solve_fast(subtraction(frozenset({1, 2})), [10], None)     # a built-in family
'fast engine (subtraction set, numba)'
"""
from __future__ import annotations

from typing import Any

import numpy as np

import nimjos.games.fast.gcn as gcn
import nimjos.games.fast.lines as lines
import nimjos.games.fast.offsets as offsets
import nimjos.games.fast.pinned as pinned
import nimjos.games.fast.subtraction as subtraction
import nimjos.games.fast.turns as turns
import nimjos.games.fast.weights as weights

#: the engines, tried in order
ENGINES = (subtraction.solve, lines.solve, pinned.solve, offsets.solve, gcn.solve, turns.solve)
#: the engines of P-positions only, tried in order
OUTCOME_ENGINES = (weights.solve,)


def solve_fast(game: Any, positions: list, engine: Any) -> str | None:
    """Compute the Grundy values of (at least) `positions` when a fast engine recognises the game's moves;
    return that engine's name, or None to leave the work to the reference engine.

    >>> from nimjos.games.engine import ReferenceEngine
    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> nim = GameDecl.declare("nim", {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]},
    ...                        Namespace()).instance(())
    >>> solve_fast(nim, [99_999], ReferenceEngine()), nim.dense[12345]
    ('fast engine (1-D interval options, numba)', np.int32(12345))
    """
    if game.play != "normal":
        return None  # the fast engines compute normal-play values (terminal 0); misère play: the reference engine
    for solve in ENGINES:
        name = solve(game, positions, engine)
        if name:
            return name
    return None


def outcome_box(game: Any, top: int, engine: Any) -> bool:
    """Whether an engine of P-positions fills the table of the box [0, top] on every coordinate of `game` (then
    :func:`outcomes_fast` answers anywhere in it from that table, kept per game instance).

    >>> from nimjos.games.declared import subtraction
    >>> outcome_box(subtraction(frozenset({1, 2})), 100, None)
    False
    """
    dim = getattr(game, "dim", None)
    if not isinstance(dim, int) or dim < 1:
        return False
    return outcomes_fast(game, [np.array([top], dtype=np.int64)] * dim, engine) is not None


def outcomes_fast(game: Any, coords: list, engine: Any) -> np.ndarray | None:
    """Whether each position (one int64 array per coordinate) is a P-position, when an engine of P-positions
    recognises the game's moves; None to leave the question to the Grundy values.

    >>> from nimjos.games.declared import subtraction
    >>> outcomes_fast(subtraction(frozenset({1, 2})), [np.arange(3)], None) is None
    True
    """
    if game.play != "normal":
        return None  # the engines of P-positions know normal play only
    for solve in OUTCOME_ENGINES:
        found = solve(game, coords, engine)
        if found is not None:
            return found
    return None
