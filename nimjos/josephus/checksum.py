"""One checksum for a table of integers, the same in nimjos, the benchmarks' C programs and any other program.

The sum of ``(v(i) + 1) * (i * K + 1)`` modulo 2^64 over the table's places i, K = 0x9E3779B97F4A7C15: every value is
weighted by its place, so a value moved, dropped or changed changes the sum (short of a collision). It is taken piece
by piece (:func:`checksum_add`), so a table too large to hold can be summed as it is made.

>>> table_checksum([0, 1, 0])
'78dde6e5fd29f058'
>>> total = checksum_add(0, 0, [0, 1]); checksum_text(checksum_add(total, 2, [0]))
'78dde6e5fd29f058'
"""
from __future__ import annotations

import numpy as np

#: the multiplier of the place in each value's weight (2^64 divided by the golden ratio, odd)
WEIGHT = 0x9E3779B97F4A7C15

#: the sum is taken this many values at a time (bounded temporary arrays)
_STEP = 1 << 18


def checksum_add(total: int, first: int, values) -> int:
    """The running checksum ``total`` with the values of places first, first + 1, ... added (values >= -1).

    Two passes over the values, no temporaries: the sum is K (sum of i v(i)) + (sum of v(i)) + K (sum of i) + count,
    each modulo 2^64 (numpy's unsigned arrays wrap; the place sums are exact Python integers).

    >>> checksum_add(0, 5, [2]) == (3 * (5 * WEIGHT + 1)) % 2**64
    True
    """
    acc = total
    for lo in range(0, len(values), _STEP):
        part = np.asarray(values[lo:lo + _STEP])
        part = part.view(np.uint64) if part.dtype == np.int64 else part.astype(np.uint64)
        places = _places(len(part))
        start, count = first + lo, len(part)
        value_sum = int(part.sum(dtype=np.uint64))
        weighted = int(np.dot(part, places)) + start * value_sum      # sum of (start + j) v(start + j)
        place_sum = count * start + count * (count - 1) // 2
        acc = (acc + WEIGHT * weighted + value_sum + WEIGHT * place_sum + count) % 2**64
    return acc


def _places(count: int) -> np.ndarray:
    """0, 1, ..., count - 1 as uint64 (one array of _STEP places, made once per process and sliced)."""
    global _PLACES
    if _PLACES is None:
        _PLACES = np.arange(_STEP, dtype=np.uint64)
    return _PLACES[:count]


#: a pure cache of 0.._STEP - 1 (the same array for every caller; it cannot change a result)
_PLACES: np.ndarray | None = None


def checksum_text(total: int) -> str:
    """The checksum as the programs print it: 16 hexadecimal digits.

    >>> checksum_text(255)
    '00000000000000ff'
    """
    return f"{total:016x}"


def table_checksum(values) -> str:
    """The checksum of a whole table (place 0 first), as printed.

    >>> table_checksum(np.array([0, 1, 0]))
    '78dde6e5fd29f058'
    """
    return checksum_text(checksum_add(0, 0, values))
