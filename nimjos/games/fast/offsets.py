"""The offsets engine: a declared game on two or more heaps whose every move family either subtracts from one
heap i a member of a fixed set (``to`` lowers coordinate i by its one bound name t, the condition names the
position only as ``t <= x_i``), or subtracts fixed vectors of *joint offsets* from several heaps at once (each
coordinate of ``to`` is ``x_j``, ``x_j - a`` or ``x_j - c``, a a bound name, c a constant), such as Nim on n heaps
and cyclic Nimhoff with its moves Y (``0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and ...``).

A family of joint offsets is read on the box it is computed for: its bound names are pinned to every integer
between the least lower and the largest upper bound they take there (evaluated on arrays,
:mod:`nimjos.lang.vector`), and each pinned condition is evaluated at every position of the box, where it must
hold exactly where the offset fits (every x_j at least its offset): then the family's options are those offsets
wherever they fit, and the compiled mex kernel of :mod:`nimjos.games.fast.boxes` fills ``game.dense``. The moves
are read from the declaration, never from a claim; any other shape is left to the other engines.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl
>>> cn3 = GameDecl.declare("cn3", {"params": ["h"], "position": ["x", "y", "z"], "moves": [
...     {"to": "(x - t, y, z)", "where": "1 <= t <= x"}, {"to": "(x, y - t, z)", "where": "1 <= t <= y"},
...     {"to": "(x, y, z - t)", "where": "1 <= t <= z"}, {"to": "(x - s, y - t, z - u)", "where":
...     "0 <= s <= min(x, h - 1) and 0 <= t <= min(y, h - 1 - s) and 0 <= u <= min(z, h - 1 - s - t) and 0 < s + t + u"}]},
...     Namespace())
>>> solve(cn3(2), [(3, 3, 3)], None)
'fast engine (heap subtractions and joint offsets, numba)'
>>> cn3(2).dense[1, 2].tolist()
[3, 2, 1, 0, 7, 6, 5, 4]
"""
from __future__ import annotations

import ast
import math
import weakref
from typing import Any

import numpy as np

from nimjos.games.fast.boxes import mex_box, pack_members, too_small
from nimjos.games.fast.pinned import Box, pins, substitute
from nimjos.games.fast.subtraction import heap_members
from nimjos.lang.binders import conjuncts
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import parse
from nimjos.lang.vector import NotVectorisable, vectorise

NAME = "fast engine (heap subtractions and joint offsets, numba)"
#: the largest box one run may fill
MAX_BOX = 50_000_000
#: the most options one run may mark in all (positions times options of the far corner): a count, not a time
MAX_WORK = 4_000_000_000
#: a side of the box grows to at least this many values (as in :mod:`nimjos.games.fast.gcn`)
MIN_SIDE = 8

_SHAPES: weakref.WeakKeyDictionary[Any, dict] = weakref.WeakKeyDictionary()


def _parts(fam: Any, coords: tuple[str, ...]) -> list[tuple[str, Any]] | None:
    """Each coordinate of the family's ``to`` as ("same", None), ("name", bound name) or ("const", c), or None
    when some coordinate has another form."""
    to = fam.to_tree
    parts = to.elts if isinstance(to, ast.Tuple) else [to]
    if len(parts) != len(coords):
        return None
    out: list[tuple[str, Any]] = []
    for c, part in zip(coords, parts):
        if isinstance(part, ast.Name) and part.id == c:
            out.append(("same", None))
        elif isinstance(part, ast.BinOp) and isinstance(part.op, ast.Sub) and isinstance(part.left, ast.Name) \
                and part.left.id == c:
            right = part.right
            if isinstance(right, ast.Name) and right.id in fam.binder.names:
                out.append(("name", right.id))
            elif isinstance(right, ast.Constant) and type(right.value) is int:
                out.append(("const", right.value))
            else:
                return None
        else:
            return None
    return out


def _held_where_it_fits(where: str, d: tuple[int, ...], box: Box) -> bool | None:
    """Whether the pinned condition `where` holds at exactly the positions of the box where the offset d fits
    (every coordinate at least its offset); None when it holds nowhere. Each conjunct is evaluated on the
    coordinates it names: when none names two, the condition is the product of one set per axis, and it is the
    set where d fits when each axis's set is (both products of non-empty sets); otherwise on the sub-box of the
    coordinates the condition or the offset names."""
    parts = conjuncts(parse(where))
    named = [box.named([p]) for p in parts]
    if all(len(n) <= 1 for n in named):
        per_axis = {c: np.ones(box.sides[box.coords.index(c)], dtype=np.bool_) for c in box.coords}
        for part, names in zip(parts, named):
            (held,) = box.values([ast.unparse(part)], {})
            if not names:
                if not bool(held[0]):
                    return None
                continue
            per_axis[names[0]] &= held.astype(np.bool_)
        if not all(v.any() for v in per_axis.values()):
            return None
        return all(np.array_equal(per_axis[c], np.arange(len(per_axis[c])) >= o) for c, o in zip(box.coords, d))
    tree = parse(where)
    used = [c for c, o in zip(box.coords, d) if c in box.named([tree]) or o > 0]
    grid = box.grid(used)
    size = len(next(iter(grid.values()))) if grid else 1
    held = np.broadcast_to(np.asarray(vectorise(tree, Namespace())({**box.params, **grid})), (size,)).astype(np.bool_)
    if not held.any():
        return None
    fits = np.ones(size, dtype=np.bool_)
    for c, o in zip(box.coords, d):
        if o > 0:
            fits &= np.broadcast_to(grid[c], (size,)) >= o
    return bool(np.array_equal(held, fits))


