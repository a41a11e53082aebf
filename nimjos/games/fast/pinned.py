"""The pinned engine: a declared game (1-D or 2-D) with a move family that binds several names, such as the moves
Y of cyclic Nimhoff ``{to = "(x - s, y - t)", where = "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s)
and 0 < s + t"}``, read as the union of one family per value of its outer names (all but the last), each with
those names *pinned* to a constant and the whole condition kept; the line-interval engine
(:mod:`nimjos.games.fast.lines`) then computes the game so rewritten.

The rewriting is exact on the box it is made for: the values of each outer name are every integer between the
least lower bound and the largest upper bound that its range takes at any position of the box (its bounds
evaluated at every position at once, :mod:`nimjos.lang.vector`), and each pinned family keeps the family's
whole condition, so at every position it gives exactly the options whose outer names have those values. The
moves are read from the declaration, never from a claim. Anything else (a bound that cannot be evaluated on
arrays, more than :data:`MAX_PINS` families, a game the line-interval engine does not take) is left to the
reference engine.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> from nimjos.games.engine import ReferenceEngine
>>> cn = GameDecl.declare("cn", {"params": ["h"], "position": ["x", "y"], "moves": [
...     {"to": "(x - t, y)", "where": "1 <= t <= x"}, {"to": "(x, y - t)", "where": "1 <= t <= y"},
...     {"to": "(x - s, y - t)", "where": "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 < s + t"}]},
...     Namespace())
>>> solve(cn(3), [(200, 200)], ReferenceEngine())       # 40,401 positions
'fast engine (2-D row/column/diagonal interval options, numba; outer bound names pinned)'
>>> cn(3).dense[3, :6].tolist()
[3, 4, 5, 0, 1, 2]
"""
from __future__ import annotations

import ast
import weakref
from typing import Any, Sequence

import numpy as np

from nimjos.games.fast import lines
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError
from nimjos.lang.inline import substitute_call
from nimjos.lang.syntax import free_names, parse
from nimjos.lang.vector import NotVectorisable, vectorise

#: the most families one game may be rewritten into (pinned values of all its families together)
MAX_PINS = 256
#: the most points of a sub-box an expression is evaluated on at once (one int64 array per coordinate it names)
MAX_BOX = 4_000_000
NOTE = "; outer bound names pinned)"

_DERIVED: weakref.WeakKeyDictionary[Any, dict] = weakref.WeakKeyDictionary()


def substitute(text: str, values: dict[str, int]) -> str:
    """The text with the pinned names replaced by their values where they are free (by the one inliner,
    :func:`nimjos.lang.inline.substitute_call`: a name bound inside the text is never replaced).

    >>> substitute("0 <= s <= min(x, h - 1) and 0 < s + t", {"s": 2})
    '0 <= 2 <= min(x, h - 1) and 0 < 2 + t'
    >>> substitute("any(s == 1 for s in range(s))", {"s": 3})
    'any((s == 1 for s in range(3)))'
    """
    names = tuple(values)
    return ast.unparse(substitute_call(names, parse(text), [ast.Constant(values[n]) for n in names]))


class Box:
    """The positions [0, sides) of a game's coordinates, with its params: an expression is evaluated on arrays
    over the coordinates it names only (a bound ``min(x, h - 1)`` on the x axis, not on the whole box), which
    gives every value it takes on the box.

    >>> box = Box(("x", "y"), [4, 1000], {"h": 3})
    >>> box.values(["min(x, h - 1)", "x + 1"], {})[1].tolist()
    [1, 2, 3, 4]
    """

    def __init__(self, coords: tuple[str, ...], sides: list[int], params: dict):
        self.coords, self.sides, self.params = tuple(coords), list(sides), dict(params)

    def grid(self, names: list[str]) -> dict[str, np.ndarray]:
        """The coordinates `names` over their sub-box, as flat arrays (one entry per point of the sub-box)."""
        if not names:
            return {}
        axes = [np.arange(self.sides[self.coords.index(c)], dtype=np.int64) for c in names]
        if int(np.prod([len(a) for a in axes])) > MAX_BOX:
            raise NotVectorisable("a sub-box too large to hold as arrays")
        return {c: g.reshape(-1) for c, g in zip(names, np.meshgrid(*axes, indexing="ij"))}

    def named(self, trees: Sequence[ast.AST]) -> list[str]:
        """The coordinates the trees name, in the box's order."""
        used = set().union(*(free_names(t) for t in trees)) if trees else set()
        return [c for c in self.coords if c in used]

    def values(self, texts: list[str], extra: dict) -> list[np.ndarray]:
        """Each text's values at every point of the sub-box of the coordinates the texts name together (`extra`:
        more names, such as pinned ones), as int64 or bool arrays of one length."""
        trees = [parse(t) for t in texts]
        grid = self.grid(self.named(trees))
        size = len(next(iter(grid.values()))) if grid else 1
        env = {**self.params, **extra, **grid}
        out = []
        for tree in trees:
            v = vectorise(tree, Namespace())(env)
            if isinstance(v, tuple):
                raise NotVectorisable("a value that is not a number")
            out.append(np.broadcast_to(np.asarray(v), (size,)))
        return out


