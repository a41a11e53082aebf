"""The printer of the IR (:mod:`nimjos.lang.ir`): a tree back to expression text of the language, through ``ast``
(so that ``ast.unparse`` places the parentheses), with integer constants folded where asked.

Printed for evaluation (`shown` False), the text means what the tree means: bound names are their unique names, a
definition called is the lambda of its resolved body applied to the arguments (each argument evaluated once, as
the language calls a definition), and a recursive definition is called by its name. Printed for a reader
(`shown` True), bound names are as the spec writes them and definitions are called by name.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.resolve import resolve_text
>>> to_text(resolve_text("any(x == x for x in range(x + 0))", Namespace(), {"x"}))
'any((x_1 == x_1 for x_1 in range(x + 0)))'
>>> to_text(resolve_text("2 * 3 + k - (4 - 5)", Namespace(), {"k"}), fold=True)
'6 + k - -1'
"""
from __future__ import annotations

import ast
from typing import Any

from nimjos.lang import ir
from nimjos.lang.visitor import IRVisitor

#: the integer operators a fold computes (exact and small: no power, no shift)
_FOLDED = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
           ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b}


def _int_const(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Constant) \
            and type(node.operand.value) is int:
        return -node.operand.value
    return None


def _const(value: int) -> ast.expr:
    return ast.UnaryOp(ast.USub(), ast.Constant(-value)) if value < 0 else ast.Constant(value)


class ToAst(IRVisitor):
    """The IR as an ``ast`` expression (see the module docstring for `shown` and `fold`)."""

    def __init__(self, shown: bool = False, fold: bool = False):
        self.shown = shown
        self.fold = fold

    def all(self, nodes: tuple[ir.Expr, ...]) -> list[ast.expr]:
        return [self.visit(n) for n in nodes]

    def visit_Const(self, node: ir.Const) -> ast.expr:
        return _const(node.value) if type(node.value) is int else ast.Constant(node.value)

    def visit_Var(self, node: ir.Var) -> ast.expr:
        return ast.Name(node.shown if self.shown else node.name, ast.Load())

    def visit_Ref(self, node: ir.Ref) -> ast.expr:
        return ast.Name(node.name, ast.Load())

    def visit_GameRef(self, node: ir.GameRef) -> ast.expr:
        name = ast.Name(node.name, ast.Load())
        return name if node.args is None else ast.Call(name, self.all(node.args), [])

    def visit_BinOp(self, node: ir.BinOp) -> ast.expr:
        left, right = self.visit(node.left), self.visit(node.right)
        if self.fold and node.op in _FOLDED:
            a, b = _int_const(left), _int_const(right)
            if a is not None and b is not None and not (b == 0 and node.op in (ast.FloorDiv, ast.Mod)):
                return _const(_FOLDED[node.op](a, b))
        return ast.BinOp(left, node.op(), right)

    def visit_UnaryOp(self, node: ir.UnaryOp) -> ast.expr:
        operand = self.visit(node.operand)
        if self.fold and node.op is ast.USub and _int_const(operand) is not None:
            return _const(-_int_const(operand))  # type: ignore[operator]  # checked just before
        return ast.UnaryOp(node.op(), operand)

    def visit_BoolOp(self, node: ir.BoolOp) -> ast.expr:
        return ast.BoolOp(node.op(), self.all(node.values))

    def visit_Compare(self, node: ir.Compare) -> ast.expr:
        return ast.Compare(self.visit(node.left), [op() for op in node.ops], self.all(node.comparators))

    def visit_IfExp(self, node: ir.IfExp) -> ast.expr:
        return ast.IfExp(self.visit(node.test), self.visit(node.body), self.visit(node.orelse))

    def visit_Tuple(self, node: ir.Tuple) -> ast.expr:
        return ast.Tuple(self.all(node.elts), ast.Load())

    def visit_Set(self, node: ir.Set) -> ast.expr:
        return ast.Set(self.all(node.elts))

    def visit_Subscript(self, node: ir.Subscript) -> ast.expr:
        return ast.Subscript(self.visit(node.value), self.visit(node.index), ast.Load())

    def visit_Call(self, node: ir.Call) -> ast.expr:
        return ast.Call(ast.Name(node.name, ast.Load()), self.all(node.args), [])

    def visit_DefCall(self, node: ir.DefCall) -> ast.expr:
        args = self.all(node.args)
        if node.body is None or self.shown:
            name = ast.Name(node.name, ast.Load())
            return ast.Call(name, args, []) if node.definition.params else name
        lam = ast.Lambda(_arguments(node.body.params), self.visit(node.body.body))
        return ast.Call(lam, args, [])

    def visit_Apply(self, node: ir.Apply) -> ast.expr:
        return ast.Call(self.visit(node.func), self.all(node.args), [])

    def visit_Lambda(self, node: ir.Lambda) -> ast.expr:
        return ast.Lambda(_arguments(node.shown if self.shown else node.params), self.visit(node.body))

    def visit_Comprehension(self, node: ir.Comprehension) -> ast.expr:
        gens = []
        for g in node.generators:
            names = g.shown if self.shown else g.target
            target: ast.expr = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store()) if g.unpack \
                else ast.Name(names[0], ast.Store())
            gens.append(ast.comprehension(target, self.visit(g.iter), self.all(g.ifs), 0))
        kind: Any = {"generator": ast.GeneratorExp, "list": ast.ListComp, "set": ast.SetComp}[node.kind]
        return kind(self.visit(node.elt), gens)

    def generic_visit(self, node: ir.Expr, *args: Any) -> Any:  # pragma: no cover - every node is printed
        raise TypeError(f"no printed form of {type(node).__name__}")


def _arguments(names: tuple[str, ...]) -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[ast.arg(n) for n in names], kwonlyargs=[], kw_defaults=[],
                         defaults=[])


def to_text(node: ir.Expr, shown: bool = False, fold: bool = False) -> str:
    """The IR as expression text (see the module docstring).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.resolve import resolve_text
    >>> to_text(resolve_text("(lambda y: y + x)(1) + 1 - 1", Namespace(), {"x", "y"}), shown=True, fold=True)
    '(lambda y: y + x)(1) + 1 - 1'
    """
    return ast.unparse(ast.fix_missing_locations(ToAst(shown, fold).visit(node)))
