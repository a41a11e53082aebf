"""The weight-band engine: the P-positions of two-coordinate games whose options from (x, y) are the positions
(x - t, y - u) with t in an interval, u in an interval and a weight a*t + b*u in an interval (a, b positive
integer constants; the three intervals' ends may depend on the position).

Weighted Nim (remove t stones of weight 2 and u of weight 1, 1 <= 2t + u <= floor((2x + y) / 2)) has this shape.
The engine reads it from the declared moves, never from a claim: each conjunct of the move's condition must be
linear in (t, u) with constant coefficients, and the conjuncts that involve both names must share one direction
(a, b). A position's options then fill a box intersected with a band of the weight a*x + b*y, so they cannot be
listed (a quarter of a million options at weight 3000) but they can be *searched*: positions are visited by
increasing weight, the P-positions found so far are kept per weight sorted by x, and a position is a P-position
exactly when no P-position lies in its option region (the weights of the band that hold a P-position are
scanned, each by a binary search). The engine computes P-positions only, not Grundy values: it answers
:func:`nimjos.games.fast.outcomes_fast`, never ``G``.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> wn = GameDecl.declare("wn", {"position": ["x", "y"], "moves": [{"to": "(x - t, y - u)",
...     "where": "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)"}]}, Namespace()).instance(())
>>> table = p_table(wn, 8, 4)
>>> [(x, y) for x in range(8) for y in range(4) if table[x, y]]
[(0, 0), (0, 1), (0, 3), (1, 0), (2, 1), (3, 0), (5, 3), (6, 1), (7, 0)]
"""
from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

import nimjos.games.fast.arith as arith
from nimjos.games.fast.arith import Unsupported, Vec
from nimjos.games.fast.pieces import namespace_of, param_env
from nimjos.games.fast.translate import Bounds, Translator, compare_with_zero, linear_parts
from nimjos.lang.binders import conjuncts
from nimjos.lang.syntax import free_names
from nimjos.lang.lazy import compiled_on_use

NAME = "fast engine (P-positions of weight-band options, numba)"
#: below this many positions the reference engine answers (it also gives the Grundy values, which reports plot)
MIN_POSITIONS = 2_000
#: most positions of one table (the box is computed whole)
MAX_POSITIONS = 16_000_000
#: bytes a position of the box costs (its six interval ends, the table, the work arrays, the visiting order)
BYTES_PER_POSITION = 96
#: most (position, weight of the band holding a P-position) pairs one table may visit; over it the game is left
#: to the reference engine (a count, so the answer never depends on the machine's load)
MAX_WORK = 400_000_000

#: the intervals [tlo, thi], [ulo, uhi], [wlo, whi] of t, u and the weight at each position (:func:`ranges`)
Ranges = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


@dataclass(frozen=True)
class Shape:
    """A game's moves read as (x - t, y - u) with bounds on t, on u and on the weight a*t + b*u.

    >>> Shape(None, "t", "u", 2, 1, ()).weight
    (2, 1)
    """

    family: Any
    t: str
    u: str
    a: int
    b: int
    parts: tuple    # (kind, coef, left tree, op, right tree) or ("mask", tree)

    @property
    def weight(self) -> tuple[int, int]:
        """(a, b): the weight of a position (x, y) is a*x + b*y."""
        return self.a, self.b


_SHAPES: "weakref.WeakKeyDictionary[Any, Shape | None]" = weakref.WeakKeyDictionary()
_TABLES: "weakref.WeakKeyDictionary[Any, np.ndarray]" = weakref.WeakKeyDictionary()


def _linear(node: ast.expr, env: dict, t: str, u: str, ns: Any) -> tuple[Fraction, Fraction]:
    """The constant coefficients (of t, of u) of an expression linear in t and u; Unsupported otherwise."""
    zero, one = Vec.const(0), Vec.const(1)
    coefs = []
    for bound, other in ((t, u), (u, t)):
        seen = set()
        for pin in (zero, one):
            v = Translator(ns, {**env, other: pin}, bound=bound).value(node)
            seen.add(linear_parts(v)[0])
        if len(seen) != 1:
            raise Unsupported("a product of the two bound names")
        coefs.append(seen.pop())
    return coefs[0], coefs[1]


