"""The arithmetic of the two worlds of :class:`checkers.z3.translate.Builder` (a mixin): operators on
constants and Z3 terms, floor division and remainders with Python's signs, exact division (int world only),
powers (2 ** e abstracted as ``pow2`` in the int world, a shift in the bit-vector world), the nim-sum
(abstracted by its laws in the int world, exact in bv), bitwise operators and shifts, and G or a Josephus
function on symbolic arguments as an unknown function. Every operation that can be undefined or leave the
bit-vector width records an obligation.

>>> import ast
>>> from nimjos.lang.compiler import Namespace
>>> from checkers.z3.translate import Builder
>>> b = Builder(Namespace(), mode="int")
>>> x = b.var("x")
>>> b.floordiv(-7, 2), z3.simplify(z3.substitute(b.mod(x, -3), (x, z3.IntVal(7))))
(-4, -2)
>>> b.power(2, x).decl().name(), sorted(b.abstractions)
('pow2', ['2^e'])
>>> bv = Builder(Namespace(), mode="bv", bits=8)
>>> z3.simplify(bv.binop(ast.BitOr, bv.const(5), bv.const(2))), bv.obligation()[1]
(7, [])
"""
from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any, Callable

import z3

from nimjos.lang.builtins import ceil, floor, xor
from nimjos.lang.errors import EvalError
from nimjos.lang.operators import BINOPS
from nimjos.lang.runtime import norm
from checkers.z3.terms import BIG_CONSTANT, GameRef, Scope, Untranslatable, constants_of, is_term


if TYPE_CHECKING:    # the Builder's other mixins, for the type checker (checkers.z3.host)
    from checkers.z3.host import BuilderHost as _Host
else:
    _Host = object


def _one_name(t: Any) -> bool:
    """Is a Z3 term one free name (k), not a compound term (k - 1) nor a number?

    >>> _one_name(z3.Int("k")), _one_name(z3.Int("k") - 1), _one_name(z3.IntVal(3))
    (True, False, False)
    """
    return z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED


