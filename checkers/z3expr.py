"""Translate the expression language and declared move families into Z3 terms.

Two arithmetic worlds:

* ``int`` -- unbounded integers (LIA/NIA): ``+ - *``, ``//`` and ``%`` (floor semantics), ``/`` as a rational,
  floor and ceil. ``2**e`` with a symbolic exponent is *abstracted*: an uninterpreted ``pow2`` with true facts
  (``2^e >= e + 1``, ``2^(e+1) = 2 * 2^e``, monotone). The nim-sum ``xor`` is abstracted the same way, by
  its algebraic laws (commutative, self-inverse, cancellative, and the nim lemma ``c < a xor b`` implies
  ``c xor b < a`` or ``c xor a < b``). Abstractions only ever add models, so an ``unsat`` answer is a proof;
  a ``sat`` answer must be re-evaluated exactly before it is believed.
* ``bv`` -- two's-complement bit-vectors of a stated width, exact for ``| & xor ~ << >> v2 ilog2 popcount``.
  Every operation that could leave the width records an *obligation*; a query that can only fail by
  breaking an obligation is inconclusive, never a proof.

Whatever can be computed from constants is computed exactly by the language's own functions (constant
folding), so a query holds only the symbolic part.

>>> import z3
>>> from nimjos.lang.expr import parse
>>> from nimjos.spec.names import spec_namespace
>>> b = Builder(spec_namespace(), mode="int")
>>> x = b.var("x")
>>> t = b.term(parse("floor(x / 3) + 3 * (x // 3) + 2 ** 4"), {"x": x})
>>> z3.simplify(z3.substitute(t, (x, z3.IntVal(10))))
28
>>> b.term(parse("G(g, x)"), {"x": x})
Traceback (most recent call last):
...
checkers.z3expr.Untranslatable: G(...) needs the game's values (no symbolic model)
"""
from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import z3

from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import Definition, Lambda, Namespace, norm
from nimjos.lang.expr import _BINOPS
from nimjos.lang.builtins import floor
from nimjos.lang.builtins import ceil
from nimjos.lang.builtins import xor
from nimjos.lang.expr import _CMPOPS
from nimjos.games.declared import is_affine
from nimjos.lang.expr import free_names

#: comprehensions over at most this many constant values are unrolled instead of quantified
UNROLL = 64
#: deepest nesting of definition calls while translating
MAX_INLINE = 60

_NO_MODEL = {
    "G": "G(...) needs the game's values (no symbolic model)",
    "mex": "mex of a symbolic set has no symbolic model",
    "survivor": "the Josephus functions have no symbolic model",
    "removal_index": "the Josephus functions have no symbolic model",
    "removed": "the Josephus functions have no symbolic model",
    "JJ": "the Josephus functions have no symbolic model",
    "F": "the Josephus functions have no symbolic model",
    "gcd": "gcd has no symbolic model here",
    "functions": "a family of functions cannot be symbolic",
    "nondecreasing": "a family of functions cannot be symbolic",
    "subsets": "a family of sets cannot be symbolic",
    "len": "len of a symbolic collection",
    "set": "a symbolic set",
    "sorted": "a symbolic collection",
    "tuple": "a symbolic collection",
    "subtraction": "built-in game families have no declared moves to translate",
    "gcn": "built-in game families have no declared moves to translate",
}


#: built-ins without a model, translated as unknown functions when their arguments are symbolic
UNKNOWN_FUNCTIONS = {"G", "survivor", "removal_index", "removed", "JJ", "F"}


class Untranslatable(Exception):
    """The expression uses something without a Z3 model (the reason says what)."""


@dataclass
class Closure:
    """A lambda of the spec language, translated lazily at each call."""

    params: tuple[str, ...]
    body: ast.expr
    env: dict


@dataclass
class GameRef:
    """A declared game with its param values (constants or Z3 terms), for ``options`` and ``in``."""

    decl: Any
    params: dict


@dataclass
class SymSet:
    """A set literal with symbolic elements."""

    items: tuple


@dataclass
class RangeVal:
    lo: Any
    hi: Any  # exclusive


@dataclass
class OptionsVal:
    game: GameRef
    position: Any


@dataclass
class _Scope:
    bound: list = field(default_factory=list)     # quantified variables of this scope
    fresh: list = field(default_factory=list)     # variables introduced by definitions in this scope
    defs: list = field(default_factory=list)      # constraints that define the fresh variables uniquely
    obligations: list = field(default_factory=list)  # (condition, text)


def is_term(v: Any) -> bool:
    """Is v a Z3 expression (as opposed to a constant of the language)?

    >>> is_term(z3.Int("x")), is_term(3)
    (True, False)
    """
    return isinstance(v, z3.ExprRef)


def _is_const(v: Any) -> bool:
    if isinstance(v, (bool, int, Fraction)):
        return True
    if isinstance(v, tuple):
        return all(_is_const(e) for e in v)
    if isinstance(v, frozenset):
        return True
    return False


