"""The built-ins with a Z3 model, for :class:`checkers.z3.translate.Builder` (a mixin): floor and ceil of a
quotient, min and max (of a list, or the least / greatest member of a symbolic range as a defined helper
variable), abs, the nim-sum of several values, v2, ilog2, popcount and isqrt (bit-vector world or defined
helpers), range, the options of a game, and iterate. A built-in on constants is computed exactly by the
language's own function.

>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(spec_namespace(), mode="int")
>>> x = b.var("x")
>>> t = b.term(parse("max(x, 3) + ceil(x / 2) + isqrt(16)"), {"x": x})
>>> z3.simplify(z3.substitute(t, (x, z3.IntVal(5))))
12
>>> b.term(parse("range(x)"), {"x": x})
RangeVal(lo=0, hi=x)
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

import z3

from checkers.z3.powers import logarithm, valuation
from checkers.z3.quantify import UNROLL
from checkers.z3.terms import GameRef, OptionsVal, RangeVal, Untranslatable, is_term, show


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


class BuiltinCalls(_Host):
    """The ``_call_<name>`` translations of :class:`checkers.z3.translate.Builder` (see the module
    docstring); :meth:`checkers.z3.translate.Builder._Call` dispatches to them by name."""

    # -- built-ins with a model
    def _args(self, node: ast.Call, env: dict) -> list:
        return [self._ex(a, env) for a in node.args]

    def _call_floor(self, node: ast.Call, env: dict) -> Any:
        (arg,) = node.args
        if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
            return self.floordiv(self._ex(arg.left, env), self._ex(arg.right, env))
        return self.floor(self._ex(arg, env))

    def _call_ceil(self, node: ast.Call, env: dict) -> Any:
        (arg,) = node.args
        if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Div):
            a, b = self._ex(arg.left, env), self._ex(arg.right, env)
            neg = self.binop(ast.Sub, 0, a)
            return self.binop(ast.Sub, 0, self.floordiv(neg, b))
        return self.ceil(self._ex(arg, env))

    def _minmax(self, node: ast.Call, env: dict, smaller: bool) -> Any:
        if len(node.args) == 1:
            arg = node.args[0]
            if isinstance(arg, (ast.GeneratorExp, ast.ListComp, ast.SetComp)) and len(arg.generators) == 1:
                it = self._ex(arg.generators[0].iter, env)
                if isinstance(it, RangeVal):
                    return self._extreme(arg, it, env, smaller)
            vals = self._collection(arg, env)
        else:
            vals = self._args(node, env)
        if not vals:
            raise Untranslatable("min/max of an empty collection")
        if all(not is_term(v) for v in vals):
            return min(vals) if smaller else max(vals)
        out = vals[0]
        for v in vals[1:]:
            c = self.compare(ast.Lt if smaller else ast.Gt, v, out)
            out = self.ite(self.to_bool(c), v, out) if is_term(c) else (v if c else out)
        return out

    def _extreme(self, comp: Any, rng: RangeVal, env: dict, smaller: bool) -> Any:
        """min / max of f(i) over a symbolic range with filters, when f is the index itself: a fresh
        variable defined by 'a member, and no member beyond it' (its existence is an obligation)."""
        gen = comp.generators[0]
        if not isinstance(gen.target, ast.Name) or not (isinstance(comp.elt, ast.Name) and comp.elt.id == gen.target.id):
            raise Untranslatable("min/max of an expression over a symbolic range")
        name = gen.target.id

        def member(v: Any) -> Any:
            parts = [self.compare(ast.GtE, v, rng.lo), self.compare(ast.Lt, v, rng.hi)]
            parts += [self._ex(c, {**env, name: v}) for c in gen.ifs]
            return self._all([self.to_bool(p) if is_term(p) else bool(p) for p in parts])

        m = self.fresh("min" if smaller else "max")
        nonempty = self.quantifier(True, [name], lambda vs: True, lambda vs: member(vs[0]))
        self.oblige(nonempty, f"{'min' if smaller else 'max'} of an empty collection")
        beyond = self.quantifier(False, [name], lambda vs: member(vs[0]),
                                 lambda vs: self.compare(ast.LtE if smaller else ast.GtE, m, vs[0]))
        # guarded, so that an empty collection leaves m free and the obligation (not the definition) fails
        self.define(z3.Implies(nonempty, z3.And(self.to_bool(member(m)), beyond)))
        return m

    def _call_min(self, node: ast.Call, env: dict) -> Any:
        return self._minmax(node, env, True)

    def _call_max(self, node: ast.Call, env: dict) -> Any:
        return self._minmax(node, env, False)

    def _call_abs(self, node: ast.Call, env: dict) -> Any:
        (v,) = self._args(node, env)
        if not is_term(v):
            return abs(v)
        t = self.to_term(v)
        if self.mode == "bv":
            self.oblige(z3.BVSNegNoOverflow(t), f"no overflow in {self.bits} bits")
        return z3.If(t >= self._unify(t, self.to_term(0))[1], t, -t)

    def _call_xor(self, node: ast.Call, env: dict) -> Any:
        vals = self._args(node, env)
        if len(vals) == 1 and isinstance(vals[0], tuple):
            vals = list(vals[0])
        out: Any = 0
        for v in vals:
            out = self.xor2(out, v) if not (isinstance(out, int) and out == 0) else v
        if len(vals) == 1:
            self.xor2(vals[0], 0)
        return out

    def _call_v2(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["v2"], (n,))
        t = self.integer(n, "v2")
        self.oblige(t != self.const(0), "v2(0) is undefined")
        if self.mode != "bv":
            return valuation(self, t)   # an unknown with its facts (checkers.z3.powers)
        out = self.const(self.bits - 1)
        for i in range(self.bits - 2, -1, -1):
            out = z3.If(z3.Extract(i, i, t) == 1, self.const(i), out)
        return out

    def _call_ilog2(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["ilog2"], (n,))
        t = self.integer(n, "ilog2")
        self.oblige(t >= self.const(1), "ilog2 needs n >= 1")
        if self.mode == "bv":
            out = self.const(0)
            for i in range(1, self.bits - 1):
                out = z3.If(z3.Extract(i, i, t) == 1, self.const(i), out)
            return out
        return logarithm(self, t)   # an unknown with its facts (checkers.z3.powers)

    def _call_popcount(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["popcount"], (n,))
        if self.mode != "bv":
            raise Untranslatable("popcount needs the bit-vector world")
        t = self.integer(n, "popcount")
        self.oblige(t >= 0, "popcount of a negative number")
        return z3.Sum([z3.ZeroExt(self.bits - 1, z3.Extract(i, i, t)) for i in range(self.bits)])

    def _call_isqrt(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["isqrt"], (n,))
        if self.mode != "int":
            raise Untranslatable("isqrt of a symbolic value needs the integer world")
        t = self.integer(n, "isqrt")
        self.oblige(t >= 0, "isqrt of a negative number")
        r = self.fresh("isqrt")
        self.define(z3.Implies(t >= 0, z3.And(r >= 0, r * r <= t, t < (r + 1) * (r + 1))))
        return r

    def _call_range(self, node: ast.Call, env: dict) -> Any:
        vals = self._args(node, env)
        if len(vals) == 1:
            lo, hi = 0, vals[0]
        elif len(vals) == 2:
            lo, hi = vals
        else:
            if all(not is_term(v) for v in vals):
                return range(*vals)
            raise Untranslatable("range with a symbolic step")
        if not is_term(lo) and not is_term(hi):
            return range(lo, hi)
        return RangeVal(lo, hi)

    def _call_options(self, node: ast.Call, env: dict) -> Any:
        g, pos = self._args(node, env)
        return OptionsVal(self._game(g), pos)

    def _call_iterate(self, node: ast.Call, env: dict) -> Any:
        f, p, x = self._args(node, env)
        if is_term(p):
            raise Untranslatable("iterate with a symbolic count")
        if type(p) is not int or p < 0 or p > UNROLL:
            raise Untranslatable(f"iterate {p} times")
        for _ in range(p):
            x = self.apply(f, (x,))
        return x

    def _game(self, g: Any) -> GameRef:
        if isinstance(g, GameRef):
            return g
        if hasattr(g, "moves") and hasattr(g, "position"):
            if g.params:
                raise Untranslatable(f"game {g.name} needs its params")
            return GameRef(g, {})
        raise Untranslatable(f"{show(g)} is not a declared game")
