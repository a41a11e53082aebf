"""Positions of any number of heaps: every multiset of n heap sizes, each once, and how many there are.

A claim "for every n and all heaps h_1, ..., h_n" binds the number of heaps and the position as a sorted tuple:
``for_all = "1 <= n <= 6 and h in multisets(n, 0, 15)"``. The order of the heaps does not matter in a sum of
games (nor in Moore's Nim), so each multiset is enumerated once: C(n + 15, n) positions, not 16^n tuples.

>>> multisets(2, 0, 2)
((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))
>>> count_multisets(6, 0, 15), len(multisets(6, 0, 15))
(54264, 54264)
"""
from __future__ import annotations

import math
from itertools import combinations_with_replacement
from typing import Any

from nimjos.lang.errors import EvalError, ResourceError

#: the most positions one call may list (the resource guard counts them first)
MAX_POSITIONS = 5_000_000


def _int(name: str, v: Any) -> int:
    if type(v) is not int:
        raise EvalError(f"multisets: {name} must be an integer, got {v!r}")
    return v


def count_multisets(n: Any, lo: Any, hi: Any) -> int:
    """How many multisets of n integers in lo..hi there are: C(n + hi - lo, n) (0 when n < 0 or hi < lo).

    >>> count_multisets(3, 0, 7), count_multisets(0, 0, 7), count_multisets(2, 5, 4)
    (120, 1, 0)
    """
    n, lo, hi = _int("n", n), _int("lo", lo), _int("hi", hi)
    if n < 0 or hi < lo:
        return 0
    return math.comb(n + hi - lo, n)


def multisets(n: Any, lo: Any, hi: Any) -> tuple:
    """Every multiset of n integers in lo..hi, each once, as a sorted tuple (the positions of n heaps of lo..hi
    tokens), in lexicographic order; over :data:`MAX_POSITIONS` of them is refused.

    >>> multisets(1, 3, 5), multisets(0, 0, 9)
    (((3,), (4,), (5,)), ((),))
    >>> multisets(9, 0, 40)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.ResourceError: multisets(9, 0, 40) has 2,054,455,634 members (limit 5,000,000)
    """
    size = count_multisets(n, lo, hi)
    if size > MAX_POSITIONS:
        raise ResourceError(f"multisets({n}, {lo}, {hi}) has {size:,} members (limit {MAX_POSITIONS:,})")
    if size == 0:
        return ()
    return tuple(combinations_with_replacement(range(lo, hi + 1), n))
