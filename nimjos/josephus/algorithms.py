"""The Josephus problem: ground truth for the survivor, the elimination order and JJ.

The numbers 1..n stand in a circle; counting starts at 1 and every k-th number is removed
(so k is removed first when k <= n) until one number, the survivor, is left.

Every function here is derived from the circle itself, never from a formula in a paper under
test, and is cross-checked against :func:`simulate_circle` in the tests. Two recurrences read off
the circle carry everything (see :mod:`nimjos.josephus.kernels`): removing the first number and
renumbering the rest from the number after it, forwards (the i-th number removed, the survivor)
and backwards (the removal index of a number). Between wraps the forward value just rises by k,
so whole runs are taken at once.

Large work goes to the same kernels compiled by numba; numba is imported only then.

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

import nimjos.josephus.kernels as kernels

#: removal_index / removed answer from a cached elimination order for n up to this size
CACHE_MAX_N = 1 << 14

#: estimated runs above which the compiled kernel is used: numba's import and its cached kernel take about 0.7 s
#: per process, the time plain Python takes for about 3.5 million estimated runs (measured at 0.19 us each)
COMPILE_STEPS = 2_000_000

#: the lap sweep (numpy) makes the elimination order when min(n, k) is at most this; else a Fenwick tree
LAPS_MAX_K = 32

#: the survivor table is filled run by run with numpy when it has at most this many runs
TABLE_MAX_RUNS = 100_000

#: refuse to allocate a result larger than this many bytes
MAX_BYTES = 1 << 33

#: compiled kernels use int64: they are used only for values below this bound
_INT64_SAFE = 1 << 62

#: the numpy fill of the survivor table adds a cached ramp of this length to a run at a time
_RAMP = 1 << 16


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


def _check_bytes(nbytes: int, what: str) -> None:
    """Refuse, before allocating, a result over :data:`MAX_BYTES`.

    >>> _check_bytes(MAX_BYTES + 1, "survivor_table(10**10, 2)")
    Traceback (most recent call last):
    ...
    ValueError: survivor_table(10**10, 2) would need 8589934593 bytes, over the limit of 8589934592
    """
    if nbytes > MAX_BYTES:
        raise ValueError(f"{what} would need {nbytes} bytes, over the limit of {MAX_BYTES}")


def _steps(first: int, n: int, k: int) -> int:
    """An upper bound on the runs (or laps) between circles of first and n numbers: about k ln(n / first).

    >>> _steps(1, 10**6, 3)
    63
    """
    return min(n - first + 1, k * ((n // first).bit_length() + 1))


def _forward(first: int, n: int, k: int) -> int:
    """``kernels.forward(first, 0, n, k)``, compiled when the work pays for numba's start-up.

    Compiled kernels use int64, so for n beyond that the compiled kernel carries the recurrence up
    to ``_INT64_SAFE - 1`` numbers and Python integers finish the last runs.

    >>> _forward(1, 41, 3)
    31
    """
    if _steps(first, n, k) <= COMPILE_STEPS or first >= _INT64_SAFE:
        return kernels.forward(first, 0, n, k)
    fast = kernels.compiled(kernels.forward)
    if n < _INT64_SAFE:
        return int(fast(first, 0, n, k))
    x = int(fast(first, 0, _INT64_SAFE - 1, k))
    return kernels.forward(_INT64_SAFE, x, n, k)


def _backward(n: int, k: int, m: int) -> int:
    """``kernels.backward(n, k, m)``, compiled when the work pays and n fits int64.

    >>> _backward(41, 3, 31)
    41
    """
    if _steps(1, n, k) > COMPILE_STEPS and n < _INT64_SAFE:
        return int(kernels.compiled(kernels.backward)(n, k, m))
    return kernels.backward(n, k, m)


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

    O(1) after the first call for the same (n, k) when n <= CACHE_MAX_N; else O(k log n) for any n.

    >>> [removed(5, 2, i) for i in range(1, 6)]
    [2, 4, 1, 5, 3]
    >>> removed(10**30, 2, 1), removed(10**30, 3, 2)
    (2, 6)
    """
    n, k = _check_nk(n, k)
    i = _as_int(i, "i")
    if not 1 <= i <= n:
        raise ValueError(f"i must satisfy 1 <= i <= n = {n}, got {i}")
    if n <= CACHE_MAX_N:
        return int(_cached_order(n, k)[0][i - 1])
    return _forward(n - i + 1, n, k)