class Builder:
    """Translates expressions into Z3 under one arithmetic world.

    `mode` is ``"int"`` or ``"bv"``; `bits` is the bit-vector width used for computation in ``bv`` mode.
    Facts about abstractions, definitions of helper variables and obligations accumulate in the builder;
    :meth:`assertions` returns what a query must assume and :meth:`obligation` what it must also show.
    """

    def __init__(self, ns: Namespace, mode: str = "int", bits: int = 64):
        if mode not in ("int", "bv"):
            raise ValueError(mode)
        self.ns = ns
        self.mode = mode
        self.bits = bits
        self.scopes: list[_Scope] = [_Scope()]
        self.path: list = []
        self._n = 0
        self._pow2 = None
        self._xor = None
        self._unknown: dict = {}
        #: the Grundy functions in use: key -> (the unknown function, the game), for facts about G (induction,
        #: checkers.rule_function)
        self.grundy: dict = {}
        self._grundy_facts: dict = {}
        self.pow2_terms: list = []
        self.abstractions: set[str] = set()
        self.depth = 0

    # ------------------------------------------------------------------ variables and sorts
    def var(self, name: str) -> z3.ExprRef:
        """A symbolic integer of this world."""
        if self.mode == "bv":
            return z3.BitVec(name, self.bits)
        return z3.Int(name)

    def const(self, v: int) -> z3.ExprRef:
        if self.mode == "bv":
            if not -(1 << (self.bits - 1)) <= v < (1 << (self.bits - 1)):
                raise Untranslatable(f"the constant {v} does not fit in {self.bits} bits")
            return z3.BitVecVal(v, self.bits)
        return z3.IntVal(v)

    def fresh(self, stem: str) -> z3.ExprRef:
        self._n += 1
        v = self.var(f"{stem}!{self._n}")
        self.scopes[-1].fresh.append(v)
        return v

    def define(self, constraint: Any) -> None:
        """Record a constraint that determines fresh variables uniquely (kept in the current scope). It must be
        satisfiable for every value of the other variables (guard it by its obligation), or a query could be
        unsatisfiable for the wrong reason."""
        self.scopes[-1].defs.append(constraint)

    def oblige(self, cond: Any, text: str) -> None:
        """Record a condition the evaluation needs (definedness, no overflow), under the current path."""
        if isinstance(cond, bool):
            if cond:
                return
            cond = z3.BoolVal(False)
        if self.path:
            cond = z3.Implies(z3.And(*self.path), cond)
        self.scopes[-1].obligations.append((cond, text))

    def assertions(self) -> list:
        """Constraints every query must include: definitions of helper variables and abstraction facts."""
        top = self.scopes[0]
        return list(top.defs) + self.facts()

    def grundy_facts(self, formulas: list, lemma: Callable[[Any, Any, Any], tuple[Any, str]]) -> list:
        """Proved facts about G of the games in use, at each ground term G(t) of `formulas` (instances, so that no
        chain of instantiations runs away). `lemma(builder, fn, game)` is the fact provider (the prover passes
        the Maximum Nim rule-function lemma, checkers.rule_function.facts): it returns ``(at, words)``, where
        ``at(t)`` lists the facts at the argument t and `words` names the lemma, or ``(None, "")``."""
        out = []
        for key, (fn, game) in list(self.grundy.items()):
            if key not in self._grundy_facts:
                self._grundy_facts[key] = lemma(self, fn, game)
            at, words = self._grundy_facts[key]
            if at is None:
                continue
            terms = _ground_apps(formulas, fn)
            if terms:
                self.abstractions.add("lemma " + words)
            for t in terms:
                out += at(t.arg(0))
        return out

    def obligation(self) -> tuple[Any, list[str]]:
        """The conjunction of every recorded obligation, and their texts."""
        obs = self.scopes[0].obligations
        if not obs:
            return z3.BoolVal(True), []
        return z3.And(*[c for c, _ in obs]), sorted({t for _, t in obs})

    # ------------------------------------------------------------------ values
    def to_term(self, v: Any) -> Any:
        """A Z3 term for an integer-like value (constants become numerals)."""
        if is_term(v):
            if self.mode == "bv" and z3.is_bool(v):
                raise Untranslatable("a truth value used as a number")
            if z3.is_bool(v):
                return z3.If(v, z3.IntVal(1), z3.IntVal(0))
            return v
        if isinstance(v, bool):
            return self.const(int(v))
        if isinstance(v, int):
            return self.const(v)
        if isinstance(v, Fraction):
            if v.denominator == 1:
                return self.const(v.numerator)
            if self.mode == "bv":
                raise Untranslatable("fractions have no bit-vector model")
            return z3.RealVal(v)
        raise Untranslatable(f"{_show(v)} is not a number")

    def to_bool(self, v: Any) -> Any:
        if isinstance(v, bool):
            return z3.BoolVal(v)
        if is_term(v):
            if z3.is_bool(v):
                return v
            raise Untranslatable("a number used as a truth value")
        if isinstance(v, (int, Fraction)):
            return z3.BoolVal(v != 0)
        raise Untranslatable(f"{_show(v)} used as a truth value")

    # ------------------------------------------------------------------ entry points
    def term(self, tree: ast.expr, env: dict) -> Any:
        """Translate an expression; constants stay Python values, the rest become Z3 terms."""
        try:
            return self._ex(tree, env)
        except RecursionError:
            raise Untranslatable("expression nested too deeply") from None

    def formula(self, tree: ast.expr, env: dict) -> Any:
        """Translate a condition into a Z3 Boolean."""
        return self.to_bool(self.term(tree, env))

    # ------------------------------------------------------------------ the translation
    def _ex(self, node: ast.AST, env: dict) -> Any:
        meth = getattr(self, "_" + type(node).__name__, None)
        if meth is None:
            raise Untranslatable(f"{type(node).__name__} has no Z3 model")
        return meth(node, env)

    def _Constant(self, node: ast.Constant, env: dict) -> Any:
        return node.value

    def _Name(self, node: ast.Name, env: dict) -> Any:
        name = node.id
        if name in env:
            return env[name]
        if name == "True":
            return True
        if name == "False":
            return False
        ns = self.ns
        if name in ns.definitions:
            d = ns.definitions[name]
            return self._inline(d, ()) if not d.params else d
        if name in ns.games:
            decl = ns.games[name]
            if getattr(decl, "params", ()):
                return decl
            return GameRef(decl, {})
        if name in ns.builtins:
            return ns.builtins[name]
        raise Untranslatable(f"unknown name {name!r}")

    def _Tuple(self, node: ast.Tuple, env: dict) -> Any:
        return tuple(self._ex(e, env) for e in node.elts)

    _List = _Tuple

    def _Set(self, node: ast.Set, env: dict) -> Any:
        vals = [self._ex(e, env) for e in node.elts]
        if all(_is_const(v) for v in vals):
            return frozenset(vals)
        return SymSet(tuple(vals))

    def _Subscript(self, node: ast.Subscript, env: dict) -> Any:
        v = self._ex(node.value, env)
        i = self._ex(node.slice, env)
        if isinstance(v, SymSet):
            raise Untranslatable("indexing a set")
        if not isinstance(v, tuple):
            raise Untranslatable("indexing something that is not a tuple")
        if isinstance(i, int):
            if not -len(v) <= i < len(v):
                raise Untranslatable(f"index {i} out of range")
            return v[i]
        if _is_const(v) and all(isinstance(e, int) for e in v):
            it = self.to_term(i)
            out = self.to_term(v[-1])
            for j in range(len(v) - 1, -1, -1):
                out = z3.If(it == self.to_term(j), self.to_term(v[j]), out)
            self.oblige(z3.And(it >= self.to_term(0) if self.mode == "int" else it >= self.const(0),
                               it < self.to_term(len(v))), "index in range")
            return out
        raise Untranslatable("a symbolic index into a tuple")

    def _IfExp(self, node: ast.IfExp, env: dict) -> Any:
        test = self._ex(node.test, env)
        if not is_term(test):
            return self._ex(node.body if test else node.orelse, env)
        c = self.to_bool(test)
        self.path.append(c)
        try:
            a = self._ex(node.body, env)
        finally:
            self.path.pop()
        self.path.append(z3.Not(c))
        try:
            b = self._ex(node.orelse, env)
        finally:
            self.path.pop()
        return self.ite(c, a, b)

    def ite(self, c: Any, a: Any, b: Any) -> Any:
        """If-then-else over values (tuples componentwise)."""
        if isinstance(a, tuple) or isinstance(b, tuple):
            if not (isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b)):
                raise Untranslatable("branches of different shapes")
            return tuple(self.ite(c, x, y) for x, y in zip(a, b))
        if isinstance(a, bool) or isinstance(b, bool) or (is_term(a) and z3.is_bool(a)) or (is_term(b) and z3.is_bool(b)):
            return z3.If(c, self.to_bool(a), self.to_bool(b))
        ta, tb = self._unify(self.to_term(a), self.to_term(b))
        return z3.If(c, ta, tb)

    def _unify(self, a: Any, b: Any) -> tuple:
        if self.mode == "int" and (z3.is_real(a) or z3.is_real(b)):
            return (z3.ToReal(a) if z3.is_int(a) else a), (z3.ToReal(b) if z3.is_int(b) else b)
        return a, b

    def _BoolOp(self, node: ast.BoolOp, env: dict) -> Any:
        is_and = isinstance(node.op, ast.And)
        parts = []
        pushed = 0
        try:
            for v in node.values:
                x = self._ex(v, env)
                if not is_term(x):
                    if bool(x) != is_and:  # a constant that decides the whole
                        if not parts:
                            return bool(x)
                        parts.append(self.to_bool(x))
                        break
                    continue
                b = self.to_bool(x)
                parts.append(b)
                self.path.append(b if is_and else z3.Not(b))
                pushed += 1
        finally:
            for _ in range(pushed):
                self.path.pop()
        if not parts:
            return is_and
        return z3.And(*parts) if is_and else z3.Or(*parts)

    def _UnaryOp(self, node: ast.UnaryOp, env: dict) -> Any:
        v = self._ex(node.operand, env)
        if isinstance(node.op, ast.Not):
            return (not v) if not is_term(v) else z3.Not(self.to_bool(v))
        if isinstance(node.op, ast.UAdd):
            return v
        if not is_term(v):
            if isinstance(node.op, ast.USub):
                return -v
            if type(v) is not int:
                raise Untranslatable("~ needs an integer")
            return ~v
        t = self.to_term(v)
        if isinstance(node.op, ast.USub):
            if self.mode == "bv":
                self.oblige(z3.BVSNegNoOverflow(t), f"no overflow in {self.bits} bits")
            return -t
        if self.mode != "bv":
            return -t - 1
        return ~t

    def _BinOp(self, node: ast.BinOp, env: dict) -> Any:
        if isinstance(node.op, ast.Pow):
            return self.power(self._ex(node.left, env), self._ex(node.right, env))
        a = self._ex(node.left, env)
        b = self._ex(node.right, env)
        return self.binop(type(node.op), a, b)

    def binop(self, op: type, a: Any, b: Any) -> Any:
        """Apply an arithmetic or bitwise operator to two values."""
        if not is_term(a) and not is_term(b):
            if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
                raise Untranslatable("arithmetic on a collection")
            try:
                return norm(_BINOPS[op](a, b))
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
            tb = self.const(c)
            return (ta - (ta % tb)) / tb
        tb = self.to_term(b)
        if self.mode == "int" and z3.is_real(tb):
            return self.floor(self.truediv(a, b))
        self.oblige(tb != 0, "division by zero")
        if self.mode == "int":
            return z3.If(tb > 0, ta / tb, (-ta) / (-tb))
        return (ta - (ta % tb)) / tb

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
            te = self.to_term(b)
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
                if any(is_term(v) for v in a.params.values()):
                    raise Untranslatable(f"{name} of a game with symbolic params")
                key.append(a.decl.name + repr(sorted(a.params.items(), key=lambda kv: kv[0])))
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
        sort = z3.BitVecSort(self.bits) if self.mode == "bv" else z3.IntSort()
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

    def pow2(self, e: Any) -> Any:
        """The abstracted 2**e of the int world."""
        if self._pow2 is None:
            self._pow2 = z3.Function("pow2", z3.IntSort(), z3.IntSort())
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
        ta, tb = self.to_term(a), self.to_term(b)
        self.oblige(z3.And(ta >= self._zero(), tb >= self._zero()), "the nim-sum needs non-negative integers")
        if self.mode == "bv":
            return ta ^ tb
        if z3.is_real(ta) or z3.is_real(tb):
            raise Untranslatable("nim-sum of fractions")
        if self._xor is None:
            self._xor = z3.Function("xor", z3.IntSort(), z3.IntSort(), z3.IntSort())
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
        if not is_term(b):
            c = norm(b)
            if type(c) is not int or c < 0:
                self.oblige(False, "negative shift count")
                return self.to_term(a)
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

    # ------------------------------------------------------------------ comparisons
    def _Compare(self, node: ast.Compare, env: dict) -> Any:
        left = self._ex(node.left, env)
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
        if not is_term(a) and not is_term(b) and not _has_term(a) and not _has_term(b):
            return _CMPOPS[op](a, b)
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
        if (is_term(a) and z3.is_bool(a)) or (is_term(b) and z3.is_bool(b)) or isinstance(a, bool) or isinstance(b, bool):
            if op not in (ast.Eq, ast.NotEq):
                raise Untranslatable("ordering of truth values")
            ba, bb = self.to_bool(a), self.to_bool(b)
            return ba == bb if op is ast.Eq else ba != bb
        ta, tb = self._unify(self.to_term(a), self.to_term(b))
        return {ast.Eq: lambda: ta == tb, ast.NotEq: lambda: ta != tb, ast.Lt: lambda: ta < tb,
                ast.LtE: lambda: ta <= tb, ast.Gt: lambda: ta > tb, ast.GtE: lambda: ta >= tb}[op]()

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
            if not is_term(x) and not _has_term(x) and all(_is_const(i) for i in items):
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
        raise Untranslatable(f"'in' over {_show(c)}")

    # ------------------------------------------------------------------ calls
    def _Lambda(self, node: ast.Lambda, env: dict) -> Any:
        return Closure(tuple(a.arg for a in node.args.args), node.body, dict(env))

    def _Call(self, node: ast.Call, env: dict) -> Any:
        if isinstance(node.func, ast.Name):
            name = node.func.id
            if name not in env and name not in self.ns.definitions and name not in self.ns.games:
                special = getattr(self, "_call_" + name, None)
                if special is not None and name in self.ns.builtins:
                    return special(node, env)
                if name in _NO_MODEL and name in self.ns.builtins:
                    try:
                        args = tuple(self._ex(a, env) for a in node.args)
                    except Untranslatable:
                        raise Untranslatable(_NO_MODEL[name]) from None
                    return self.apply(self.ns.builtins[name], args)
        f = self._ex(node.func, env)
        args = tuple(self._ex(a, env) for a in node.args)
        return self.apply(f, args)

    def apply(self, f: Any, args: tuple) -> Any:
        """Call a definition, lambda, game or built-in on translated arguments."""
        if isinstance(f, Closure):
            if len(args) != len(f.params):
                raise Untranslatable("lambda called with the wrong number of arguments")
            env = dict(f.env)
            env.update(zip(f.params, args))
            return self._nested(lambda: self._ex(f.body, env))
        if isinstance(f, Definition):
            return self._inline(f, args)
        if hasattr(f, "moves") and hasattr(f, "position"):  # a GameDecl with params
            return GameRef(f, dict(zip(f.params, args)))
        if isinstance(f, Lambda):
            if all(_is_const(a) for a in args):
                return self._exact(f, args)
            raise Untranslatable("a lambda captured from a constant binding, called on symbolic values")
        if type(f).__name__ == "FiniteFunction":
            return self._table_call(f, args)
        if callable(f):
            name = getattr(f, "__name__", "").lstrip("_")
            if all(_is_const(a) for a in args):
                return self._exact(f, args)
            if name in UNKNOWN_FUNCTIONS:
                return self.unknown_function(name, args)
            for key in (name, getattr(f, "__name__", "")):
                if key in _NO_MODEL:
                    raise Untranslatable(_NO_MODEL[key])
            raise Untranslatable(f"{name or 'a built-in'}(...) on symbolic values")
        raise Untranslatable(f"{_show(f)} is not a function")

    def _exact(self, f: Callable, args: tuple) -> Any:
        try:
            return norm(f(*args))
        except (EvalError, SpecError) as exc:
            self.oblige(False, str(exc))
            return 0

    def _table_call(self, f: Any, args: tuple) -> Any:
        if len(args) != 1:
            raise Untranslatable("a finite function takes one argument")
        i = args[0]
        if not is_term(i):
            return self._exact(f, args)
        table = f.table
        ti = self.to_term(i)
        self.oblige(z3.And(ti >= self.const(1), ti <= self.const(len(table))), "a finite function's argument in range")
        out = self.const(table[-1])
        for j in range(len(table) - 1, -1, -1):
            out = z3.If(ti == self.const(j + 1), self.const(table[j]), out)
        return out

    def _nested(self, fn: Callable) -> Any:
        self.depth += 1
        try:
            if self.depth > MAX_INLINE:
                raise Untranslatable("definitions nested too deeply to inline")
            return fn()
        finally:
            self.depth -= 1

    def _inline(self, d: Definition, args: tuple) -> Any:
        if len(args) != len(d.params):
            raise Untranslatable(f"{d.name} called with the wrong number of arguments")
        return self._nested(lambda: self._ex(d.tree, dict(zip(d.params, args))))

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
        if self.mode != "bv":
            raise Untranslatable("v2 needs the bit-vector world")
        t = self.to_term(n)
        self.oblige(t != 0, "v2(0) is undefined")
        out = self.const(self.bits - 1)
        for i in range(self.bits - 2, -1, -1):
            out = z3.If(z3.Extract(i, i, t) == 1, self.const(i), out)
        return out

    def _call_ilog2(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["ilog2"], (n,))
        t = self.to_term(n)
        self.oblige(t >= self.const(1), "ilog2 needs n >= 1")
        if self.mode == "bv":
            out = self.const(0)
            for i in range(1, self.bits - 1):
                out = z3.If(z3.Extract(i, i, t) == 1, self.const(i), out)
            return out
        e = self.fresh("ilog2")
        p = self.pow2(e)
        self.define(z3.Implies(t >= 1, z3.And(e >= 0, p <= t, t < 2 * p)))
        return e

    def _call_popcount(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["popcount"], (n,))
        if self.mode != "bv":
            raise Untranslatable("popcount needs the bit-vector world")
        t = self.to_term(n)
        self.oblige(t >= 0, "popcount of a negative number")
        return z3.Sum([z3.ZeroExt(self.bits - 1, z3.Extract(i, i, t)) for i in range(self.bits)])

    def _call_isqrt(self, node: ast.Call, env: dict) -> Any:
        (n,) = self._args(node, env)
        if not is_term(n):
            return self._exact(self.ns.builtins["isqrt"], (n,))
        if self.mode != "int":
            raise Untranslatable("isqrt of a symbolic value needs the integer world")
        t = self.to_term(n)
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
        raise Untranslatable(f"{_show(g)} is not a declared game")

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
        raise Untranslatable(f"a symbolic collection ({_show(v)})")

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
            bb = self.to_bool(b) if is_term(b) else z3.BoolVal(bool(b))
            return z3.And(g, bb) if exists else z3.Implies(g, bb)

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
        raise Untranslatable(f"a comprehension over {_show(it)}")

    def _bound_target(self, target: ast.AST, value: Any, env: dict) -> dict:
        inner = dict(env)
        self._bind_target(target, value, inner)
        return inner

    def quantifier(self, exists: bool, names: list[str], guard: Callable, body: Callable) -> Any:
        """Exists / ForAll over fresh integers: guard(vars) and body(vars) are built inside a new scope, so
        that helper definitions and obligations that mention the bound variables stay under the quantifier."""
        scope = _Scope()
        self.scopes.append(scope)
        saved_path = self.path
        try:
            vs = [self.var(f"{n}!q{self._next()}") for n in names]
            scope.bound.extend(vs)
            g = guard(vs)
            g = self.to_bool(g) if is_term(g) else z3.BoolVal(bool(g))
            self.path = saved_path + [g]
            b = body(vs)
            b = self.to_bool(b) if is_term(b) else z3.BoolVal(bool(b))
        finally:
            self.path = saved_path
            self.scopes.pop()
        qvars = scope.bound + scope.fresh
        defs = z3.And(*scope.defs) if scope.defs else z3.BoolVal(True)
        if scope.obligations:
            ob = z3.And(*[c for c, _ in scope.obligations])
            self.scopes[-1].obligations.append(
                (z3.ForAll(qvars, z3.Implies(z3.And(g, defs), ob)), "; ".join(sorted({t for _, t in scope.obligations}))))
        if exists:
            return z3.Exists(qvars, z3.And(g, defs, b))
        return z3.ForAll(qvars, z3.Implies(z3.And(g, defs), b))

    def _next(self) -> int:
        self._n += 1
        return self._n

    # ------------------------------------------------------------------ move families
    def families(self, game: GameRef) -> list:
        decl = game.decl
        if not hasattr(decl, "moves"):
            raise Untranslatable("built-in game families have no declared moves to translate")
        return decl.moves

    def position_env(self, game: GameRef, position: Any) -> dict:
        decl = game.decl
        env = dict(game.params)
        coords = decl.position
        if len(coords) == 1:
            if isinstance(position, tuple):
                if len(position) != 1:
                    raise Untranslatable("a position of the wrong dimension")
                position = position[0]
            env[coords[0]] = position
        else:
            if not isinstance(position, tuple) or len(position) != len(coords):
                raise Untranslatable("a position of the wrong dimension")
            env.update(zip(coords, position))
        return env

    def move(self, game: GameRef, position: Any, fam: Any, values: list) -> tuple[Any, Any]:
        """(condition, target) of one move family with its bound names set to `values`."""
        env = self.position_env(game, position)
        env.update(zip(fam.binder.names, values))
        cond = self.formula(fam.binder.tree, env)
        target = self.term(fam.to_tree, env)
        return cond, target

    def over_options(self, game: GameRef, position: Any, exists: bool, body: Callable) -> Any:
        """any / all of body(q) over the options q of a position, one quantifier per move family."""
        parts = []
        for fam in self.families(game):
            names = list(fam.binder.names)
            holder: dict = {}

            def guard(vs: list, fam: Any = fam, holder: dict = holder) -> Any:
                cond, target = self.move(game, position, fam, vs)
                holder["q"] = target
                return cond

            parts.append(self.quantifier(exists, names, guard, lambda vs, holder=holder: body(holder["q"])))
        return self._any(parts) if exists else self._all(parts)

    def solved_bindings(self, game: GameRef, position: Any, fam: Any, target: Any) -> list | None:
        """Values of a family's bound names that make its target equal to `target`, when each bound name is
        read off one coordinate that is affine with coefficient +1 or -1 in it; None when that fails."""
        tree = fam.to_tree
        parts = list(tree.elts) if isinstance(tree, ast.Tuple) else [tree]
        tgt = list(target) if isinstance(target, tuple) else [target]
        if len(parts) != len(tgt):
            return None
        names = list(fam.binder.names)
        env = self.position_env(game, position)
        solved: dict = {}
        for name in names:
            found = None
            for part, t in zip(parts, tgt):
                fn = set(free_names(part))
                if name not in fn or not is_affine(part, name):
                    continue
                others = [n for n in names if n != name and n in fn and n not in solved]
                if others:
                    continue
                e0 = self.term(part, {**env, **solved, name: 0})
                e1 = self.term(part, {**env, **solved, name: 1})
                slope = self.binop(ast.Sub, e1, e0)
                if is_term(slope):
                    slope = z3.simplify(slope)
                    if not z3.is_int_value(slope) and not z3.is_bv_value(slope):
                        continue
                    slope = slope.as_signed_long() if z3.is_bv_value(slope) else slope.as_long()
                if slope == 1:
                    found = self.binop(ast.Sub, t, e0)
                elif slope == -1:
                    found = self.binop(ast.Sub, e0, t)
                if found is not None:
                    break
            if found is None:
                return None
            solved[name] = found
        return [solved[n] for n in names]

    def is_option(self, game: GameRef, position: Any, target: Any) -> Any:
        """q in options(game, p): quantifier-free when every family's bound names can be read off the
        target, an existential otherwise."""
        parts = []
        for fam in self.families(game):
            vals = self.solved_bindings(game, position, fam, target)
            if vals is not None:
                cond, q = self.move(game, position, fam, vals)
                parts.append(self._all([cond, self.compare(ast.Eq, q, target)]))
            else:
                parts.append(self.quantifier(True, list(fam.binder.names),
                                             lambda vs, fam=fam: self.move(game, position, fam, vs)[0],
                                             lambda vs, fam=fam: self.compare(ast.Eq, self.move(game, position, fam, vs)[1], target)))
        return self._any(parts)

    # ------------------------------------------------------------------ facts about the abstractions
    def facts(self) -> list:
        """True facts about 2**e and the nim-sum, for the abstracted symbols in use."""
        out = []
        if self._pow2 is not None:
            p = self._pow2
            a, b = z3.Ints("pa pb")
            out.append(p(0) == 1)
            out.append(z3.ForAll([a], z3.Implies(a >= 0, z3.And(p(a) >= a + 1, p(a) >= 1)), patterns=[p(a)]))
            out.append(z3.ForAll([a, b], z3.Implies(z3.And(0 <= a, a < b), 2 * p(a) <= p(b)),
                                 patterns=[z3.MultiPattern(p(a), p(b))]))
            out.append(z3.ForAll([a, b], z3.Implies(z3.And(0 <= a, b == a + 1), p(b) == 2 * p(a)),
                                 patterns=[z3.MultiPattern(p(a), p(b))]))
            terms = self.pow2_terms
            for t in terms:
                e = t.arg(0)
                out.append(z3.Implies(e >= 0, z3.And(t >= e + 1, t >= 1)))
                out.append(z3.Implies(e == 0, t == 1))
            out += self.pow2_pair_facts(terms)
        if self._xor is not None:
            x = self._xor
            a, b, c = z3.Ints("xa xb xc")
            nn = lambda *vs: z3.And(*[v >= 0 for v in vs])  # noqa: E731
            out += [
                z3.ForAll([a, b], z3.Implies(nn(a, b), z3.And(x(a, b) == x(b, a), x(a, b) >= 0)), patterns=[x(a, b)]),
                z3.ForAll([a], z3.Implies(nn(a), z3.And(x(a, 0) == a, x(a, a) == 0)), patterns=[x(a, a)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(x(a, b), b) == a), patterns=[x(x(a, b), b)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(b, x(a, b)) == a), patterns=[x(b, x(a, b))]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(x(a, b), a) == b), patterns=[x(x(a, b), a)]),
                z3.ForAll([a, b], z3.Implies(nn(a, b), x(a, x(a, b)) == b), patterns=[x(a, x(a, b))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), x(a, c) == x(b, c)), a == b),
                          patterns=[z3.MultiPattern(x(a, c), x(b, c))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), x(c, a) == x(c, b)), a == b),
                          patterns=[z3.MultiPattern(x(c, a), x(c, b))]),
                z3.ForAll([a, b, c], z3.Implies(z3.And(nn(a, b, c), c < x(a, b)), z3.Or(x(c, b) < a, x(c, a) < b)),
                          patterns=[z3.MultiPattern(x(a, b), x(c, b))]),
            ]
        return out

    def pow2_pair_facts(self, terms: list) -> list:
        """Facts between two ground terms 2^e, 2^f: doubling, and 2^f >= 2^k * 2^e when f - e >= k (k <= 4)."""
        out = []
        for t, u in itertools.permutations(terms, 2):
            e, f = t.arg(0), u.arg(0)
            out.append(z3.Implies(z3.And(0 <= e, f == e + 1), u == 2 * t))
            for k in range(1, 5):
                out.append(z3.Implies(z3.And(0 <= e, f - e >= k), (1 << k) * t <= u))
        return out

    def ground_facts(self, formulas: list) -> list:
        """pow2 facts for every ground 2^e term in `formulas` (after skolemization, see :func:`cases`)."""
        if self._pow2 is None:
            return []
        found = _ground_apps(formulas, self._pow2)
        out = []
        for t in found:
            a = t.arg(0)
            out.append(z3.Implies(a >= 0, z3.And(t >= a + 1, t >= 1)))
            out.append(z3.Implies(a == 0, t == 1))
        return out + self.pow2_pair_facts(found)

    def describe_abstractions(self) -> str:
        """Words for the scope of a proof that used abstractions ('' when none)."""
        parts = []
        if "2^e" in self.abstractions:
            parts.append("abstracting 2^n")
        if "xor" in self.abstractions:
            parts.append("xor by its laws")
        unknown = sorted(a.split(" ", 1)[1] for a in self.abstractions if a.startswith("unknown "))
        if unknown:
            parts.append(", ".join(unknown) + " as unknown functions")
        return ", ".join(parts)


