"""The integer fast paths of ``/`` and ``**`` (nimjos/lang/operators.py) give what exact rational arithmetic gives:
the same value and type (an int when whole, else a Fraction), and the same refusals."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nimjos.lang.errors import EvalError, ResourceError
from nimjos.lang.operators import _div, _pow
from nimjos.lang.runtime import MAX_BITS

ints = st.one_of(st.integers(-50, 50), st.integers(-(10 ** 30), 10 ** 30))


def _exact(q: Fraction) -> object:
    return q.numerator if q.denominator == 1 else q


@settings(max_examples=300, deadline=None)
@given(ints, ints)
def test_integer_division_is_the_exact_quotient(a: int, b: int) -> None:
    if b == 0:
        with pytest.raises(EvalError):
            _div(a, b)
        return
    got = _div(a, b)
    want = _exact(Fraction(a, b))
    assert got == want and type(got) is type(want)


@settings(max_examples=300, deadline=None)
@given(st.integers(-40, 40), st.integers(-12, 12))
def test_integer_powers_are_exact(a: int, b: int) -> None:
    if a == 0 and b < 0:
        with pytest.raises(EvalError):
            _pow(a, b)
        return
    got = _pow(a, b)
    want = _exact(Fraction(a) ** b)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize("a, b", [(2, MAX_BITS + 1), (3, MAX_BITS), (-2, MAX_BITS + 1), (2, -(MAX_BITS + 1)),
                                  (Fraction(1, 2), MAX_BITS + 1)])
def test_powers_over_the_size_limit_are_refused(a: object, b: int) -> None:
    with pytest.raises(ResourceError):
        _pow(a, b)


@pytest.mark.parametrize("a, b", [(2, MAX_BITS // 2 - 1), (1, 10 ** 30), (-1, 10 ** 30 + 1), (0, 10 ** 30), (7, 1)])
def test_powers_within_the_limit_are_computed(a: int, b: int) -> None:
    assert _pow(a, b) == a ** b


def test_a_bool_and_a_fraction_keep_their_exact_meaning() -> None:
    assert _pow(True, 3) == 1 and _div(True, 2) == Fraction(1, 2)
    assert _pow(Fraction(2, 3), 2) == Fraction(4, 9) and _pow(Fraction(4, 2), 2) == 4
    assert _div(Fraction(1, 2), Fraction(1, 4)) == 2 and type(_div(Fraction(1, 2), Fraction(1, 4))) is int
