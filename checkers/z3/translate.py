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

The :class:`Builder` is assembled from one mixin per job, each in its own module: the arithmetic of the two
worlds (:mod:`checkers.z3.arith`), comparisons and membership (:mod:`checkers.z3.compare`), the built-ins with a model (:mod:`checkers.z3.calls`), aggregates and
quantifiers (:mod:`checkers.z3.quantify`), the encoding of declared moves (:mod:`checkers.z3.moves`)
and the facts about the abstractions (:mod:`checkers.z3.facts`). This module holds its state and the
translation of the syntax (names, tuples, conditionals, operators, calls). Facts about G from a
lemma are not imported here: the prover passes a fact provider to :meth:`Builder.grundy_facts`.

>>> import z3
>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.names import spec_namespace
>>> b = Builder(spec_namespace(), mode="int")
>>> x = b.var("x")
>>> t = b.term(parse("floor(x / 3) + 3 * (x // 3) + 2 ** 4"), {"x": x})
>>> z3.simplify(z3.substitute(t, (x, z3.IntVal(10))))
28
>>> b.term(parse("G(g, x)"), {"x": x})
Traceback (most recent call last):
...
checkers.z3.terms.Untranslatable: G(...) needs the game's values (no symbolic model)
"""
from __future__ import annotations

import ast
from fractions import Fraction
from typing import Any, Callable

import z3

from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.compiler import Namespace
from nimjos.lang.inline import rename_definition
from nimjos.lang.registry import REGISTRY, STORED_AUTOMATON
from nimjos.lang.runtime import Definition, Lambda, norm
from nimjos.lang.stored import StoredAutomaton
from checkers.z3.arith import Arithmetic
from checkers.z3.calls import BuiltinCalls
from checkers.z3.compare import Comparisons
from checkers.z3.facts import AbstractionFacts
from checkers.z3.moves import MoveEncoding
from checkers.z3.quantify import Comprehensions
from checkers.z3.unknown import UnknownFunction
from checkers.z3.terms import BIG_CONSTANT, Closure, GameRef, Scope, SymSet, Untranslatable, is_const, is_term, show

#: deepest nesting of definition calls while translating
MAX_INLINE = 60

class Uninterpreted:
    """The Z3 form of a built-in translated as an unknown (uninterpreted) function when its arguments are symbolic:
    a proof then holds for every function, the real one included; `why` says why no model stands for it when
    its arguments cannot be translated either."""

    def __init__(self, why: str):
        self.why = why


class Builder(Arithmetic, Comparisons, BuiltinCalls, Comprehensions, MoveEncoding,
              AbstractionFacts):
    """Translates expressions into Z3 under one arithmetic world.

    `mode` is ``"int"`` or ``"bv"``; `bits` is the bit-vector width used for computation in ``bv`` mode; `ctx`
    is the Z3 context every term is made in (the proof attempt's, :class:`checkers.context.SolverContext`;
    None: Z3's default context, for examples and tools only).
    Facts about abstractions, definitions of helper variables and obligations accumulate in the builder;
    :meth:`assertions` returns what a query must assume and :meth:`obligation` what it must also show.
    """

    def __init__(self, ns: Namespace, mode: str = "int", bits: int = 64, ctx: z3.Context | None = None):
        if mode not in ("int", "bv"):
            raise ValueError(mode)
        self.ctx = ctx
        self.ns = ns
        self.mode = mode
        self.bits = bits
        self.scopes: list[Scope] = [Scope()]
        self.path: list = []
        self._n = 0
        self._pow2 = None
        self._xor = None
        self._powers: dict = {}   # v2, the odd part and ilog2 of the int world (checkers.z3.powers)
        self._unknown: dict = {}
        #: the Grundy functions in use: key -> (the unknown function, the game), for facts about G (induction,
        #: checkers.prove.rule_function)
        self.grundy: dict = {}
        self._grundy_facts: dict = {}
        self.pow2_terms: list = []
        self.abstractions: set[str] = set()
        self.depth = 0
        self._renamed: dict = {}     # definition -> its renamed parameters and body

    # ------------------------------------------------------------------ variables and sorts
    def var(self, name: str) -> z3.ExprRef:
        """A symbolic integer of this world."""
        if self.mode == "bv":
            return z3.BitVec(name, self.bits, self.ctx)
        return z3.Int(name, self.ctx)

    def const(self, v: int) -> z3.ExprRef:
        """A constant of this world; one of more than BIG_CONSTANT bits is refused (Python will not even print it).

        >>> Builder(None, "int", 0).const(7), Builder(None, "bv", 8).const(-3)
        (7, 253)
        >>> Builder(None, "int", 0).const(2 ** 5000)
        Traceback (most recent call last):
        ...
        checkers.z3.terms.Untranslatable: a constant of 5,001 bits (more than 4,096)
        """
        if abs(v).bit_length() > BIG_CONSTANT:
            raise Untranslatable(f"a constant of {abs(v).bit_length():,} bits (more than {BIG_CONSTANT:,})")
        if self.mode == "bv":
            if not -(1 << (self.bits - 1)) <= v < (1 << (self.bits - 1)):
                raise Untranslatable(f"the constant {v} does not fit in {self.bits} bits")
            return z3.BitVecVal(v, self.bits, self.ctx)
        return z3.IntVal(v, self.ctx)

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
            cond = z3.BoolVal(False, self.ctx)
        if self.path:
            cond = z3.Implies(z3.And(*self.path), cond)
        self.scopes[-1].obligations.append((cond, text))

    def assertions(self) -> list:
        """Constraints every query must include: definitions of helper variables and abstraction facts."""
        top = self.scopes[0]
        return list(top.defs) + self.facts()

    def obligation(self) -> tuple[Any, list[str]]:
        """The conjunction of every recorded obligation, and their texts."""
        obs = self.scopes[0].obligations
        if not obs:
            return z3.BoolVal(True, self.ctx), []
        return z3.And(*[c for c, _ in obs]), sorted({t for _, t in obs})

    # ------------------------------------------------------------------ values
    def to_term(self, v: Any) -> Any:
        """A Z3 term for an integer-like value (constants become numerals)."""
        if is_term(v):
            if z3.is_bool(v):   # the language's True and False are the integers 1 and 0
                return z3.If(v, self.const(1), self.const(0))
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
            return z3.RealVal(v, self.ctx)
        raise Untranslatable(f"{show(v)} is not a number")

    def to_bool(self, v: Any) -> Any:
        """A Z3 Boolean for a value used as a truth value: a number is true when it is not 0 (the language's
        ``and``, ``or``, ``not`` and ``if``)."""
        if isinstance(v, bool):
            return z3.BoolVal(v, self.ctx)
        if is_term(v):
            if z3.is_bool(v):
                return v
            t, zero = self._unify(v, self.const(0))
            return t != zero
        if isinstance(v, (int, Fraction)):
            return z3.BoolVal(v != 0, self.ctx)
        raise Untranslatable(f"{show(v)} used as a truth value")

    def integer(self, v: Any, what: str) -> Any:
        """The term of a value an operation takes only as an integer (``<<``, ``~``, an exponent, xor, v2...):
        the language refuses a truth value or a fraction there, so the translation does too.

        >>> from nimjos.spec.names import spec_namespace
        >>> b = Builder(spec_namespace(), mode="bv", bits=8)
        >>> b.integer(b.var("x"), "~")
        x
        >>> b.integer(b.var("x") < 3, "~")
        Traceback (most recent call last):
        ...
        checkers.z3.terms.Untranslatable: ~ of a truth value (the language needs an integer)
        """
        if isinstance(v, bool) or (is_term(v) and z3.is_bool(v)):
            raise Untranslatable(f"{what} of a truth value (the language needs an integer)")
        if isinstance(v, Fraction) or (is_term(v) and z3.is_real(v)):
            raise Untranslatable(f"{what} of a value that need not be an integer")
        return self.to_term(v)

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
        if all(is_const(v) for v in vals):
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
        if is_const(v) and all(isinstance(e, int) for e in v):
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
        truth = [isinstance(v, bool) or (is_term(v) and z3.is_bool(v)) for v in (a, b)]
        if all(truth):
            return z3.If(c, self.to_bool(a), self.to_bool(b))
        if any(truth):   # the value is a truth value on one branch and a number on the other
            raise Untranslatable("a conditional whose branches are a truth value and a number")
        ta, tb = self._unify(self.to_term(a), self.to_term(b))
        return z3.If(c, ta, tb)

    def _unify(self, a: Any, b: Any) -> tuple:
        if self.mode == "int" and (z3.is_real(a) or z3.is_real(b)):
            return (z3.ToReal(a) if z3.is_int(a) else a), (z3.ToReal(b) if z3.is_int(b) else b)
        return a, b

    def _BoolOp(self, node: ast.BoolOp, env: dict) -> Any:
        is_and = isinstance(node.op, ast.And)
        parts: list = []
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
        t = self.to_term(v) if isinstance(node.op, ast.USub) else self.integer(v, "~")
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

    # ------------------------------------------------------------------ calls
    def _Lambda(self, node: ast.Lambda, env: dict) -> Any:
        return Closure(tuple(a.arg for a in node.args.args), node.body, dict(env))

    def _Call(self, node: ast.Call, env: dict) -> Any:
        if isinstance(node.func, ast.Name):
            name = node.func.id
            if name not in env and name not in self.ns.definitions and name not in self.ns.games \
                    and name in self.ns.builtins:
                form = Z3_FORMS.get(name)
                if callable(form):
                    return form(self, node, env)
                reason: str | None
                if isinstance(form, Uninterpreted):
                    reason = form.why
                else:
                    reason = REGISTRY[name].z3 if name in REGISTRY else None
                if isinstance(self.ns.builtins[name], StoredAutomaton):
                    reason = STORED_AUTOMATON.z3
                    args = tuple(self._ex(a, env) for a in node.args)
                    if not all(is_const(a) for a in args):
                        raise Untranslatable(f"{name}(...): {reason}")
                    return self._exact(self.ns.builtins[name], args)
                if reason is not None:
                    try:
                        args = tuple(self._ex(a, env) for a in node.args)
                    except Untranslatable:
                        raise Untranslatable(reason) from None
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
            if all(is_const(a) for a in args):
                return self._exact(f, args)
            raise Untranslatable("a lambda captured from a constant binding, called on symbolic values")
        if type(f).__name__ == "FiniteFunction":
            return self._table_call(f, args)
        if isinstance(f, UnknownFunction):
            return f.apply(self, args)
        if callable(f):
            name = getattr(f, "__name__", "").lstrip("_")
            if all(is_const(a) for a in args):
                return self._exact(f, args)
            if isinstance(Z3_FORMS.get(name), Uninterpreted):
                domain = JOSEPHUS_DOMAINS.get(name)
                if domain is not None and len(args) == domain[0]:
                    # the unknown stands for the function on its domain only: a call outside it has no value
                    terms = [self.to_term(a) for a in args]
                    self.oblige(z3.And(*domain[1](self.const, *terms)), f"{name}'s arguments in its domain")
                return self.unknown_function(name, args)
            if name in REGISTRY and REGISTRY[name].z3 is not None:
                raise Untranslatable(REGISTRY[name].z3)
            raise Untranslatable(f"{name or 'a built-in'}(...) on symbolic values")
        raise Untranslatable(f"{show(f)} is not a function")

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
        """A call of a non-recursive definition on translated arguments: its body, renamed by the one inliner
        (:func:`nimjos.lang.inline.rename_definition`), translated with the arguments bound to its parameters.

        >>> from nimjos.spec.names import spec_namespace
        >>> from nimjos.lang.syntax import parse
        >>> ns = spec_namespace()
        >>> ns.definitions["f"] = Definition("f", ("x",), "", parse("sum(y for y in range(x))"))
        >>> Builder(ns, mode="int").term(parse("f(4)"), {})
        6
        """
        if len(args) != len(d.params):
            raise Untranslatable(f"{d.name} called with the wrong number of arguments")
        if d.recursive:
            raise Untranslatable(f"recursive definition {d.name} (the prover does not unfold recursions)")
        renamed = self._renamed.get(d)
        if renamed is None:
            renamed = self._renamed[d] = rename_definition(d.params, d.tree)
        # the arguments' values, translated once in the caller's scope (the language evaluates every argument
        # before the call), bound to the renamed parameters: nothing of the caller is visible in the body
        return self._nested(lambda: self._ex(renamed.body, dict(zip(renamed.params, args))))


#: the domain of each Josephus function (nimjos.josephus.functions), which its unknown stands for: (arity, the
#: conditions on the arguments' terms, given a constant maker); a call outside it is undefined in the language
JOSEPHUS_DOMAINS: dict[str, tuple[int, Callable[..., list]]] = {
    "survivor": (2, lambda c, n, k: [n >= c(0), k >= c(1)]),
    "removal_index": (3, lambda c, n, k, m: [n >= c(1), k >= c(1), m >= c(1), m <= n]),
    "removed": (3, lambda c, n, k, i: [n >= c(1), k >= c(1), i >= c(1), i <= n]),
    "JJ": (3, lambda c, k, n, m: [n >= c(1), k >= c(1), m >= c(1), m <= n]),
    "F": (2, lambda c, s, v: [v >= c(1), s >= c(0), s <= v - c(1)]),
}


#: the Z3 form of each built-in that has one, keyed by the registry's names (:mod:`nimjos.lang.registry`, which gives
#: the reason for each of the others): a translation of the call, or :class:`Uninterpreted`
Z3_FORMS: dict[str, Any] = {
    "floor": Builder._call_floor, "ceil": Builder._call_ceil, "min": Builder._call_min, "max": Builder._call_max,
    "abs": Builder._call_abs, "xor": Builder._call_xor, "v2": Builder._call_v2, "ilog2": Builder._call_ilog2,
    "popcount": Builder._call_popcount, "isqrt": Builder._call_isqrt, "range": Builder._call_range,
    "options": Builder._call_options, "iterate": Builder._call_iterate, "any": Builder._call_any,
    "all": Builder._call_all, "sum": Builder._call_sum,
    "G": Uninterpreted("G(...) needs the game's values (no symbolic model)"),
    **{name: Uninterpreted("the Josephus functions have no symbolic model")
       for name in ("survivor", "removal_index", "removed", "JJ", "F")},
}