def _has_var(e: Any) -> bool:
    """Does a Z3 term mention a de Bruijn (bound) variable?"""
    if z3.is_var(e):
        return True
    if z3.is_quantifier(e):
        return True
    return any(_has_var(c) for c in e.children()) if z3.is_app(e) else False


_SKOLEM = itertools.count()


def fresh_context() -> None:
    """Start a new default Z3 context (and fresh-name counter), so that what Z3 decides for one claim does not
    depend on which claims were translated before it in the same process (Z3's search depends on the order in
    which terms were created). Call it before a claim's first term, never while terms of the old context are
    still in use.

    >>> a = z3.Int("a"); fresh_context(); b = z3.Int("a")
    >>> a.ctx is b.ctx
    False
    """
    global _SKOLEM
    z3.z3._main_ctx = None   # z3.main_ctx() makes a new one on its next call
    _SKOLEM = itertools.count()


def cases(f: Any, limit: int = 64) -> list:
    """Split a condition into disjuncts, pushing positive existentials outward as fresh constants:
    f holds iff some returned case holds for some values of the fresh constants. Used to split a query
    into simpler ones (at most `limit` cases, else f itself).

    >>> x = z3.Int("x")
    >>> len(cases(z3.Or(x == 1, z3.Exists([z3.Int("n")], z3.Or(x == z3.Int("n"), x == 2)))))
    3
    """
    if z3.is_quantifier(f) and f.is_exists():
        consts = [z3.Const(f"{f.var_name(i)}!s{next(_SKOLEM)}", f.var_sort(i)) for i in range(f.num_vars())]
        body = z3.substitute_vars(f.body(), *reversed(consts))
        return cases(body, limit)
    if z3.is_or(f):
        out = []
        for c in f.children():
            out += cases(c, limit)
            if len(out) > limit:
                return [f]
        return out
    if z3.is_and(f):
        parts = [cases(c, limit) for c in f.children()]
        total = 1
        for p in parts:
            total *= len(p)
        if total > limit:
            return [z3.And(*[z3.Or(*p) if len(p) > 1 else p[0] for p in parts])]
        return [z3.And(*combo) for combo in itertools.product(*parts)]
    return [f]


