"""Declared games recognised as built-in families, from the text of their moves, so that the built-in's theorems
apply to them. A one-coordinate game in normal play whose every move is ``n - s`` for ``s`` in a finite set of
positive constants is read as a take-and-break game on one heap: each amount s taken is allowed when it empties
the heap (``s == n``: bit 1 of the digit d_s of an octal code), when it leaves one heap (``s < n``: bit 2), or both
(``s <= n``: the digit 3). When every digit is 3 the game is the subtraction game of its set (the repeating state
of its last max(S) values proves its periodicity); otherwise it is the octal game of its code (``octal("0.22")``,
Guy-Smith). A declared game has a fixed number of coordinates, so that a move splitting a heap into two (bit 4)
cannot be declared on one heap: no declared game reads as a code with a digit above 3.

The recognition reads the declaration's syntax tree and accepts only the forms whose options it knows exactly at
every heap size: an extra condition, a bound it does not read (``s <= n - 2``, ``n >= 5`` on a family of constants
that allows smaller ones), a parameter or any other name make it answer None, never a guess.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "discover" / "classics.toml")
>>> sorted(recognised_subtraction(spec.games["sub134"]()))
[1, 3, 4]
>>> recognised_subtraction(spec.games["greedy_nim"]()) is None
True
>>> recognised_octal(spec.games["sub134"]())
'0.3033'
"""
from __future__ import annotations

import ast
from typing import Any, Iterator

from nimjos.games.declared import NORMAL, DeclaredGame
from nimjos.lang.syntax import parse

#: the bits of an amount's digit by its comparison with the heap: s <= n (either), s < n (one heap left), s == n
_DIGIT_BITS: dict[type, int] = {ast.LtE: 3, ast.Lt: 2, ast.Eq: 1}
#: a comparison read with its left side first, and the same comparison read with its sides swapped
_FLIP = {ast.LtE: ast.GtE, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.Gt: ast.Lt, ast.Eq: ast.Eq}


def recognised_digits(game: Any) -> dict[int, int] | None:
    """The digits of the take-and-break code a declared game's moves read as: amount s -> bit 1 (s == n, the heap
    emptied), bit 2 (s < n, one heap left) or both; None when ``game`` is not a declared one-coordinate game in
    normal play whose every family reads exactly so.

    >>> recognised_digits(object()) is None
    True
    """
    if not isinstance(game, DeclaredGame) or game.play != NORMAL or game.dim != 1:
        return None
    heap = game.decl.position[0]
    out: dict[int, int] = {}
    for family in game.decl.moves:
        taken = _family_digits(family.to_tree, parse(family.where_text), heap, set(family.binder.names))
        if taken is None:
            return None
        for s, bits in taken.items():
            out[s] = out.get(s, 0) | bits
    return out or None


def recognised_subtraction(game: Any) -> frozenset[int] | None:
    """The finite set S when ``game`` is a declared one-coordinate game in normal play whose options at every heap
    size n are exactly the n - s for s in S with s <= n; else None.

    >>> recognised_subtraction(object()) is None
    True
    """
    digits = recognised_digits(game)
    if digits is None or any(bits != 3 for bits in digits.values()):
        return None
    return frozenset(digits)


def recognised_octal(game: Any) -> str | None:
    """The octal code (``"0.d1d2..."``, digits 0 to 3) of the take-and-break game on one heap that a declared
    one-coordinate game in normal play reads as exactly (its options at every heap size n are those of
    ``octal(code)``); else None.

    >>> recognised_octal(object()) is None
    True
    """
    digits = recognised_digits(game)
    if digits is None:
        return None
    return "0." + "".join(str(digits.get(k, 0)) for k in range(1, max(digits) + 1))


def subtraction_text(S: frozenset[int]) -> str:
    """The built-in game expression of a subtraction set.

    >>> subtraction_text(frozenset({4, 1, 3}))
    'subtraction({1, 3, 4})'
    """
    return "subtraction({" + ", ".join(map(str, sorted(S))) + "})"


def _conjuncts(tree: ast.expr) -> Iterator[tuple[ast.expr, type, ast.expr]]:
    """The comparisons of a conjunction, each chain split into its pairs (left, operator type, right)."""
    if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And):
        for value in tree.values:
            yield from _conjuncts(value)
    elif isinstance(tree, ast.Compare):
        left = tree.left
        for op, right in zip(tree.ops, tree.comparators):
            yield left, type(op), right
            left = right
    elif isinstance(tree, ast.Constant) and tree.value is True:
        return
    else:
        yield tree, type(None), tree   # not a comparison: never read


