"""Translate a move's expressions (the parsed, whitelisted trees) into exact arithmetic on chunks of positions.

Values become :class:`~nimjos.games.fast.arith.Vec` (or :class:`Affine` when they depend on the move's one bound
name t); a ``where`` condition becomes integer bounds on t and a mask of the positions where its t-free
conjuncts hold. Subexpressions free of positions and of t are evaluated once by the spec language itself
(:func:`nimjos.lang.compiler.compile_tree`). Anything outside the translated subset raises
:class:`~nimjos.games.fast.arith.Unsupported`. Nothing is ever passed to eval().

>>> import numpy as np
>>> from nimjos.lang.compiler import Namespace
>>> from nimjos.lang.syntax import parse
>>> x = arith.Vec.array(np.arange(10), 9)
>>> tr = Translator(Namespace(), {"x": x, "k": arith.Vec.const(3)}, bound="t")
>>> b = tr.bounds(parse("1 <= t <= floor(x / k)"))
>>> b.low().tolist() if hasattr(b.low(), "tolist") else b.low(), b.high().tolist()
(1, [0, 0, 0, 1, 1, 1, 2, 2, 2, 3])
"""
from __future__ import annotations

import ast
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import numpy as np

import nimjos.games.fast.arith as arith
from nimjos.games.fast.arith import Unsupported, Vec
import nimjos.lang.builtins as lang
from nimjos.lang.errors import NimjosError
from nimjos.lang.runtime import Definition, Lambda
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.inline import rename_definition
from nimjos.lang.registry import REGISTRY
from nimjos.lang.syntax import free_names, parse

#: deepest nesting of inlined definitions and lambdas
MAX_INLINE = 40
#: largest finite set a membership test is translated for
MAX_SET = 4096


@dataclass(frozen=True)
class Affine:
    """coef * t + rest, for the bound name t; coef is an exact non-zero constant.

    >>> Translator(Namespace(), {}, bound="t").value(parse("2 * t - 1"))
    Affine(coef=Fraction(2, 1), rest=Vec(num=-1, den=1, mag=1))
    """

    coef: Fraction
    rest: Vec


def linear_parts(v: Any) -> tuple[Fraction, Vec]:
    """A value of a move's arithmetic as (the coefficient of the bound name, the rest): (0, v) for a value without it.

    >>> linear_parts(Affine(Fraction(1, 2), Vec.const(3))), linear_parts(Vec.const(3))
    ((Fraction(1, 2), Vec(num=3, den=1, mag=3)), (Fraction(0, 1), Vec(num=3, den=1, mag=3)))
    """
    return (v.coef, v.rest) if isinstance(v, Affine) else (Fraction(0), v)


def _affine(coef: Fraction, rest: Vec) -> Any:
    return Affine(coef, rest) if coef != 0 else rest


def _t_free(v: Any) -> Vec:
    if isinstance(v, Affine):
        raise Unsupported("the bound name appears where only an interval of options can be read")
    return v


def _and(a: Any, b: Any) -> Any:
    if a is True:
        return b
    if b is True:
        return a
    if a is False or b is False:
        return False
    return np.logical_and(a, b)


