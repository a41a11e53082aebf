"""Periodicity of integer sequences (004 Definitions 1.20, 1.21 and 2.2), as observations on finite data.

A finite sequence can only show that a pattern holds *through* its last term; every result here says so.

>>> detect([0, 0, 1, 1, 2] * 4)
Periodicity(period=5, preperiod=0, saltus=0, through=19)
>>> detect([0, 1, 2, 3, 4, 5, 6, 7]).describe()
'arithmetic periodic with period 1 from 0, saltus 1 (exact through 7)'
>>> stair_of([0, 1, 2, 0, 1, 2, 3, 4, 5, 15, 16, 17, 12, 13, 14], 3)
[0, 0, 1, 5, 4]
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np


@dataclass(frozen=True)
class Periodicity:
    """A(n + period) = A(n) + saltus for every n >= preperiod up to `through` (the last index seen)."""

    period: int
    preperiod: int
    saltus: int
    through: int

    def describe(self) -> str:
        kind = "periodic" if self.saltus == 0 else "arithmetic periodic"
        tail = f", saltus {self.saltus}" if self.saltus else ""
        return f"{kind} with period {self.period} from {self.preperiod}{tail} (exact through {self.through})"


def holds(seq: Sequence[int], period: int, preperiod: int, saltus: int = 0) -> int | None:
    """The first n >= preperiod where A(n + period) != A(n) + saltus, or None when there is none in `seq`.

    >>> holds([0, 1, 0, 1, 0, 2], 2, 0)
    3
    """
    for n in range(preperiod, len(seq) - period):
        if seq[n + period] != seq[n] + saltus:
            return n
    return None


def detect(seq: Sequence[int] | np.ndarray, min_repeats: int = 3, max_period: int | None = None) -> Periodicity | None:
    """The (arithmetic) periodicity explaining the most of `seq` (least preperiod + period, then least
    period) whose periodic part is seen at least `min_repeats` times; None if there is none.

    Each period's tail is walked back from the end in blocks of doubling length (numpy), and a period that
    cannot beat the best found so far is dropped as soon as its tail stops short of the needed start: a
    Grundy table of 154,531 values with preperiod 131,070 takes well under a second.

    >>> detect([5, 9, 0, 1, 0, 1, 0, 1, 0, 1])
    Periodicity(period=2, preperiod=2, saltus=0, through=9)

    Arithmetic periodicity (a saltus), as in Lasker's Nim, g(0..16):

    >>> detect([0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11, 13, 14, 16, 15])
    Periodicity(period=4, preperiod=1, saltus=4, through=16)
    >>> detect([7, 3, 2, 1, 5, 6, 4]) is None
    True
    """
    n = len(seq)
    limit = max_period or n // min_repeats
    a = _array(seq)
    best: Periodicity | None = None
    for p in range(1, limit + 1):
        if best is not None and p > best.preperiod + best.period:
            break
        # the saltus must be A(n + p) - A(n) at the end of the data; find the longest tail with that saltus
        s = int(a[-1] - a[-1 - p]) if n > p else 0
        # a tail starting at n0 explains more than the best only when n0 + p < its preperiod + period
        stop = 0 if best is None else max(0, best.preperiod + best.period - p - 1)
        if stop and any(seq[i + p] - seq[i] != s for i in _probes(stop, n - p)):
            continue   # the tail would have to reach back to `stop`, and breaks on the way
        n0 = _tail_start(a, p, s, stop)
        if best is not None and n0 > stop:
            continue
        if n0 == stop and stop > 0:
            n0 = _tail_start(a, p, s, 0)
        if n - n0 >= min_repeats * p and (best is None or n0 + p < best.preperiod + best.period):
            best = Periodicity(p, n0, s, n - 1)
    return best


#: an observed (arithmetic) periodicity is reported only when its periodic part is seen for at least this many
#: whole periods (and, :func:`observe`, over at least half the sequence)
OBSERVED_PERIODS = 4


def observe(seq: Sequence[int] | np.ndarray,
            detector: Callable[[np.ndarray, int], Periodicity | None] | None = None) -> Periodicity | None:
    """The (arithmetic) periodicity a finite sequence shows, as an observation worth printing, or None: the one
    :func:`detect` finds (``detector``: a function of the same shape, such as the compiled
    :func:`nimjos.games.heaps.fast.detect_table`), kept only when the sequence gives it several periods of evidence:

    * its periodic part holds for at least :data:`OBSERVED_PERIODS` whole periods, and
    * the sequence is at least twice as long as the preperiod and one period: n >= 2 (n0 + p), so that the pattern
      holds through 2 n0 + 2p - 1 at least, over as many values as came before it. (This is the shape of the
      Guy-Smith bound, which proves the periodicity of a finite octal game from its holding up to 2 n0 + 2p + t;
      for any other sequence it is an observation, never a proof, and its text says "exact through".)

    A pattern drawn from the last few values of a window (period 2 from 2040 in 2048 values) is not an
    observation about the sequence, and is not reported.

    >>> observe([0, 1, 2] * 4), observe([0, 1, 2] * 3) is None
    (Periodicity(period=3, preperiod=0, saltus=0, through=11), True)
    >>> observe(list(range(2040)) + [7, 9, 8, 10, 9, 11, 10, 12]) is None   # period 2, saltus 1 from 2040
    True
    >>> observe([5, 3, 9, 2, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1])   # period 2 from 4: 14 values >= 2 (4 + 2)
    Periodicity(period=2, preperiod=4, saltus=0, through=13)
    """
    a = np.asarray(seq, dtype=np.int64) if not isinstance(seq, np.ndarray) else seq
    found = (detector or detect)(a, OBSERVED_PERIODS)
    if found is None or found.through + 1 < 2 * (found.preperiod + found.period):
        return None
    return found


def outcome_pattern(values: Sequence[int] | np.ndarray, start: int = 0, name: str = "n",
                    detector: Callable[[np.ndarray, int], Periodicity | None] | None = None) -> str | None:
    """What a table of misère Grundy values (``values[i]`` at ``name = start + i``) shows of its P-positions (the
    zeros), as an observation with the evidence of :func:`observe`, or None. A game in misère play is described by
    its outcomes: a pattern of its misère Grundy values is not a normal-play pattern, and is never printed as one.

    >>> outcome_pattern([1, 0, 2, 3] * 8)
    'the P-positions (misère play) from n = 0 are the n with n % 4 == 1 (exact through 31)'
    >>> outcome_pattern([1, 1, 0, 0] * 8, start=0, name="h")
    'the P-positions (misère play) from h = 0 are the h with h % 4 in {2, 3} (exact through 31)'
    >>> outcome_pattern([1, 0, 2, 0] + [3] * 12)
    'no P-position (misère play) from n = 4 on (exact through 15)'
    """
    zeros = (np.asarray(values) == 0).astype(np.int64)
    found = observe(zeros, detector)
    if found is None:
        return None
    p, n0 = found.period, found.preperiod
    residues = sorted({(start + i) % p for i in range(n0, n0 + p) if zeros[i]})
    through = f"(exact through {start + found.through})"
    if not residues:
        return f"no P-position (misère play) from {name} = {start + n0} on {through}"
    if len(residues) == p:
        return f"every position from {name} = {start + n0} on is a P-position (misère play) {through}"
    which = f"{name} % {p} == {residues[0]}" if len(residues) == 1 else \
        f"{name} % {p} in {{{', '.join(map(str, residues))}}}"
    return f"the P-positions (misère play) from {name} = {start + n0} are the {name} with {which} {through}"


def _probes(lo: int, hi: int) -> tuple[int, ...]:
    """A few indices of [lo, hi) to try before a whole walk: both ends and three between.

    >>> _probes(0, 100)
    (0, 25, 50, 75, 99)
    """
    return tuple(sorted({lo, lo + (hi - lo) // 4, lo + (hi - lo) // 2, lo + 3 * (hi - lo) // 4, hi - 1})) if hi > lo else ()


def _array(seq: Sequence[int] | np.ndarray) -> np.ndarray:
    """`seq` as an int64 array when its values and their differences fit, else as an array of Python ints."""
    try:
        a = np.asarray(seq, dtype=np.int64)
    except OverflowError:
        return np.asarray(list(seq), dtype=object)
    if len(a) and int(np.abs(a).max()) >= 2 ** 61:
        return np.asarray(list(seq), dtype=object)
    return a


def _tail_start(a: np.ndarray, p: int, s: int, stop: int) -> int:
    """The least n0 >= stop with a[i + p] == a[i] + s for every i in [n0, len(a) - p), walked back from the end
    in blocks of doubling length.

    >>> _tail_start(np.array([9, 1, 0, 1, 0, 1]), 2, 0, 0)
    1
    """
    hi = len(a) - p
    size = 64
    while hi > stop:
        lo = max(stop, hi - size)
        bad = np.flatnonzero(a[lo + p:hi + p] - a[lo:hi] != s)
        if len(bad):
            return lo + int(bad[-1]) + 1
        hi = lo
        size *= 2
    return max(stop, 0) if hi <= stop else hi


def stair_of(seq: Sequence[int], h: int) -> list[int] | None:
    """The sequence A of which `seq` is the h-stair (B(xh + r) = A(x) h + r, 0 <= r < h), or None.
    Only whole blocks of h terms are read.

    >>> stair_of([0, 1, 3, 4], 2) is None
    True
    """
    if h < 1:
        raise ValueError("h must be positive")
    out = []
    for x in range(len(seq) // h):
        base = seq[x * h]
        if base % h != 0 or any(seq[x * h + r] != base + r for r in range(h)):
            return None
        out.append(base // h)
    return out


def first_stair_break(seq: Sequence[int], h: int) -> int | None:
    """The first index n where `seq` stops being an h-stair, or None.

    >>> first_stair_break([0, 1, 2, 0, 1, 3], 3)
    5
    """
    for x in range(len(seq) // h):
        base = seq[x * h]
        if base % h != 0:
            return x * h
        for r in range(h):
            if seq[x * h + r] != base + r:
                return x * h + r
    return None


def smallest_stair(seq: Sequence[int], max_h: int = 16) -> int | None:
    """The least h >= 2 for which `seq` (read in whole blocks) is an h-stair, or None.

    >>> smallest_stair([0, 1, 2, 0, 1, 2, 3, 4, 5, 15, 16, 17])
    3
    """
    for h in range(2, max_h + 1):
        if len(seq) >= 2 * h and stair_of(seq, h) is not None:
            return h
    return None