def _has_term(v: Any) -> bool:
    if is_term(v):
        return True
    if isinstance(v, tuple):
        return any(_has_term(e) for e in v)
    return False


def _show(v: Any) -> str:
    if isinstance(v, GameRef):
        return f"game {v.decl.name}"
    if isinstance(v, OptionsVal):
        return "the options of a position"
    if isinstance(v, RangeVal):
        return "a symbolic range"
    if isinstance(v, Closure):
        return "a lambda"
    if is_term(v):
        return "a symbolic value"
    return type(v).__name__ if not isinstance(v, (int, tuple, frozenset)) else repr(v)


def uses(tree: ast.AST, ns: Namespace, names: set[str], seen: set[str] | None = None) -> set[str]:
    """Which of `names` (built-in or operator names such as 'xor', '|', 'v2') an expression uses, looking
    through definitions.

    >>> from nimjos.lang.expr import parse
    >>> sorted(uses(parse("v2((x | y) + 1)"), Namespace(), {"v2", "|", "xor"}))
    ['v2', '|']
    """
    seen = set() if seen is None else seen
    found: set[str] = set()
    ops = {ast.BitOr: "|", ast.BitAnd: "&", ast.LShift: "<<", ast.RShift: ">>", ast.Invert: "~", ast.Pow: "**"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.BinOp, ast.UnaryOp)) and ops.get(type(node.op)) in names:
            found.add(ops[type(node.op)])
        if isinstance(node, ast.Name):
            if node.id in names:
                found.add(node.id)
            d = ns.definitions.get(node.id)
            if d is not None and node.id not in seen:
                seen.add(node.id)
                found |= uses(d.tree, ns, names, seen)
            decl = ns.games.get(node.id)
            if decl is not None and hasattr(decl, "moves") and node.id not in seen:
                seen.add(node.id)
                for fam in decl.moves:
                    found |= uses(fam.to_tree, ns, names, seen) | uses(fam.binder.tree, ns, names, seen)
    return found