@dataclass
class Bounds:
    """What a condition says about t: lower and upper bounds (arrays or ints) and a t-free mask.

    >>> b = Translator(Namespace(), {"x": Vec.const(7)}, bound="t").bounds(parse("1 <= t < x and x > 2"))
    >>> b.low(), b.high(), b.mask
    (1, 6, True)
    """

    lows: list = field(default_factory=list)
    highs: list = field(default_factory=list)
    mask: Any = True

    def add_le(self, coef: Fraction, bound: Vec, strict: bool) -> None:
        """Record coef * t <= bound (< bound when strict) as a bound on the integer t.

        >>> b = Bounds(); b.add_le(Fraction(-2), Vec.const(-3), False); b.low()   # -2t <= -3
        2
        """
        den = coef.denominator * bound.den // math.gcd(coef.denominator, bound.den)
        c = int(coef * den)
        f = den // bound.den
        arith._guard(bound.mag * f + 1)
        m = bound.num * f if f != 1 else bound.num      # c t <= m, all integers
        if strict:
            m = m - 1
        if c > 0:
            self.highs.append(arith.floor_div_int(m, c))
        else:
            self.lows.append(-arith.floor_div_int(m, -c))

    def low(self) -> Any:
        """The largest lower bound (an int or an int64 array).

        >>> Bounds(lows=[1, 3], highs=[9]).low()
        3
        """
        if not self.lows:
            raise Unsupported("the bound name has no lower bound")
        return _reduce(self.lows, np.maximum, max)

    def high(self) -> Any:
        """The smallest upper bound (an int or an int64 array).

        >>> Bounds(lows=[1], highs=[9, np.array([4, 12])]).high().tolist()
        [4, 9]
        """
        if not self.highs:
            raise Unsupported("the bound name has no upper bound")
        return _reduce(self.highs, np.minimum, min)


def _reduce(values: list, vector: Any, scalar: Any) -> Any:
    consts = [v for v in values if not isinstance(v, np.ndarray)]
    arrays = [v for v in values if isinstance(v, np.ndarray)]
    out = scalar(consts) if consts else None
    for a in arrays:
        out = a if out is None else vector(out, a)
    return out


_CMP = {ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
        ast.Eq: np.equal, ast.NotEq: np.not_equal}