def _const(node: ast.expr) -> int | None:
    """The value of an integer constant (a negative one too), else None."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _const(node.operand)
        return None if inner is None else -inner
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    return None


def _name(node: ast.expr) -> str | None:
    return node.id if isinstance(node, ast.Name) else None


def _holds(value: int, op: type, bound: int) -> bool:
    """Whether ``value op bound`` holds, for a comparison operator's type."""
    truth: dict[type, bool] = {ast.LtE: value <= bound, ast.Lt: value < bound, ast.GtE: value >= bound,
                               ast.Gt: value > bound, ast.Eq: value == bound}
    return truth[op]


def _family_digits(to: ast.expr, where: ast.expr, heap: str, bound: set[str]) -> dict[int, int] | None:
    """The amounts one family takes (``to = heap - s`` over ``where``, ``s`` one of the names ``bound`` binds, never
    a param or a definition), each with the bits of its octal digit (1: it may empty the heap, 2: it may leave one
    heap), or None when its form is not read exactly."""
    if not (isinstance(to, ast.BinOp) and isinstance(to.op, ast.Sub) and _name(to.left) == heap):
        return None
    var, constant = _name(to.right), _const(to.right)
    if var is None and constant is None or var == heap or (var is not None and bound != {var}):
        return None
    if var is None and bound:
        return None
    members: set[int] | None = {constant} if constant is not None else None
    bounds: list[tuple[type, int]] = []   # comparisons of the amount with constants
    heap_lows: list[int] = []   # heap >= k
    heap_equal: list[int] = []  # heap == k
    below_heap: set[type] = set()   # amount <= heap (ast.LtE), amount < heap (ast.Lt), amount == heap (ast.Eq)
    for left, op, right in _conjuncts(where):
        if op not in _FLIP and op is not ast.In:
            return None
        if op is ast.In:
            if var is None or _name(left) != var or not isinstance(right, (ast.Set, ast.Tuple, ast.List)):
                return None
            if any(_const(e) is None for e in right.elts):
                return None
            values = {v for v in (_const(e) for e in right.elts) if v is not None}
            members = values if members is None else members & values
            continue
        if _const(left) is not None and _const(right) is None or (var is not None and _name(left) == heap and _name(right) == var):
            left, op, right = right, _FLIP[op], left   # read with the amount (or else the heap) on the left
        lname, c = _name(left), _const(right)
        if var is not None and lname == var and c is not None:
            bounds.append((op, c))
        elif var is not None and lname == var and _name(right) == heap and op in (ast.LtE, ast.Lt, ast.Eq):
            below_heap.add(op)
        elif lname == heap and c is not None and op in (ast.GtE, ast.Gt):
            heap_lows.append(c if op is ast.GtE else c + 1)
        elif lname == heap and c is not None and op is ast.Eq:
            heap_equal.append(c)
        else:
            return None
    if members is None:   # the amount bounded by constants on both sides
        lows = [c if op is ast.GtE else c + 1 for op, c in bounds if op in (ast.GtE, ast.Gt)]
        highs = [c if op is ast.LtE else c - 1 for op, c in bounds if op in (ast.LtE, ast.Lt)]
        equal = [c for op, c in bounds if op is ast.Eq]
        if equal:
            members = {equal[0]}
        elif lows and highs:
            members = set(range(max(lows), min(highs) + 1))
        else:
            return None
    members = {m for m in members if all(_holds(m, op, c) for op, c in bounds)}
    if not members or min(members) < 1:
        return None
    if constant is not None:   # n - c from n >= c on (3), from n > c on (2), at n == c only (1), exactly
        if heap_equal and not heap_lows and set(heap_equal) == {constant}:
            return {constant: 1}
        if heap_equal or not heap_lows or max(heap_lows) not in (constant, constant + 1):
            return None
        return {constant: 3 if max(heap_lows) == constant else 2}
    if heap_equal or len(below_heap) != 1:
        return None
    bits = _DIGIT_BITS[below_heap.pop()]
    low = max(heap_lows, default=0)   # the family applies from n >= low on: each amount's digit must say exactly so
    out = {}
    for m in members:
        if low <= m:
            out[m] = bits
        elif low == m + 1 and bits & 2:
            out[m] = 2
        else:
            return None
    return out
