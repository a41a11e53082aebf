"""Static analyses of a claim's expressions and window that the methods share: which names are sizes (the
exponent of a power), and which window bounds are constants fixed by the window's author.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.syntax import parse
>>> sorted(size_names([parse("2 ** n + x")], Namespace()))
['n']
"""
from __future__ import annotations

import ast
from typing import Any

from nimjos.lang.syntax import copy_tree
from nimjos.lang.expr import variables_of


def size_names(trees: list[ast.expr], ns: Any) -> set[str]:
    """Names that are exponents of a power (2 ** n) in the expressions `trees`: sizes, whose window range is never
    a case split.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.syntax import parse
    >>> sorted(size_names([parse("2 ** (n - 1) + e"), parse("x < 2 ** m")], Namespace()))
    ['m', 'n']
    """
    out: set[str] = set()
    for tree in trees:
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
        tree = level.member_tree
        if level.members is None or not level.member_text or tree is None:
            continue
        if isinstance(tree, ast.Set) and len(tree.elts) == 1 and isinstance(tree.elts[0], ast.Constant) \
                and type(tree.elts[0].value) is int and tree.elts[0].value >= 10:
            out.append(f"{level.name} in {level.member_text}")
    return out


def grundy_calls(trees: list[ast.expr], names: set[str] | tuple[str, ...], ns: Any) -> list[tuple[ast.expr, ast.expr]]:
    """The calls ``G(game, position)`` of the expressions `trees` whose arguments use no name but the window's
    `names` (not inside a lambda or a comprehension): (game, position) trees (copies), whose values at every binding
    of the window name the positions a window check will ask G for, so that they can be solved at once.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.syntax import parse
    >>> ns = Namespace(); ns.games["g"] = object()
    >>> trees = [parse("G(g, x) == x % 3 and all(G(g, i) >= 0 for i in range(x))")]
    >>> [(ast.unparse(g), ast.unparse(p)) for g, p in grundy_calls(trees, {"x"}, ns)]
    [('g', 'x')]
    """
    out: list[tuple[ast.expr, ast.expr]] = []
    seen: set[str] = set()
    allowed = set(names)
    for tree in trees:
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
                    out.append((copy_tree(node.args[0]), copy_tree(node.args[1])))
            stack.extend(ast.iter_child_nodes(node))
    return out
