"""The turn engine: Grundy values of two-coordinate games (x, k) whose options, at every position, are an interval
of x on some row k' of the grid, to the left of x: ``to = "(x - t, k + 1)"`` with t >= 1, the move counter of
Turn Nim (003 Definition 2.3: at the k-th turn at most f(k) stones, f any function param).

The row of the options may lie above the position (k' = k + 1), so no box of rows is closed under the moves, and
a row where the condition cannot be evaluated at every x (a function param defined on 1..K only, asked at K + 1)
must not stop the others. The engine reads the moves as pieces (:mod:`nimjos.games.fast.pieces`), one row of the
box at a time; a row the pieces cannot translate is read from the language's own options() position by position.
Positions are visited in x-major order: a position gets its value (the mex of its options') only when every
option lies in the box, to its left, with a value; otherwise it stays unknown (-1 in ``game.dense``, which the
reference engine then fills when asked). Never a formula from a paper, never a claim.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> turn = GameDecl.declare("turn", {"params": ["f"], "position": ["x", "k"],
...     "moves": [{"to": "(x - t, k + 1)", "where": "1 <= t <= (min(x, f(k)) if x > 0 else 0)"}]}, Namespace())
>>> from nimjos.lang.builtins import FiniteFunction
>>> game = turn(FiniteFunction((1, 2, 2, 3)))
>>> solve(game, [(4, 1)], None, min_positions=0)
'fast engine (options on a row to the left, numba)'
>>> [int(game.dense[x, 1]) for x in range(5)], int(game.dense[3, 4]), int(game.dense[0, 5])
([0, 1, 0, 0, 1], -1, 0)
"""
from __future__ import annotations

from typing import Any

import numpy as np

from nimjos.games.fast.arith import Unsupported, Vec
from nimjos.games.fast.lines import plan
from nimjos.games.fast.pieces import ROW
from nimjos.lang.errors import NimjosError
from nimjos.lang.lazy import compiled_on_use

NAME = "fast engine (options on a row to the left, numba)"
#: below this many positions the reference engine answers
MIN_POSITIONS = 256
#: most positions of one box
MAX_POSITIONS = 4_000_000
#: most positions of a box whose options are listed by the language (rows the pieces cannot translate)
MAX_LISTED = 2_000
#: most options read in one box (a count: the answer never depends on the machine's load)
MAX_WORK = 200_000_000

#: the box read row by row (:func:`_rows`): the pieces' line, lo and hi, how each position is read, and the
#: listed options (ptr, ox, oy)
Rows = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@compiled_on_use(cache=True)
def _kernel(X, Y, line, lo, hi, how, ptr, ox, oy, max_work):  # pragma: no cover - compiled
    """Grundy values of the box [0, X) x [0, Y) (flat, x-major), -1 where unknown; how[i]: 0 pieces (line, lo,
    hi per piece), 1 listed options (ox, oy from ptr[i] to ptr[i + 1]), 2 unknown. An empty array when the work
    exceeds max_work. The marks are sized from the most options whose values a position reads: an interval that
    leaves the box (or does not lie to the left) leaves its position unknown and counts for nothing."""
    n = X * Y
    out = np.full(n, -1, dtype=np.int32)
    npieces = line.shape[0]
    most = 2
    for i in range(n):
        total = 0
        if how[i] == 0:
            x = i // Y
            for p in range(npieces):
                a, b, r = lo[p, i], hi[p, i], line[p, i]
                if b < a:
                    continue
                if a < 0 or b >= x or r < 0 or r >= Y:
                    total = 0
                    break
                total += b - a + 1
        elif how[i] == 1:
            total = ptr[i + 1] - ptr[i]
        most = max(most, total + 2)
    seen = np.zeros(most, dtype=np.int64)
    work = 0
    for i in range(n):
        if how[i] == 2:
            continue
        x = i // Y
        stamp = i + 1
        known = True
        if how[i] == 0:
            for p in range(npieces):
                a, b, r = lo[p, i], hi[p, i], line[p, i]
                if b < a:
                    continue
                if a < 0 or b >= x or r < 0 or r >= Y:
                    known = False
                    break
                work += b - a + 1
                for c in range(a, b + 1):
                    v = out[c * Y + r]
                    if v < 0:
                        known = False
                        break
                    if v < most:
                        seen[v] = stamp
                if not known:
                    break
        else:
            for j in range(ptr[i], ptr[i + 1]):
                c, r = ox[j], oy[j]
                if c < 0 or c >= x or r < 0 or r >= Y:
                    known = False
                    break
                v = out[c * Y + r]
                if v < 0:
                    known = False
                    break
                if v < most:
                    seen[v] = stamp
                work += 1
        if work > max_work:
            return np.zeros(0, dtype=np.int32)
        if known:
            m = 0
            while seen[m] == stamp:
                m += 1
            out[i] = m
    return out


