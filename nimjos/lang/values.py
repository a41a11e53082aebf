"""Values of the expression language as text and as JSON, and their smallest-first order.

>>> format_value((1, Fraction(3, 2))), json_value(7), sortable_key(frozenset({2})) < sortable_key(frozenset({1, 3}))
('(1, 3/2)', 7, True)
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any


def json_value(value: Any) -> Any:
    """Render a value for JSON: integers stay integers, everything else becomes a string.

    >>> json_value(3), json_value(Fraction(1, 2)), json_value((0, 2)), json_value(True), json_value(None)
    (3, '1/2', '(0, 2)', 'true', None)
    """
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return format_value(value)


#: an integer of more bits than this is named by its size in text (Python refuses to print one of more than
#: 4,300 digits, and no message needs its digits)
LONG_INT = 4096


def format_value(value: Any) -> str:
    """Human-readable text of a value of the expression language.

    >>> format_value((1, Fraction(3, 2))), format_value(frozenset({3, 1}))
    ('(1, 3/2)', '{1, 3}')
    >>> format_value(-2 ** 20000)
    '-(an integer of 20,001 bits)'

    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if type(value) is int and value.bit_length() > LONG_INT:
        return f"{'-' if value < 0 else ''}(an integer of {abs(value).bit_length():,} bits)"
    if isinstance(value, Fraction) and max(value.numerator.bit_length(), value.denominator.bit_length()) > LONG_INT:
        return f"(a fraction of {value.numerator.bit_length():,} / {value.denominator.bit_length():,} bits)"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, tuple):
        inner = ", ".join(format_value(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, (set, frozenset)):
        try:
            items = sorted(value)
        except TypeError:
            items = sorted(value, key=repr)
        return "{" + ", ".join(format_value(v) for v in items) + "}"
    return str(value)


def sortable_key(v: Any) -> tuple:
    """A key for one bound value: numbers by value, sets by size then elements, tuples elementwise.

    >>> sorted([frozenset({1, 3, 5, 7}), frozenset({1}), frozenset({2})], key=sortable_key)
    [frozenset({1}), frozenset({2}), frozenset({1, 3, 5, 7})]
    """
    if isinstance(v, bool):
        return (0, int(v))
    if isinstance(v, (int, Fraction)):
        return (0, v)
    if isinstance(v, (set, frozenset)):
        return (1, len(v), tuple(sorted(sortable_key(x) for x in v)))
    if isinstance(v, tuple):
        return (2, len(v), tuple(sortable_key(x) for x in v))
    return (3, repr(v))
