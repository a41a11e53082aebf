"""Beatty terms written with integer square roots, for the Walnut translation: ``isqrt(c * t * t)`` (any arrangement
of the constant factors and of the two equal factors t, ``t ** 2`` too) is floor(|t| sqrt c), exactly, for a
constant c >= 0 and an integer t. With c = m^2 r, r squarefree, it is floor(m |t| sqrt r): m |t| when r = 1 (a
perfect square: linear), and otherwise a Beatty sequence, synchronized in the Ostrowski numeration of sqrt r. The
backend has two of those numerations, each with its automaton checked in every run that uses it
(:data:`checkers.prove.walnut.logic.BEATTY_CHECKS`): Pell for r = 2 (floor(n sqrt 2) = sqrt2n(n)) and Fibonacci for
r = 5 (floor(n sqrt 5) = floor(2n phi) - n = phin(2n) - n, as 2 phi = 1 + sqrt 5). So Wythoff's
``(d + isqrt(5 * d * d)) // 2`` = floor(d phi) and a-Wythoff's ``((2 - a) n + isqrt((a^2 + 4) n^2)) // 2`` =
floor(n (2 - a + sqrt(a^2 + 4)) / 2) translate for a = 1, 2, 4, 11, ... (a^2 + 4 = m^2 times 5 or 2), the rest of
the term by the translation's own arithmetic.

>>> from nimjos.lang.syntax import parse
>>> c, t = square_form(parse("5 * (x - y) ** 2"), lambda n: n.value if isinstance(n, ast.Constant) else None)
>>> c, ast.unparse(t)
(5, 'x - y')
>>> split_square(20), split_square(49), split_square(12)
((2, 5), (7, 1), (2, 3))
>>> ROOT_TERMS[5]
('phin', 'fib', 2, 1)
"""
from __future__ import annotations

import ast
import math
from typing import Any, Callable

#: floor(n sqrt r) for each squarefree r the backend has a numeration of: (automaton A(n, s), numeration, k, j) with
#: floor(n sqrt r) = A(k n) - j n
ROOT_TERMS: dict[int, tuple[str, str, int, int]] = {2: ("sqrt2n", "pell", 1, 0), 5: ("phin", "fib", 2, 1)}

#: a constant factor of more bits than this is not a Beatty term's (no automaton that large is built)
MAX_BITS = 64
#: the largest c whose square part :func:`split_square` finds (c = m^2 r translates only with m <= MAX_FACTOR and r
#: one of :data:`ROOT_TERMS`: c <= 5 * 10^8)
MAX_C = 2 ** 40


def square_form(node: ast.AST, const: Callable[[ast.AST], Any]) -> tuple[int, ast.AST] | None:
    """(c, t) when the expression is the product c * t * t of integer constants (what `const` gives a value, None for
    a symbolic node) and two structurally equal symbolic factors t (``t * t``, ``t ** 2``, ``(2 * t) ** 2``, ``-t *
    -t``, in any arrangement), else None. The language has no side effects, so two equal trees have one value.

    >>> from nimjos.lang.syntax import parse
    >>> k = lambda n: n.value if isinstance(n, ast.Constant) else None
    >>> [(c, ast.unparse(t)) for c, t in (square_form(parse(s), k) for s in ("x * 3 * x", "(2 * x) ** 2 * 2", "-x * x"))]
    [(3, 'x'), (8, 'x'), (-1, 'x')]
    >>> square_form(parse("x * y * 2"), k), square_form(parse("x ** 3"), k), square_form(parse("x * x / 2"), k)
    (None, None, None)
    """
    factor = 1
    terms: dict[str, list] = {}

    def walk(n: ast.AST, power: int) -> bool:
        nonlocal factor
        value = const(n)
        if value is not None:
            if type(value) is bool:
                value = int(value)
            if type(value) is not int or value.bit_length() > MAX_BITS:
                return False
            factor *= value ** power
            return True
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
            return walk(n.left, power) and walk(n.right, power)
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Pow):
            e = const(n.right)
            return type(e) is int and e in (1, 2) and walk(n.left, power * e)
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            factor *= (-1 if isinstance(n.op, ast.USub) else 1) ** power
            return walk(n.operand, power)
        key = ast.dump(n)
        terms.setdefault(key, [n, 0])[1] += power
        return True

    if not walk(node, 1) or len(terms) != 1:
        return None
    (t, power), = terms.values()
    return (factor, t) if power == 2 else None


def split_square(c: int) -> tuple[int, int]:
    """(m, r) with c = m^2 r and r squarefree, for 1 <= c <= :data:`MAX_C`: trial division by the primes up to the
    cube root of what is left, which then has at most two prime factors (1, q, q q', or q^2).

    >>> split_square(1), split_square(8), split_square(45), split_square(2 * 101 ** 2), split_square(2 ** 37 * 3)
    ((1, 1), (2, 2), (3, 5), (101, 2), (262144, 6))
    """
    if not 1 <= c <= MAX_C:
        raise ValueError(f"split_square needs 1 <= c <= 2**40, not {c}")
    m, r, rest, p = 1, 1, c, 2
    while p * p * p <= rest:
        e = 0
        while rest % p == 0:
            rest //= p
            e += 1
        m, r = m * p ** (e // 2), r * p ** (e % 2)
        p += 1
    s = math.isqrt(rest)
    return (m * s, r) if s * s == rest else (m, r * rest)