class Translator:
    """Translates trees in one environment: names bound to Vec / Affine values or to raw callables.

    >>> Translator(Namespace(), {"x": Vec.array(np.arange(4), 3)}).value(parse("xor(x, 1) + x // 2")).num.tolist()
    [1, 0, 4, 3]
    """

    def __init__(self, ns: Namespace, env: dict[str, Any], bound: str | None = None, depth: int = 0,
                 cache: dict | None = None):
        self.ns = ns
        self.cache = cache if cache is not None else {}  # folded constants, shared by every chunk of a piece
        self.env = dict(env)
        if bound is not None and bound not in self.env:
            self.env[bound] = Affine(Fraction(1), Vec.const(0))
        self.depth = depth
        if depth > MAX_INLINE:
            raise Unsupported("definitions nested too deeply")

    # ------------------------------------------------------------------ constants

    def _fold(self, node: ast.expr) -> Any:
        """Evaluate a subexpression free of positions and of t with the spec language; None if it is not."""
        pyenv: dict[str, Any] = {}
        names = self.cache.get(("free", id(node)))
        if names is None:
            names = self.cache[("free", id(node))] = free_names(node)
        for name in names:
            if name not in self.env:
                continue
            v = self.env[name]
            if isinstance(v, Affine) or (isinstance(v, Vec) and not v.is_const):
                return None
            pyenv[name] = _python(v.fraction()) if isinstance(v, Vec) else v
        try:
            key: Any = (id(node), tuple(sorted(pyenv.items())))
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self.cache:
            return self.cache[key]
        try:
            value = compile_tree(node, self.ns, set(pyenv))(pyenv)
        except (NimjosError, ArithmeticError, TypeError, ValueError, RecursionError) as exc:
            raise Unsupported(f"cannot evaluate {ast.unparse(node)!r}: {exc}") from None
        if key is not None:
            self.cache[key] = value
        return value

    # ------------------------------------------------------------------ values

    def value(self, node: ast.expr) -> Any:
        """A Vec, or an Affine when the value depends on t.

        >>> Translator(Namespace(), {"k": Vec.const(3)}).value(parse("floor(10 / k) + 2**k"))
        Vec(num=11, den=1, mag=11)
        """
        if not isinstance(node, (ast.Constant, ast.Name)):
            folded = self._fold(node)
            if folded is not None:
                return Vec.const(folded)
        method = getattr(self, "_v_" + type(node).__name__, None)
        if method is None:
            raise Unsupported(f"{type(node).__name__} in a move")
        return method(node)

    def _v_Constant(self, node: ast.Constant) -> Vec:
        return Vec.const(node.value)

    def _v_Name(self, node: ast.Name) -> Any:
        name = node.id
        if name in self.env:
            v = self.env[name]
            if isinstance(v, (Vec, Affine)):
                return v
            return Vec.const(v)
        d = self.ns.definitions.get(name)
        if isinstance(d, Definition) and not d.params:
            return Translator(self.ns, {}, depth=self.depth + 1, cache=self.cache).value(d.tree)
        raise Unsupported(f"the name {name!r} in a move")

    def _v_UnaryOp(self, node: ast.UnaryOp) -> Any:
        v = self.value(node.operand)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.USub):
            coef, rest = linear_parts(v)
            return _affine(-coef, arith.neg(rest))
        if isinstance(node.op, ast.Invert):
            return arith.sub(arith.neg(_t_free(v)), Vec.const(1))
        raise Unsupported("'not' where a number is expected")

    def _v_BinOp(self, node: ast.BinOp) -> Any:
        a, b = self.value(node.left), self.value(node.right)
        op = node.op
        if isinstance(op, (ast.Add, ast.Sub)):
            (ca, ra), (cb, rb) = linear_parts(a), linear_parts(b)
            if isinstance(op, ast.Sub):
                cb, rb = -cb, arith.neg(rb)
            return _affine(ca + cb, arith.add(ra, rb))
        if isinstance(op, ast.Mult):
            if isinstance(a, Affine) and isinstance(b, Affine):
                raise Unsupported("a product of the bound name with itself")
            if isinstance(b, Affine):
                a, b = b, a
            if isinstance(a, Affine):
                c = b.fraction()
                return _affine(a.coef * c, arith.mul(a.rest, b))
            return arith.mul(a, b)
        if isinstance(op, ast.Div):
            b = _t_free(b)
            if isinstance(a, Affine):
                c = b.fraction()
                if c == 0:
                    raise Unsupported("division by zero")
                return _affine(a.coef / c, arith.div(a.rest, b))
            return arith.div(a, b)
        a, b = _t_free(a), _t_free(b)
        if isinstance(op, ast.FloorDiv):
            return arith.floordiv(a, b)
        if isinstance(op, ast.Mod):
            return arith.mod(a, b)
        if isinstance(op, ast.Pow):
            return arith.power(a, b)
        if isinstance(op, (ast.BitAnd, ast.BitOr)):
            return arith.bitwise("and" if isinstance(op, ast.BitAnd) else "or", a, b)
        if isinstance(op, (ast.LShift, ast.RShift)):
            return arith.shift(a, b, left=isinstance(op, ast.LShift))
        raise Unsupported(f"operator {type(op).__name__} in a move")

    def _v_IfExp(self, node: ast.IfExp) -> Vec:
        test = self.mask(node.test)
        a, b = _t_free(self.value(node.body)), _t_free(self.value(node.orelse))
        if test is True or test is False:
            return a if test else b
        an, bn, den, am, bm = arith._common(a, b)
        return Vec(np.where(test, an, bn).astype(np.int64), den, max(am, bm))

    def _v_Call(self, node: ast.Call) -> Any:
        if not isinstance(node.func, ast.Name):
            raise Unsupported("a call of a computed function")
        name = node.func.id
        args = [self.value(a) for a in node.args]
        if name in self.env:
            return self._call_param(self.env[name], args)
        d = self.ns.definitions.get(name)
        if d is not None:
            inner, body = self._inline(d, args)
            return inner.value(body)
        fn = self.ns.builtins.get(name)
        form = FAST_FORMS.get(name)
        if form is not None and fn is lang.BUILTINS.get(name):
            return form(name, args)
        reason = REGISTRY[name].fast if name in REGISTRY else None
        raise Unsupported(f"the function {name!r} in a move" + (f" ({reason})" if reason else ""))

    def _inline(self, d: Definition, args: list) -> tuple["Translator", ast.expr]:
        """A translator of the definition's body (renamed by :func:`nimjos.lang.inline.rename_definition`) with the
        arguments' values bound to its parameters, and that body."""
        if len(args) != len(d.params):
            raise Unsupported(f"{d.name} called with {len(args)} arguments")
        # renamed once per shared cache, which keeps the tree alive: the cache keys subexpressions by id(node)
        renamed = self.cache.get(("renamed", d))
        if renamed is None:
            renamed = self.cache[("renamed", d)] = rename_definition(d.params, d.tree)
        inner = Translator(self.ns, dict(zip(renamed.params, args)), depth=self.depth + 1, cache=self.cache)
        return inner, renamed.body

    def _call_param(self, fn: Any, args: list) -> Any:
        if isinstance(fn, Lambda):
            tree = fn.node
            if len(args) != len(fn.params):
                raise Unsupported("a lambda called with the wrong number of arguments")
            env: dict[str, Any] = {}
            for k, v in fn.env.items():
                env[k] = Vec.const(v) if isinstance(v, (int, Fraction)) and not isinstance(v, bool) else v
            env.update(zip(fn.params, args))
            return Translator(self.ns, env, depth=self.depth + 1, cache=self.cache).value(tree.body)
        if isinstance(fn, lang.FiniteFunction) and len(args) == 1:
            arg = _t_free(args[0]).integers()
            table = fn.table
            if not isinstance(arg, np.ndarray):
                if not 1 <= arg <= len(table):
                    raise Unsupported("a finite function called outside its domain")
                return Vec.const(table[arg - 1])
            if arg.size and (arg.min() < 1 or arg.max() > len(table)):
                raise Unsupported("a finite function called outside its domain")
            values = np.asarray(table, dtype=np.int64)
            return Vec.array(values[arg - 1], max(abs(v) for v in table))
        raise Unsupported("a param that is not a lambda or a finite function, called in a move")

    # ------------------------------------------------------------------ conditions

    def bounds(self, node: ast.expr, into: Bounds | None = None) -> Bounds:
        """Read a condition as bounds on t (from conjuncts linear in t) and a mask (the t-free conjuncts).

        >>> b = Translator(Namespace(), {"x": Vec.const(9)}, bound="t").bounds(parse("-2*t <= x - 14 and t <= x"))
        >>> b.low(), b.high()
        (3, 9)
        """
        out = into if into is not None else Bounds()
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            for v in node.values:
                self.bounds(v, out)
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.env \
                and node.func.id in self.ns.definitions:
            d = self.ns.definitions[node.func.id]
            inner, body = self._inline(d, [self.value(a) for a in node.args])
            return inner.bounds(body, out)
        if isinstance(node, ast.Compare):
            items = [node.left, *node.comparators]
            for a, op, b in zip(items, node.ops, items[1:]):
                if isinstance(op, (ast.In, ast.NotIn)):
                    out.mask = _and(out.mask, self._member(a, op, b))
                    continue
                ca, ra = linear_parts(self.value(a))
                cb, rb = linear_parts(self.value(b))
                coef = ca - cb       # a op b  <=>  coef t op rb - ra
                if coef == 0:
                    out.mask = _and(out.mask, compare_with_zero(arith.sub(ra, rb), type(op)))
                elif isinstance(op, (ast.LtE, ast.Lt)):
                    out.add_le(coef, arith.sub(rb, ra), isinstance(op, ast.Lt))
                elif isinstance(op, (ast.GtE, ast.Gt)):
                    out.add_le(-coef, arith.sub(ra, rb), isinstance(op, ast.Gt))
                elif isinstance(op, ast.Eq):
                    out.add_le(coef, arith.sub(rb, ra), False)
                    out.add_le(-coef, arith.sub(ra, rb), False)
                else:
                    raise Unsupported("'!=' on the bound name")
            return out
        out.mask = _and(out.mask, self.mask(node))
        return out

    def mask(self, node: ast.expr) -> Any:
        """A t-free condition: a bool array over the chunk, or a Python bool.

        >>> Translator(Namespace(), {"x": Vec.array(np.arange(4), 3)}).mask(parse("x % 2 == 1 or x == 0")).tolist()
        [True, True, False, True]
        """
        folded = self._fold(node)
        if folded is not None:
            if not isinstance(folded, bool):
                raise Unsupported("a condition that is not true or false")
            return folded
        if isinstance(node, ast.BoolOp):
            parts = [self.mask(v) for v in node.values]
            combine = np.logical_and if isinstance(node.op, ast.And) else np.logical_or
            out = parts[0]
            for p in parts[1:]:
                out = combine(out, p)
            return out
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return np.logical_not(self.mask(node.operand))
        is_definition = isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id not in self.env and node.func.id in self.ns.definitions
        if isinstance(node, ast.Compare) or is_definition:
            b = self.bounds(node)
            if b.lows or b.highs:
                raise Unsupported("the bound name inside 'or' or 'not'")
            return b.mask
        raise Unsupported(f"{type(node).__name__} as a condition in a move")

    def _member(self, a: ast.expr, op: ast.cmpop, b: ast.expr) -> Any:
        left = _t_free(self.value(a))
        container = self._fold(b)
        if not isinstance(container, (frozenset, tuple, range)) or len(container) > MAX_SET \
                or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) < arith.SAFE
                           for v in container):
            raise Unsupported("membership in something other than a small finite set of integers")
        values = left.integers() if left.den == 1 else None
        if values is None:
            hit: Any = False
        elif isinstance(values, np.ndarray):
            hit = np.isin(values, np.array(sorted(container), dtype=np.int64)) if container else \
                np.zeros(values.shape, dtype=bool)
        else:
            hit = values in container
        return np.logical_not(hit) if isinstance(op, ast.NotIn) else hit


