"""The Josephus functions of the language on arrays, for the vectorised window (:mod:`nimjos.lang.vector`): one
table per distinct k (or s) from the Josephus algorithms, then looked up; arguments the scalar function refuses
make the window fall back to the scalar path.

>>> import numpy as np
>>> survivor_array(np.array([1, 2, 41]), np.array([3, 3, 3])).tolist()
[1, 2, 31]
>>> f_array(np.array([0, 1, 4]), np.array([5, 5, 5])).tolist()
[3, 5, 2]
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from nimjos.josephus.algorithms import jj_table, survivor_table
from nimjos.josephus.functions import JOSEPHUS_FUNCTIONS
from nimjos.lang.vector import NotVectorisable

#: the largest table one call may build (entries)
MAX_TABLE = 5_000_000
#: F tables kept for the next call (by s), at most MAX_TABLE entries in all: a pure cache of a deterministic function
#: (whether a table is too large depends on the window, never on what is cached), so it stays per process
_F_TABLES: dict[int, np.ndarray] = {}


def _pair(a: Any, b: Any) -> tuple[np.ndarray, np.ndarray]:
    n = max(len(x) if isinstance(x, np.ndarray) else 1 for x in (a, b))
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray) and len(a) != len(b):
        raise NotVectorisable("arrays of different lengths")
    out = []
    for x in (a, b):
        if isinstance(x, np.ndarray) and x.dtype == np.int64:
            out.append(x)
        elif type(x) is int:
            out.append(np.full(n, x, dtype=np.int64))
        else:
            raise NotVectorisable("a Josephus function of something other than integers")
    return out[0], out[1]


def survivor_array(n: Any, k: Any) -> np.ndarray:
    """survivor(n, k) at every index: one survivor table per distinct k (n >= 1, k >= 1; survivor(0, k) = 0).

    >>> survivor_array(np.array([0, 5, 10]), 2).tolist()
    [0, 3, 5]
    """
    n, k = _pair(n, k)
    out = np.zeros(len(n), dtype=np.int64)
    if len(n) == 0:
        return out
    if int(n.min()) < 0 or int(k.min()) < 1:
        raise NotVectorisable("survivor outside n >= 0, k >= 1")
    for kv in np.unique(k):
        idx = np.nonzero(k == kv)[0]
        top = int(n[idx].max())
        if top > MAX_TABLE:
            raise NotVectorisable("a survivor table too large")
        out[idx] = survivor_table(top, int(kv))[n[idx]]
    return out


def f_table(s: int, top: int) -> np.ndarray:
    """F_s(v) for v = 0..top (index v; entries v <= s are -1, undefined), every second number removed.

    The circle 1..v loses 2 first; the rest, 3, 4, ..., v, 1, is the circle of v - 1 numbers renumbered, so
    e_i(v) = (e_{i-1}(v - 1) + 1) mod v + 1, and F_s(v) = e_{v-s}(v) comes from F_s(v - 1); F_s(s + 1) = e_1(s + 1),
    which is 2, or 1 when the circle has one number.

    >>> f_table(1, 6).tolist()
    [-1, -1, 2, 1, 3, 5, 1]
    """
    table = np.full(top + 1, -1, dtype=np.int64)
    if top < s + 1:
        return table
    value = 2 if s + 1 >= 2 else 1
    table[s + 1] = value
    for v in range(s + 2, top + 1):
        value = (value + 1) % v + 1
        table[v] = value
    return table


def _f_cached(s: int, top: int) -> np.ndarray:
    table = _F_TABLES.get(s)
    if table is None or len(table) <= top:
        if sum(len(t) for t in _F_TABLES.values()) + top > MAX_TABLE:
            _F_TABLES.clear()
        table = _F_TABLES[s] = f_table(s, top)
    return table


def f_array(s: Any, v: Any) -> np.ndarray:
    """F(s, v) of 002 Definition 2.1 at every index (0 <= s <= v - 1), one table per distinct s.

    >>> f_array(np.array([0, 0, 2]), np.array([5, 6, 6])).tolist()
    [3, 5, 3]
    """
    s, v = _pair(s, v)
    out = np.zeros(len(s), dtype=np.int64)
    if len(s) == 0:
        return out
    if int(s.min()) < 0 or bool(np.any(s > v - 1)):
        raise NotVectorisable("F_s(v) outside 0 <= s <= v - 1")
    for sv in np.unique(s):
        idx = np.nonzero(s == sv)[0]
        top = int(v[idx].max())
        if top > MAX_TABLE:
            raise NotVectorisable("an F table too large")
        out[idx] = _f_cached(int(sv), top)[v[idx]]
    return out


#: the largest circle of a JJ table (the table has (N + 1)^2 entries)
MAX_JJ_N = 2000


def jj_array(k: Any, n: Any, m: Any) -> np.ndarray:
    """JJ(k, n, m) of 001 Definition 2.4 at every index (k >= 1, 1 <= m <= n), one table per distinct k.

    >>> jj_array(3, np.array([7, 7]), np.array([3, 4])).tolist()
    [6, 0]
    """
    k, n = _pair(k, n)
    _, m = _pair(k, m)
    out = np.zeros(len(k), dtype=np.int64)
    if len(k) == 0:
        return out
    if int(k.min()) < 1 or int(m.min()) < 1 or bool(np.any(m > n)) or int(n.max()) > MAX_JJ_N:
        raise NotVectorisable("JJ outside k >= 1, 1 <= m <= n, or a circle too large for a table")
    for kv in np.unique(k):
        idx = np.nonzero(k == kv)[0]
        out[idx] = jj_table(int(n[idx].max()), int(kv))[n[idx], m[idx]]
    return out


#: the array versions, keyed by the id of the scalar function the spec language names
ARRAY_FUNCTIONS: dict[int, Callable] = {id(JOSEPHUS_FUNCTIONS["survivor"]): survivor_array,
                                        id(JOSEPHUS_FUNCTIONS["F"]): f_array,
                                        id(JOSEPHUS_FUNCTIONS["JJ"]): jj_array}
