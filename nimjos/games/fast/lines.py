"""The line-interval engine: Grundy values of games whose options, at every position, are intervals of
rows, columns, diagonals or anti-diagonals of the grid (1-D games: intervals of the axis).

Maximum Nim (``to = "x - t", where = "1 <= t <= floor(x / k)"``, any rule function), subtraction games
with an interval or a small finite set, Nim, Wythoff and Josephus Nim have this shape. The engine reads it
from the declared moves (:mod:`nimjos.games.fast.pieces`), never from a claim; it computes the whole box
``[0, X) x [0, Y)`` that covers the requested positions, chunk by chunk: the pieces' intervals with numpy
(exact int64 arithmetic), checked to lie in the box before their position, then the compiled mex kernel
(:mod:`nimjos.games.fast.kernels`). Values go to ``game.dense`` (int32; a 2-D game's array is indexed [x, y]).

>>> from nimjos.games.engine import ReferenceEngine
>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> decl = GameDecl.declare("maxnim", {"params": ["k"], "position": ["x"],
...     "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
>>> game = decl(2)
>>> solve(game, [20], ReferenceEngine(), min_positions=0)
'fast engine (1-D interval options, numba)'
>>> game.dense[:12].tolist()
[0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1]
"""
from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from nimjos.games.fast.arith import Unsupported, Vec
from nimjos.games.fast.pieces import ANTI, COL, DIAG, ROW, Piece, pieces_of
from nimjos.lang.errors import NimjosError, ResourceError
from nimjos.games.fast.kernels import state_bytes
from nimjos.games.fast.kernels import State, run_chunk

NAME_1D = "fast engine (1-D interval options, numba)"
NAME_2D = "fast engine (2-D row/column/diagonal interval options, numba)"
#: positions per chunk (the numpy work of a chunk is a few int64 arrays of this length per piece)
CHUNK = 1 << 16
#: intervals shorter than this are read directly instead of through a window
SMALL = 8
#: below this many positions the reference engine answers (no numba start-up for small windows);
#: an engine attribute ``fast_min_positions`` overrides it
MIN_POSITIONS = 20_000
#: ... unless the reference engine's work, positions times the most options of one, reaches this (Maximum Nim
#: with f(x) = floor(x / 2) has x / 2 options at x: a box of 10,000 positions is 25 million moves for it)
MIN_WORK = 50_000
#: most bytes one run may use; an engine attribute ``max_bytes`` overrides it
MAX_BYTES = 4 << 30
#: how many times the box may grow in y to hold options that lie beyond it
MAX_REGROW = 3

_PLANS: "weakref.WeakKeyDictionary[Any, list[Piece] | None]" = weakref.WeakKeyDictionary()


def plan(game: Any) -> list[Piece] | None:
    """The game's pieces, or None when its moves do not have the shape (cached per game instance).

    >>> plan(None) is None
    True
    """
    if game is None:
        return None
    try:
        return _PLANS[game]
    except KeyError:
        pass
    try:
        pieces: list[Piece] | None = pieces_of(game)
    except Unsupported:
        pieces = None
    _PLANS[game] = pieces
    return pieces


def _box(game: Any, positions: list) -> tuple[int, int]:
    """The box [0, X) x [0, Y) to compute: it covers the requested positions and the values already computed,
    and at least doubles a side that must grow (so a window creeping outwards costs O(its size) in all)."""
    if game.dim == 1:
        X, Y = max(positions) + 1, 1
    else:
        X, Y = max(p[0] for p in positions) + 1, max(p[1] for p in positions) + 1
    old = game.dense
    if old is not None:
        X0, Y0 = (len(old), 1) if game.dim == 1 else old.shape
        X = max(X, 2 * X0) if X > X0 else X0
        Y = max(Y, 2 * Y0) if Y > Y0 else Y0
    return X, Y


def _windows(piece: Piece, X: int, Y: int) -> tuple[int, int]:
    """(number of lines needing a window, longest interval) of a piece in the box."""
    if piece.point:
        return 0, 1
    if piece.direction == ROW:
        return Y, X
    if piece.direction == COL:
        return X, Y
    return X + Y - 1, min(X, Y)


def estimate(pieces: list[Piece], X: int, Y: int) -> tuple[int, int, int]:
    """(bytes, windows, value bound) of a run over the box: the Grundy array, the windows and the chunk
    arrays. The value bound is 1 + the most options a position can have.

    >>> from nimjos.games.fast.pieces import Piece
    >>> estimate([Piece(None, "t", None, ROW, False)], 1000, 1)
    (128564, 1, 1001)
    """
    windows = sum(_windows(p, X, Y)[0] for p in pieces)
    values = 1 + sum(_windows(p, X, Y)[1] for p in pieces)
    chunk = min(CHUNK, X * Y)
    nbytes = 4 * X * Y + state_bytes(windows, values) + (3 * len(pieces) + 12) * 8 * chunk
    return nbytes, windows, values


def _limits(game: Any, pieces: list[Piece], engine: Any, X: int, Y: int) -> tuple[int, int] | None:
    """Check the box against the resource guard; (windows, values) when it may run, None to fall back.

    Over the limits, a game whose every piece moves along a line reaches (nearly) the whole box, so the
    reference engine could not do it either: that is refused with the estimate; a game with single-option
    pieces may reach far fewer positions and is left to the reference engine.
    """
    nbytes, windows, values = estimate(pieces, X, Y)
    max_positions = getattr(engine, "max_positions", None) or X * Y
    max_bytes = getattr(engine, "max_bytes", None) or MAX_BYTES
    if X * Y <= max_positions and nbytes <= max_bytes:
        return windows, values
    if any(p.point for p in pieces):
        return None
    box = f"of {X:,} positions" if Y == 1 else f"of the box {X:,} x {Y:,} ({X * Y:,} positions)"
    raise ResourceError(f"{game.label}: the Grundy table {box} needs about "
                        f"{nbytes / 2**20:,.0f} MiB (limits: {max_positions:,} positions, "
                        f"{max_bytes / 2**20:,.0f} MiB)", hint="shrink the window or raise --max-positions")


