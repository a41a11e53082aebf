"""The GCN engine: Grundy values of the built-in generalized cyclic Nimhoff ``gcn(h, (S_1, ..., S_n))`` (004
Definition 2.1) on any number of heaps: remove a member of S_i from heap i, or s_i >= 0 from every heap i with
0 < s_1 + ... + s_n < h.

The moves are read from the game's parameters (never from a claim): each S_i's members up to the box's side
are listed once, the joint moves Y are the offset vectors with sum below h, and the compiled mex kernel of
:mod:`nimjos.games.fast.boxes` fills the whole box ``[0, X_1] x ... x [0, X_n]`` that covers the requested
positions into ``game.dense`` (int32, indexed by the position). GCN is not a disjunctive sum (a move of Y
changes several heaps), so no value is a nim-sum here: every value is the mex of its options.

>>> from nimjos.games.declared import gcn
>>> game = gcn(3, (lambda s: True, lambda s: True))      # cyclic Nimhoff, h = 3
>>> solve(game, [(3, 4)], None)
'fast engine (generalized cyclic Nimhoff, numba)'
>>> game.dense[3, :6].tolist()
[3, 4, 5, 0, 1, 2]
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from nimjos.games.fast.boxes import (
    count_offsets,
    joint_offsets,
    mex_box,
    pack_members,
    too_small,
)
from nimjos.games.fast.subtraction import set_members

NAME = "fast engine (generalized cyclic Nimhoff, numba)"
#: the largest box one run may fill (positions); beyond it the work is left to the reference engine
MAX_BOX = 50_000_000
#: the most joint offsets (moves of Y) a position may have
MAX_OFFSETS = 20_000
#: the most options one run may mark in all (positions times options of the far corner): a count, not a time
MAX_WORK = 4_000_000_000
#: a side of the box grows to at least this many values, so that a position asked for next to a computed box
#: does not make the engine fill a box one larger each time
MIN_SIDE = 8


def recognises(game: Any) -> bool:
    """Whether the game is the built-in GCN family (its parameters h and the tuple of sets).

    >>> from nimjos.games.declared import gcn, subtraction
    >>> recognises(gcn(2, (frozenset({1}),))), recognises(subtraction(frozenset({1})))
    (True, False)
    """
    if game is None or getattr(game, "decl", None) is not None or getattr(game, "name", "") != "gcn":
        return False
    params = getattr(game, "params", {})
    return set(params) == {"h", "sets"} and isinstance(params["sets"], tuple) and len(params["sets"]) == game.dim


def _shape(game: Any, positions: list) -> list[int]:
    """The box's sides: they cover the requested positions and the box already computed, and a side that must
    grow at least doubles."""
    points = [p if isinstance(p, tuple) else (p,) for p in positions]
    sides = [max(MIN_SIDE, max(p[i] for p in points) + 1) for i in range(game.dim)]
    old = game.dense
    if old is not None:
        before = old.shape
        if any(s > b for s, b in zip(sides, before)):
            sides = [max(s, 2 * b) if s > b else b for s, b in zip(sides, before)]
        else:
            sides = list(before)
    return sides


def work(game: Any, sides: list[int]) -> tuple[int, int]:
    """(positions, options marked at most) of a run over a box with these sides.

    >>> from nimjos.games.declared import gcn
    >>> work(gcn(3, (frozenset({1, 2}), frozenset({1}))), [10, 10])
    (100, 800)
    """
    h, sets = game.params["h"], game.params["sets"]
    positions = math.prod(sides)
    per = count_offsets(len(sides), h)
    for S, side in zip(sets, sides):
        per += len(S) if isinstance(S, (frozenset, set, tuple)) else side
    return positions, positions * per


def fits(game: Any, sides: list[int], limit: int = MAX_BOX) -> bool:
    """Whether this engine fills a box with these sides for the game (it recognises the game, and the box is
    within :data:`MAX_BOX` positions or `limit`, :data:`MAX_WORK` options and :data:`MAX_OFFSETS` joint moves).

    >>> from nimjos.games.declared import gcn
    >>> fits(gcn(2, (frozenset({1}), frozenset({2}))), [100, 100]), fits(gcn(2, (frozenset({1}),) * 5), [100] * 5)
    (True, False)
    """
    if not recognises(game) or len(sides) != game.dim:
        return False
    cells, marks = work(game, sides)
    return cells <= min(MAX_BOX, limit) and marks <= MAX_WORK and count_offsets(game.dim, game.params["h"]) <= MAX_OFFSETS


def solve(game: Any, positions: list, engine: Any) -> str | None:
    """Fill ``game.dense`` over the box covering `positions` and return the engine's name; None when the game is
    not the GCN family, the box is over the limits (positions: the engine's ``max_positions``; options:
    :data:`MAX_WORK`; joint moves: :data:`MAX_OFFSETS`) or small enough for the reference engine
    (:func:`nimjos.games.fast.boxes.too_small`).

    >>> from nimjos.games.declared import subtraction
    >>> solve(subtraction(frozenset({1})), [4], None) is None
    True
    """
    if not positions or not recognises(game):
        return None
    h, sets = game.params["h"], game.params["sets"]
    sides = _shape(game, positions)
    if not fits(game, sides, getattr(engine, "max_positions", None) or MAX_BOX) or too_small(engine, work(game, sides)[1]):
        return None
    members = [m for S, side in zip(sets, sides) if (m := set_members(S, side - 1)) is not None]
    if len(members) != len(sets):
        return None
    flat = mex_box(np.array(sides), *pack_members(members), joint_offsets(game.dim, h))
    game.dense = flat if game.dim == 1 else flat.reshape(sides)
    return NAME


__all__ = ["NAME", "fits", "recognises", "solve", "work"]
