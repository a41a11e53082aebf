"""Comparisons and membership for :class:`checkers.z3.translate.Builder` (a mixin): chained comparisons,
tuples compared componentwise, truth values as the integers 1 and 0 (``(x < 3) == 2`` is always false), and ``x in c`` for a set, a tuple,
a range (constant or symbolic), the options of a position, or a predicate.

>>> import ast
>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int")
>>> x = b.var("x")
>>> b.term(parse("0 <= x < 5"), {"x": x})
And(0 <= x, 5 > x)
>>> b.compare(ast.Eq, (1, 2), (1, 2)), b.member(x, (1, 2))
(True, Or(1 == x, 2 == x))
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

import z3

from nimjos.lang.operators import CMPOPS
from nimjos.lang.runtime import Definition, Lambda
from checkers.z3.unknown import UnknownFunction, membership
from checkers.z3.terms import Closure, OptionsVal, RangeVal, SymSet, Untranslatable, has_term, is_const, is_term, show


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


class Comparisons(_Host):
    """Comparisons of :class:`checkers.z3.translate.Builder` (see the module docstring)."""

    # ------------------------------------------------------------------ comparisons
    def _Compare(self, node: ast.Compare, env: dict) -> Any:
        left = self._ex(node.left, env)
        if isinstance(left, UnknownFunction) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            r = membership(self, left, node.comparators[0], env)   # f in nondecreasing(K, 1, V): its axioms
            return z3.Not(r) if isinstance(node.ops[0], ast.NotIn) else r
        parts = []
        for op, comp in zip(node.ops, node.comparators):
            right = self._ex(comp, env)
            parts.append(self.compare(type(op), left, right))
            left = right
        if all(not is_term(p) for p in parts):
            return all(parts)
        return z3.And(*[self.to_bool(p) for p in parts]) if len(parts) > 1 else parts[0]

    def compare(self, op: type, a: Any, b: Any) -> Any:
        if op in (ast.In, ast.NotIn):
            r = self.member(a, b)
            if op is ast.NotIn:
                return (not r) if not is_term(r) else z3.Not(r)
            return r
        if not is_term(a) and not is_term(b) and not has_term(a) and not has_term(b):
            return CMPOPS[op](a, b)
        if isinstance(a, tuple) or isinstance(b, tuple):
            if op not in (ast.Eq, ast.NotEq):
                raise Untranslatable("ordering of tuples")
            if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
                eq: Any = False
            else:
                eq = self._all([self.compare(ast.Eq, x, y) for x, y in zip(a, b)])
            if op is ast.Eq:
                return eq
            return (not eq) if not is_term(eq) else z3.Not(eq)
        truth = [isinstance(v, bool) or (is_term(v) and z3.is_bool(v)) for v in (a, b)]
        if all(truth) and op in (ast.Eq, ast.NotEq):
            ba, bb = self.to_bool(a), self.to_bool(b)
            return ba == bb if op is ast.Eq else ba != bb
        # a truth value beside a number (or ordered) is the integer 1 or 0: (x < 3) == 2 is always false
        ta, tb = self._unify(self.to_term(a), self.to_term(b))
        compared: dict[type, Callable[[], Any]] = {
            ast.Eq: lambda: ta == tb, ast.NotEq: lambda: ta != tb, ast.Lt: lambda: ta < tb,
            ast.LtE: lambda: ta <= tb, ast.Gt: lambda: ta > tb, ast.GtE: lambda: ta >= tb}
        return compared[op]()

    def _all(self, parts: list) -> Any:
        if any(p is False for p in parts):
            return False
        terms = [p for p in parts if is_term(p)]
        if not terms:
            return True
        return z3.And(*terms)

    def _any(self, parts: list) -> Any:
        if any(p is True for p in parts):
            return True
        terms = [p for p in parts if is_term(p)]
        if not terms:
            return False
        return z3.Or(*terms)

    def member(self, x: Any, c: Any) -> Any:
        """x in c for a set, tuple, range, the options of a game, or a predicate."""
        if isinstance(c, (frozenset, tuple)):
            items = list(c)
            if not is_term(x) and not has_term(x) and all(is_const(i) for i in items):
                return x in c
            return self._any([self.compare(ast.Eq, x, i) for i in items])
        if isinstance(c, SymSet):
            return self._any([self.compare(ast.Eq, x, i) for i in c.items])
        if isinstance(c, RangeVal):
            return self._all([self.compare(ast.GtE, x, c.lo), self.compare(ast.Lt, x, c.hi)])
        if isinstance(c, range):
            return self._all([self.compare(ast.GtE, x, c.start), self.compare(ast.Lt, x, c.stop)]) \
                if c.step == 1 else self._any([self.compare(ast.Eq, x, i) for i in c])
        if isinstance(c, OptionsVal):
            return self.is_option(c.game, c.position, x)
        if isinstance(c, (Closure, Definition, Lambda)) or callable(c):
            return self.to_bool(self.apply(c, (x,)))
        raise Untranslatable(f"'in' over {show(c)}")
