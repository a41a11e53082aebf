"""Building syntax trees of the language from trees, never from text: a method that states a new condition or
statement (``x >= bound``, ``G(game, position) == F``, ``not A or B``) makes it from the plan's trees with these
helpers instead of formatting text and parsing it again. Every tree given is copied, so the result shares no node
with the plan (a translation may keep or change the nodes it is given). A built tree becomes text only to be read
(a message, a spec written for the user, JSON), by :func:`show`.

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


def binary(left: ast.expr, op: type[ast.operator], right: ast.expr) -> ast.expr:
    """``left op right`` (`op` an ``ast`` arithmetic or bitwise operator class), on copies of both sides.

    >>> ast.unparse(binary(name("x"), ast.Sub, binary(constant(2), ast.Mult, name("y"))))
    'x - 2 * y'
    """
    return ast.BinOp(copy_tree(left), op(), copy_tree(right))


def integers(values: Sequence[int]) -> ast.expr:
    """The set literal of the integers `values`, in the order given.

    >>> ast.unparse(compare(name("n"), ast.In, integers([1, 4])))
    'n in {1, 4}'
    """
    return ast.Set([constant(v) for v in values])


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


def conjuncts(tree: ast.expr) -> list[ast.expr]:
    """The operands of a conjunction, nested conjunctions flattened (a tree that is no ``and`` is its one operand);
    the nodes themselves, not copies.

    >>> [ast.unparse(t) for t in conjuncts(conjunction([conjunction([name("a"), name("b")]), name("c")]))]
    ['a', 'b', 'c']
    """
    if isinstance(tree, ast.BoolOp) and isinstance(tree.op, ast.And):
        return [t for value in tree.values for t in conjuncts(value)]
    return [tree]


#: the operators a reader may misread the precedence of: an arithmetic operand of one of these is parenthesised
_BITWISE = (ast.BitAnd, ast.BitOr, ast.BitXor)


class _Grouped(ast.NodeTransformer):
    """Replaces each operand of a bitwise operator and of ``and``/``or`` by a placeholder name, keeping its text
    (printed on its own, in parentheses where a reader expects them)."""

    def __init__(self) -> None:
        self.groups: dict[str, str] = {}

    def hold(self, node: ast.expr, parens: bool) -> ast.expr:
        key = f"\x00{len(self.groups)}\x00"
        self.groups[key] = f"({_printed(node)})" if parens else _printed(node)
        return ast.Name(key, ast.Load())

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        if not isinstance(node.op, _BITWISE):
            return ast.BinOp(self.visit(node.left), node.op, self.visit(node.right))
        left, right = (self.hold(n, True) if isinstance(n, ast.BinOp) and not isinstance(n.op, _BITWISE)
                       else self.visit(n) for n in (node.left, node.right))
        return ast.BinOp(left, node.op, right)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        # every operand held, so that ast.unparse (Python 3.11) adds no parentheses of its own to the third one on
        return ast.BoolOp(node.op, [self.hold(v, isinstance(v, (ast.BoolOp, ast.IfExp, ast.Lambda)))
                                    for v in node.values])


def show(tree: ast.expr) -> str:
    """A built tree as text for a reader: ``ast.unparse``'s, which parenthesises only what precedence needs, with the
    parentheses a reader expects besides: around an arithmetic operand of a bitwise operator (``(x - y) & (x - y +
    1)``, not ``x - y & x - y + 1``) and around an ``and`` inside an ``or``, and none around a comparison in a long
    ``and`` (``ast.unparse`` of Python 3.11 writes ``a and b and (c == 2)``). The text means what the tree means.

    >>> t = compare(binary(name("n"), ast.BitAnd, binary(name("n"), ast.Add, constant(1))), ast.Eq, constant(0))
    >>> show(t), ast.unparse(t)
    ('n & (n + 1) == 0', 'n & n + 1 == 0')
    >>> show(disjunction([conjunction([name("a"), name("b")]), negation(disjunction([name("c"), name("d")]))]))
    '(a and b) or not (c or d)'
    >>> show(conjunction([compare(name(v), ast.Eq, constant(0)) for v in "abc"]))
    'a == 0 and b == 0 and c == 0'
    >>> show(binary(binary(name("a"), ast.BitOr, name("b")), ast.BitAnd, binary(name("a"), ast.Mod, constant(2))))
    '(a | b) & (a % 2)'
    >>> show(binary(binary(binary(name("a"), ast.Sub, name("b")), ast.BitAnd, name("c")), ast.BitOr,
    ...             binary(disjunction([conjunction([name("a"), name("b")]), name("c")]), ast.Add, constant(1))))
    '(a - b) & c | (((a and b) or c) + 1)'
    """
    return _printed(copy_tree(tree))


def _printed(tree: ast.expr) -> str:
    """:func:`show` of a tree it may change (a copy made once, at the top)."""
    grouped = _Grouped()
    text = ast.unparse(ast.fix_missing_locations(grouped.visit(tree)))
    for key, group in grouped.groups.items():
        text = text.replace(key, group)
    return text


def position(coords: Sequence[str]) -> ast.expr:
    """A position of a game by its coordinates: the one name, or the tuple of the names.

    >>> ast.unparse(position(("x",))), ast.unparse(position(("x", "y")))
    ('x', '(x, y)')
    """
    if len(coords) == 1:
        return name(coords[0])
    return ast.Tuple([name(c) for c in coords], ast.Load())
