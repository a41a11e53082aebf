"""Kernels behind :mod:`nimjos.josephus.algorithms`: plain Python that numba compiles on demand.

Each kernel is ordinary Python (numbers and numpy arrays only), so it runs as it is on Python
integers of any size, and :func:`compiled` returns the same kernel compiled by numba
(``cache=True``, int64 arithmetic) when the work is large enough to pay for numba's start-up.
Importing this module does not import numba.

The programs of 001 Examples 3.7 and 3.8 are here too, as printed, so that the benchmark compiles
them the same way as ours.

>>> forward(1, 0, 41, 3), compiled(forward)(1, 0, 41, 3)
(31, 31)
"""
from __future__ import annotations

import types

import numpy as np

from nimjos.lang.lazy import numba_for_kernels

#: every kernel, by name; compiled kernels call each other by these names
KERNELS: dict[str, types.FunctionType] = {}

#: the numba-compiled kernels, made on first use: a pure cache (the same compiled code for every caller, no state
#: of a check), so it stays per process; it cannot change a verdict (checkers.context lists the state that can)
_compiled_namespace: dict | None = None


def literally(value):
    """Identity in Python; compiled, it makes numba specialise the kernel on this argument's value.

    The programs of 001 declare ``const K``, so their compiled baselines divide by a constant too.

    >>> literally(5)
    5
    """
    return value


def kernel(fn):
    """Register ``fn`` as a kernel (it stays a plain Python function).

    >>> kernel(forward) is forward
    True
    """
    KERNELS[fn.__name__] = fn
    return fn


def compiled(fn):
    """The numba-compiled (``cache=True``) twin of the kernel ``fn``.

    All kernels are compiled in one namespace where their names refer to the compiled kernels,
    so a kernel may call another (or itself) by name. numba is imported on the first call.

    >>> int(compiled(theorem36)(41, 3))
    31
    """
    global _compiled_namespace
    if _compiled_namespace is None:
        numba = numba_for_kernels()   # numba starts in about 0.4 s: only when a kernel is compiled
        namespace = dict(globals())
        # numba's cache re-imports the kernels' module by this name: keep it stable even when the
        # file runs as a script (python -m doctest), or a cached kernel would name a missing module
        namespace["__name__"] = "nimjos.josephus.kernels"
        namespace["literally"] = numba.literally
        for name, plain in KERNELS.items():
            clone = types.FunctionType(plain.__code__, namespace, name, plain.__defaults__, plain.__closure__)
            clone.__qualname__ = plain.__qualname__
            clone.__module__ = namespace["__name__"]
            clone.__doc__ = plain.__doc__
            namespace[name] = numba.njit(cache=True)(clone)
        _compiled_namespace = namespace
    return _compiled_namespace[fn.__name__]


@kernel
def forward(first, x, n, k):
    """Carry the forward recurrence from a circle of first - 1 numbers, where it gave x, up to n numbers.

    The first number removed from m numbers is ``((k - 1) mod m) + 1``; renumbering the rest from
    the number after it turns the value x of a circle of m - 1 numbers into ``((x + k - 1) mod m) + 1``.
    Starting from x = 0, ``forward(n - i + 1, 0, n, k)`` is the i-th number removed from 1..n and
    ``forward(1, 0, n, k)`` the survivor. Without a wrap the value just rises by k, so a whole run
    costs one division: O(k log n) steps for any n.

    >>> [forward(8 - i, 0, 7, 3) for i in range(1, 8)]
    [3, 6, 2, 7, 5, 1, 4]
    """
    if k == 1:
        return x + n - first + 1
    c = k - 1
    m = first
    while m <= k:                      # small circles: a step may wrap more than once
        x = (x + c) % m + 1
        if m == n:
            return x
        m += 1
    v = (x + c) % m + 1                # the value at m numbers; from here on a wrap subtracts m once
    while True:
        d = m - v
        q = d // c                     # v, v + k, ..., v + q k at m, m + 1, ..., m + q numbers
        m += q + 1
        if m > n:
            return v + (n + q + 1 - m) * k
        v = c - d + q * c              # the wrap: (v + q k) + k - m


@kernel
def backward(n, k, m):
    """The removal index of m in the circle 1..n, every k-th removed (n for the survivor).

    In a circle of s numbers the first removed is ``f = ((k - 1) mod s) + 1``; any other m is number
    ``((m - f - 1) mod s) + 1`` of the circle of s - 1 numbers that starts after f. While s >= k and
    m > k that is m - k, so a whole lap of the circle is one step: O(k log n) steps for any n.

    >>> [backward(7, 3, m) for m in range(1, 8)]
    [6, 3, 1, 7, 5, 2, 4]
    """
    size = n
    index = 0
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


@kernel
def fill_survivor_table(table, k):
    """Fill ``table[n]`` with the survivor of 1..n for 1 <= n < len(table), and ``table[0] = 0``.

    >>> t = np.empty(9, dtype=np.int64); fill_survivor_table(t, 2); t.tolist()
    [0, 1, 1, 3, 1, 3, 5, 7, 1]
    """
    table[0] = 0
    fill_survivors(table[1:], 1, 0, k)


