"""The Josephus problem from Python (numbers 1..n in a circle, every k-th removed, counting from 1): :func:`josephus_values`,
which ``nimjos josephus`` prints.

>>> josephus_values("survivor", 3, 41)
31
"""
from __future__ import annotations

from typing import Any

import nimjos.josephus.algorithms as algorithms
from nimjos.lang.errors import ResourceError, SpecError

__all__ = ["josephus_values"]


def josephus_values(what: str, k: int, n: int) -> Any:
    """``what`` = "survivor": the number left of 1..n when every k-th is removed (an int; n may be huge), "table":
    the survivors of every n' <= n (an int64 array, index 0 holds 0), "order": the numbers in the order they are
    removed (an int64 array, the last is the survivor).

    >>> josephus_values("survivor", 2, 10**30) == 2 * (10**30 - 2**99) + 1
    True
    >>> josephus_values("table", 2, 8).tolist(), josephus_values("order", 3, 7).tolist()
    ([0, 1, 1, 3, 1, 3, 5, 7, 1], [3, 6, 2, 7, 5, 1, 4])
    """
    if what not in ("survivor", "table", "order"):
        raise SpecError(f"what is 'survivor', 'table' or 'order', got {what!r}")
    try:
        if what == "survivor":
            return algorithms.survivor(n, k)
        if what == "table":
            return algorithms.survivor_table(n, k)
        return algorithms.elimination_order(n, k)
    except ValueError as exc:   # the size guard of nimjos.josephus.algorithms
        raise ResourceError(str(exc)) from None