def extreme(texts: list[str], box: Box, pin: dict, lowest: bool) -> int:
    """The least lower bound (`lowest`) or the largest upper bound over the box of a level whose bounds are these
    texts: the bound at a position is the max of the lower (min of the upper) texts there.

    >>> extreme(["min(x, h - 1)", "y"], Box(("x", "y"), [5, 9], {"h": 3}), {}, False)
    2
    >>> extreme(["True"], Box(("x",), [5], {}), {}, True)    # the language refuses a truth value as a bound
    Traceback (most recent call last):
    ...
    nimjos.lang.vector.NotVectorisable: a bound that is a truth value
    """
    found = box.values(texts, pin)
    if any(v.dtype == np.bool_ for v in found):
        raise NotVectorisable("a bound that is a truth value")
    values = [v.astype(np.int64) for v in found]
    if not values:
        raise NotVectorisable("no bound")
    bound = np.maximum.reduce(values) if lowest else np.minimum.reduce(values)
    return int(bound.min()) if lowest else int(bound.max())


def pins(levels: list, box: Box) -> list[dict[str, int]] | None:
    """Every assignment of these levels' names (integer ranges, later ones bounded in terms of earlier ones) that
    some position of the box may bind; None when a bound cannot be evaluated there, a level is not a range, or
    there are more than :data:`MAX_PINS`.

    >>> from nimjos.lang.binders import Binder
    >>> b = Binder.from_text("0 <= s <= min(x, 1) and 0 <= t <= 1 - s", Namespace(), {"x"})
    >>> pins(b.levels, Box(("x",), [5], {}))
    [{'s': 0, 't': 0}, {'s': 0, 't': 1}, {'s': 1, 't': 0}]
    """
    out: list[dict[str, int]] = [{}]
    for level in levels:
        if level.members is not None or not level.lows or not level.highs:
            return None
        grown = []
        for pin in out:
            try:
                lo = extreme(level.low_text, box, pin, True)
                hi = extreme(level.high_text, box, pin, False)
            except (NotVectorisable, NimjosError, ValueError, TypeError):
                return None
            grown += [{**pin, level.name: v} for v in range(lo, hi + 1)]
            if len(grown) > MAX_PINS:
                return None
        out = grown
    return out


def derived(game: Any, sides: list[int]) -> Any:
    """The game rewritten for the box with these sides (one family per pinned value of each family's outer names;
    families of one name as declared), as an instance of a declaration of its own; None when the game has no
    family of several names or cannot be rewritten. The same rewriting gives the same instance (its table kept).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> g = GameDecl.declare("g", {"position": ["x"], "moves": [{"to": "x - s - t",
    ...     "where": "1 <= s <= min(x, 2) and 0 <= t <= x - s"}]}, Namespace()).instance(())
    >>> [m.to_text for m in derived(g, [10]).decl.moves]
    ['x - 1 - t', 'x - 2 - t']
    """
    decl = getattr(game, "decl", None)
    if decl is None or game.dim > 2 or len(sides) != game.dim or not all(sides):
        return None
    if not any(len(f.binder.levels) > 1 for f in decl.moves):
        return None
    if any(type(v) is not int for v in game.params.values()):
        return None
    box = Box(tuple(decl.position), sides, game.params)
    moves, total = [], 0
    for fam in decl.moves:
        if len(fam.binder.levels) <= 1:
            moves.append({"to": fam.to_text, "where": fam.where_text})
            continue
        levels = fam.binder.levels
        last = levels[-1]
        outer = pins(levels[:-1], box) if last.members is None and last.lows and last.highs else None
        if outer is None:
            return None
        total += len(outer)
        if total > MAX_PINS:
            return None
        moves += [{"to": substitute(fam.to_text, p), "where": substitute(fam.where_text, p)} for p in outer]
    key = tuple((m["to"], m["where"]) for m in moves)
    cache = _DERIVED.setdefault(game, {})
    if key not in cache:
        try:
            rewritten = type(decl).declare(f"{decl.name}~pinned", {"params": list(decl.params),
                                                                  "position": list(decl.position), "moves": moves},
                                           Namespace())
            cache[key] = rewritten.instance(tuple(game.params[p] for p in decl.params))
        except NimjosError:
            cache[key] = None
    return cache[key]


def _sides(game: Any, positions: list) -> list[int]:
    """The box the line-interval engine will compute for these positions (it grows a side at least twofold)."""
    points = [p if isinstance(p, tuple) else (p,) for p in positions]
    sides = [max(p[i] for p in points) + 1 for i in range(game.dim)]
    old = game.dense
    if old is not None:
        before = list(old.shape)
        sides = [max(s, 2 * b) if s > b else b for s, b in zip(sides, before)]
    return sides


def solve(game: Any, positions: list, engine: Any) -> str | None:
    """Fill ``game.dense`` through the line-interval engine on the rewritten game and return its name (marked as
    pinned); None when the game has no family of several names, cannot be rewritten, or the line-interval engine
    leaves the rewritten game to the reference engine.

    >>> from nimjos.games.declared import subtraction
    >>> solve(subtraction(frozenset({1})), [5], None) is None
    True
    """
    if not positions or getattr(game, "decl", None) is None:
        return None
    sides = _sides(game, positions)
    rewritten = derived(game, sides)
    if rewritten is None:
        return None
    corner = sides[0] - 1 if game.dim == 1 else tuple(s - 1 for s in sides)
    name = lines.solve(rewritten, [corner], engine)   # a small box stays with the reference engine, as for lines
    dense = rewritten.dense
    if not name or dense is None or any(d > s for d, s in zip(dense.shape, sides)):
        return None   # the rewriting holds on the box it was made for, not beyond
    game.dense = dense
    return name[:-1] + NOTE


__all__ = ["MAX_PINS", "NOTE", "derived", "extreme", "pins", "solve", "substitute"]
