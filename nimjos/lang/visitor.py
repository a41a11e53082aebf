"""The one visitor protocol over the IR (:mod:`nimjos.lang.ir`), after ``ast.NodeVisitor``: :meth:`IRVisitor.visit`
calls ``visit_<Node class name>`` when the visitor has it, else :meth:`IRVisitor.generic_visit`, which visits the
node's children and returns None. Extra arguments of ``visit`` (an environment, say) are passed on.

>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.resolve import resolve_text
>>> class Names(IRVisitor):
...     def __init__(self):
...         self.seen = []
...     def visit_Var(self, node):
...         self.seen.append(node.name)
>>> v = Names(); v.visit(resolve_text("x + sum(y for y in range(x))", Namespace(), {"x", "y"})); v.seen
['x', 'x', 'y_1']
"""
from __future__ import annotations

from typing import Any, Callable

from nimjos.lang.ir import Expr


class IRVisitor:
    """A walker of IR trees: subclasses define ``visit_<Node>(node, *args)`` for the nodes they handle."""

    def visit(self, node: Expr, *args: Any) -> Any:
        """Visit `node` with its own method, or :meth:`generic_visit` when the visitor has none."""
        method: Callable[..., Any] = getattr(self, "visit_" + type(node).__name__, self.generic_visit)
        return method(node, *args)

    def generic_visit(self, node: Expr, *args: Any) -> Any:
        """Visit the node's children (:meth:`nimjos.lang.ir.Expr.children`); the fallback of :meth:`visit`.

        >>> from nimjos.lang.compiler import Namespace
        >>> from nimjos.lang.resolve import resolve_text
        >>> IRVisitor().generic_visit(resolve_text("x + 1", Namespace(), {"x"})) is None
        True
        """
        for child in node.children():
            self.visit(child, *args)
        return None
