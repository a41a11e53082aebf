"""The Grundy values of a game at arrays of positions (numpy): :func:`grundy_array`, the table a window, ``nimjos
grundy`` and the vectorised checks read, filled by the game itself or by a fast engine, with no Python object per
position. Kept out of :mod:`nimjos.games.engine`, which reading a spec imports.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from nimjos.games.engine import ReferenceEngine


def grundy_array(engine: ReferenceEngine, game: Any, coords: list[np.ndarray]) -> np.ndarray:
    """The Grundy values of `game` at the positions given by one int64 array per coordinate (non-negative),
    as an int64 array. The box up to the largest coordinates is filled at once, by the game itself (a heap game's
    compiled sequence: :meth:`~nimjos.games.declared.GameInstance.filled_through`) or by a fast engine (which
    fills ``game.dense``), and read by array indexing, with no Python object per position; any position the box's
    solve did not reach is solved and looked up by itself (once per distinct position).

    >>> from nimjos.games.declared import subtraction
    >>> grundy_array(ReferenceEngine(), subtraction(frozenset({1, 2})), [np.arange(7)]).tolist()
    [0, 1, 2, 0, 1, 2, 0]
    >>> from nimjos.games.heaps.game import octal_game
    >>> grundy_array(ReferenceEngine(), octal_game("0.77"), [np.array([70, 3, 70])]).tolist()
    [6, 3, 6]
    """
    n = len(coords[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    corner = tuple(int(c.max()) for c in coords)
    dense = game.filled_through(corner[0] if game.dim == 1 else corner)
    if dense is None:
        engine.solve(game, [corner[0] if game.dim == 1 else corner])
        dense = game.dense
    if dense is not None:
        shape = dense.shape if game.dim > 1 else (len(dense),)
        inside = np.ones(n, dtype=np.bool_)
        for c, size in zip(coords, shape):
            inside &= c < size
        if inside.all():
            out = np.asarray(dense[tuple(coords)] if game.dim > 1 else dense[coords[0]], dtype=np.int64)
        else:
            out = np.full(n, -1, dtype=np.int64)
            idx = np.nonzero(inside)[0]
            out[idx] = dense[tuple(c[idx] for c in coords)] if game.dim > 1 else dense[coords[0][idx]]
    else:
        out = np.full(n, -1, dtype=np.int64)
    missing = np.nonzero(out < 0)[0]
    if missing.size:
        points, where = np.unique(np.stack([c[missing] for c in coords], axis=1), axis=0, return_inverse=True)
        tuples = [tuple(p) for p in points.tolist()]
        positions = [p[0] for p in tuples] if game.dim == 1 else tuples
        engine.solve(game, positions)
        values = np.array([game.lookup(q) for q in positions], dtype=np.int64)
        out[missing] = values[np.ravel(where)]
    return out
