"""Compiled kernels (numba, ``cache=True``) of the line-interval engine.

Positions of the grid are visited in x-major order (flat index ``x * Y + y``; a 1-D game is one row).
Every option of a position lies on a line (row, column, diagonal, anti-diagonal) in an interval
``[low, high]`` of positions that come before it. Per (piece, line) the engine keeps a *window*: the
multiset of Grundy values of an interval of that line, as counts plus a hierarchical bitset of the values
present (bit set at level l + 1 when word l is full). Moving a window from one interval to the next costs
the positions that enter and leave it: amortised O(1) per position when the intervals slide forward, as
they do for Maximum Nim, subtraction games, Wythoff and Josephus Nim. Short intervals are read directly.
The mex is the least value absent from every window and from the short intervals: each window jumps to
its next absent value through the hierarchy, then one word of every set is checked at once.

>>> import numpy as np
>>> dense = np.full(6, -1, dtype=np.int32)
>>> lo = np.array([[0, 0, 0, 0, 0, 1]]); hi = np.array([[-1, 0, 1, 2, 3, 4]])    # options 0..p-1, then 1..4
>>> state = State.allocate(1, 8)
>>> run_chunk(dense, 6, 1, 0, 6, np.array([0]), np.array([0]), np.zeros((1, 6), dtype=np.int64), lo, hi, *state.args(), 2)
0
>>> dense.tolist()
[0, 1, 2, 3, 4, 0]
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nimjos.lang.lazy import compiled_on_use, import_on_use, overload_on_use

FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
ONE = np.uint64(1)


#: line coordinates and line numbers of this size or more are refused before any index arithmetic
BIG = 1 << 40


@compiled_on_use(cache=True, inline="always")
def _y(d, line, c, Y):  # pragma: no cover - compiled
    """The y coordinate of the position `c` along line `line` of direction d (row, column, diagonal,
    anti-diagonal); its x coordinate is `line` for a column, `c` otherwise."""
    if d == 0:
        return line
    if d == 1:
        return c
    if d == 2:
        return c - line + Y - 1
    return line - c


@compiled_on_use(cache=True, inline="always")
def _flat(d, line, c, Y):  # pragma: no cover - compiled
    """The flat index x * Y + y of the position `c` along line `line` of direction `d`."""
    if d == 1:
        return line * Y + c
    return c * Y + _y(d, line, c, Y)


@compiled_on_use(cache=True, inline="always")
def check_interval(d, line, L, R, X, Y, p):  # pragma: no cover - compiled
    """0 when the positions L..R of the line lie in the box [0, X) x [0, Y) and come before the flat
    position p; the y extent the box needs when they lie beyond it in y only; -1 otherwise.

    >>> check_interval(0, 0, 2, 4, 10, 1, 5), check_interval(0, 0, 2, 5, 10, 1, 5), check_interval(2, 0, 1, 3, 5, 2, 9)
    (0, -1, 5)
    """
    if not (-BIG < L and R < BIG and -BIG < line < BIG):
        return -1
    xa = line if d == 1 else L
    xb = line if d == 1 else R
    ya = _y(d, line, L, Y)
    yb = _y(d, line, R, Y)
    if min(min(xa, xb), min(ya, yb)) < 0 or max(xa, xb) >= X:
        return -1
    if max(ya, yb) >= Y:
        return max(ya, yb) + 1
    if xb * Y + yb >= p:
        return -1
    return 0


def _ctz(m):
    """The number of trailing zero bits of a non-zero uint64 (compiled: one instruction).

    >>> _ctz(np.uint64(40))
    3
    """
    m = int(m)
    return (m & -m).bit_length() - 1


@overload_on_use(_ctz)
def _ctz_compiled(m):
    """The compiled _ctz."""
    trailing_zeros = import_on_use("numba.cpython.unsafe.numbers").trailing_zeros   # numba is loaded: compiling

    def impl(m):  # pragma: no cover - compiled
        return np.int64(trailing_zeros(m))
    return impl


@compiled_on_use(cache=True, inline="always")
def _set(bits, s, offs, nlev, v):  # pragma: no cover - compiled
    pos = np.int64(v)
    for lev in range(nlev):
        w = offs[lev] + (pos >> 6)
        new = bits[s, w] | (ONE << np.uint64(pos & 63))
        bits[s, w] = new
        if new != FULL:
            return
        pos >>= 6


@compiled_on_use(cache=True, inline="always")
def _clear(bits, s, offs, nlev, v):  # pragma: no cover - compiled
    pos = np.int64(v)
    for lev in range(nlev):
        w = offs[lev] + (pos >> 6)
        old = bits[s, w]
        bits[s, w] = old & ~(ONE << np.uint64(pos & 63))
        if old != FULL:
            return
        pos >>= 6


@compiled_on_use(cache=True, inline="always")
def _next_absent(bits, s, offs, v):  # pragma: no cover - compiled
    """The least value >= v absent from window s (one always exists: the top value is never present)."""
    lev = 0
    pos = np.int64(v)
    w = pos >> 6
    m = ~bits[s, offs[lev] + w] & (FULL << np.uint64(pos & 63))
    while m == 0:  # the rest of this word is present: look for the next word that is not full, one level up
        pos = w + 1
        lev += 1
        w = pos >> 6
        m = ~bits[s, offs[lev] + w] & (FULL << np.uint64(pos & 63))
    pos = (w << 6) + _ctz(m)
    while lev > 0:  # down again: the first absent value of that word
        lev -= 1
        pos = (pos << 6) + _ctz(~bits[s, offs[lev] + pos])
    return pos


@compiled_on_use(cache=True, inline="always")
def _add(counts, bits, s, offs, nlev, v):  # pragma: no cover - compiled
    c = counts[s, v] + 1
    counts[s, v] = c
    if c == 1:
        _set(bits, s, offs, nlev, v)


@compiled_on_use(cache=True, inline="always")
def _remove(counts, bits, s, offs, nlev, v):  # pragma: no cover - compiled
    c = counts[s, v] - 1
    counts[s, v] = c
    if c == 0:
        _clear(bits, s, offs, nlev, v)


@compiled_on_use(cache=True, inline="always")
def _move(dense, Y, d, line, counts, bits, win, s, offs, nlev, L, R):  # pragma: no cover - compiled
    """Move window s (on `line` of direction d) to the interval [L, R]."""
    wl = win[s, 0]
    wr = win[s, 1]
    if wl > wr or R < wl or L > wr:
        while wl <= wr:
            _remove(counts, bits, s, offs, nlev, dense[_flat(d, line, wl, Y)])
            wl += 1
        wl = L
        wr = L - 1
    while wr < R:
        wr += 1
        _add(counts, bits, s, offs, nlev, dense[_flat(d, line, wr, Y)])
    while wl > L:
        wl -= 1
        _add(counts, bits, s, offs, nlev, dense[_flat(d, line, wl, Y)])
    while wr > R:
        _remove(counts, bits, s, offs, nlev, dense[_flat(d, line, wr, Y)])
        wr -= 1
    while wl < L:
        _remove(counts, bits, s, offs, nlev, dense[_flat(d, line, wl, Y)])
        wl += 1
    win[s, 0] = L
    win[s, 1] = R


@compiled_on_use(cache=True)
def run_chunk(dense, X, Y, start, n, fdir, fbase, line, lo, hi, counts, bits, win, scratch, offs, nlev, small):  # pragma: no cover - compiled
    """Grundy values of the flat positions start .. start + n - 1, in order.

    Piece f of position i of the chunk has the options [lo[f, i], hi[f, i]] of line line[f, i] of
    direction fdir[f] (none when lo > hi); its windows are counts[fbase[f] + line] (fbase[f] < 0: its
    intervals are read directly, as are intervals shorter than `small`). Returns 0, or the first nonzero
    :func:`check_interval` of an option interval (then the values from that position on are not computed).

    >>> dense = np.full(4, -1, dtype=np.int32); state = State.allocate(1, 4)
    >>> run_chunk(dense, 4, 1, 0, 4, np.array([0]), np.array([0]), np.zeros((1, 4), dtype=np.int64),
    ...           np.array([[0, 0, 0, 0]]), np.array([[-1, 0, 2, 2]]), *state.args(), 8)    # option 2 of 2
    -1
    """
    K = fdir.shape[0]
    act = np.empty(K, dtype=np.int64)
    for i in range(n):
        p = start + i
        for f in range(K):
            if lo[f, i] <= hi[f, i]:
                status = check_interval(fdir[f], line[f, i], lo[f, i], hi[f, i], X, Y, p)
                if status != 0:
                    return status
        nact = 0
        for f in range(K):
            L = lo[f, i]
            R = hi[f, i]
            if L > R:
                continue
            d = fdir[f]
            ln = line[f, i]
            if fbase[f] < 0 or R - L < small:
                for c in range(L, R + 1):
                    v = dense[_flat(d, ln, c, Y)]
                    scratch[v >> 6] |= ONE << np.uint64(v & 63)
            else:
                s = fbase[f] + ln
                _move(dense, Y, d, ln, counts, bits, win, s, offs, nlev, L, R)
                act[nact] = s
                nact += 1
        v = np.int64(0)
        while True:
            for j in range(nact):
                v = _next_absent(bits, act[j], offs, v)
            w = v >> 6
            occ = scratch[w]
            for j in range(nact):
                occ |= bits[act[j], w]
            free = ~occ & (FULL << np.uint64(v & 63))
            if free != 0:
                v = (w << 6) + _ctz(free)
                break
            v = (w + 1) << 6
        dense[p] = v
        for f in range(K):
            L = lo[f, i]
            R = hi[f, i]
            if L <= R and (fbase[f] < 0 or R - L < small):
                d = fdir[f]
                ln = line[f, i]
                for c in range(L, R + 1):
                    scratch[dense[_flat(d, ln, c, Y)] >> 6] = np.uint64(0)
    return 0


def levels(universe: int) -> np.ndarray:
    """Word offsets of the levels of a hierarchical bitset over `universe` values (the last offset is the
    total); the top level is one word.

    >>> levels(64).tolist(), levels(5000).tolist()
    ([0, 1], [0, 79, 81, 82])
    """
    offs = [0]
    size = -(-universe // 64)
    while True:
        offs.append(offs[-1] + size)
        if size == 1:
            return np.array(offs, dtype=np.int64)
        size = -(-size // 64)


def state_bytes(windows: int, values: int) -> int:
    """Bytes of the windows' state: counts (int32) and bitsets per window, plus the shared scratch.

    >>> state_bytes(1, 100)
    736
    """
    universe = values + 64
    words = int(levels(universe)[-1])
    return max(windows, 1) * (4 * universe + 8 * words + 16) + 8 * words


@dataclass
class State:
    """The windows of one run: counts[window, value], bits[window, word], the interval of each window.

    >>> State.allocate(3, 100).counts.shape
    (3, 164)
    """

    counts: np.ndarray
    bits: np.ndarray
    win: np.ndarray
    scratch: np.ndarray
    offs: np.ndarray

    @classmethod
    def allocate(cls, windows: int, values: int) -> "State":
        """Windows over the values 0 .. values - 1 (the universe leaves a value that is never present).

        Zeroed memory is mapped lazily, so values that never occur cost address space, not memory.

        >>> State.allocate(1, 10).win.tolist()
        [[0, -1]]
        """
        universe = values + 64
        offs = levels(universe)
        windows = max(windows, 1)
        win = np.zeros((windows, 2), dtype=np.int64)
        win[:, 1] = -1
        return cls(np.zeros((windows, universe), dtype=np.int32), np.zeros((windows, int(offs[-1])), dtype=np.uint64),
                   win, np.zeros(int(offs[-1]), dtype=np.uint64), offs)

    def args(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, int]:
        """The state as the trailing arguments of :func:`run_chunk` (before `small`).

        >>> len(State.allocate(1, 10).args())
        6
        """
        return self.counts, self.bits, self.win, self.scratch, self.offs, len(self.offs) - 1