class Arithmetic(_Host):
    """Operators of :class:`checkers.z3.translate.Builder` (see the module docstring)."""

    # host state this mixin assigns, declared for the type checker (which otherwise takes the assignment for this
    # class's own definition of the protocol's attribute, of a type it cannot determine); set by Builder.__init__
    _pow2: Any
    _xor: Any

    def binop(self, op: type, a: Any, b: Any) -> Any:
        """Apply an arithmetic or bitwise operator to two values."""
        if not is_term(a) and not is_term(b):
            if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
                raise Untranslatable("arithmetic on a collection")
            try:
                return norm(BINOPS[op](a, b))
            except EvalError as exc:
                self.oblige(False, str(exc))
                return 0
        if op is ast.Add:
            return self._arith(a, b, lambda x, y: x + y, z3.BVAddNoOverflow, z3.BVAddNoUnderflow, True)
        if op is ast.Sub:
            return self._arith(a, b, lambda x, y: x - y, z3.BVSubNoOverflow, z3.BVSubNoUnderflow, False)
        if op is ast.Mult:
            return self._arith(a, b, lambda x, y: x * y, z3.BVMulNoOverflow, z3.BVMulNoUnderflow, None)
        if op is ast.FloorDiv:
            return self.floordiv(a, b)
        if op is ast.Mod:
            return self.mod(a, b)
        if op is ast.Div:
            return self.truediv(a, b)
        if op in (ast.BitOr, ast.BitAnd):
            return self.bitop(op, a, b)
        if op is ast.LShift:
            return self.shift(a, b, left=True)
        if op is ast.RShift:
            return self.shift(a, b, left=False)
        raise Untranslatable(f"operator {op.__name__}")

    def _arith(self, a: Any, b: Any, fn: Callable, no_over: Callable, no_under: Callable, add: bool | None) -> Any:
        ta, tb = self._unify(self.to_term(a), self.to_term(b))
        if self.mode == "bv":
            if add is True:
                self.oblige(z3.And(no_over(ta, tb, True), no_under(ta, tb)), f"no overflow in {self.bits} bits")
            elif add is False:
                self.oblige(z3.And(no_over(ta, tb), no_under(ta, tb, True)), f"no overflow in {self.bits} bits")
            else:
                self.oblige(z3.And(no_over(ta, tb, True), no_under(ta, tb)), f"no overflow in {self.bits} bits")
        return fn(ta, tb)

    def floordiv(self, a: Any, b: Any) -> Any:
        """Python's a // b (floor division)."""
        if not is_term(a) and not is_term(b):
            return self.binop(ast.FloorDiv, a, b)
        ta = self.to_term(a)
        if self.mode == "int" and z3.is_real(ta):
            return self.floor(self.truediv(a, b))
        if not is_term(b):
            c = norm(b)
            if type(c) is not int:
                if self.mode == "int":
                    return self.floor(self.truediv(a, b))
                raise Untranslatable("floor division by a fraction")
            if c == 0:
                self.oblige(False, "division by zero")
                return ta
            if self.mode == "int":
                return ta / c if c > 0 else (-ta) / (-c)
            if c > 0 and c & (c - 1) == 0:
                return ta >> (c.bit_length() - 1)
            return self._bv_floordiv(ta, self.const(c))
        tb = self.to_term(b)
        if self.mode == "int" and z3.is_real(tb):
            return self.floor(self.truediv(a, b))
        self.oblige(tb != 0, "division by zero")
        if self.mode == "int":
            return self.quotient(ta, tb) if _one_name(tb) else z3.If(tb > 0, ta / tb, (-ta) / (-tb))
        return self._bv_floordiv(ta, tb)

    def quotient(self, ta: Any, tb: Any) -> Any:
        """floor(a / b) for integer terms a and a symbolic b (int world): a fresh integer q with its defining
        inequalities b*q <= a < b*q + b (b > 0), b*q >= a > b*q + b (b < 0), q = 0 for b = 0 (where the caller
        records the obligation b != 0). Exact, and one product per quotient: Z3 sees linear arithmetic besides
        it, where its own integer division by a symbolic divisor sends it to nonlinear division. One quotient per
        pair (a, b) of a scope. Used for a divisor that is one name (x / k, the rule function of maxnim(k)): with a
        compound divisor (k - 1), whose floors nest in 001's g_k(g_k(n)), Z3's own division decided more (both
        are exact).

        >>> from nimjos.lang.compiler import Namespace
        >>> from checkers.z3.translate import Builder
        >>> b = Builder(Namespace(), mode="int")
        >>> x, k = b.var("x"), b.var("k")
        >>> q = b.quotient(x, k); q is b.quotient(x, k), len(b.scopes[0].defs)
        (True, 1)
        >>> s = z3.Solver(); s.add(*b.assertions(), x == -7, k == 2); s.check(), s.model().eval(q)
        (sat, -4)
        """
        key = (ta.sexpr(), tb.sexpr())
        scope = self.scopes[-1]
        q = scope.quotients.get(key)
        if q is not None:
            return q
        q = self.fresh("floor")
        self.define(z3.If(tb > 0, z3.And(tb * q <= ta, ta < tb * q + tb),
                          z3.If(tb < 0, z3.And(tb * q >= ta, ta > tb * q + tb), q == 0)))
        scope.quotients[key] = q
        return q

    def _bv_floordiv(self, ta: Any, tb: Any) -> Any:
        """Floor division of bit-vectors: the truncated quotient, one less when the remainder's sign differs
        from the divisor's. It overflows only for the least value divided by -1 (an obligation).

        >>> from nimjos.lang.compiler import Namespace
        >>> from checkers.z3.translate import Builder
        >>> bv = Builder(Namespace(), mode="bv", bits=8)
        >>> z3.simplify(bv._bv_floordiv(bv.const(-7), bv.const(2))).as_signed_long(), z3.simplify(bv.obligation()[0])
        (-4, True)
        >>> _ = bv._bv_floordiv(bv.const(-128), bv.const(-1)); z3.simplify(bv.obligation()[0]), bv.obligation()[1]
        (False, ['no overflow in 8 bits'])
        """
        self.oblige(z3.BVSDivNoOverflow(ta, tb), f"no overflow in {self.bits} bits")
        q, r = ta / tb, z3.SRem(ta, tb)
        zero = self.const(0)
        return z3.If(z3.And(r != zero, (r < zero) != (tb < zero)), q - 1, q)

    def mod(self, a: Any, b: Any) -> Any:
        """Python's a % b (the remainder has the sign of b)."""
        if not is_term(a) and not is_term(b):
            return self.binop(ast.Mod, a, b)
        ta = self.to_term(a)
        if not is_term(b):
            c = norm(b)
            if type(c) is not int:
                raise Untranslatable("% by a fraction")
            if c == 0:
                self.oblige(False, "modulo by zero")
                return ta
            if self.mode == "int":
                if z3.is_real(ta):
                    raise Untranslatable("% of a fraction")
                return ta % c if c > 0 else -((-ta) % (-c))
            if c > 0 and c & (c - 1) == 0:
                return ta & self.const(c - 1)
            return ta % self.const(c)
        tb = self.to_term(b)
        self.oblige(tb != 0, "modulo by zero")
        if self.mode == "int":
            if z3.is_real(ta) or z3.is_real(tb):
                raise Untranslatable("% of fractions")
            if _one_name(tb):
                return ta - tb * self.quotient(ta, tb)   # Python's a % b is a - b * (a // b)
            return z3.If(tb > 0, ta % tb, -((-ta) % (-tb)))
        return (ta % tb)

    def truediv(self, a: Any, b: Any) -> Any:
        """Exact division a / b (a rational number)."""
        if not is_term(a) and not is_term(b):
            return self.binop(ast.Div, a, b)
        if self.mode == "bv":
            raise Untranslatable("exact division '/' has no bit-vector model (write floor(a / b) or a // b)")
        ta = self.to_term(a)
        tb = self.to_term(b)
        if not is_term(b):
            if norm(b) == 0:
                self.oblige(False, "division by zero")
                return ta
        else:
            self.oblige(tb != 0, "division by zero")
        ra = z3.ToReal(ta) if z3.is_int(ta) else ta
        rb = z3.ToReal(tb) if z3.is_int(tb) else tb
        return ra / rb

    def floor(self, v: Any) -> Any:
        if not is_term(v):
            return floor(v)
        if self.mode == "int" and z3.is_real(v):
            return z3.ToInt(v)
        return v

    def ceil(self, v: Any) -> Any:
        if not is_term(v):
            return ceil(v)
        if self.mode == "int" and z3.is_real(v):
            return -z3.ToInt(-v)
        return v

    def power(self, a: Any, b: Any) -> Any:
        """a ** b: constant exponents multiply out; 2 ** e is abstracted (int) or a shift (bv)."""
        if not is_term(a) and not is_term(b):
            return self.binop(ast.Pow, a, b)
        if not is_term(b):
            e = norm(b)
            if type(e) is not int or e < 0 or e > 64:
                raise Untranslatable(f"power with exponent {e}")
            out: Any = 1
            for _ in range(e):
                out = self.binop(ast.Mult, out, a)
            return out
        if not is_term(a) and norm(a) == 2:
            te = self.integer(b, "an exponent")
            if self.mode == "bv":
                self.oblige(z3.And(te >= 0, te <= self.bits - 2), f"2**e with 0 <= e <= {self.bits - 2}")
                return self.const(1) << te
            self.oblige(te >= 0, "2**e needs e >= 0 to be an integer")
            return self.pow2(te)
        raise Untranslatable("a power with a symbolic exponent other than 2**e")

    def unknown_function(self, name: str, args: tuple) -> Any:
        """G(game, p) or a Josephus function on symbolic arguments, as an uninterpreted function: a proof
        then holds for every function, the real one included (values of G are only known to be >= 0)."""
        flat: list = []
        key = [name]
        game = None
        for a in args:
            if isinstance(a, GameRef):
                self._fixed_params(name, a)
                key.append(a.decl.name + repr(sorted(((n, v.sexpr() if is_term(v) else v) for n, v in a.params.items()),
                                                     key=lambda kv: kv[0])))
                game = a
                continue
            if isinstance(a, tuple):
                flat.extend(a)
                key.append(f"t{len(a)}")
            elif type(a).__name__ in ("GameInstance", "DeclaredGame", "PythonGame", "GameDecl"):
                key.append(repr(a))
            else:
                flat.append(a)
                key.append("i")
        terms = [self.to_term(a) for a in flat]
        if any(z3.is_expr(t) and z3.is_real(t) for t in terms):
            raise Untranslatable(f"{name} of a value that need not be an integer (the window check finds where "
                                 "it is not)")
        sort = z3.BitVecSort(self.bits, self.ctx) if self.mode == "bv" else z3.IntSort(self.ctx)
        fname = "|".join(key)
        fn = self._unknown.get(fname)
        if fn is None:
            fn = z3.Function(f"{name}!{len(self._unknown)}", *([sort] * len(terms)), sort)
            self._unknown[fname] = fn
            if name == "G" and game is not None:
                self.grundy[fname] = (fn, game)
        self.abstractions.add("unknown " + name)
        t = fn(*terms)
        if name == "G":
            self.define(t >= self.const(0))
        return t

    def _fixed_params(self, name: str, game: GameRef) -> None:
        """A game with symbolic params (maxnim(k), k symbolic) has one unknown G per value of its params: an
        unknown function of the position alone stands for it only when each symbolic param is one fixed value of
        the query, a term that names no variable a quantifier binds (else one function would stand for the Grundy
        functions of several games). Untranslatable otherwise.

        >>> from nimjos.lang.compiler import Namespace
        >>> b = Arithmetic.__new__(Arithmetic); b.scopes = [Scope(), Scope(bound=[z3.Int("j")])]
        >>> b._fixed_params("G", GameRef(type("D", (), {"name": "g"})(), {"k": z3.Int("k")}))
        >>> b._fixed_params("G", GameRef(type("D", (), {"name": "g"})(), {"k": z3.Int("j") + 1}))
        Traceback (most recent call last):
        ...
        checkers.z3.terms.Untranslatable: G of game g whose params name a variable a quantifier binds
        """
        inner = {v.get_id() for s in self.scopes[1:] for v in s.bound + s.fresh}
        if not inner:
            return
        for v in game.params.values():
            if is_term(v) and any(c.get_id() in inner for c in constants_of(v)):
                raise Untranslatable(f"{name} of game {game.decl.name} whose params name a variable a quantifier binds")

    def pow2(self, e: Any) -> Any:
        """The abstracted 2**e of the int world."""
        if self._pow2 is None:
            self._pow2 = z3.Function("pow2", z3.IntSort(self.ctx), z3.IntSort(self.ctx))
        self.abstractions.add("2^e")
        t = self._pow2(e)
        if not any(t.eq(u) for u in self.pow2_terms):
            self.pow2_terms.append(t)
        return t

    def xor2(self, a: Any, b: Any) -> Any:
        """The nim-sum of two values: exact in bv, abstracted by its laws in int."""
        if not is_term(a) and not is_term(b):
            try:
                return xor(a, b)
            except EvalError as exc:
                self.oblige(False, str(exc))
                return 0
        ta, tb = self.integer(a, "xor"), self.integer(b, "xor")
        self.oblige(z3.And(ta >= self._zero(), tb >= self._zero()), "the nim-sum needs non-negative integers")
        if self.mode == "bv":
            return ta ^ tb
        if z3.is_real(ta) or z3.is_real(tb):
            raise Untranslatable("nim-sum of fractions")
        if self._xor is None:
            self._xor = z3.Function("xor", z3.IntSort(self.ctx), z3.IntSort(self.ctx), z3.IntSort(self.ctx))
        self.abstractions.add("xor")
        return self._xor(ta, tb)

    def _zero(self) -> Any:
        return self.const(0)

    def bitop(self, op: type, a: Any, b: Any) -> Any:
        if self.mode != "bv":
            # a & (2^j - 1) is a % 2^j for every integer a
            for x, y in ((a, b), (b, a)):
                if op is ast.BitAnd and not is_term(y) and type(y) is int and y >= 0 and (y + 1) & y == 0:
                    return self.mod(x, y + 1)
            raise Untranslatable("| and & need the bit-vector world")
        ta, tb = self.to_term(a), self.to_term(b)
        return (ta | tb) if op is ast.BitOr else (ta & tb)

    def shift(self, a: Any, b: Any, left: bool) -> Any:
        for v in (a, b):   # the language shifts integers only (not True, not a fraction)
            if not is_term(v) and type(v) is not int:
                self.oblige(False, "<< and >> need integers")
                return 0
            if is_term(v):
                self.integer(v, "<< or >>")
        if not is_term(b):
            c = norm(b)
            if type(c) is not int or c < 0:
                self.oblige(False, "negative shift count")
                return self.to_term(a)
            if c > BIG_CONSTANT:
                raise Untranslatable(f"a shift by {c:,} bits (more than {BIG_CONSTANT:,})")
            if left:
                return self.binop(ast.Mult, a, 1 << c)
            return self.floordiv(a, 1 << c)
        if self.mode != "bv":
            if left:
                return self.binop(ast.Mult, a, self.power(2, b))
            return self.floordiv(a, self.power(2, b))
        ta, tb = self.to_term(a), self.to_term(b)
        self.oblige(z3.And(tb >= 0, tb <= self.bits - 1), "shift count in range")
        if left:
            r = ta << tb
            self.oblige(r >> tb == ta, f"no overflow in {self.bits} bits")
            return r
        return ta >> tb
