"""Aggregates and quantifiers for :class:`checkers.z3.translate.Builder` (a mixin): ``any`` / ``all`` over
comprehensions (unrolled over at most :data:`UNROLL` constant values, else an Exists / ForAll over a
symbolic range, a symbolic set or the options of a position), ``sum`` over a finite collection, and
:meth:`Comprehensions.quantifier`, which keeps the helper definitions and obligations that mention bound
variables under their quantifier.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int")
>>> n = b.var("n")
>>> b.term(parse("all(i * i >= 0 for i in range(n))"), {"n": n}).is_forall()
True
>>> b.term(parse("sum(i for i in range(4))"), {})
6
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

import z3

from checkers.z3.unknown import symbolic_sum
from checkers.z3.terms import OptionsVal, RangeVal, Scope, SymSet, Untranslatable, is_term, show

#: comprehensions over at most this many constant values are unrolled instead of quantified
UNROLL = 64


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


class Comprehensions(_Host):
    """Aggregates and quantifiers of :class:`checkers.z3.translate.Builder` (see the module docstring)."""

    #: the guards of the quantifiers and conditions being built, outermost first (set by the Builder; declared
    #: here because :meth:`quantifier` assigns it)
    path: list

    # -- aggregates over comprehensions
    def _call_any(self, node: ast.Call, env: dict) -> Any:
        return self._aggregate(node, env, exists=True)

    def _call_all(self, node: ast.Call, env: dict) -> Any:
        return self._aggregate(node, env, exists=False)

    def _aggregate(self, node: ast.Call, env: dict, exists: bool) -> Any:
        (arg,) = node.args
        if isinstance(arg, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            return self._quantify(arg.generators, arg.elt, env, exists)
        vals = self._collection(arg, env)
        parts = [self.to_bool(v) if is_term(v) else bool(v) for v in vals]
        return self._any(parts) if exists else self._all(parts)

    def _call_sum(self, node: ast.Call, env: dict) -> Any:
        (arg,) = node.args
        if isinstance(arg, ast.GeneratorExp) and len(arg.generators) == 1:
            it = self._ex(arg.generators[0].iter, env)
            if isinstance(it, RangeVal):   # a symbolic range: a recursive unknown (checkers.z3.unknown)
                return symbolic_sum(self, arg.generators[0], arg.elt, env, it.lo, it.hi)
        vals = self._collection(arg, env)
        out: Any = 0
        for v in vals:
            out = self.binop(ast.Add, out, v)
        return out

    def _collection(self, node: ast.AST, env: dict) -> list:
        """The elements of a collection with finitely many constant-indexed members."""
        if isinstance(node, (ast.GeneratorExp, ast.ListComp, ast.SetComp)):
            out: list = []
            self._unroll(node.generators, node.elt, dict(env), out)
            return out
        v = self._ex(node, env)
        if isinstance(v, SymSet):
            return list(v.items)
        if isinstance(v, (tuple, frozenset, range)):
            if isinstance(v, range) and len(v) > UNROLL * 16:
                raise Untranslatable(f"a collection of {len(v)} elements")
            return list(v)
        raise Untranslatable(f"a symbolic collection ({show(v)})")

    def _unroll(self, gens: list, elt: ast.expr, env: dict, out: list) -> None:
        if not gens:
            out.append(self._ex(elt, env))
            return
        gen, rest = gens[0], gens[1:]
        it = self._ex(gen.iter, env)
        if not isinstance(it, (range, tuple, frozenset)):
            raise Untranslatable("a sum/min/max over a symbolic range")
        if len(it) > UNROLL * 16:
            raise Untranslatable(f"a comprehension over {len(it)} values")
        for value in (sorted(it) if isinstance(it, frozenset) else it):
            inner = dict(env)
            self._bind_target(gen.target, value, inner)
            conds = [self._ex(c, inner) for c in gen.ifs]
            if any(is_term(c) for c in conds):
                raise Untranslatable("a sum/min/max with a symbolic filter")
            if all(conds):
                self._unroll(rest, elt, inner, out)

    def _bind_target(self, target: ast.AST, value: Any, env: dict) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = value
            return
        if isinstance(target, ast.Tuple) and isinstance(value, tuple) and len(value) == len(target.elts):
            for t, v in zip(target.elts, value):
                self._bind_target(t, v, env)
            return
        raise Untranslatable("cannot unpack a comprehension target")

    def _quantify(self, gens: list, elt: ast.expr, env: dict, exists: bool) -> Any:
        """any / all over nested generators: unrolled when small and constant, quantified otherwise."""
        if not gens:
            v = self._ex(elt, env)
            return self.to_bool(v) if is_term(v) else bool(v)
        gen, rest = gens[0], gens[1:]
        it = self._ex(gen.iter, env)

        def body(inner: dict) -> Any:
            conds = []
            pushed = 0
            try:
                for c in gen.ifs:
                    cv = self._ex(c, inner)
                    if not is_term(cv):
                        if not cv:
                            return (not exists)  # filtered out: neutral element
                        continue
                    cb = self.to_bool(cv)
                    conds.append(cb)
                    self.path.append(cb)
                    pushed += 1
                b = self._quantify(rest, elt, inner, exists)
            finally:
                for _ in range(pushed):
                    self.path.pop()
            if not conds:
                return b
            g = z3.And(*conds)
            bb = self.to_bool(b) if is_term(b) else z3.BoolVal(bool(b), self.ctx)
            return z3.And(g, bb) if exists else z3.Implies(g, bb)

        if isinstance(it, range) and it.step == 1 and (it.stop - it.start > UNROLL):
            # a long constant range is quantified over, never listed (range(0, 2 ** 70) has no len())
            it = RangeVal(it.start, it.stop)
        if isinstance(it, (range, frozenset, tuple)):
            items = sorted(it) if isinstance(it, frozenset) else list(it)
            if len(items) <= UNROLL:
                parts = []
                for value in items:
                    inner = dict(env)
                    self._bind_target(gen.target, value, inner)
                    parts.append(body(inner))
                return self._any(parts) if exists else self._all(parts)
            it = RangeVal(items[0], items[-1] + 1) if isinstance(it, range) and it.step == 1 else None
            if it is None:
                raise Untranslatable("a comprehension over a large set")
        if isinstance(it, SymSet):
            parts = []
            for value in it.items:
                inner = dict(env)
                self._bind_target(gen.target, value, inner)
                parts.append(body(inner))
            return self._any(parts) if exists else self._all(parts)
        if isinstance(it, RangeVal):
            if not isinstance(gen.target, ast.Name):
                raise Untranslatable("unpacking over a range")
            return self.quantifier(exists, [gen.target.id],
                                   lambda vs: self._all([self.compare(ast.GtE, vs[0], it.lo),
                                                         self.compare(ast.Lt, vs[0], it.hi)]),
                                   lambda vs: body({**env, gen.target.id: vs[0]}))
        if isinstance(it, OptionsVal):
            return self.over_options(it.game, it.position, exists,
                                     lambda q: body(self._bound_target(gen.target, q, env)))
        raise Untranslatable(f"a comprehension over {show(it)}")

    def _bound_target(self, target: ast.AST, value: Any, env: dict) -> dict:
        inner = dict(env)
        self._bind_target(target, value, inner)
        return inner

    def quantifier(self, exists: bool, names: list[str], guard: Callable, body: Callable) -> Any:
        """Exists / ForAll over fresh integers: guard(vars) and body(vars) are built inside a new scope, so
        that helper definitions and obligations that mention the bound variables stay under the quantifier."""
        scope = Scope()
        self.scopes.append(scope)
        saved_path = self.path
        try:
            vs = [self.var(f"{n}!q{self._next()}") for n in names]
            scope.bound.extend(vs)
            g = guard(vs)
            g = self.to_bool(g) if is_term(g) else z3.BoolVal(bool(g), self.ctx)
            self.path = saved_path + [g]
            b = body(vs)
            b = self.to_bool(b) if is_term(b) else z3.BoolVal(bool(b), self.ctx)
        finally:
            self.path = saved_path
            self.scopes.pop()
        qvars = scope.bound + scope.fresh
        defs = z3.And(*scope.defs) if scope.defs else z3.BoolVal(True, self.ctx)
        if scope.obligations:
            ob = z3.And(*[c for c, _ in scope.obligations])
            body_ob = z3.Implies(z3.And(g, defs), ob)
            self.scopes[-1].obligations.append(
                (z3.ForAll(qvars, body_ob) if qvars else body_ob, "; ".join(sorted({t for _, t in scope.obligations}))))
        if not qvars:   # a move family with no bound name (a pass): nothing to quantify
            return z3.And(g, defs, b) if exists else z3.Implies(z3.And(g, defs), b)
        if exists:
            return z3.Exists(qvars, z3.And(g, defs, b))
        return z3.ForAll(qvars, z3.Implies(z3.And(g, defs), b))

    def _next(self) -> int:
        self._n += 1
        return self._n
