"""Declared games recognised as built-in families, from the text of their moves, so that the built-in's theorems
apply to them: a one-coordinate game in normal play whose every move is ``n - s`` for ``s`` in a finite set of
positive constants, bounded by ``s <= n`` (or ``n - c`` for a constant ``c``, from ``n >= c`` on), is the
subtraction game of that set, whose periodicity the repeating state of its last max(S) values proves.

The recognition reads the declaration's syntax tree and accepts only the forms whose options it knows exactly at
every heap size: an extra condition, a bound it does not read (``s < n``, ``n >= 5`` on a family of constants that
allows smaller ones), a parameter or any other name make it answer None, never a guess.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "discover" / "classics.toml")
>>> sorted(recognised_subtraction(spec.games["sub134"]()))
[1, 3, 4]
>>> recognised_subtraction(spec.games["greedy_nim"]()) is None
True
"""
from __future__ import annotations

import ast
from typing import Any, Iterator

from nimjos.games.declared import NORMAL, DeclaredGame
from nimjos.lang.syntax import parse

#: a comparison read with its left side first, and the same comparison read with its sides swapped
_FLIP = {ast.LtE: ast.GtE, ast.Lt: ast.Gt, ast.GtE: ast.LtE, ast.Gt: ast.Lt, ast.Eq: ast.Eq}


def recognised_subtraction(game: Any) -> frozenset[int] | None:
    """The finite set S when ``game`` is a declared one-coordinate game in normal play whose options at every heap
    size n are exactly the n - s for s in S with s <= n; else None.

    >>> recognised_subtraction(object()) is None
    True
    """
    if not isinstance(game, DeclaredGame) or game.play != NORMAL or game.dim != 1:
        return None
    heap = game.decl.position[0]
    out: set[int] = set()
    for family in game.decl.moves:
        taken = _family_set(family.to_tree, parse(family.where_text), heap, set(family.binder.names))
        if taken is None:
            return None
        out |= taken
    return frozenset(out) if out else None


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


def _family_set(to: ast.expr, where: ast.expr, heap: str, bound: set[str]) -> frozenset[int] | None:
    """The amounts one family takes (``to = heap - s`` over ``where``, ``s`` one of the names ``bound`` binds, never
    a param or a definition), or None when its form is not read exactly."""
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
    below_heap = False          # amount <= heap
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
        if _const(left) is not None and _const(right) is None:   # read with the name on the left
            left, op, right = right, _FLIP[op], left
        lname, c = _name(left), _const(right)
        if var is not None and lname == var and c is not None:
            bounds.append((op, c))
        elif var is not None and lname == var and _name(right) == heap and op is ast.LtE:
            below_heap = True
        elif var is not None and lname == heap and _name(right) == var and op is ast.GtE:
            below_heap = True
        elif lname == heap and c is not None and op in (ast.GtE, ast.Gt):
            heap_lows.append(c if op is ast.GtE else c + 1)
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
    if var is None:   # n - c from n >= c on, exactly
        return frozenset(members) if heap_lows and max(heap_lows) == constant else None
    if not below_heap or (heap_lows and max(heap_lows) > min(members)):
        return None
    return frozenset(members)
