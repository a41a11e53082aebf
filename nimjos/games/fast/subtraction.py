"""The subtraction engine: Grundy values of one-heap games whose options at n are n - s for the members s <= n
of a fixed set S (a finite set, a range, a predicate): the built-in ``subtraction(S)`` and a declared 1-D game
whose every move family reads ``to = "n - s"`` with a condition on s that names the heap n only as ``s <= n``.

The engine reads the shape from the moves (never from a claim): S's members up to the table's end are listed
once (a predicate called at each s, a declared condition evaluated on all s at once by
:mod:`nimjos.lang.vector`, or its bindings enumerated when that does not apply), then the compiled mex kernel of
:mod:`nimjos.games.fast.boxes` fills ``game.dense`` (int32, index = heap size). Anything else is left to the
other engines.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.games.declared import GameDecl, subtraction
>>> game = subtraction(frozenset({2, 3}))
>>> solve(game, [9], None)
'fast engine (subtraction set, numba)'
>>> game.dense.tolist()
[0, 0, 1, 1, 2, 0, 0, 1, 1, 2]
>>> odd = GameDecl.declare("odd", {"position": ["n"], "moves": [{"to": "n - s",
...     "where": "1 <= s <= n and s % 2 == 1"}]}, Namespace()).instance(())
>>> solve(odd, [5], None), odd.dense.tolist()
('fast engine (subtraction set, numba)', [0, 1, 0, 1, 0, 1])
"""
from __future__ import annotations

import ast
from typing import Any

import numpy as np

from nimjos.games.fast import lines
from nimjos.games.fast.boxes import mex_box, pack_members, too_small
from nimjos.lang.binders import conjuncts
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import free_names
from nimjos.lang.vector import NotVectorisable, vectorise

NAME = "fast engine (subtraction set, numba)"
#: the longest table one run may fill (positions); beyond it the work is left to the other engines
MAX_LENGTH = 50_000_000
#: the most options one run may mark in all (positions times members of S): a count, not a time
MAX_WORK = 4_000_000_000
#: a declared game whose set is one interval of more than this many values is given to the line-interval engine
#: first, which takes the mex of an interval in constant time (here it costs the interval's length)
LONG_INTERVAL = 64


def set_members(S: Any, upto: int) -> np.ndarray | None:
    """The members s of a subtraction set S with 1 <= s <= upto, sorted (S: a finite set, a range or a predicate,
    as the built-in families take it); None when S is none of these or a predicate cannot be evaluated.

    >>> set_members(frozenset({5, 1, 9}), 6).tolist(), set_members(lambda s: s % 3 == 0, 10).tolist()
    ([1, 5], [3, 6, 9])
    """
    if isinstance(S, (frozenset, set, tuple, range)):
        return np.array(sorted(s for s in S if type(s) is int and 1 <= s <= upto), dtype=np.int64)
    if callable(S):
        try:
            return np.array([s for s in range(1, upto + 1) if S(s)], dtype=np.int64)
        except (NimjosError, TypeError, ValueError, ArithmeticError):
            return None
    return None


def _upper_bound_only(part: ast.expr, n: str, s: str) -> bool:
    """Does the conjunct name the heap n only as the upper end of ``... s <= n`` (or ``n >= s``)?

    >>> from nimjos.lang.syntax import parse
    >>> [_upper_bound_only(parse(t), "n", "s") for t in ("1 <= s <= n", "n >= s", "s <= n - 1", "s <= n <= 9")]
    [True, True, False, False]
    """
    if not isinstance(part, ast.Compare):
        return False
    items = [part.left, *part.comparators]
    if len(items) == 2 and isinstance(part.ops[0], ast.GtE) and isinstance(items[0], ast.Name) \
            and items[0].id == n and isinstance(items[1], ast.Name) and items[1].id == s:
        return True
    last, before = items[-1], items[-2]
    if not (isinstance(last, ast.Name) and last.id == n and isinstance(part.ops[-1], ast.LtE)
            and isinstance(before, ast.Name) and before.id == s):
        return False
    return all(n not in free_names(e) for e in items[:-1])


def heap_members(game: Any, fam: Any, n: str, s: str, top: dict) -> np.ndarray | None:
    """The values of the one bound name `s` of a declared family whose condition names the position only as
    ``s <= n`` (the heap `n`), at the position `top` (a dict of coordinates: the largest heap the table needs):
    the family's set up to there, sorted; None when the family has another shape, or a value below 1.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.games.declared import GameDecl
    >>> g = GameDecl.declare("g", {"position": ["x", "y"], "moves": [{"to": "(x - s, y)",
    ...     "where": "1 <= s <= x and s % 3 == 0"}]}, Namespace()).instance(())
    >>> heap_members(g, g.decl.moves[0], "x", "s", {"x": 10, "y": 0}).tolist()
    [3, 6, 9]
    """
    binder = fam.binder
    if tuple(binder.names) != (s,) or len(binder.levels) != 1:
        return None
    coords = set(top)
    for p in conjuncts(binder.tree):
        named = coords & set(free_names(p))
        if named and (named != {n} or not _upper_bound_only(p, n, s)):
            return None
    env = dict(game.params)
    env.update(top)
    level = binder.levels[0]
    try:
        if level.members is None:
            lo, hi = binder.range_of(level, env)
            if lo < 1:
                return None  # a move of s <= 0 stays or goes up: not a subtraction
            if hi < lo:
                return np.zeros(0, dtype=np.int64)
            if all(type(v) is int for v in env.values()):
                values = np.arange(lo, hi + 1, dtype=np.int64)
                try:
                    mask = vectorise(binder.tree, Namespace())({**env, s: values})
                    mask = np.broadcast_to(np.asarray(mask, dtype=np.bool_), values.shape)
                    return values[mask]
                except NotVectorisable:
                    pass
        found = sorted({e[s] for e in binder.bindings(env)})
    except (NimjosError, TypeError, ValueError, ArithmeticError):
        return None
    if any(type(v) is not int or v < 1 for v in found):
        return None
    return np.array(found, dtype=np.int64)


