"""The Josephus functions of the spec language (survivor, removal_index, removed, JJ, F): argument checks,
a cost estimate refused before it is spent, then the algorithms of :mod:`nimjos.josephus.algorithms`.

>>> survivor(41, 3), JJ(3, 7, 3)
(31, 6)
"""
from __future__ import annotations

from types import ModuleType
from typing import Any

from nimjos.lang.builtins import int_arg
from nimjos.lang.errors import EvalError, ResourceError
from nimjos.lang.lazy import import_on_use


def _algorithms() -> ModuleType:
    """:mod:`nimjos.josephus.algorithms` (numpy, the kernels), imported at the first evaluation, not to read a spec."""
    return import_on_use("nimjos.josephus.algorithms")


def _pos(name: str, v: Any, least: int = 1) -> int:
    v = int_arg(name, v)
    if v < least:
        raise EvalError(f"{name} needs an integer >= {least}, got {v}")
    return v


#: the most circle runs one Josephus evaluation may take (about k log n of them; compiled code cannot be
#: interrupted by a time limit, so the cost is refused before it is spent)
MAX_JOSEPHUS_STEPS = 10**8


def _josephus_cost(name: str, n: int, k: int) -> None:
    """Refuse a Josephus evaluation whose estimated number of runs is over MAX_JOSEPHUS_STEPS.

    >>> _josephus_cost("survivor", 10**18, 10**18)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.ResourceError: survivor(n, k) with n = 1000000000000000000, k = 1000000000000000000 needs about 1,000,000,000,000,000,000 runs of the circle (limit 100,000,000)
    """
    if n > _algorithms().CACHE_MAX_N:
        steps = _algorithms()._steps(1, n, k)
        if steps > MAX_JOSEPHUS_STEPS:
            raise ResourceError(f"{name}(n, k) with n = {n}, k = {k} needs about {steps:,} runs of the circle "
                                f"(limit {MAX_JOSEPHUS_STEPS:,})")


def survivor(n: Any, k: Any) -> int:
    """The number left when 1, 2, ..., n stand in a circle and every k-th is removed until one remains.
    Counting starts at 1, so the first number removed is k (mod n). n >= 0, k >= 1; the empty circle's
    survivor is 0 (the convention of OEIS A006257, a(0) = 0).

    >>> survivor(7, 3), survivor(0, 2)
    (4, 0)
    """
    n, k = _pos("survivor", n, least=0), _pos("survivor", k)
    _josephus_cost("survivor", n, k)
    return int(_algorithms().survivor(n, k))


def removal_index(n: Any, k: Any, m: Any) -> int:
    """i when m is the i-th number removed (1 <= i <= n - 1) from the circle 1..n, every k-th removed;
    n when m is the survivor. 1 <= m <= n.

    >>> removal_index(7, 3, 3), removal_index(7, 3, 4)
    (1, 7)
    """
    n, k, m = _pos("removal_index", n), _pos("removal_index", k), _pos("removal_index", m)
    if m > n:
        raise EvalError(f"removal_index needs 1 <= m <= n, got m = {m}, n = {n}")
    _josephus_cost("removal_index", n, k)
    return int(_algorithms().removal_index(n, k, m))


def removed(n: Any, k: Any, i: Any) -> int:
    """The i-th number removed from the circle 1..n, every k-th removed (1 <= i <= n - 1);
    removed(n, k, n) is the survivor.

    >>> removed(7, 3, 1), removed(7, 3, 7)
    (3, 4)
    """
    n, k, i = _pos("removed", n), _pos("removed", k), _pos("removed", i)
    if i > n:
        raise EvalError(f"removed needs 1 <= i <= n, got i = {i}, n = {n}")
    _josephus_cost("removed", n, k)
    return int(_algorithms().removed(n, k, i))


def JJ(k: Any, n: Any, m: Any) -> int:
    """JJ_k(n, m) of 001 Definition 2.4: n - i when m is the i-th number removed (1 <= i <= n - 1),
    0 when m is the survivor; numbers 1..n in a circle, every k-th removed. 1 <= m <= n.

    >>> JJ(3, 7, 3), JJ(3, 7, 4)
    (6, 0)
    """
    return _pos("JJ", n) - removal_index(n, k, m)


def F(s: Any, v: Any) -> int:
    """F_s(v) of 002 Definition 2.1: e_{v - s}, where e_1, e_2, ... are the numbers removed from the circle
    1..v with every second number removed (e_1 = 2) and e_v is the survivor; 0 <= s <= v - 1.

    >>> F(0, 5), F(1, 5)
    (3, 5)
    """
    s, v = int_arg("F", s), _pos("F", v)
    if not 0 <= s <= v - 1:
        raise EvalError(f"F_s(v) needs 0 <= s <= v - 1, got s = {s}, v = {v}")
    return removed(v, 2, v - s)


#: the Josephus functions as names of the expression language
JOSEPHUS_FUNCTIONS = {"survivor": survivor, "removal_index": removal_index, "removed": removed, "JJ": JJ, "F": F}