def _rows(game: Any, pieces: list, X: int, Y: int) -> Rows | None:
    """The pieces' (line, lo, hi) over the box, row by row, and how each position is read; the options listed by
    the language where a row cannot be translated. None when too many positions would be listed."""
    n = X * Y
    line = np.zeros((len(pieces), n), dtype=np.int64)
    lo = np.zeros((len(pieces), n), dtype=np.int64)
    hi = np.full((len(pieces), n), -1, dtype=np.int64)
    how = np.zeros(n, dtype=np.int8)
    listed: dict[int, list] = {}
    xs = np.arange(X, dtype=np.int64)
    flat = xs * Y
    x_name, k_name = game.coords
    caches: list[dict] = [{} for _ in pieces]
    coords = {x_name: Vec.array(np.repeat(xs, Y), max(X - 1, 0)),
              k_name: Vec.array(np.tile(np.arange(Y, dtype=np.int64), X), max(Y - 1, 0))}
    try:   # the whole box at once when every row translates
        parts = [p.evaluate(game, coords, Y, cache=caches[j]) for j, p in enumerate(pieces)]
        for j, c in enumerate(parts):
            line[j], lo[j], hi[j] = c.line, c.low, c.high
        return line, lo, hi, how, np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int64), \
            np.zeros(0, dtype=np.int64)
    except (Unsupported, ArithmeticError, ValueError, TypeError):
        pass
    for k in range(Y):
        coords = {x_name: Vec.array(xs, max(X - 1, 0)), k_name: Vec.array(np.full(X, k, dtype=np.int64), k)}
        idx = flat + k
        row: list | None
        try:
            row = [p.evaluate(game, coords, Y, cache=caches[j]) for j, p in enumerate(pieces)]
        except (Unsupported, ArithmeticError, ValueError, TypeError):
            row = None
        if row is not None:
            for j, c in enumerate(row):
                line[j, idx] = c.line
                lo[j, idx] = c.low
                hi[j, idx] = c.high
            continue
        if len(listed) + X > MAX_LISTED:
            return None
        for x in range(X):
            try:
                listed[x * Y + k] = game.options((x, k))
            except NimjosError:
                how[x * Y + k] = 2       # the language cannot list them here: the value stays unknown
    ptr = np.zeros(n + 1, dtype=np.int64)
    for i, opts in listed.items():
        how[i] = 1
        ptr[i + 1] = len(opts)
    ptr = np.cumsum(ptr)
    ox = np.zeros(int(ptr[-1]), dtype=np.int64)
    oy = np.zeros(int(ptr[-1]), dtype=np.int64)
    for i, opts in listed.items():
        for j, q in enumerate(opts):
            ox[ptr[i] + j], oy[ptr[i] + j] = q
    return line, lo, hi, how, ptr, ox, oy


def table(game: Any, X: int, Y: int, max_work: int = MAX_WORK) -> np.ndarray | None:
    """The Grundy values of the box [0, X) x [0, Y) (int32, indexed [x, k]; -1 where unknown), or None when the
    moves do not have the shape or the work would exceed `max_work`.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> g = GameDecl.declare("g", {"position": ["x", "k"], "moves": [{"to": "(x - t, k + 1)", "where": "1 <= t <= min(x, k)"}]},
    ...                      Namespace()).instance(())
    >>> table(g, 4, 4).tolist()
    [[0, 0, 0, 0], [0, 1, 1, -1], [0, 0, -1, -1], [0, -1, -1, -1]]
    >>> nim = GameDecl.declare("nim", {"position": ["x", "k"], "moves": [{"to": "(x - t, k)", "where": "1 <= t <= x"}]},
    ...                        Namespace()).instance(())
    >>> table(nim, 4, 4) is None      # options on the same row: the line engine's
    True
    """
    pieces = plan(game)
    if not pieces or game.dim != 2 or any(p.point or p.direction != ROW for p in pieces):
        return None
    rows = _rows(game, pieces, X, Y)
    if rows is None:
        return None
    line, lo, hi = rows[:3]
    ks = np.tile(np.arange(Y, dtype=np.int64), X)
    if not np.any((hi >= lo) & (line > ks)):
        return None      # options never on a later row: the line engine's games (or the reference engine's)
    out = _kernel(X, Y, *rows, max_work)
    if out.size != X * Y:
        return None
    return out.reshape(X, Y)


def solve(game: Any, positions: list, engine: Any, min_positions: int | None = None) -> str | None:
    """Compute the box from row 0 to the requested rows plus the largest x (a move of Turn Nim climbs one row)
    into ``game.dense``; the engine's name when every requested position got its value, else None.

    >>> solve(None, [(1, 2)], None) is None
    True
    """
    if game is None or getattr(game, "dim", None) != 2 or not positions or getattr(game, "decl", None) is None:
        return None
    pieces = plan(game)
    if not pieces or any(p.point or p.direction != ROW for p in pieces):
        return None
    X = max(p[0] for p in positions) + 1
    Y = max(p[1] for p in positions) + X + 1
    old = game.dense
    if old is not None and old.ndim == 2:
        X, Y = max(X, old.shape[0]), max(Y, old.shape[1])
    floor = min_positions if min_positions is not None else MIN_POSITIONS
    limit = min(MAX_POSITIONS, getattr(engine, "max_positions", None) or MAX_POSITIONS)
    if X * Y < floor or X * Y > limit:
        return None
    values = table(game, X, Y)
    if values is None or any(values[p] < 0 for p in positions):
        return None
    game.dense = values
    return NAME


__all__ = ["NAME", "table", "solve"]