def survivor(n, k) -> int:
    """The number left when 1..n stand in a circle and every k-th is removed.

    O(k log n) arithmetic steps, so n may be huge.

    The empty circle (n = 0) has no survivor; by the convention of OEIS A006257 (a(0) = 0) and of
    :func:`survivor_table` (index 0 holds 0), its survivor is 0.

    >>> survivor(41, 3), survivor(1, 7), survivor(10, 1), survivor(0, 2)
    (31, 1, 10, 0)
    >>> survivor(10**30, 2) == 2 * (10**30 - 2**99) + 1
    True
    """
    if _as_int(n, "n", 0) == 0:
        _as_int(k, "k", 1)
        return 0
    n, k = _check_nk(n, k)
    return _forward(1, n, k)


def removal_index(n, k, m) -> int:
    """i when m is the i-th number removed from 1..n (1 <= i <= n - 1); n when m is the survivor.

    O(1) after the first call for the same (n, k) when n <= CACHE_MAX_N; else O(k log n) for any n.

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
    return _backward(n, k, m)


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


def _laps_order(n: int, k: int) -> np.ndarray:
    """The elimination order by sweeping the circle lap by lap with numpy: O(n k) sequential work.

    The count carries over from one lap to the next, so the numbers removed in a lap are every k-th
    from a known offset; laps that remove nothing (fewer than k numbers left) are skipped at once.

    >>> _laps_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    ring = np.arange(1, n + 1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    out = 0
    count = 0                                   # numbers counted since the last removal
    while ring.size:
        size = ring.size
        count += (k - 1 - count) // size * size
        first = k - 1 - count                   # index of the first number removed in this lap
        gone = ring[first::k]
        order[out:out + gone.size] = gone
        out += gone.size
        keep = np.ones(size, dtype=bool)
        keep[first::k] = False
        ring = ring[keep]
        count = (count + size) % k
    return order


def _order(n: int, k: int) -> np.ndarray:
    """The elimination order by the cheapest method for (n, k).

    >>> _order(7, 3).tolist(), _order(7, 100).tolist()
    ([3, 6, 2, 7, 5, 1, 4], [2, 6, 5, 4, 7, 3, 1])
    """
    if min(n, k) <= LAPS_MAX_K:
        return _laps_order(n, k)
    if n <= CACHE_MAX_N:
        return kernels.fenwick_order(n, k)
    return kernels.compiled(kernels.fenwick_order)(n, k)


def elimination_order(n, k) -> np.ndarray:
    """The numbers 1..n in the order they are removed, every k-th; the last is the survivor.

    Returns a new int64 array of length n: O(n k) by laps for small k, O(n log n) by a Fenwick tree.

    >>> elimination_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    n, k = _check_nk(n, k)
    if n <= CACHE_MAX_N:
        return _cached_order(n, k)[0].copy()
    _check_bytes(24 * n, f"elimination_order({n}, {k})")
    return _order(n, k)


# a pure cache of a deterministic function of (n, k), small circles only, no steps counted: it stays per process
@lru_cache(maxsize=32)
def _cached_order(n: int, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(order, index) for a small circle, read-only: ``index[m - 1]`` is the removal index of m.

    >>> order, index = _cached_order(5, 2)
    >>> order.tolist(), index.tolist()
    ([2, 4, 1, 5, 3], [3, 1, 5, 2, 4])
    """
    order = _order(n, k)
    index = np.empty(n, dtype=np.int64)
    index[order - 1] = np.arange(1, n + 1, dtype=np.int64)
    order.setflags(write=False)
    index.setflags(write=False)
    return order, index


def _runs(N: int, k: int):
    """The survivor table of 1..N as runs (n, count, value): survivor(n + j) = value + j k for j < count.

    >>> list(_runs(8, 2))
    [(1, 1, 1), (2, 2, 1), (4, 4, 1), (8, 1, 1)]
    """
    x, m = 0, 1
    while m <= N:
        v = (x + k - 1) % m + 1
        count = N - m + 1 if k == 1 else min(1 + (m - v) // (k - 1), N - m + 1)
        yield m, count, v
        x = v + (count - 1) * k
        m += count


def _estimated_runs(N: int, k: int) -> int:
    """An upper bound on the number of runs of the survivor table: about k + k ln(N / k).

    >>> _estimated_runs(100000001, 5)
    130
    """
    return min(N, k + k * (N // k).bit_length())


def survivor_table(N, k) -> np.ndarray:
    """int64 array of length N + 1: index n holds survivor(n, k), index 0 holds 0.

    O(N) with no division per entry: between wraps the survivor rises by k, so each run is one
    vectorized step (or, for tables with very many runs, one compiled pass).

    >>> survivor_table(8, 2).tolist()
    [0, 1, 1, 3, 1, 3, 5, 7, 1]
    """
    N = _as_int(N, "N", 0)
    k = _as_int(k, "k", 1)
    _check_bytes(8 * (N + 1), f"survivor_table({N}, {k})")
    table = np.empty(N + 1, dtype=np.int64)
    for _ in _survivor_pieces(N, k, table):
        pass
    return table


def survivor_pieces(N, k, size: int = 1 << 18):
    """The survivor table of 0..N in consecutive pieces ``(first, values)``: ``values[i]`` is survivor(first + i, k)
    (survivor(0, k) = 0), the same values as :func:`survivor_table` in the memory of one piece of ``size`` values.

    Every piece is the same buffer, overwritten by the next one: copy what you keep.

    >>> [(first, values.tolist()) for first, values in survivor_pieces(8, 2, size=4)]
    [(0, [0, 1, 1, 3]), (4, [1, 3, 5, 7]), (8, [1])]
    """
    N = _as_int(N, "N", 0)
    k = _as_int(k, "k", 1)
    size = _as_int(size, "size", 1)
    yield from _survivor_pieces(N, k, np.empty(min(size, N + 1), dtype=np.int64))


def _survivor_pieces(N: int, k: int, buffer: np.ndarray):
    """Fill ``buffer`` with the survivors of 0..N one piece of its length after another, yielding (first, piece)."""
    if _estimated_runs(N, k) > TABLE_MAX_RUNS:
        fill = kernels.compiled(kernels.fill_survivors)
        x = 0
        for first in range(0, N + 1, len(buffer)):
            piece = buffer[:min(len(buffer), N + 1 - first)]
            if first == 0:
                piece[0] = 0
                x = fill(piece[1:], 1, x, k)
            else:
                x = fill(piece, first, x, k)
            yield first, piece
        return
    runs = list(_runs(N, k))
    ramp = np.arange(0, min(N + 1, _RAMP) * k, k, dtype=np.int64)
    at = 0                                    # the first run that reaches the current piece
    for first in range(0, N + 1, len(buffer)):
        stop = min(first + len(buffer), N + 1)
        piece = buffer[:stop - first]
        if first == 0:
            piece[0] = 0
        while at < len(runs) and runs[at][0] + runs[at][1] <= first:
            at += 1
        for n, count, value in runs[at:]:
            if n >= stop:
                break
            lo, hi = max(n, first), min(n + count, stop)
            for start in range(lo, hi, _RAMP):
                length = min(_RAMP, hi - start)
                np.add(ramp[:length], value + (start - n) * k, out=piece[start - first:start - first + length])
        yield first, piece


def jj_table(N, k) -> np.ndarray:
    """2-D int64 array J with ``J[n, m] = JJ(k, n, m)`` for 1 <= m <= n <= N; -1 elsewhere.

    Row n is row n - 1 renumbered (the circle after its first removal), so the table costs O(N^2).

    >>> jj_table(4, 2).tolist()
    [[-1, -1, -1, -1, -1], [-1, 0, -1, -1, -1], [-1, 0, 1, -1, -1], [-1, 1, 2, 0, -1], [-1, 0, 3, 1, 2]]
    """
    N = _as_int(N, "N", 0)
    k = _as_int(k, "k", 1)
    _check_bytes(8 * (N + 1) ** 2, f"jj_table({N}, {k})")
    table = np.full((N + 1, N + 1), -1, dtype=np.int64)
    if N == 0:
        return table
    table[1, 1] = 0
    for n in range(2, N + 1):
        first = (k - 1) % n + 1
        previous, row = table[n - 1], table[n]
        row[first] = n - 1
        # m = first + j (j >= 1) is number j of the next circle; m < first is number n - first + m
        row[first + 1:n + 1] = previous[1:n - first + 1]
        row[1:first] = previous[n - first + 1:n]
    return table


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
    return kernels.classical(n, k, [0] * (min(n, k * n.bit_length()) + 1)) + 1


def paper_theorem36(n, k) -> int:
    """The survivor by 001 Example 3.8 (the Theorem 3.6 iteration): ``n*k - calc(n)``.

    >>> paper_theorem36(41, 3), paper_theorem36(11, 2)
    (31, 7)
    """
    n, k = _check_paper_k(n, k)
    return kernels.theorem36(n, k)