#: operations that need the bit-vector world (xor alone is abstracted in the int world)
BV_ONLY = {"|", "&", "~", "v2", "popcount"}


def choose_mode(trees: list[ast.AST], ns: Namespace, exact: bool = False) -> str:
    """'bv' when an expression needs bit-level operations the int world cannot abstract (with `exact`:
    any bit-level operation, the nim-sum included), else 'int'.

    >>> from nimjos.lang.expr import parse
    >>> choose_mode([parse("xor(x // 2, y)")], Namespace()), choose_mode([parse("v2(x | y)")], Namespace())
    ('int', 'bv')
    """
    used: set[str] = set()
    wanted = BV_ONLY | ({"xor", "<<", ">>", "ilog2"} if exact else set())
    for t in trees:
        used |= uses(t, ns, wanted)
    return "bv" if used else "int"


def model_value(model: z3.ModelRef, term: Any) -> Any:
    """The integer value of a term in a model (bit-vectors read as signed), or the constant itself.

    >>> x = z3.Int("x"); s = z3.Solver(); s.add(x == 7); _ = s.check()
    >>> model_value(s.model(), x + 1), model_value(s.model(), (1, x))
    (8, (1, 7))
    """
    if isinstance(term, tuple):
        return tuple(model_value(model, t) for t in term)
    if not is_term(term):
        return term
    v = model.eval(term, model_completion=True)
    if z3.is_bv_value(v):
        return v.as_signed_long()
    if z3.is_int_value(v):
        return v.as_long()
    if z3.is_rational_value(v):
        return norm(Fraction(v.numerator_as_long(), v.denominator_as_long()))
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    raise Untranslatable(f"cannot read {v} from a model")


def _ground_apps(formulas: list, fn: Any) -> list:
    """The applications of fn in `formulas` that mention no bound variable, each once."""
    found: dict = {}
    seen: set = set()

    def walk(e: Any) -> None:
        if e.get_id() in seen:
            return
        seen.add(e.get_id())
        if z3.is_app(e):
            if e.decl().eq(fn) and not _has_var(e):
                found[e.get_id()] = e
            for c in e.children():
                walk(c)
        elif z3.is_quantifier(e):
            walk(e.body())

    for f in formulas:
        walk(f)
    return list(found.values())
