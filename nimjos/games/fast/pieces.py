"""Read a declared game's move families as *pieces*: at every position, a piece's options are one interval
of a line of positions (a row, a column, a diagonal or an anti-diagonal of the grid; the whole axis of a
1-D game), or a single position.

A family ``{to = T, where = W}`` is a piece when W binds at most one name t, every conjunct of W is
linear in t (or free of it), and each coordinate of T is ``a + b t`` with b in {-1, 0, 1}: the options
then are ``a + b t`` for t in ``[lo, hi]``, one interval. A family whose t ranges over a finite set
(``s in {2, 3}``) gives one single-position piece per member. Anything else raises
:class:`~nimjos.games.fast.arith.Unsupported` (the game is left to the reference engine).

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> decl = GameDecl.declare("maxnim", {"params": ["k"], "position": ["x"],
...     "moves": [{"to": "x - t", "where": "1 <= t <= floor(x / k)"}]}, Namespace())
>>> p, = pieces_of(decl(3))
>>> chunk = p.evaluate(decl(3), {"x": arith.Vec.array(np.arange(8), 7)}, 1)
>>> chunk.low.tolist(), chunk.high.tolist()      # low > high: no option
([0, 1, 2, 2, 3, 4, 4, 5], [-1, 0, 1, 2, 3, 4, 5, 6])
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

import nimjos.games.fast.arith as arith
from nimjos.games.fast.arith import Unsupported, Vec
from nimjos.games.fast.translate import Translator, linear_parts
from nimjos.lang.binders import conjuncts
from nimjos.lang.compiler import Namespace

#: the lines of the grid: a row (y fixed, x varies), a column, a diagonal (x - y fixed), an anti-diagonal
ROW, COL, DIAG, ANTI = 0, 1, 2, 3
#: most members of a finite set a family may range over
MAX_MEMBERS = 64


@dataclass
class Chunk:
    """A piece over a chunk of positions: the line of each position's options and the interval on it
    (low > high when the position has no option in this piece).

    >>> Chunk(np.zeros(2, dtype=np.int64), np.array([0, 1]), np.array([-1, 4])).high.tolist()
    [-1, 4]
    """

    line: np.ndarray
    low: np.ndarray
    high: np.ndarray


def namespace_of(game: Any) -> Namespace:
    """The namespace the game's moves were compiled in (definitions included when the declaration keeps it).

    >>> isinstance(namespace_of(None), Namespace)
    True
    """
    ns = getattr(getattr(game, "decl", None), "namespace", None)
    return ns if isinstance(ns, Namespace) else Namespace()


def param_env(game: Any) -> dict[str, Any]:
    """The game's params as translator values: numbers as constants, functions as they are.

    >>> param_env(type("G", (), {"params": {"k": 3, "f": len}})())["k"]
    Vec(num=3, den=1, mag=3)
    """
    env: dict[str, Any] = {}
    for name, value in game.params.items():
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            env[name] = Vec.const(value)
        else:
            env[name] = value
    return env


@dataclass
class Piece:
    """One family of moves (or one member of a family's finite set) read as intervals on lines.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> wythoff = GameDecl.declare("w", {"position": ["x", "y"], "moves": [
    ...     {"to": "(x - t, y - t)", "where": "1 <= t <= min(x, y)"}]}, Namespace())
    >>> p, = pieces_of(wythoff.instance(()))
    >>> p.direction == DIAG, p.point
    (True, False)
    """

    family: Any
    bound: str | None
    pin: int | None
    direction: int
    point: bool

    def translator(self, game: Any, coords: dict[str, Vec], cache: dict | None = None) -> Translator:
        """A translator over a chunk: params, coordinates, and t (symbolic, or pinned to a member).

        >>> game = type("G", (), {"params": {}, "decl": None})()
        >>> Piece(None, "s", 2, ROW, True).translator(game, {}).env["s"]
        Vec(num=2, den=1, mag=2)
        """
        env = param_env(game)
        env.update(coords)
        if self.pin is not None and self.bound is not None:    # a pin is a member of the bound name's set
            env[self.bound] = Vec.const(self.pin)
            return Translator(namespace_of(game), env, cache=cache)
        return Translator(namespace_of(game), env, bound=self.bound, cache=cache)

    def evaluate(self, game: Any, coords: dict[str, Vec], Y: int, out: tuple | None = None,
                 cache: dict | None = None) -> Chunk:
        """The line and the interval of options of every position of a chunk (coords: its coordinates),
        written into `out` = (line, low, high) when given. `cache` keeps folded constants between chunks.

        >>> from nimjos.lang.compiler import Namespace
        >>> from nimjos.games.declared import GameDecl
        >>> sub = GameDecl.declare("s", {"position": ["n"], "moves": [{"to": "n - t", "where": "2 <= t <= 4"}]},
        ...                        Namespace()).instance(())
        >>> p, = pieces_of(sub)
        >>> c = p.evaluate(sub, {"n": Vec.array(np.array([3, 9]), 9)}, 1)
        >>> c.low.tolist(), c.high.tolist()
        ([-1, 5], [1, 7])
        """
        n = len(next(iter(coords.values())).num)
        if out is None:
            out = tuple(np.empty(n, dtype=np.int64) for _ in range(3))
        line_out, low_out, high_out = out
        tr = self.translator(game, coords, cache)
        bounds = tr.bounds(self.family.binder.tree)
        a, coefs = _target(self.family, tr, game.dim)
        live = bounds.mask
        lo = hi = 0
        if self.bound is not None and self.pin is None:
            lo, hi = bounds.low(), bounds.high()
            if self.point:  # one option, when the range of t is not empty
                live = np.logical_and(live, np.less_equal(lo, hi))
                lo = hi = 0
        along, line = _line(self.direction, a[0], a[1] if len(a) > 1 else 0, Y)
        line_out[...] = line
        if coefs[0] < 0 or (coefs[0] == 0 and coefs[-1] < 0):
            np.subtract(along, hi, out=low_out)
            np.subtract(along, lo, out=high_out)
        else:
            np.add(along, lo, out=low_out)
            np.add(along, hi, out=high_out)
        if live is not True:   # empty where a t-free conjunct fails
            empty = np.logical_not(live)
            np.copyto(low_out, 0, where=empty)
            np.copyto(high_out, -1, where=empty)
        return Chunk(line_out, low_out, high_out)


def _target(family: Any, tr: Translator, dim: int) -> tuple[list, list[int]]:
    """The option a + b t of a family, per coordinate: (a as integers, b as ints in {-1, 0, 1})."""
    tree = family.to_tree
    parts = tree.elts if isinstance(tree, ast.Tuple) else [tree]
    if len(parts) != dim:
        raise Unsupported("a move target with the wrong number of coordinates")
    a, coefs = [], []
    for p in parts:
        coef, rest = linear_parts(tr.value(p))
        if coef not in (-1, 0, 1):
            raise Unsupported("a move whose options are not consecutive positions of a line")
        coefs.append(int(coef))
        a.append(rest.integers())
    return a, coefs


def _direction(coefs: list[int]) -> tuple[int, bool]:
    """The line a family's options lie on, from the coefficients of t; (ROW, True) for a single option.

    >>> _direction([-1, -1]), _direction([0, 1]), _direction([1, -1]), _direction([0, 0])
    ((2, False), (1, False), (3, False), (0, True))
    """
    if len(coefs) == 1:
        coefs = coefs + [0]
    b0, b1 = coefs
    if b0 == 0 and b1 == 0:
        return ROW, True
    if b1 == 0:
        return ROW, False
    if b0 == 0:
        return COL, False
    return (DIAG if b0 == b1 else ANTI), False


def _line(direction: int, a0: Any, a1: Any, Y: int) -> tuple[Any, Any]:
    """(the coordinate along the line of the option a, its line number) for t = 0."""
    if direction == ROW:
        return a0, a1
    if direction == COL:
        return a1, a0
    if direction == DIAG:
        return a0, a0 - a1 + (Y - 1)
    return a0, a0 + a1


def pieces_of(game: Any) -> list[Piece]:
    """The pieces of a declared game's move families; Unsupported when a family is not interval-shaped.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> sub = GameDecl.declare("s", {"position": ["n"], "moves": [{"to": "n - s", "where": "s in {2, 3} and s <= n"}]},
    ...                        Namespace())
    >>> [(p.pin, p.point) for p in pieces_of(sub.instance(()))]
    [(2, True), (3, True)]
    """
    decl = getattr(game, "decl", None)
    if decl is None or game.dim not in (1, 2):
        raise Unsupported("not a declared game of one or two coordinates")
    probe = {c: Vec.array(np.zeros(1, dtype=np.int64), 0) for c in game.coords}
    out: list[Piece] = []
    for fam in decl.moves:
        names = fam.binder.names
        if len(names) > 1:
            raise Unsupported("a move family binding more than one name")
        bound = names[0] if names else None
        members = _members(fam, bound, game) if bound else None
        for pin in (members if members is not None else [None]):
            piece = Piece(fam, bound, pin, ROW, True)
            _, coefs = _target(fam, piece.translator(game, probe), game.dim)
            if pin is None and bound is not None:
                piece.direction, piece.point = _direction(coefs)
            out.append(piece)
    return out


def _members(fam: Any, bound: str, game: Any) -> list[int] | None:
    """The members of ``t in S`` when a conjunct of the family's condition says so, else None."""
    for part in conjuncts(fam.binder.tree):
        if isinstance(part, ast.Compare) and len(part.ops) == 1 and isinstance(part.ops[0], ast.In) \
                and isinstance(part.left, ast.Name) and part.left.id == bound:
            tr = Translator(namespace_of(game), param_env(game))
            values = tr._fold(part.comparators[0])
            if not isinstance(values, (frozenset, tuple, range)) or len(values) > MAX_MEMBERS \
                    or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < arith.SAFE
                               for v in values):
                raise Unsupported("a family over a set that is not a small finite set of integers")
            return sorted(set(values))
    return None
