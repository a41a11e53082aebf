"""The Josephus problem: ground truth for the survivor, the elimination order and JJ.

The numbers 1..n stand in a circle; counting starts at 1 and every k-th number is removed
(so k is removed first when k <= n) until one number, the survivor, is left.

Every function here is derived from the circle itself, never from a formula in a paper under
test, and is cross-checked against :func:`simulate_circle` in the tests.

Two recurrences, both read off the circle, carry everything:

* removing the first number (``((k - 1) mod n) + 1``) and renumbering the rest from the number after it
  gives ``removed(n, k, i) = ((removed(n - 1, k, i - 1) + k - 1) mod n) + 1``; between wraps of the
  modulus the value just rises by k, so whole runs are taken at once (O(k log n) steps for any n);
* read backwards, the same renumbering gives the removal index of a number.

>>> simulate_circle(7, 3)
[3, 6, 2, 7, 5, 1, 4]
>>> survivor(7, 3), removed(7, 3, 2), removal_index(7, 3, 4), JJ(3, 7, 6)
(4, 6, 7, 5)
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from numbers import Integral

import numpy as np

#: removal_index / removed answer from a cached inverse permutation for n up to this size
CACHE_MAX_N = 1 << 14

#: refuse a jj_table larger than this many bytes (it is quadratic in N)
JJ_TABLE_MAX_BYTES = 1 << 31


def _as_int(value, name: str, low: int | None = None) -> int:
    """Return ``value`` as a Python int, refusing non-integers and values below ``low``.

    >>> _as_int(Fraction(6, 2), "n", 1)
    3
    >>> _as_int(0, "n", 1)
    Traceback (most recent call last):
    ...
    ValueError: n must be an integer >= 1, got 0
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    if isinstance(value, Fraction) and value.denominator == 1:
        value = value.numerator
    if not isinstance(value, Integral):
        raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if low is not None and value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value}")
    return value


def _check_nk(n, k) -> tuple[int, int]:
    """Validate a circle of n >= 1 numbers and a step k >= 1.

    >>> _check_nk(5, 2)
    (5, 2)
    """
    return _as_int(n, "n", 1), _as_int(k, "k", 1)


def simulate_circle(n, k) -> list[int]:
    """The elimination order of 1..n, every k-th removed, by plain simulation of the circle.

    The last element is the survivor. This is the slow reference every other function is tested against.

    >>> simulate_circle(5, 2)
    [2, 4, 1, 5, 3]
    >>> simulate_circle(1, 4)
    [1]
    """
    n, k = _check_nk(n, k)
    circle = list(range(1, n + 1))
    order = []
    at = 0
    while circle:
        at = (at + k - 1) % len(circle)
        order.append(circle.pop(at))
    return order


def removed(n, k, i) -> int:
    """The i-th number removed from the circle 1..n, every k-th removed; ``removed(n, k, n)`` is the survivor.

    Works for huge n in O(k log n) arithmetic steps (runs without a wrap are taken in one step).

    >>> [removed(5, 2, i) for i in range(1, 6)]
    [2, 4, 1, 5, 3]
    >>> removed(10**30, 2, 1)
    2
    """
    n, k = _check_nk(n, k)
    i = _as_int(i, "i")
    if not 1 <= i <= n:
        raise ValueError(f"i must satisfy 1 <= i <= n = {n}, got {i}")
    if n <= CACHE_MAX_N:
        return int(_cached_order(n, k)[0][i - 1])
    return _removed_by_runs(n, k, i)


