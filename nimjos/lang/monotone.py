"""Structural monotonicity: is an expression nondecreasing in one variable, whatever that variable's value?

Used to justify stopping a family index that has only a lower bound: once a coordinate that is provably
nondecreasing in the index has passed the window's upper edge, no larger index can bring a point back.
The analysis is conservative: ``None`` means "could not show it".

>>> from nimjos.lang.syntax import parse
>>> from nimjos.lang.compiler import Namespace
>>> direction(parse("(k + isqrt(5*k*k)) // 2 + k"), "k", Namespace(), nonneg={"k"})
'inc'
>>> direction(parse("2**n - n"), "n", Namespace(), nonneg={"n"}) is None
True
"""
from __future__ import annotations

import ast
from typing import Any, Mapping

from nimjos.lang.runtime import Definition
from nimjos.lang.compiler import Namespace
from nimjos.lang.registry import REGISTRY

INC, DEC, CONST = "inc", "dec", "const"


def _flip(m: str | None) -> str | None:
    return {INC: DEC, DEC: INC, CONST: CONST}.get(m) if m else None


def _add(a: str | None, b: str | None) -> str | None:
    if a is None or b is None:
        return None
    if a == CONST:
        return b
    if b == CONST or a == b:
        return a
    return None


def direction(node: ast.AST, var: str, ns: Namespace, nonneg: set[str] | frozenset[str] = frozenset()) -> str | None:
    """'inc', 'dec' or 'const' when `node` is provably monotone in `var` (other names held fixed);
    `nonneg` lists names known to be >= 0 (including `var` when its lower bound is >= 0)."""
    env = {n: (INC if n == var else CONST, n in nonneg) for n in set(nonneg) | {var}}
    m, _ = _analyse(node, env, ns, depth=0)
    return m


def _analyse(node: ast.AST, env: Mapping[str, tuple[str | None, bool]], ns: Namespace,
             depth: int) -> tuple[str | None, bool]:
    if depth > 50:
        return None, False
    rec = lambda n: _analyse(n, env, ns, depth + 1)  # noqa: E731
    if isinstance(node, ast.Constant):
        v = node.value
        if isinstance(v, bool) or not isinstance(v, int):
            return None, False
        return CONST, v >= 0
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        if node.id in ns.definitions and not ns.definitions[node.id].params:
            return CONST, False
        return CONST, False  # another variable, held fixed, sign unknown
    if isinstance(node, ast.UnaryOp):
        m, _ = rec(node.operand)
        if isinstance(node.op, ast.USub):
            return _flip(m), False
        if isinstance(node.op, ast.UAdd):
            return rec(node.operand)
        return None, False
    if isinstance(node, ast.BinOp):
        (ma, pa), (mb, pb) = rec(node.left), rec(node.right)
        op = node.op
        if isinstance(op, ast.Add):
            return _add(ma, mb), pa and pb
        if isinstance(op, ast.Sub):
            return _add(ma, _flip(mb)), False
        if isinstance(op, ast.Mult):
            if pa and pb:
                return _add(ma, mb), True
            return (CONST, False) if ma == mb == CONST else (None, False)
        if isinstance(op, (ast.FloorDiv, ast.Div)):
            if isinstance(node.right, ast.Constant) and isinstance(node.right.value, int) and node.right.value > 0:
                return ma, pa
            if mb == CONST and pb and ma == CONST:
                return CONST, pa
            return None, False
        if isinstance(op, ast.Pow):
            if isinstance(node.left, ast.Constant) and isinstance(node.left.value, int) and node.left.value >= 1 and pb:
                return (mb if mb in (INC, CONST) else None), True
            if isinstance(node.right, ast.Constant) and isinstance(node.right.value, int) and node.right.value >= 0 and pa:
                return ma, True
            return None, False
        if isinstance(op, ast.LShift):
            if pa and pb:
                return _add(ma, mb), True
            return None, False
        return None, False
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        name = node.func.id
        args = [rec(a) for a in node.args]
        if name in REGISTRY and REGISTRY[name].increasing and len(args) == 1:
            return args[0]
        if name in ("min", "max") and args:
            monos = {m for m, _ in args}
            if None in monos:
                return None, False
            nonneg = all(p for _, p in args)
            if monos <= {INC, CONST}:
                return (INC if INC in monos else CONST), nonneg
            if monos <= {DEC, CONST}:
                return DEC, nonneg
            return None, False
        if name == "abs" and len(args) == 1 and args[0][1]:
            return args[0]
        d = ns.definitions.get(name)
        if isinstance(d, Definition) and len(d.params) == len(args):
            inner = dict(zip(d.params, args))
            return _analyse(d.tree, inner, ns, depth + 1)
        return None, False
    return None, False


def coordinate_nodes(node: ast.AST) -> list[ast.AST]:
    """The coordinate expressions of a point expression: a tuple's elements, or the node itself.

    >>> [ast.unparse(n) for n in coordinate_nodes(ast.parse("(a, b + 1)", mode="eval").body)]
    ['a', 'b + 1']
    """
    if isinstance(node, ast.Tuple):
        return list(node.elts)
    return [node]


def is_nonneg_lower(level: Any) -> bool:
    """True when a binder level's lower bound texts are all non-negative integer literals."""
    try:
        return bool(level.low_text) and all(int(t) >= 0 for t in level.low_text)
    except ValueError:
        return False