@kernel
def fill_survivors(out, first, x, k):
    """Fill ``out[i]`` with the survivor of 1..(first + i), given x, the survivor of 1..(first - 1) (0 when
    first = 1); return the last survivor filled (x when out is empty), to carry into the next piece.

    One pass; the survivor rises by k from m - 1 to m numbers and wraps when it passes m.

    >>> t = np.empty(4, dtype=np.int64); fill_survivors(t, 5, 1, 2), t.tolist()
    (1, [3, 5, 7, 1])
    """
    m = first
    for i in range(out.shape[0]):
        x += k
        if x > m:
            x -= m
            if x > m:
                x = (x - 1) % m + 1
        out[i] = x
        m += 1
    return x


@kernel
def fenwick_order(n, k):
    """The elimination order of 1..n, every k-th removed, by a Fenwick tree over the remaining: O(n log n).

    >>> fenwick_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    tree = np.empty(n + 1, dtype=np.int32)
    for j in range(1, n + 1):
        tree[j] = j & -j
    top = 1
    while top * 2 <= n:
        top *= 2
    order = np.empty(n, dtype=np.int64)
    at = 0
    for left in range(n, 0, -1):
        at = (at + k - 1) % left           # the index, among those left, of the next number removed
        rank = at + 1
        pos = 0
        step = top
        while step:
            nxt = pos + step
            if nxt <= n and tree[nxt] < rank:
                pos = nxt
                rank -= tree[nxt]
            step >>= 1
        order[n - left] = pos + 1
        j = pos + 1
        while j <= n:
            tree[j] -= 1
            j += j & -j
    return order


@kernel
def linked_list_order(n, k):
    """Plain circle simulation on a linked list: walk k - 1 links per removal, O(n k) (a baseline).

    >>> linked_list_order(7, 3).tolist()
    [3, 6, 2, 7, 5, 1, 4]
    """
    nxt = np.empty(n + 1, dtype=np.int64)
    for j in range(1, n):
        nxt[j] = j + 1
    nxt[n] = 1
    order = np.empty(n, dtype=np.int64)
    before = n                             # the number just before the one where counting starts
    for out in range(n):
        for _ in range(k - 1):
            before = nxt[before]
        gone = nxt[before]
        order[out] = gone
        nxt[before] = nxt[gone]
    return order


@kernel
def classical(n, k, stack):
    """001 Example 3.7's ``josephus(n)`` with K = k >= 2, as printed: the survivor's 0-based position.

    The printed recursion runs with an explicit ``stack`` (room for min(n, k * n.bit_length()) + 1
    entries: each level takes at least one and at least a k-th of n away) so that it also works for
    huge n; the arithmetic is the program's.

    >>> classical(41, 3, [0] * 32)
    30
    """
    depth = 0
    while n != 1 and k <= n:           # josephus(n) calls josephus(n - n / K)
        stack[depth] = n
        depth += 1
        n -= n // k
    res = 0
    for size in range(2, n + 1):       # the branch `if K > n`: (josephus(n - 1) + K) % n
        res = (res + k) % size
    while depth:
        depth -= 1
        size = stack[depth]
        t = size % k
        if res < t:
            res += size - t
        else:
            res -= t
            res += res // (k - 1)
    return res


@kernel
def classical_table(N, k):
    """001 Example 3.7's main loop: ``array[i] = josephus(i)`` for 1 <= i <= N (0-based survivors).

    K is a compile-time constant, as in the printed program (``const K``).

    >>> classical_table(5, 2).tolist()
    [0, 0, 0, 2, 0, 2]
    """
    literally(k)
    array = np.zeros(N + 1, dtype=np.int64)
    bits = 1
    while (1 << bits) <= N:
        bits += 1
    stack = np.empty(min(N, k * bits) + 1, dtype=np.int64)
    for i in range(1, N + 1):
        array[i] = classical(i, k, stack)
    return array


@kernel
def theorem36(x, k):
    """001 Example 3.8: ``x*K - calc(x)``, where ``calc`` iterates ``h(r) = r + r/(K-1) + 1`` from 0 until r >= (K-1) x.

    >>> theorem36(41, 3)
    31
    """
    r = 0
    limit = (k - 1) * x
    while r < limit:
        r = r + r // (k - 1) + 1
    return x * k - r


@kernel
def theorem36_table(N, k):
    """001 Example 3.8's main loop: ``array[i] = i*K - calc(i)`` for 1 <= i <= N (1-based survivors).

    K is a compile-time constant, as in the printed program (``const K``).

    >>> theorem36_table(5, 2).tolist()
    [0, 1, 1, 3, 1, 3]
    """
    literally(k)
    array = np.zeros(N + 1, dtype=np.int64)
    for i in range(1, N + 1):
        array[i] = theorem36(i, k)
    return array