def _rounded(name: str, args: list) -> Vec:
    """floor or ceil of one value."""
    if len(args) != 1:
        raise Unsupported(f"{name} takes one argument")
    v = _t_free(args[0])
    return arith.floor(v) if name == "floor" else arith.ceil(v)


def _extreme(name: str, args: list) -> Vec:
    """min or max of two or more values."""
    if len(args) < 2:
        raise Unsupported(f"{name} of a collection")
    return arith.extreme([_t_free(a) for a in args], largest=name == "max")


def _absolute(name: str, args: list) -> Vec:
    if len(args) != 1:
        raise Unsupported(f"{name} takes one argument")
    return arith.absolute(_t_free(args[0]))


def _nim_sum(name: str, args: list) -> Vec:
    if not args:
        raise Unsupported(f"{name}() of no values")
    out = _t_free(args[0])
    for a in args[1:]:
        out = arith.bitwise("xor", out, _t_free(a))
    return out


#: the translation of each built-in that has one in a move's arithmetic, keyed by the registry's names
#: (:mod:`nimjos.lang.registry`, which gives the reason for each of the others)
FAST_FORMS: dict[str, Callable[[str, list], Vec]] = {
    "floor": _rounded, "ceil": _rounded, "min": _extreme, "max": _extreme, "abs": _absolute, "xor": _nim_sum,
}


def compare_with_zero(rest: Vec, op: type[ast.cmpop]) -> Any:
    """rest op 0 (the denominator is positive, so the numerator's sign decides): a bool for a constant, else a mask.

    >>> compare_with_zero(Vec.const(-2), ast.Lt), compare_with_zero(Vec.array(np.array([-1, 0, 1]), 1), ast.GtE)
    (True, array([False,  True,  True]))
    """
    if rest.is_const:
        return bool(_CMP[op](rest.num, 0))
    return _CMP[op](rest.num, 0)


def _python(q: Fraction) -> Any:
    return q.numerator if q.denominator == 1 else q
