"""Exact rational arithmetic on a whole chunk of positions at once, in int64 numpy arrays.

A :class:`Vec` is a numerator (an int64 array, or a Python int for a constant) over a positive Python-int
denominator, and carries a bound on the numerator's magnitude. Every operation derives the bound of its
result before computing it, and refuses (:class:`Unsupported`) when the bound could leave int64: no
operation ever overflows, and no float is ever involved. Floor division and remainder follow Python's
rules (numpy's integer ``//`` and ``%`` do too).

>>> x = Vec.array(np.arange(7), 6)
>>> floor(div(x, Vec.const(3))).num.tolist()
[0, 0, 0, 1, 1, 1, 2]
>>> mod(sub(Vec.const(0), x), Vec.const(4)).num.tolist()
[0, 3, 2, 1, 0, 3, 2]
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

#: every intermediate numerator stays below this magnitude (int64 holds 2**63 - 1)
SAFE = 1 << 62


class Unsupported(Exception):
    """A move's expression is outside what the fast engines translate; the game goes to the reference engine.

    >>> Vec.const(True)
    Traceback (most recent call last):
    ...
    nimjos.games.fast.arith.Unsupported: True is not a number
    """


def _guard(mag: int) -> int:
    if mag >= SAFE:
        raise Unsupported(f"values up to {mag} could overflow int64")
    return mag


@dataclass(frozen=True)
class Vec:
    """num / den per position: num an int64 array (or a Python int), den > 0, |num| <= mag.

    >>> Vec.array(np.arange(3), 2)
    Vec(num=array([0, 1, 2]), den=1, mag=2)
    """

    num: Any
    den: int
    mag: int

    @staticmethod
    def const(value: Any) -> "Vec":
        """A constant (an int or a Fraction), in lowest terms.

        >>> Vec.const(Fraction(6, 4))
        Vec(num=3, den=2, mag=3)
        """
        if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
            raise Unsupported(f"{value!r} is not a number")
        q = Fraction(value)
        return Vec(q.numerator, q.denominator, _guard(abs(q.numerator)))

    @staticmethod
    def array(values: np.ndarray, mag: int) -> "Vec":
        """Integers per position, each of magnitude at most `mag`.

        >>> Vec.array(np.arange(3), 2).is_const
        False
        """
        return Vec(values.astype(np.int64, copy=False), 1, _guard(mag))

    @property
    def is_const(self) -> bool:
        """Is this one number (the same at every position)?

        >>> Vec.const(3).is_const
        True
        """
        return not isinstance(self.num, np.ndarray)

    def fraction(self) -> Fraction:
        """The constant as an exact Fraction (constants only).

        >>> Vec.const(Fraction(1, 3)).fraction()
        Fraction(1, 3)
        """
        if not self.is_const:
            raise Unsupported("a value that varies with the position where a constant is needed")
        return Fraction(self.num, self.den)

    def integers(self) -> Any:
        """The values as integers (an int64 array or an int); refused when some value is not whole.

        >>> Vec.array(np.array([2, 4]), 4).integers().tolist()
        [2, 4]
        """
        if self.den == 1:
            return self.num
        if self.is_const or np.any(self.num % self.den):
            raise Unsupported("a move target that is not an integer")
        return self.num // self.den


def _scale(a: Vec, den: int) -> tuple[Any, int]:
    """a's numerator over the common denominator `den` (a multiple of a.den), and its bound."""
    f = den // a.den
    mag = _guard(a.mag * f)
    return (a.num * f if f != 1 else a.num), mag


def _common(a: Vec, b: Vec) -> tuple[Any, Any, int, int, int]:
    den = a.den * b.den // math.gcd(a.den, b.den)
    an, am = _scale(a, den)
    bn, bm = _scale(b, den)
    return an, bn, den, am, bm


def _make(num: Any, den: int, mag: int) -> Vec:
    _guard(mag)
    if not isinstance(num, np.ndarray):
        return Vec.const(Fraction(num, den))
    return Vec(num, den, mag)


def add(a: Vec, b: Vec) -> Vec:
    """a + b.

    >>> add(Vec.const(Fraction(1, 2)), Vec.const(Fraction(1, 3)))
    Vec(num=5, den=6, mag=5)
    """
    if b.is_const and b.num == 0:
        return a
    if a.is_const and a.num == 0:
        return b
    an, bn, den, am, bm = _common(a, b)
    _guard(am + bm)
    return _make(an + bn, den, am + bm)


def neg(a: Vec) -> Vec:
    """-a.

    >>> neg(Vec.const(2)).num
    -2
    """
    return Vec(-a.num, a.den, a.mag)


def sub(a: Vec, b: Vec) -> Vec:
    """a - b.

    >>> sub(Vec.const(1), Vec.const(3)).num
    -2
    """
    return add(a, neg(b))


def mul(a: Vec, b: Vec) -> Vec:
    """a * b.

    >>> mul(Vec.const(3), Vec.array(np.array([1, -2]), 2)).num.tolist()
    [3, -6]
    """
    if b.is_const and b.num == b.den == 1:
        return a
    if a.is_const and a.num == a.den == 1:
        return b
    mag = _guard(a.mag * b.mag)
    return _make(a.num * b.num, a.den * b.den, mag)


