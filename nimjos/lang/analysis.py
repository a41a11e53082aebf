"""Static analyses of a claim's expressions and window that the methods share: which names are sizes (the
exponent of a power), and which window bounds are constants fixed by the window's author.

>>> from nimjos.lang.compiler import Namespace
>>> sorted(size_names(["2 ** n + x"], Namespace()))
['n']
"""
from __future__ import annotations

import ast
from typing import Any, Iterable, Iterator

from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import parse
from nimjos.lang.expr import variables_of


def parsed(texts: Iterable[Any]) -> Iterator[ast.expr]:
    """The syntax trees of the texts that are expressions (a table, a missing field or text that does not parse
    is skipped: its own field reports that).

    >>> [ast.unparse(t) for t in parsed(["x + 1", None, "x +", {"a": 1}])]
    ['x + 1']
    """
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            yield parse(text)
        except SpecError:
            continue


def size_names(texts: list, ns: Any) -> set[str]:
    """Names that are exponents of a power (2 ** n): sizes, whose window range is never a case split.

    >>> from nimjos.lang.compiler import Namespace
    >>> sorted(size_names(["2 ** (n - 1) + e", "x < 2 ** m"], Namespace()))
    ['m', 'n']
    """
    out: set[str] = set()
    for tree in parsed(texts):
        out |= _size_names(tree, ns, set())
    return out


def _size_names(tree: ast.AST, ns: Any, seen: set) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
            out |= set(variables_of(node.right, ns))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ns.definitions \
                and node.func.id not in seen:
            d = ns.definitions[node.func.id]
            inner = _size_names(d.tree, ns, seen | {node.func.id})
            for param, arg in zip(d.params, node.args):
                if param in inner:
                    out |= set(variables_of(arg, ns))
    return out


def window_constants(binder: Any) -> list[str]:
    """Names fixed to one constant of 10 or more (``P in {50}``): a search bound or a table length chosen
    with the window, so the statement is only meant for the window's sizes.

    >>> from nimjos.lang.binders import Binder
    >>> from nimjos.lang.compiler import Namespace
    >>> window_constants(Binder.from_text("P in {50} and k in {2} and 1 <= n <= 9", Namespace()))
    ['P in {50}']
    """
    out = []
    for level in binder.levels:
        if level.members is None or not level.member_text:
            continue
        try:
            tree = parse(level.member_text)
        except SpecError:
            continue
        if isinstance(tree, ast.Set) and len(tree.elts) == 1 and isinstance(tree.elts[0], ast.Constant) \
                and type(tree.elts[0].value) is int and tree.elts[0].value >= 10:
            out.append(f"{level.name} in {level.member_text}")
    return out


def grundy_calls(texts: list, names: set[str] | tuple[str, ...], ns: Any) -> list[tuple[ast.expr, ast.expr]]:
    """The calls ``G(game, position)`` of the expressions whose arguments use no name but the window's `names`
    (not inside a lambda or a comprehension): (game, position) trees, whose values at every binding of the window
    name the positions a window check will ask G for, so that they can be solved at once.

    >>> from nimjos.lang.compiler import Namespace
    >>> ns = Namespace(); ns.games["g"] = object()
    >>> texts = ["G(g, x) == x % 3 and all(G(g, i) >= 0 for i in range(x))"]
    >>> [(ast.unparse(g), ast.unparse(p)) for g, p in grundy_calls(texts, {"x"}, ns)]
    [('g', 'x')]
    """
    out: list[tuple[ast.expr, ast.expr]] = []
    seen: set[str] = set()
    allowed = set(names)
    for tree in parsed(texts):
        stack: list[ast.AST] = [tree]
        while stack:
            node = stack.pop()
            if isinstance(node, (ast.Lambda, ast.GeneratorExp, ast.ListComp, ast.SetComp)):
                continue
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "G" \
                    and len(node.args) == 2 and all(set(variables_of(a, ns)) <= allowed for a in node.args):
                key = ast.unparse(node)
                if key not in seen:
                    seen.add(key)
                    out.append((node.args[0], node.args[1]))
            stack.extend(ast.iter_child_nodes(node))
    return out