def _removed_by_runs(n: int, k: int, i: int) -> int:
    """``removed(n, k, i)`` by the forward recurrence, taking each run between wraps in one step.

    x is the i-th removed of a circle of size m - 1, starting from x = 0 before the first removal:
    the next circle (size m) gives ``((x + k - 1) mod m) + 1``, which is just ``x + k`` while
    ``x + k <= m``.

    >>> [_removed_by_runs(7, 3, i) for i in range(1, 8)]
    [3, 6, 2, 7, 5, 1, 4]
    """
    if k == 1:
        return i
    x, m, left = 0, n - i + 1, i
    while left:
        run = min((m - 1 - x) // (k - 1), left)
        if run > 0:
            x += run * k
            m += run
            left -= run
        else:
            x = (x + k - 1) % m + 1
            m += 1
            left -= 1
    return x


def survivor(n, k) -> int:
    """The number left when 1..n stand in a circle and every k-th is removed.

    O(k log n) arithmetic steps, so n may be huge.

    >>> survivor(41, 3), survivor(1, 7), survivor(10, 1)
    (31, 1, 10)
    >>> survivor(10**30, 2) == 2 * (10**30 - 2**99) + 1
    True
    """
    n, k = _check_nk(n, k)
    return _removed_by_runs(n, k, n)


def removal_index(n, k, m) -> int:
    """i when m is the i-th number removed from 1..n (1 <= i <= n - 1); n when m is the survivor.

    O(1) after the first call for the same (n, k) when n <= CACHE_MAX_N, else O(k log n).

    >>> [removal_index(5, 2, m) for m in range(1, 6)]
    [3, 1, 5, 2, 4]
    >>> removal_index(10**30, 2, 2)
    1
    """
    n, k = _check_nk(n, k)
    m = _as_int(m, "m")
    if not 1 <= m <= n:
        raise ValueError(f"m must satisfy 1 <= m <= n = {n}, got {m}")
    if n <= CACHE_MAX_N:
        return int(_cached_order(n, k)[1][m - 1])
    return _removal_index_by_laps(n, k, m)


def _removal_index_by_laps(n: int, k: int, m: int) -> int:
    """``removal_index(n, k, m)`` by the backward recurrence, one lap of the circle per step.

    In a circle of size s the first removed is ``k1 = ((k - 1) mod s) + 1``; any other m is
    renumbered ``((m - k1 - 1) mod s) + 1`` in the circle of size s - 1 that starts after k1.
    While s >= k and m > k that is just m - k, so a whole lap is one step.

    >>> [_removal_index_by_laps(7, 3, m) for m in range(1, 8)]
    [6, 3, 1, 7, 5, 2, 4]
    """
    size, index = n, 0
    while size >= k:
        laps = min((m - 1) // k, size - k + 1)
        m -= laps * k
        size -= laps
        index += laps
        if size < k:
            break
        if m == k:
            return index + 1
        m += size - k
        size -= 1
        index += 1
    while True:
        first = (k - 1) % size + 1
        if m == first:
            return index + 1
        m = (m - first - 1) % size + 1
        size -= 1
        index += 1


def JJ(k, n, m) -> int:
    """001 Definition 2.4: n - i when m is the i-th number removed, 0 when m is the survivor.

    >>> [JJ(2, 5, m) for m in range(1, 6)]
    [2, 4, 0, 3, 1]
    """
    n, k = _check_nk(n, k)
    return n - removal_index(n, k, m)


def F(s, v) -> int:
    """002 Definition 2.1: F_s(v) = e_{v - s}, the (v - s)-th number removed from 1..v with k = 2.

    Defined for v >= 1 and 0 <= s <= v - 1; F_0(v) is the survivor.

    >>> F(0, 5), F(1, 5), F(4, 5)
    (3, 5, 2)
    """
    v = _as_int(v, "v", 1)
    s = _as_int(s, "s")
    if not 0 <= s <= v - 1:
        raise ValueError(f"F_s(v) needs 0 <= s <= v - 1, got s = {s}, v = {v}")
    return removed(v, 2, v - s)


def _fenwick_order(n: int, k: int) -> np.ndarray:
    """The elimination order by a Fenwick tree over the remaining numbers: O(n log n).

    >>> _fenwick_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    tree = [0] * (n + 1)
    for j in range(1, n + 1):
        tree[j] = j & -j
    top = 1 << (n.bit_length() - 1)
    order = np.empty(n, dtype=np.int64)
    at = 0
    for left in range(n, 0, -1):
        at = (at + k - 1) % left
        rank, pos, step = at + 1, 0, top
        while step:
            nxt = pos + step
            if nxt <= n and tree[nxt] < rank:
                pos = nxt
                rank -= tree[nxt]
            step >>= 1
        number = pos + 1
        order[n - left] = number
        j = number
        while j <= n:
            tree[j] -= 1
            j += j & -j
    return order


def elimination_order(n, k) -> np.ndarray:
    """The numbers 1..n in the order they are removed, every k-th; the last is the survivor.

    Returns a new int64 array of length n, computed in O(n log n).

    >>> elimination_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    n, k = _check_nk(n, k)
    if n <= CACHE_MAX_N:
        return _cached_order(n, k)[0].copy()
    return _fenwick_order(n, k)


@lru_cache(maxsize=64)
def _cached_order(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, index) for a small circle, read-only: ``index[m - 1]`` is the removal index of m.

    >>> order, index = _cached_order(5, 2)
    >>> order.tolist(), index.tolist()
    ([2, 4, 1, 5, 3], [3, 1, 5, 2, 4])
    """
    order = _fenwick_order(n, k)
    index = np.empty(n, dtype=np.int64)
    index[order - 1] = np.arange(1, n + 1, dtype=np.int64)
    order.setflags(write=False)
    index.setflags(write=False)
    return order, index


def survivor_table(N, k) -> np.ndarray:
    """int64 array of length N + 1: index n holds survivor(n, k), index 0 holds 0.

    O(N): between wraps the survivor rises by k, and each run is filled in one step.

    >>> survivor_table(8, 2).tolist()
    [0, 1, 1, 3, 1, 3, 5, 7, 1]
    """
    N = _as_int(N, "N", 0)
    k = _as_int(k, "k", 1)
    table = np.zeros(N + 1, dtype=np.int64)
    if N == 0:
        return table
    x, m = 0, 1
    while m <= N:
        run = (m - 1 - x) // (k - 1) if k > 1 else N
        if run > 0:
            run = min(run, N - m + 1)
            table[m:m + run] = x + k * np.arange(1, run + 1, dtype=np.int64)
            x += run * k
            m += run
        else:
            x = (x + k - 1) % m + 1
            table[m] = x
            m += 1
    return table


def jj_table(N, k) -> np.ndarray:
    """2-D int64 array J with ``J[n, m] = JJ(k, n, m)`` for 1 <= m <= n <= N; -1 elsewhere.

    Row n is row n - 1 renumbered (the circle after its first removal), so the table costs O(N^2).

    >>> jj_table(4, 2).tolist()
    [[-1, -1, -1, -1, -1], [-1, 0, -1, -1, -1], [-1, 0, 1, -1, -1], [-1, 1, 2, 0, -1], [-1, 0, 3, 1, 2]]
    """
    N = _as_int(N, "N", 0)
    k = _as_int(k, "k", 1)
    if (N + 1) ** 2 * 8 > JJ_TABLE_MAX_BYTES:
        raise ValueError(f"jj_table({N}, {k}) would need {(N + 1) ** 2 * 8} bytes, over the limit "
                         f"of {JJ_TABLE_MAX_BYTES}")
    table = np.full((N + 1, N + 1), -1, dtype=np.int64)
    if N == 0:
        return table
    table[1, 1] = 0
    for n in range(2, N + 1):
        first = (k - 1) % n + 1
        previous = table[n - 1]
        row = table[n]
        row[first] = n - 1
        # m = first + j (j >= 1) is number j of the next circle; m < first is number n - first + m
        row[first + 1:n + 1] = previous[1:n - first + 1]
        row[1:first] = previous[n - first + 1:n]
    return table


def _classical_zero_based(n: int, k: int) -> int:
    """001 Example 3.7's ``josephus(n)`` with K = k: the survivor's 0-based position.

    The printed program recurses; this runs the same arithmetic with an explicit stack.

    >>> _classical_zero_based(41, 3)
    30
    """
    stack = []
    while n != 1 and k <= n:
        stack.append(n)
        n -= n // k
    res = 0
    for size in range(2, n + 1):          # the branch `if K > n`: (josephus(n-1) + K) % n
        res = (res + k) % size
    for size in reversed(stack):
        t = size % k
        if res < t:
            res += size - t
        else:
            res -= t
            res += res // (k - 1)
    return res


def _check_paper_k(n, k) -> tuple[int, int]:
    """The printed programs divide by k - 1, so they need k >= 2.

    >>> _check_paper_k(3, 1)
    Traceback (most recent call last):
    ...
    ValueError: the programs of 001 Examples 3.7 and 3.8 divide by k - 1 and need k >= 2, got k = 1
    """
    n, k = _check_nk(n, k)
    if k < 2:
        raise ValueError(f"the programs of 001 Examples 3.7 and 3.8 divide by k - 1 and need k >= 2, got k = {k}")
    return n, k


def paper_classical(n, k) -> int:
    """The survivor by 001 Example 3.7 (the classical recursion), 1-based.

    The printed program stores the 0-based position ``josephus(n)``; this returns it plus 1.

    >>> paper_classical(41, 3), paper_classical(11, 2)
    (31, 7)
    """
    n, k = _check_paper_k(n, k)
    return _classical_zero_based(n, k) + 1


def paper_theorem36(n, k) -> int:
    """The survivor by 001 Example 3.8 (the Theorem 3.6 iteration): ``n*k - calc(n)``.

    ``calc(x)`` iterates ``h(r) = r + r // (k - 1) + 1`` from 0 until ``r >= (k - 1) * x``.

    >>> paper_theorem36(41, 3), paper_theorem36(11, 2)
    (31, 7)
    """
    n, k = _check_paper_k(n, k)
    r, limit = 0, (k - 1) * n
    while r < limit:
        r = r + r // (k - 1) + 1
    return n * k - r
