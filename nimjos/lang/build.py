"""Building syntax trees of the language from trees, never from text: a method that states a new condition or
statement (``x >= bound``, ``G(game, position) == F``, ``not A or B``) makes it from the plan's trees with these
helpers instead of formatting text and parsing it again. Every tree given is copied, so the result shares no node
with the plan (a translation may keep or change the nodes it is given).

>>> from nimjos.lang.syntax import parse
>>> ast.unparse(compare(call("G", parse("g"), position(("x", "y"))), ast.Eq, parse("xor(x, y)")))
'G(g, (x, y)) == xor(x, y)'
"""
from __future__ import annotations

import ast
from typing import Sequence

from nimjos.lang.syntax import copy_tree


def name(identifier: str) -> ast.expr:
    """The name `identifier`, read.

    >>> ast.unparse(name("x"))
    'x'
    """
    return ast.Name(identifier, ast.Load())


def call(function: str, *args: ast.expr) -> ast.expr:
    """``function(args...)``, on copies of the arguments.

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(call("max", parse("k"), parse("1")))
    'max(k, 1)'
    """
    return ast.Call(name(function), [copy_tree(a) for a in args], [])


def constant(value: int | bool) -> ast.expr:
    """An integer or truth constant (a negative integer as ``-c``, as the parser reads it).

    >>> ast.unparse(constant(-3)), ast.unparse(constant(True))
    ('-3', 'True')
    """
    if type(value) is int and value < 0:
        return ast.UnaryOp(ast.USub(), ast.Constant(-value))
    return ast.Constant(value)


def compare(left: ast.expr, op: type[ast.cmpop], right: ast.expr) -> ast.expr:
    """``left op right`` (`op` an ``ast`` comparison class), on copies of both sides.

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(compare(parse("x"), ast.GtE, parse("k + 1")))
    'x >= k + 1'
    """
    return ast.Compare(copy_tree(left), [op()], [copy_tree(right)])


def negation(tree: ast.expr) -> ast.expr:
    """``not tree``, on a copy.

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(negation(parse("x > 1")))
    'not x > 1'
    """
    return ast.UnaryOp(ast.Not(), copy_tree(tree))


def conjunction(trees: Sequence[ast.expr]) -> ast.expr:
    """``a and b and ...`` of copies of `trees` (one tree alone is its copy; none is ``True``).

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(conjunction([parse("x > 1"), parse("y or z")])), ast.unparse(conjunction([]))
    ('x > 1 and (y or z)', 'True')
    """
    if not trees:
        return ast.Constant(True)
    if len(trees) == 1:
        return copy_tree(trees[0])
    return ast.BoolOp(ast.And(), [copy_tree(t) for t in trees])


def disjunction(trees: Sequence[ast.expr]) -> ast.expr:
    """``a or b or ...`` of copies of `trees` (one tree alone is its copy).

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(disjunction([negation(parse("a")), parse("b")]))
    'not a or b'
    """
    if len(trees) == 1:
        return copy_tree(trees[0])
    return ast.BoolOp(ast.Or(), [copy_tree(t) for t in trees])


def position(coords: Sequence[str]) -> ast.expr:
    """A position of a game by its coordinates: the one name, or the tuple of the names.

    >>> ast.unparse(position(("x",))), ast.unparse(position(("x", "y")))
    ('x', '(x, y)')
    """
    if len(coords) == 1:
        return name(coords[0])
    return ast.Tuple([name(c) for c in coords], ast.Load())