def _family_members(game: Any, fam: Any, n: str, top: int) -> np.ndarray | None:
    """The members of one declared family's set (its s with 1 <= s <= top), None when the family is not
    ``n - s`` over such a set."""
    to = fam.to_tree
    if not (isinstance(to, ast.BinOp) and isinstance(to.op, ast.Sub) and isinstance(to.left, ast.Name)
            and to.left.id == n and isinstance(to.right, ast.Name)):
        return None
    return heap_members(game, fam, n, to.right.id, {n: top})


def members_of(game: Any, top: int) -> np.ndarray | None:
    """The subtraction set's members 1 <= s <= top of a game this engine recognises, else None.

    >>> from nimjos.games.declared import subtraction
    >>> members_of(subtraction(range(2, 5)), 3).tolist(), members_of(None, 3)
    ([2, 3], None)
    """
    if game is None or getattr(game, "dim", 0) != 1:
        return None
    decl = getattr(game, "decl", None)
    if decl is None:
        if game.name != "subtraction" or set(game.params) != {"S"}:
            return None
        return set_members(game.params["S"], top)
    parts = []
    for fam in decl.moves:
        found = _family_members(game, fam, decl.position[0], top)
        if found is None:
            return None
        parts.append(found)
    return np.unique(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


def recognises(game: Any) -> bool:
    """Whether this engine computes the game's table (from the shape of its moves).

    >>> from nimjos.games.declared import subtraction, gcn
    >>> recognises(subtraction(frozenset({1}))), recognises(gcn(2, (frozenset({1}),)))
    (True, False)
    """
    return members_of(game, 1) is not None


def fits(game: Any, length: int, limit: int = MAX_LENGTH) -> bool:
    """Whether this engine fills a table of `length` positions for the game (it recognises the game, and the
    table is within :data:`MAX_LENGTH` positions or `limit`, and :data:`MAX_WORK` options).

    >>> from nimjos.games.declared import subtraction
    >>> fits(subtraction(frozenset({1, 2})), 10 ** 6), fits(subtraction(frozenset({1, 2})), 10 ** 9)
    (True, False)
    """
    if length > min(MAX_LENGTH, limit):
        return False
    members = members_of(game, 1)
    if members is None:
        return False
    S = game.params.get("S") if getattr(game, "decl", None) is None else None
    most = len(S) if isinstance(S, (frozenset, set, tuple)) else length
    return length * max(1, most) <= MAX_WORK


def _long_interval(members: np.ndarray) -> bool:
    """Are the members one interval of more than :data:`LONG_INTERVAL` values?

    >>> _long_interval(np.arange(1, 100)), _long_interval(np.array([1, 3]))
    (True, False)
    """
    return len(members) > LONG_INTERVAL and int(members[-1]) - int(members[0]) + 1 == len(members)


def solve(game: Any, positions: list, engine: Any) -> str | None:
    """Fill ``game.dense`` up to the largest requested heap (at least doubling a table that must grow) and
    return the engine's name; None when the game is not a subtraction game of this shape, the table is over
    the limits (positions: the engine's ``max_positions``; options marked: :data:`MAX_WORK`), small enough for the
    reference engine (:func:`nimjos.games.fast.boxes.too_small`). A declared game whose set is a long interval
    goes to the line-interval engine first (its name is returned when it answers).

    >>> from nimjos.games.declared import gcn
    >>> solve(gcn(3, (frozenset({1}), frozenset({1}))), [(2, 2)], None) is None
    True
    """
    if not positions or getattr(game, "dim", 0) != 1:
        return None
    length = max(positions) + 1
    old = game.dense
    if old is not None and length > len(old):
        length = max(length, 2 * len(old))
    limit = min(MAX_LENGTH, getattr(engine, "max_positions", None) or MAX_LENGTH)
    if length > limit:
        return None
    members = members_of(game, length - 1)
    if members is None:
        return None
    decl = getattr(game, "decl", None)
    if decl is not None and _long_interval(members):
        name = lines.solve(game, positions, engine)   # the mex of an interval in constant time, when it applies
        if name:
            return name
    if length * max(1, len(members)) > MAX_WORK:
        return None
    ranges = decl is not None and any(f.binder.levels[0].members is None for f in decl.moves)
    # the reference engine's work: the options, or every s of a declared range it enumerates at each heap
    if too_small(engine, length * (length // 2 if ranges else len(members))):
        return None
    packed = pack_members([members])
    game.dense = mex_box(np.array([length]), *packed, np.zeros((0, 1), dtype=np.int64))
    return NAME


__all__ = ["NAME", "fits", "heap_members", "members_of", "recognises", "set_members", "solve"]