def shape_of(game: Any) -> Shape | None:
    """The game's moves as a :class:`Shape`, or None when they do not have it (cached per game instance).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> wn = GameDecl.declare("wn", {"position": ["x", "y"], "moves": [{"to": "(x - t, y - u)",
    ...     "where": "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)"}]}, Namespace())
    >>> shape_of(wn.instance(())).weight
    (2, 1)
    >>> nim = GameDecl.declare("nim", {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]},
    ...                        Namespace())
    >>> shape_of(nim.instance(())) is None
    True
    """
    if game is None:
        return None
    try:
        return _SHAPES[game]
    except KeyError:
        pass
    try:
        shape: Shape | None = _read(game)
    except Unsupported:
        shape = None
    except (ArithmeticError, TypeError, ValueError):
        shape = None
    _SHAPES[game] = shape
    return shape


def _read(game: Any) -> Shape:
    decl = getattr(game, "decl", None)
    if decl is None or game.dim != 2 or len(decl.moves) != 1:
        raise Unsupported("not a declared game of two coordinates with one move family")
    fam = decl.moves[0]
    names = tuple(fam.binder.names)
    if len(names) != 2:
        raise Unsupported("a move family that does not bind two names")
    ns = namespace_of(game)
    env = param_env(game)
    env.update({c: Vec.array(np.zeros(1, dtype=np.int64), 0) for c in game.coords})
    t, u = names
    tree = fam.to_tree
    if not isinstance(tree, ast.Tuple) or len(tree.elts) != 2:
        raise Unsupported("a move target that is not a pair")
    # the target must be (x - t, y - u), or (x - u, y - t)
    coefs = [_linear(e, env, t, u, ns) for e in tree.elts]
    if coefs == [(0, -1), (-1, 0)]:
        t, u = u, t
    elif coefs != [(-1, 0), (0, -1)]:
        raise Unsupported("a move target other than (x - t, y - u)")
    probe = dict(env)
    probe[game.coords[0]] = Vec.array(np.array([7], dtype=np.int64), 7)
    probe[game.coords[1]] = Vec.array(np.array([11], dtype=np.int64), 11)
    probe.update({t: Vec.const(0), u: Vec.const(0)})
    for e, want in zip(tree.elts, (7, 11)):   # the rest must be the coordinate itself
        rest = Translator(ns, probe).value(e)
        if rest.den != 1 or np.asarray(rest.integers()).tolist() not in (want, [want]):
            raise Unsupported("a move target other than (x - t, y - u)")
    parts: list[tuple] = []    # (kind, coef, left tree, op, right tree) or ("mask", tree)
    direction: tuple[int, int] | None = None
    for part in conjuncts(fam.binder.tree):
        if not (set(free_names(part)) & {t, u}):
            parts.append(("mask", part))
            continue
        if not isinstance(part, ast.Compare):
            raise Unsupported("a condition on the bound names that is not a comparison")
        items = [part.left, *part.comparators]
        for left, op, right in zip(items, part.ops, items[1:]):
            if isinstance(op, (ast.In, ast.NotIn, ast.NotEq, ast.Is, ast.IsNot)):
                raise Unsupported("a membership or '!=' on the bound names")
            lt, lu = _linear(left, env, t, u, ns)
            rt, ru = _linear(right, env, t, u, ns)
            dt, du = lt - rt, lu - ru
            if dt == 0 and du == 0:
                parts.append(("cmp", Fraction(0), left, op, right))
            elif du == 0:
                parts.append(("t", dt, left, op, right))
            elif dt == 0:
                parts.append(("u", du, left, op, right))
            else:
                ratio = dt / du
                if ratio <= 0:
                    raise Unsupported("a weight with coefficients of opposite signs")
                d = (ratio.numerator, ratio.denominator)
                if direction is not None and d != direction:
                    raise Unsupported("two different weights")
                direction = d
                parts.append(("w", dt / d[0], left, op, right))
    if direction is None:
        raise Unsupported("no condition on a weight of both names")
    return Shape(fam, t, u, direction[0], direction[1], tuple(parts))


