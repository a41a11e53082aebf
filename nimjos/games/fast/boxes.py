"""The compiled mex kernel (numba, ``cache=True``) of games on a box of heaps whose options subtract a member of
a set from one heap, or a small vector of *joint offsets* from several heaps at once: subtraction games (one
heap), generalized cyclic Nimhoff GCN(h; S_1, ..., S_n) (004 Definition 2.1: a member of S_i from heap i, or
s_i >= 0 from every heap i with 0 < s_1 + ... + s_n < h).

The box ``[0, X_1) x ... x [0, X_n)`` is visited in row-major order (the last heap fastest), so every option
of a position, which is smaller in one heap and no larger in the others, comes before it. At each position the
kernel marks the values of its options in a stamp array and takes the least unmarked value (the mex): the
work is the box's positions times their options, with no game graph. Ground truth from the moves only.

>>> import numpy as np
>>> members, starts = pack_members([np.array([1, 2])])       # Subtraction({1, 2}) on one heap
>>> mex_box(np.array([7]), members, starts, np.zeros((0, 1), dtype=np.int64)).tolist()
[0, 1, 2, 0, 1, 2, 0]
"""
from __future__ import annotations

import itertools

import numpy as np

from nimjos.lang.lazy import compiled_on_use

#: bytes one position of the box costs (the int32 table the values stay in), for the resource guard
BYTES_PER_POSITION = 4
#: below this many options marked in all, a table asked for through an engine is left to the reference engine
#: (no numba start-up for a small game); an engine attribute ``fast_min_work`` overrides it
MIN_WORK = 500


@compiled_on_use(cache=True)
def _mex_box(shape, members, starts, offsets, out):  # pragma: no cover - compiled
    """Fill `out` (flat, row-major over `shape`) with the Grundy values: options subtract members[starts[i]:
    starts[i + 1]] (sorted ascending) from heap i, or a row of `offsets` from every heap at once."""
    k = shape.shape[0]
    strides = np.ones(k, dtype=np.int64)
    for i in range(k - 2, -1, -1):
        strides[i] = strides[i + 1] * shape[i + 1]
    most = offsets.shape[0] + members.shape[0] + 2
    seen = np.zeros(most, dtype=np.int64)
    x = np.zeros(k, dtype=np.int64)
    total = out.shape[0]
    for p in range(total):
        stamp = p + 1
        for i in range(k):
            xi = x[i]
            st = strides[i]
            for j in range(starts[i], starts[i + 1]):
                s = members[j]
                if s > xi:
                    break
                v = out[p - s * st]
                if v < most:
                    seen[v] = stamp
        for d in range(offsets.shape[0]):
            off = 0
            ok = True
            for i in range(k):
                o = offsets[d, i]
                if o > x[i]:
                    ok = False
                    break
                off += o * strides[i]
            if ok:
                v = out[p - off]
                if v < most:
                    seen[v] = stamp
        m = 0
        while seen[m] == stamp:
            m += 1
        out[p] = m
        i = k - 1
        while i >= 0:
            x[i] += 1
            if x[i] < shape[i]:
                break
            x[i] = 0
            i -= 1
    return out


def too_small(engine: object, work: int) -> bool:
    """Whether a table of this much work (options marked) is left to the reference engine: below the engine's
    ``fast_min_work`` (default :data:`MIN_WORK`); never when no engine asks (a direct call computes it).

    >>> too_small(None, 10), too_small(type("E", (), {})(), 10), too_small(type("E", (), {"fast_min_work": 0})(), 10)
    (False, True, False)
    """
    return engine is not None and work < getattr(engine, "fast_min_work", MIN_WORK)


def pack_members(sets: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """The members of each heap's subtraction set, sorted, in one array, and where each heap's part starts.

    >>> [a.tolist() for a in pack_members([np.array([3, 1]), np.array([], dtype=np.int64)])]
    [[1, 3], [0, 2, 2]]
    """
    parts = [np.sort(np.asarray(s, dtype=np.int64)) for s in sets]
    starts = np.zeros(len(parts) + 1, dtype=np.int64)
    starts[1:] = np.cumsum([len(p) for p in parts])
    members = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
    return members.astype(np.int64), starts


def joint_offsets(heaps: int, h: int) -> np.ndarray:
    """Every vector (s_1, ..., s_heaps) of non-negative integers with 0 < s_1 + ... + s_heaps < h (the moves Y of
    004 Definition 2.1), one row each.

    >>> joint_offsets(2, 3).tolist()
    [[0, 1], [0, 2], [1, 0], [1, 1], [2, 0]]
    """
    rows = [v for v in itertools.product(range(max(0, h - 1) + 1), repeat=heaps) if 0 < sum(v) < h]
    return np.array(rows, dtype=np.int64).reshape(len(rows), heaps)


def count_offsets(heaps: int, h: int) -> int:
    """How many rows :func:`joint_offsets` has, without listing them: C(h - 1 + heaps, heaps) - 1.

    >>> count_offsets(2, 3), count_offsets(3, 1)
    (5, 0)
    """
    from_zero = 1
    for j in range(1, heaps + 1):
        from_zero = from_zero * (h - 1 + j) // j
    return max(0, from_zero - 1)


def mex_box(shape: np.ndarray, members: np.ndarray, starts: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The Grundy values of the box `shape` (flat, row-major, int32) for the members of each heap's subtraction
    set (:func:`pack_members`) and the joint offsets (one row per move, :func:`joint_offsets`).

    >>> mex_box(np.array([2, 3]), *pack_members([np.array([1]), np.array([1])]), joint_offsets(2, 2)).tolist()
    [0, 1, 0, 1, 0, 1]
    """
    shape = np.asarray(shape, dtype=np.int64)
    out = np.zeros(int(np.prod(shape)), dtype=np.int32)
    if out.size:
        _mex_box(shape, members, starts, np.ascontiguousarray(offsets, dtype=np.int64), out)
    return out


__all__ = ["BYTES_PER_POSITION", "count_offsets", "joint_offsets", "mex_box", "pack_members"]
