"""Heap-game sequences extended by a proved period: the kernels compute g(0..N) in rounds (N doubling); once the
table is periodic over its last two thirds and a periodicity theorem (Guy-Smith, finite codes: see
:mod:`nimjos.games.heaps.periodicity`) proves the period for every heap size from the table's own values, the rest
of g(0..n) is the period's repetition: exact, not computed. A game the theorem does not cover (Grundy's game, a
code with a digit for every k) or a table with no proved period is computed to the end.

>>> from nimjos.games.heaps.rules import octal_rules
>>> kayles = grown_sequence(octal_rules("0.77"), 10 ** 6)
>>> kayles.computed, kayles.proof.period, kayles.proof.preperiod, int(kayles.values[10 ** 6])
(4096, 12, 71, 1)
>>> print(kayles.describe())
heap engine: g(n) for n > 4,096 by the period 12 (proved: g(n + 12) = g(n) for every n >= 71 (Guy-Smith periodicity theorem for the finite code 0.77: a move takes at most t = 2 tokens and leaves at most 2 heaps; checked 71 <= n < 156)), computed to 4,096
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from nimjos.games.heaps.fast import periodic_tail, sequence
from nimjos.games.heaps.periodicity import MAX_RANGE, PeriodicityProof, guy_smith_range, octal_proof
from nimjos.games.heaps.rules import HeapRules

#: the heaps computed before the first look for a period (then the table doubles between two looks)
FIRST_ROUND = 4096


@dataclass(frozen=True)
class Grown:
    """g(0..n): `values`; g(0..computed) came from the kernels, the rest from the period that `proof` proved
    (None: every value was computed)."""

    values: np.ndarray
    computed: int
    proof: PeriodicityProof | None = None

    def describe(self) -> str:
        """How the values beyond the computed ones were obtained (a line of the scope), "" when none were."""
        if self.proof is None:
            return ""
        return (f"heap engine: g(n) for n > {self.computed:,} by the period {self.proof.period} "
                f"({self.proof.describe()}), computed to {self.computed:,}")


def repeat(values: np.ndarray, n: int, period: int, start: int) -> np.ndarray:
    """g(0..n): values[:start] followed by g(m) = g(m - period) for start <= m <= n (start >= period).

    >>> repeat(np.array([7, 0, 1, 2]), 9, 2, 4).tolist()
    [7, 0, 1, 2, 1, 2, 1, 2, 1, 2]
    """
    if start > n:
        return np.array(values[:n + 1], dtype=np.int64)
    out = np.empty(n + 1, dtype=np.int64)
    out[:start] = values[:start]
    total = n + 1 - start
    done = min(period, total)
    out[start:start + done] = values[start - period:start - period + done]
    while done < total:  # copy what is there onto what follows it: the copies double, about one pass in all
        more = min(done - done % period, total - done)
        out[start + done:start + done + more] = out[start:start + more]
        done += more
    return out


def _proved(rules: HeapRules, g: np.ndarray) -> PeriodicityProof | None:
    """The proof of the period the table shows (periodic_tail), when the theorem's range lies inside the table."""
    seen = periodic_tail(g)
    if seen is None:
        return None
    period, start = seen
    hi = guy_smith_range(rules, period, start)
    if hi is None or hi + period > min(len(g), MAX_RANGE):
        return None
    proof = octal_proof(rules, period, start, seq=g[:hi + period].tolist())
    return proof if proof is not None and proof.holds else None


def grown_sequence(rules: HeapRules, n: int, prefix: np.ndarray | None = None, computed: int | None = None,
                   proof: PeriodicityProof | None = None) -> Grown:
    """g(0), ..., g(n) of a heap game (int64): computed by :func:`nimjos.games.heaps.fast.sequence`, and extended
    by the period once the Guy-Smith theorem proves it. `prefix` holds values already known; with `proof` (a
    period proved for this game, holding) and `computed` (the values the kernels computed, prefix[:computed + 1]),
    the prefix is extended by that period at once.

    >>> from nimjos.games.heaps.rules import GRUNDYS_GAME, octal_rules
    >>> dawson = grown_sequence(octal_rules("0.07"), 50_000)
    >>> dawson.proof.period, bool((dawson.values == sequence(octal_rules("0.07"), 50_000)).all())
    (34, True)
    >>> grundy = grown_sequence(GRUNDYS_GAME, 5000); grundy.proof is None and grundy.computed
    5000
    >>> again = grown_sequence(octal_rules("0.07"), 90_000, dawson.values, dawson.computed, dawson.proof)
    >>> again.computed, bool((again.values[:50_001] == dawson.values).all())
    (4096, True)
    """
    if proof is not None and computed is not None and proof.holds and prefix is not None and len(prefix) > computed:
        return Grown(repeat(prefix, n, proof.period, computed + 1), computed, proof)
    if guy_smith_range(rules, 1, 0) is None:
        return Grown(sequence(rules, n, prefix=prefix), n)
    g = prefix
    size = min(n, max(FIRST_ROUND, len(prefix) if prefix is not None else 0))
    while True:
        g = sequence(rules, size, prefix=g)
        found = _proved(rules, g)
        if found is not None and size < n:
            return Grown(repeat(g, n, found.period, size + 1), size, found)
        if size >= n:
            return Grown(g, size)
        size = min(n, 2 * size)