def ranges(game: Any, shape: Shape, x: np.ndarray, y: np.ndarray) -> Ranges:
    """The intervals [tlo, thi], [ulo, uhi], [wlo, whi] of t, u and the weight a*t + b*u at the positions (x, y)
    (empty intervals where a condition free of t and u fails).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> wn = GameDecl.declare("wn", {"position": ["x", "y"], "moves": [{"to": "(x - t, y - u)",
    ...     "where": "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)"}]}, Namespace()).instance(())
    >>> [r.tolist() for r in ranges(wn, shape_of(wn), np.array([3]), np.array([1]))]
    [[0], [3], [0], [1], [1], [3]]
    """
    n = len(x)
    mag = int(max(int(x.max()) if n else 0, int(y.max()) if n else 0))
    ns = namespace_of(game)
    env = param_env(game)
    env[game.coords[0]] = Vec.array(x.astype(np.int64), mag)
    env[game.coords[1]] = Vec.array(y.astype(np.int64), mag)
    env[shape.t] = Vec.const(0)
    env[shape.u] = Vec.const(0)
    tr = Translator(ns, env)
    bounds = {"t": Bounds(), "u": Bounds(), "w": Bounds()}
    mask: Any = True
    for part in shape.parts:
        if part[0] == "mask":
            m = tr.mask(part[1])
            mask = np.logical_and(mask, m) if not (m is True) else mask
            continue
        kind, coef, left, op, right = part
        ra, rb = tr.value(left), tr.value(right)   # the parts free of t and u (both are 0 here)
        if kind == "cmp":
            m = compare_with_zero(arith.sub(ra, rb), type(op))
            mask = np.logical_and(mask, m) if not (m is True) else mask
            continue
        b = bounds[kind]
        if isinstance(op, (ast.LtE, ast.Lt)):
            b.add_le(coef, arith.sub(rb, ra), isinstance(op, ast.Lt))
        elif isinstance(op, (ast.GtE, ast.Gt)):
            b.add_le(-coef, arith.sub(ra, rb), isinstance(op, ast.Gt))
        else:   # ==
            b.add_le(coef, arith.sub(rb, ra), False)
            b.add_le(-coef, arith.sub(ra, rb), False)
    out = []
    for key in ("t", "u"):
        lo = np.broadcast_to(np.asarray(bounds[key].low(), dtype=np.int64), (n,)).copy()
        hi = np.broadcast_to(np.asarray(bounds[key].high(), dtype=np.int64), (n,)).copy()
        out += [lo, hi]
    # the weight's bounds implied by those of t and u (exact: they leave the options as they are)
    arith._guard(max(shape.a, shape.b) * (max(_mag(v) for v in out) + 1) * 2)
    w = bounds["w"]
    w.lows.append(shape.a * out[0] + shape.b * out[2])
    w.highs.append(shape.a * out[1] + shape.b * out[3])
    out += [np.asarray(w.low(), dtype=np.int64), np.asarray(w.high(), dtype=np.int64)]
    if mask is not True:
        empty = np.logical_not(np.broadcast_to(mask, (n,)))
        out[1][empty] = out[0][empty] - 1
    tlo, thi, ulo, uhi, wlo, whi = out
    return tlo, thi, ulo, uhi, wlo, whi


def _mag(v: np.ndarray) -> int:
    return int(np.abs(v).max()) if v.size else 0


@compiled_on_use(cache=True)
def _search(px, start, end, lo):  # pragma: no cover - compiled
    """The first index i in [start, end) with px[i] >= lo (px sorted there), or end."""
    while start < end:
        mid = (start + end) >> 1
        if px[mid] < lo:
            start = mid + 1
        else:
            end = mid
    return start


@compiled_on_use(cache=True)
def _first_weight(nz, nnz, wval, lo):  # pragma: no cover - compiled
    """The first j < nnz with wval[nz[j]] >= lo (increasing there), or nnz."""
    start, end = 0, nnz
    while start < end:
        mid = (start + end) >> 1
        if wval[nz[mid]] < lo:
            start = mid + 1
        else:
            end = mid
    return start


