"""The collector of a method's failures: keeps the N smallest counterexamples (and ill-defined instances), by
the order of :meth:`nimjos.verdict.Counterexample.key`, and counts all of them.

>>> from nimjos.verdict import Counterexample
>>> col = Collector(2)
>>> for x in (5, 1, 3):
...     col.fail(Counterexample({"x": x}, 0, 1))
>>> col.n_fail, [cx.bindings for cx in col.sorted(col.failures)]
(3, [{'x': 1}, {'x': 3}])
"""
from __future__ import annotations

import heapq

from nimjos.verdict import Counterexample


class Collector:
    """Keeps the N smallest counterexamples (and ill-defined instances) and counts all of them."""

    def __init__(self, limit: int, first_only: bool = False):
        self.limit = max(1, limit)
        #: the caller asks only whether anything fails: a check may end at the first failure or ill-defined
        #: instance (its counts are then of the instances checked so far)
        self.first_only = first_only
        self.failures: list = []
        self.undefined: list = []
        self.n_fail = 0
        self.n_undef = 0
        self._seq = 0

    def _push(self, heap: list, cx: Counterexample) -> None:
        self._seq += 1
        key = cx.key()
        item = (_neg(key), -self._seq, cx)
        if len(heap) < self.limit:
            heapq.heappush(heap, item)
        elif item > heap[0]:
            heapq.heapreplace(heap, item)

    def fail(self, cx: Counterexample) -> None:
        self.n_fail += 1
        self._push(self.failures, cx)

    def undef(self, cx: Counterexample) -> None:
        self.n_undef += 1
        self._push(self.undefined, cx)

    @property
    def done(self) -> bool:
        """May the check end here: only the first failure is asked for, and one was found?

        >>> col = Collector(1, first_only=True); col.done, (col.undef(Counterexample({"x": 0}, 0, 1)), col.done)[1]
        (False, True)
        """
        return self.first_only and (self.n_fail > 0 or self.n_undef > 0)

    def sorted(self, heap: list) -> list[Counterexample]:
        return [cx for _, _, cx in sorted(heap, key=lambda t: (t[2].key(), -t[1]))]


class _Neg:
    """Reverses the order of a key so that heapq (a min-heap) keeps the smallest keys."""

    __slots__ = ("k",)

    def __init__(self, k: tuple):
        self.k = k

    def __lt__(self, other: "_Neg") -> bool:
        return other.k < self.k

    def __gt__(self, other: "_Neg") -> bool:
        return other.k > self.k

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Neg) and other.k == self.k


def _neg(k: tuple) -> _Neg:
    return _Neg(k)