def _coords(game: Any, start: int, n: int, X: int, Y: int) -> dict[str, Vec]:
    """The coordinates of the flat positions start .. start + n - 1 (whole rows x when the chunk is rows).

    >>> g = type("G", (), {"dim": 2, "coords": ("x", "y")})()
    >>> [v.num.tolist() for v in _coords(g, 3, 6, 3, 3).values()]
    [[1, 1, 1, 2, 2, 2], [0, 1, 2, 0, 1, 2]]
    """
    if game.dim == 1:
        return {game.coords[0]: Vec.array(np.arange(start, start + n, dtype=np.int64), X - 1)}
    if start % Y == 0 and n % Y == 0:
        x = np.repeat(np.arange(start // Y, (start + n) // Y, dtype=np.int64), Y)
        y = np.tile(np.arange(Y, dtype=np.int64), n // Y)
    else:
        flat = np.arange(start, start + n, dtype=np.int64)
        x = flat // Y
        y = flat - x * Y
    return {game.coords[0]: Vec.array(x, X - 1), game.coords[1]: Vec.array(y, Y - 1)}


def _chunk(Y: int) -> int:
    """Positions per chunk: whole rows of the grid when a row is not longer than CHUNK.

    >>> _chunk(1) == CHUNK, _chunk(1000)
    (True, 65000)
    """
    return CHUNK if Y > CHUNK else Y * (CHUNK // Y)


def compute(game: Any, pieces: list[Piece], X: int, Y: int, windows: int, values: int) -> tuple[Any, int]:
    """Grundy values of the box in x-major order (flat int32): (array, Y); (None, the y extent needed) when
    options lie beyond the box in y. Unsupported when an option is negative or does not come first.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> nim2 = GameDecl.declare("nim2", {"position": ["x", "y"], "moves": [{"to": "(x - t, y)", "where": "1 <= t <= x"},
    ...     {"to": "(x, y - t)", "where": "1 <= t <= y"}]}, Namespace()).instance(())
    >>> pieces = plan(nim2)
    >>> values, Y = compute(nim2, pieces, 4, 4, *estimate(pieces, 4, 4)[1:])
    >>> values.reshape(4, 4)[3].tolist()
    [3, 2, 1, 0]
    """
    N = X * Y
    dense = np.full(N, -1, dtype=np.int32)
    state = State.allocate(windows, values)
    fdir = np.array([p.direction for p in pieces], dtype=np.int64)
    fbase = np.full(len(pieces), -1, dtype=np.int64)
    base = 0
    for i, p in enumerate(pieces):
        count = _windows(p, X, Y)[0]
        if count:
            fbase[i] = base
            base += count
    caches: list[dict] = [{} for _ in pieces]
    size = _chunk(Y)
    for start in range(0, N, size):
        n = min(size, N - start)
        coords = _coords(game, start, n, X, Y)
        line = np.empty((len(pieces), n), dtype=np.int64)
        lo = np.empty_like(line)
        hi = np.empty_like(line)
        for i, p in enumerate(pieces):
            p.evaluate(game, coords, Y, out=(line[i], lo[i], hi[i]), cache=caches[i])
        status = run_chunk(dense, X, Y, start, n, fdir, fbase, line, lo, hi, *state.args(), SMALL)
        if status > 0:
            return None, int(status)
        if status < 0:
            raise Unsupported("an option outside the box or not before its position")
    return dense, Y
def _options_at_corner(game: Any, X: int, Y: int) -> int:
    """How many options the box's far corner has (about the most of any position of the box); 0 when they
    cannot be listed.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> maxnim = GameDecl.declare("m", {"params": ["k"], "position": ["x"],
    ...     "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
    >>> _options_at_corner(maxnim(2), 1001, 1), _options_at_corner(maxnim(1000), 1001, 1)
    (500, 1)
    """
    corner = X - 1 if game.dim == 1 else (X - 1, Y - 1)
    try:
        return len(game.options(corner))
    except NimjosError:
        return 0


def solve(game: Any, positions: list, engine: Any, min_positions: int | None = None) -> str | None:
    """Compute the box covering `positions` into ``game.dense`` and return the engine's name; None when
    the game's moves do not have the shape, or the box is small enough for the reference engine.

    >>> from nimjos.games.declared import subtraction
    >>> solve(subtraction(frozenset({1})), [10**6], None) is None     # not declared moves
    True
    """
    pieces = plan(game)
    if not pieces or not positions:
        return None
    X, Y = _box(game, positions)
    floor = min_positions if min_positions is not None else getattr(engine, "fast_min_positions", MIN_POSITIONS)
    if X * Y < floor and X * Y * _options_at_corner(game, X, Y) < MIN_WORK:
        return None
    for _ in range(MAX_REGROW + 1):
        sized = _limits(game, pieces, engine, X, Y)
        if sized is None:
            return None
        try:
            dense, need = compute(game, pieces, X, Y, *sized)
        except Unsupported:
            return None
        if dense is not None:
            game.dense = dense if game.dim == 1 else dense.reshape(X, Y)
            return NAME_1D if game.dim == 1 else NAME_2D
        Y = max(need, 2 * Y)
    return None


__all__ = ["solve", "plan", "estimate", "compute", "NAME_1D", "NAME_2D", "ROW", "COL", "DIAG", "ANTI"]