@compiled_on_use(cache=True)
def _region(nz, nnz, wval, px, wstart, a, b, xl, xh, yl, yh, wl, wh):  # pragma: no cover - compiled
    """(whether a kept position lies in the region x in [xl, xh], y in [yl, yh], weight in [wl, wh], the weights
    scanned). The kept positions, by weight: the weight of rank r is wval[r], the sorted x of its kept positions
    px[wstart[r]:wstart[r + 1]]; nz[:nnz] the ranks holding one, increasing. Arrays are indexed by rank, never
    by weight: their sizes are the positions', whatever the weights' coefficients."""
    j = _first_weight(nz, nnz, wval, wl)
    first = j
    while j < nnz and wval[nz[j]] <= wh:
        r = nz[j]
        wp = wval[r]
        lo = max(xl, -((b * yh - wp) // a))
        hi = min(xh, (wp - b * yl) // a)
        if lo <= hi:
            k = _search(px, wstart[r], wstart[r + 1], lo)
            if k < wstart[r + 1] and px[k] <= hi:
                return True, j - first + 1
        j += 1
    return False, j - first + 1


@compiled_on_use(cache=True)
def _kernel(X, Y, a, b, order, tlo, thi, ulo, uhi, wlo, whi, max_work):  # pragma: no cover - compiled
    """The P-positions of the box [0, X) x [0, Y) (flat, x-major), or an empty array when the work exceeds
    max_work. Positions are visited in `order`: by increasing weight a*x + b*y, each weight by increasing x."""
    n = X * Y
    isp = np.zeros(n, dtype=np.bool_)
    ranks = 0      # the distinct weights of the box
    for j in range(n):
        i = order[j]
        if j == 0 or a * (i // Y) + b * (i % Y) != a * (order[j - 1] // Y) + b * (order[j - 1] % Y):
            ranks += 1
    px = np.empty(n, dtype=np.int64)              # x of the P-positions, by weight, then by x
    wval = np.empty(ranks, dtype=np.int64)        # the weight of each rank, increasing
    wstart = np.zeros(ranks + 1, dtype=np.int64)  # where the P-positions of each rank start in px
    nz = np.empty(ranks, dtype=np.int64)          # the ranks that hold a P-position, increasing
    nnz = 0
    count = 0
    work = 0
    r = -1
    for j in range(n):
        i = order[j]
        x = i // Y
        y = i - x * Y
        w = a * x + b * y
        if r < 0 or w != wval[r]:
            if r >= 0:
                wstart[r + 1] = count
                if count > wstart[r]:
                    nz[nnz] = r
                    nnz += 1
                if work > max_work:
                    return np.zeros(0, dtype=np.bool_)
            r += 1
            wval[r] = w
            wstart[r] = count
        found = False
        if tlo[i] <= thi[i] and ulo[i] <= uhi[i] and wlo[i] <= whi[i]:
            found, steps = _region(nz, nnz, wval, px, wstart, a, b, x - thi[i], x - tlo[i], y - uhi[i], y - ulo[i],
                                   w - whi[i], w - wlo[i])
            work += steps
        if not found:
            isp[i] = True
            px[count] = x
            count += 1
    if work > max_work:
        return np.zeros(0, dtype=np.bool_)
    return isp


@compiled_on_use(cache=True)
def _query(px, wval, wstart, a, b, x, y, tlo, thi, ulo, uhi, wlo, whi, max_work):  # pragma: no cover - compiled
    """At each position (x[i], y[i]): whether one of the kept positions is among its options; an empty array when
    the work exceeds max_work. The kept positions by weight, as :func:`_region` reads them: the distinct weights
    wval (increasing), and the sorted x of those of weight wval[r] at px[wstart[r]:wstart[r + 1]]."""
    ranks = len(wval)
    nz = np.arange(ranks)
    out = np.zeros(len(x), dtype=np.bool_)
    work = 0
    for i in range(len(x)):
        if tlo[i] <= thi[i] and ulo[i] <= uhi[i] and wlo[i] <= whi[i]:
            w = a * x[i] + b * y[i]
            found, steps = _region(nz, ranks, wval, px, wstart, a, b, x[i] - thi[i], x[i] - tlo[i], y[i] - uhi[i],
                                   y[i] - ulo[i], w - whi[i], w - wlo[i])
            out[i] = found
            work += steps
            if work > max_work:
                return np.zeros(0, dtype=np.bool_)
    return out


def _checked_ranges(game: Any, shape: Shape, xs: np.ndarray, ys: np.ndarray, lighter: bool) -> Ranges | None:
    """:func:`ranges` at the positions, or None when an option could leave the box [0, x] x [0, y] (or, with
    `lighter`, weigh as much as its position) or the ranges cannot be computed exactly."""
    try:
        tlo, thi, ulo, uhi, wlo, whi = ranges(game, shape, xs, ys)
    except (Unsupported, ArithmeticError, ValueError, TypeError):
        return None
    live = (tlo <= thi) & (ulo <= uhi) & (wlo <= whi)
    if np.any(live & ((tlo < 0) | (ulo < 0) | (thi > xs) | (uhi > ys) | ((wlo < 1) if lighter else False))):
        return None
    return tlo, thi, ulo, uhi, wlo, whi


def any_option_in(game: Any, marked: np.ndarray, x: np.ndarray, y: np.ndarray,
                  max_work: int = MAX_WORK) -> np.ndarray | None:
    """At each position (x[i], y[i]): whether one of its options is marked (`marked`: a bool array [x, y] over a
    box holding the positions, and so their options); None when the game's moves do not have the shape or the
    work would exceed `max_work`. The options are searched, never listed.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> wn = GameDecl.declare("wn", {"position": ["x", "y"], "moves": [{"to": "(x - t, y - u)",
    ...     "where": "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)"}]}, Namespace()).instance(())
    >>> marked = np.zeros((8, 8), dtype=bool); marked[3, 0] = True      # (5, 0) and (6, 0) reach (3, 0), (7, 0) not
    >>> any_option_in(wn, marked, np.array([5, 6, 7, 3]), np.array([0, 0, 0, 0])).tolist()
    [True, True, False, False]
    """
    shape = shape_of(game)
    if shape is None or marked.ndim != 2:
        return None
    n = len(x)
    if n == 0:
        return np.zeros(0, dtype=np.bool_)
    x, y = x.astype(np.int64), y.astype(np.int64)
    X, Y = marked.shape
    if int(x.min()) < 0 or int(y.min()) < 0 or int(x.max()) >= X or int(y.max()) >= Y:
        return None
    found = _checked_ranges(game, shape, x, y, lighter=False)
    if found is None:
        return None
    mx, my = np.nonzero(marked)
    mw = shape.a * mx + shape.b * my
    order = np.lexsort((mx, mw))
    wsorted = mw[order].astype(np.int64)
    # the distinct weights and where each one's positions start, by numpy (in the kernel, numba's np.unique and
    # np.searchsorted took seconds to compile)
    wval = np.unique(wsorted)
    wstart = np.append(np.searchsorted(wsorted, wval), len(wsorted)).astype(np.int64)
    out = _query(mx[order].astype(np.int64), wval, wstart, shape.a, shape.b, x, y, *found, max_work)
    return out if out.size == n else None


def p_table(game: Any, X: int, Y: int, max_work: int = MAX_WORK) -> np.ndarray | None:
    """The P-positions of the box [0, X) x [0, Y) as a bool array indexed [x, y]; None when the game's moves do
    not have the shape (or an option could leave the box) or the work would exceed `max_work`.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> g = GameDecl.declare("g", {"position": ["x", "y"], "moves": [{"to": "(x - t, y - u)",
    ...     "where": "t >= 0 and u >= 0 and t <= x and u <= y and 1 <= t + u <= 2"}]}, Namespace()).instance(())
    >>> p_table(g, 4, 4).astype(int).tolist()     # remove 1 or 2 stones from two heaps together: 3 | x + y
    [[1, 0, 0, 1], [0, 0, 1, 0], [0, 1, 0, 0], [1, 0, 0, 1]]
    """
    shape = shape_of(game)
    if shape is None or X * Y == 0:
        return None
    xs = np.repeat(np.arange(X, dtype=np.int64), Y)
    ys = np.tile(np.arange(Y, dtype=np.int64), X)
    # every option must lie in the box and weigh less: 0 <= t <= x, 0 <= u <= y, weight removed >= 1
    found = _checked_ranges(game, shape, xs, ys, lighter=True)
    if found is None:
        return None
    tlo, thi, ulo, uhi, wlo, whi = found
    order = np.argsort(shape.a * xs + shape.b * ys, kind="stable")    # by weight, then x (x-major flat order)
    isp = _kernel(X, Y, shape.a, shape.b, order, tlo, thi, ulo, uhi, wlo, whi, max_work)
    if isp.size != X * Y:
        return None
    return isp.reshape(X, Y)


def solve(game: Any, coords: list[np.ndarray], engine: Any, min_positions: int | None = None) -> np.ndarray | None:
    """Whether each position (one int64 array per coordinate) is a P-position, from the table of the box that
    covers them (kept per game instance); None when the engine does not apply (then the Grundy values decide).

    >>> solve(None, [np.array([1]), np.array([2])], None) is None
    True
    """
    if game is None or getattr(game, "dim", None) != 2 or len(coords) != 2 or shape_of(game) is None:
        return None
    n = len(coords[0])
    if n == 0:
        return np.zeros(0, dtype=np.bool_)
    if int(coords[0].min()) < 0 or int(coords[1].min()) < 0:
        return None
    X, Y = int(coords[0].max()) + 1, int(coords[1].max()) + 1
    table = _TABLES.get(game)
    if table is None or table.shape[0] < X or table.shape[1] < Y:
        if table is not None:
            X, Y = max(X, table.shape[0]), max(Y, table.shape[1])
        floor = min_positions if min_positions is not None else getattr(engine, "fast_min_positions", MIN_POSITIONS)
        limit = min(MAX_POSITIONS, getattr(engine, "max_positions", None) or MAX_POSITIONS)
        if X * Y < floor or X * Y > limit:
            return None
        table = p_table(game, X, Y)
        if table is None:
            return None
        _TABLES[game] = table
    game.solved_by.add(NAME)
    return table[coords[0], coords[1]]


__all__ = ["NAME", "Shape", "shape_of", "ranges", "p_table", "solve", "any_option_in"]
