"""The operators of the expression language, with their exact semantics: ``/`` is exact (a Fraction,
normalised to int when whole); ``//`` and ``%`` are exact floor division and remainder, refusing a zero
divisor; ``|``, ``&`` and ``-`` on two finite sets are union, intersection and difference, ``+`` on two
tuples is concatenation (:mod:`nimjos.lang.compiler`); ``**``, ``*`` and ``<<`` refuse results over :data:`~nimjos.lang.runtime.MAX_BITS` bits; bitwise
operators take integers; ``x in S`` also accepts a predicate S; comparisons of unlike values are refused.
:data:`BINOPS` and :data:`CMPOPS` map an ``ast`` operator type to its function.

>>> BINOPS[ast.Div](7, 2), BINOPS[ast.FloorDiv](-7, 2), CMPOPS[ast.In](3, lambda x: x > 2)
(Fraction(7, 2), -4, True)
>>> BINOPS[ast.Mod](1, 0)
Traceback (most recent call last):
...
nimjos.lang.errors.EvalError: modulo by zero (1 % 0)
"""
from __future__ import annotations

import ast
import operator
from fractions import Fraction
from typing import Any, Callable

from nimjos.lang.errors import EvalError, ResourceError
from nimjos.lang.runtime import MAX_BITS, norm
from nimjos.lang.values import format_value


def _div(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"division by zero ({format_value(a)} / 0)")
    if type(a) is int and type(b) is int:
        q, r = divmod(a, b)
        return q if not r else Fraction(a, b)   # a whole quotient is an int, as norm() makes it
    return norm(Fraction(a) / Fraction(b))


def _floordiv(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"division by zero ({format_value(a)} // 0)")
    return norm(a // b)


def _mod(a: Any, b: Any) -> Any:
    if b == 0:
        raise EvalError(f"modulo by zero ({format_value(a)} % 0)")
    return norm(a % b)


def _pow(a: Any, b: Any) -> Any:
    if type(b) is not int:
        raise EvalError(f"non-integer exponent {format_value(b)} (only integer powers are exact)")
    if type(a) is int and b >= 0:   # the common case, with no Fraction made
        if b > 1 and a not in (0, 1, -1):
            _refuse_large(a, b, b * max(1, abs(a).bit_length()))
        return a ** b
    if b < 0 and a == 0:
        raise EvalError("0 raised to a negative power")
    if a not in (0, 1, -1) and abs(b) > 1:
        # a negative power is as large as a positive one: its denominator (2 ** -(2 ** 35) has 2^35 bits)
        q = Fraction(a)
        _refuse_large(a, b, abs(b) * max(1, abs(q.numerator).bit_length(), q.denominator.bit_length()))
    return norm(Fraction(a) ** b) if b < 0 else a ** b


def _refuse_large(a: Any, b: int, size: int) -> None:
    """Refuse a ** b when its result would have about `size` bits, over :data:`~nimjos.lang.runtime.MAX_BITS`.

    >>> _refuse_large(2, 10, 10)
    >>> _refuse_large(2, 2 ** 40, 2 ** 40)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.ResourceError: 2 ** 1099511627776 would have about 1,099,511,627,776 bits (limit 1,000,000)
    """
    if size > MAX_BITS:
        about = f"{size:,}" if size.bit_length() <= 64 else f"2^{size.bit_length() - 1}"
        raise ResourceError(f"{format_value(a)} ** {format_value(b)} would have about {about} bits "
                            f"(limit {MAX_BITS:,})")


def _lshift(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise EvalError("<< needs integers")
    if b < 0:
        raise EvalError("negative shift count")
    if b + a.bit_length() > MAX_BITS:
        raise ResourceError(f"{a} << {b} would have more than {MAX_BITS:,} bits")
    return a << b


def _rshift(a: Any, b: Any) -> Any:
    if type(a) is not int or type(b) is not int:
        raise EvalError(">> needs integers")
    if b < 0:
        raise EvalError("negative shift count")
    return a >> b


def _bitop(op: Callable, word: str) -> Callable:
    """A bitwise operator on integers that is the set operation `word` on two finite sets.

    >>> _bitop(operator.or_, "union")(frozenset({1}), frozenset({2})), _bitop(operator.and_, "intersection")(6, 3)
    (frozenset({1, 2}), 2)
    """
    def f(a: Any, b: Any) -> Any:
        if type(a) is frozenset or type(b) is frozenset:
            if type(a) is frozenset and type(b) is frozenset:
                return op(a, b)
            raise EvalError(f"the {word} of sets needs two sets, got {format_value(a)} and {format_value(b)}")
        if type(a) is not int or type(b) is not int:
            if isinstance(a, bool) or isinstance(b, bool):
                return op(a, b)
            raise EvalError(f"bitwise operation on non-integers {format_value(a)}, {format_value(b)}")
        return op(a, b)
    return f


def _bits(v: Any) -> int:
    if type(v) is Fraction:
        return v.numerator.bit_length() + v.denominator.bit_length()
    return v.bit_length() if type(v) is int else 0


def _mul(a: Any, b: Any) -> Any:
    if isinstance(a, (tuple, frozenset)) or isinstance(b, (tuple, frozenset)):
        raise EvalError("* applies to numbers only")
    size = _bits(a) + _bits(b)
    if size > MAX_BITS:
        raise ResourceError(f"a product would have about {size:,} bits (limit {MAX_BITS:,})")
    return a * b


def _add(a: Any, b: Any) -> Any:
    return a + b


def _contains(x: Any, container: Any) -> bool:
    if callable(container) and not isinstance(container, (range, tuple, frozenset, set)):
        return bool(container(x))
    try:
        return x in container
    except TypeError:
        raise EvalError(f"'in' needs a set, tuple, range or predicate, got {format_value(container)}") from None


BINOPS: dict[type, Callable] = {
    ast.Add: _add, ast.Sub: operator.sub, ast.Mult: _mul, ast.Div: _div, ast.FloorDiv: _floordiv,
    ast.Mod: _mod, ast.Pow: _pow, ast.BitOr: _bitop(operator.or_, "union"),
    ast.BitAnd: _bitop(operator.and_, "intersection"),
    ast.LShift: _lshift, ast.RShift: _rshift,
}

CMPOPS: dict[type, Callable] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge,
    ast.In: _contains, ast.NotIn: lambda a, b: not _contains(a, b),
}


def _safe_cmp(op: Callable) -> Callable:
    def f(a: Any, b: Any) -> bool:
        try:
            return op(a, b)
        except TypeError:
            raise EvalError(f"cannot compare {format_value(a)} with {format_value(b)}") from None
    return f


#: the order and equality comparisons themselves, for two integers (which they never refuse)
INT_CMPOPS: dict[type, Callable] = {k: v for k, v in CMPOPS.items() if k not in (ast.In, ast.NotIn)}

CMPOPS = {k: (_safe_cmp(v) if k not in (ast.In, ast.NotIn) else v) for k, v in CMPOPS.items()}

#: the arithmetic operators whose result, for two integers, is Python's own: a product (within :data:`MAX_BITS`),
#: a floor quotient and a remainder (by a divisor that is not 0)
INT_BINOPS: dict[type, Callable] = {ast.Mult: operator.mul, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