def _joint(fam: Any, parts: list, box: Box) -> list[tuple[int, ...]] | None:
    """The offsets of a family of joint offsets on the box, each checked to be an option exactly where it fits;
    None when the family is not of that kind."""
    assignments = pins(fam.binder.levels, box)
    if assignments is None:
        return None
    out = []
    for pin in assignments:
        d = tuple(0 if kind == "same" else (v if kind == "const" else pin[v]) for kind, v in parts)
        try:
            exact = _held_where_it_fits(substitute(fam.where_text, pin), d, box)
        except (NotVectorisable, NimjosError, ValueError, TypeError):
            return None
        if exact is None:
            continue
        if min(d) < 0 or max(d) == 0 or not exact:
            return None   # a move that stays or goes up, or is an option elsewhere than where it fits
        out.append(d)
    return out


def shape_of(game: Any, sides: list[int]) -> tuple[list[np.ndarray], np.ndarray] | None:
    """(members of each heap's set, joint offsets) of the game on the box with these sides, None when the game
    is not of this shape there (cached per game and box).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> nim2 = GameDecl.declare("n", {"position": ["x", "y"], "moves": [{"to": "(x - t, y)", "where": "1 <= t <= x"},
    ...     {"to": "(x - 1, y - 1)", "where": "x >= 1 and y >= 1"}]}, Namespace()).instance(())
    >>> members, offsets = shape_of(nim2, [4, 3])
    >>> [m.tolist() for m in members], offsets.tolist()
    ([[1, 2, 3], []], [[1, 1]])
    """
    decl = getattr(game, "decl", None)
    if decl is None or game.dim < 2 or len(sides) != game.dim or math.prod(sides) > MAX_BOX or not all(sides):
        return None   # one heap is the subtraction engine's
    if any(type(v) is not int for v in game.params.values()):
        return None
    cache = _SHAPES.setdefault(game, {})
    key = tuple(sides)
    if key in cache:
        return cache[key]
    coords = tuple(decl.position)
    top = {c: s - 1 for c, s in zip(coords, sides)}
    members: list[list[np.ndarray]] = [[] for _ in coords]
    offsets: list[tuple[int, ...]] = []
    box = Box(coords, sides, game.params)
    shape = None
    for fam in decl.moves:
        parts = _parts(fam, coords)
        if parts is None:
            break
        named = [j for j, (kind, _) in enumerate(parts) if kind != "same"]
        if len(fam.binder.names) == 1 and len(named) == 1 and parts[named[0]][0] == "name":
            found = heap_members(game, fam, coords[named[0]], fam.binder.names[0], top)
            if found is not None:
                members[named[0]].append(found)
                continue
        found_offsets = _joint(fam, parts, box)
        if found_offsets is None:
            break
        offsets += found_offsets
    else:
        sets = [np.unique(np.concatenate(m)) if m else np.zeros(0, dtype=np.int64) for m in members]
        rows = sorted(set(offsets))
        shape = (sets, np.array(rows, dtype=np.int64).reshape(len(rows), len(coords)))
    cache.clear()
    cache[key] = shape
    return shape


def _sides(game: Any, positions: list) -> list[int]:
    """The box's sides: they cover the requested positions and the box already computed, a side that must grow
    at least doubling."""
    points = [p if isinstance(p, tuple) else (p,) for p in positions]
    sides = [max(MIN_SIDE, max(p[i] for p in points) + 1) for i in range(game.dim)]
    old = game.dense
    if old is not None:
        before = list(old.shape)
        if any(s > b for s, b in zip(sides, before)):
            sides = [max(s, 2 * b) if s > b else b for s, b in zip(sides, before)]
        else:
            sides = before
    return sides


def fits(game: Any, sides: list[int]) -> bool:
    """Whether this engine fills the box with these sides for the game (of this shape there, within the limits).

    >>> fits(None, [3])
    False
    """
    shape = shape_of(game, sides) if game is not None and getattr(game, "decl", None) is not None else None
    if shape is None:
        return False
    sets, offsets = shape
    return math.prod(sides) * (sum(len(s) for s in sets) + len(offsets) + 1) <= MAX_WORK


def solve(game: Any, positions: list, engine: Any) -> str | None:
    """Fill ``game.dense`` over the box covering `positions` and return the engine's name; None when the game is
    not of this shape, the box is over the limits (:data:`MAX_BOX`, the engine's ``max_positions``,
    :data:`MAX_WORK`) or small enough for the reference engine (:func:`nimjos.games.fast.boxes.too_small`).

    >>> from nimjos.games.declared import subtraction
    >>> solve(subtraction(frozenset({1})), [5], None) is None
    True
    """
    if not positions or getattr(game, "decl", None) is None:
        return None
    sides = _sides(game, positions)
    if math.prod(sides) > (getattr(engine, "max_positions", None) or MAX_BOX) or not fits(game, sides):
        return None
    shape = shape_of(game, sides)
    if shape is None:
        return None
    sets, offsets = shape
    if too_small(engine, math.prod(sides) * (sum(sides) + len(offsets))):   # the reference engine's enumeration
        return None
    flat = mex_box(np.array(sides), *pack_members(sets), offsets)
    game.dense = flat if game.dim == 1 else flat.reshape(sides)
    return NAME


__all__ = ["NAME", "fits", "shape_of", "solve"]