def div(a: Vec, b: Vec) -> Vec:
    """a / b, exactly; b must be a non-zero constant.

    >>> div(Vec.const(3), Vec.const(-6))
    Vec(num=-1, den=2, mag=1)
    """
    q = b.fraction()
    if q == 0:
        raise Unsupported("division by zero")
    p, r = q.numerator, q.denominator
    sign = 1 if p > 0 else -1
    return _make(a.num * (r * sign) if r != 1 or sign != 1 else a.num, a.den * abs(p), _guard(a.mag * r))


def _quotient_parts(a: Vec, b: Vec) -> tuple[Any, Any, int]:
    """a / b as n1 / n2 with integer numerators (n2 never zero), and the bound of n1."""
    n1 = a.num * b.den if b.den != 1 else a.num
    n2 = b.num * a.den if a.den != 1 else b.num
    m1 = _guard(a.mag * b.den)
    _guard(b.mag * a.den)
    if (np.any(n2 == 0) if isinstance(n2, np.ndarray) else n2 == 0):
        raise Unsupported("division by zero")
    return n1, n2, m1


def floordiv(a: Vec, b: Vec) -> Vec:
    """a // b (floor of the exact quotient).

    >>> floordiv(Vec.array(np.array([-7, 7]), 7), Vec.const(2)).num.tolist()
    [-4, 3]
    """
    if b.is_const:
        return floor(div(a, b))
    n1, n2, m1 = _quotient_parts(a, b)
    return _make(n1 // n2, 1, m1 + 1)


def mod(a: Vec, b: Vec) -> Vec:
    """a % b with the sign of b, as in Python.

    >>> mod(Vec.array(np.array([-7, 7]), 7), Vec.const(3)).num.tolist()
    [2, 1]
    """
    n1, n2, _ = _quotient_parts(a, b)
    return _make(n1 % n2, a.den * b.den, _guard(b.mag * a.den))


def floor(a: Vec) -> Vec:
    """The floor of a, exactly.

    >>> floor(Vec.const(Fraction(-3, 2))).num
    -2
    """
    if a.den == 1:
        return a
    return _make(floor_div_int(a.num, a.den), 1, a.mag // a.den + 1)


def floor_div_int(num: Any, d: int) -> Any:
    """num // d for a positive int d (an arithmetic shift when d is a power of two: the same floor, faster).

    >>> floor_div_int(np.array([-7, 7]), 4).tolist(), floor_div_int(-7, 3)
    ([-2, 1], -3)
    """
    if d & (d - 1) == 0 and isinstance(num, np.ndarray):
        return num >> (d.bit_length() - 1)
    return num // d


def ceil(a: Vec) -> Vec:
    """The ceiling of a, exactly.

    >>> ceil(Vec.const(Fraction(-3, 2))).num
    -1
    """
    return neg(floor(neg(a)))


def extreme(values: list[Vec], largest: bool) -> Vec:
    """The minimum or maximum of several values, position by position.

    >>> extreme([Vec.array(np.array([1, 5]), 5), Vec.const(3)], largest=False).num.tolist()
    [1, 3]
    """
    out = values[0]
    pick = np.maximum if largest else np.minimum
    for b in values[1:]:
        an, bn, den, am, bm = _common(out, b)
        if out.is_const and b.is_const:
            out = _make(max(an, bn) if largest else min(an, bn), den, max(am, bm))
        else:
            out = _make(pick(an, bn), den, max(am, bm))
    return out


def absolute(a: Vec) -> Vec:
    """|a|.

    >>> absolute(Vec.array(np.array([-2, 1]), 2)).num.tolist()
    [2, 1]
    """
    return Vec(abs(a.num) if a.is_const else np.abs(a.num), a.den, a.mag)


def _whole(a: Vec) -> Any:
    if a.den != 1:
        raise Unsupported("a bitwise operation on a fraction")
    return a.num


def bitwise(op: str, a: Vec, b: Vec) -> Vec:
    """a & b, a | b or xor(a, b) on integers (two's complement, as in Python).

    >>> bitwise("xor", Vec.array(np.array([5, 6]), 6), Vec.const(3)).num.tolist()
    [6, 5]
    """
    x, y = _whole(a), _whole(b)
    mag = _guard(1 << max(a.mag, b.mag).bit_length())
    if op == "and":
        return _make(x & y, 1, mag)
    if op == "or":
        return _make(x | y, 1, mag)
    return _make(x ^ y, 1, mag)


def shift(a: Vec, b: Vec, left: bool) -> Vec:
    """a << b or a >> b, b a non-negative constant (>> is floor division by a power of two).

    >>> shift(Vec.array(np.array([-5, 5]), 5), Vec.const(1), left=False).num.tolist()
    [-3, 2]
    """
    x = _whole(a)
    c = b.fraction()
    if c.denominator != 1 or c < 0 or c > 62:
        raise Unsupported("a shift by a count that is not a small non-negative integer")
    count = int(c)
    if left:
        return _make(x << count, 1, _guard(a.mag << count))
    return _make(x >> count, 1, (a.mag >> count) + 1)


def power(a: Vec, b: Vec) -> Vec:
    """a ** b for a constant integer exponent 0 <= b <= 62 (by repeated products, each one guarded).

    >>> power(Vec.array(np.array([2, -3]), 3), Vec.const(3)).num.tolist()
    [8, -27]
    """
    e = b.fraction()
    if e.denominator != 1 or not 0 <= e <= 62:
        raise Unsupported("a power with an exponent that is not a small non-negative integer")
    out = Vec.const(1)
    for _ in range(int(e)):
        out = mul(out, a)
    return out
