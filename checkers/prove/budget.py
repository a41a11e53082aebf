"""The prover's resource budget: Z3 resource units (``rlimit``), not wall-clock seconds, so that the same spec
gives the same verdicts on a quiet and on a loaded machine (DESIGN.md, principle 7).

A budget of S seconds is ``S * RLIMIT_PER_SECOND`` units, the rate Z3 reached on the prover's own queries on
the reference machine (measured over the 507 queries of specs/000 and 004: from 1.5 to 10 million units a
second, about 5 million over all of them, 2 to 4.6 million on the queries that took over 0.1 s and were
decided; a query Z3 does not decide often runs faster, so 3 million keeps the time of a proof and cuts the
time of a failure). Each query may spend what is left; what it spent (Z3's ``rlimit count``) is charged
to the budget and to every budget it was carved from. A wall-clock backstop of :data:`BACKSTOP` times the
longest the units take (at the slowest rate measured, :data:`SLOWEST_RATE`) stops a query that runs far slower; it only ever turns a verdict into ``inconclusive``,
with a note that says so. Z3's random seeds are fixed (:func:`checkers.context.fix_seeds`).

>>> b = Budget.seconds(2)
>>> b.units, b.left() == b.units
(6000000, True)
>>> part = b.part(0.5); part.charge(1000); b.left()
5999000
>>> s = z3.Solver(); b.limit(s); s.add(z3.Int("x") > 1); s.check(), b.spent(s) > 0
(sat, True)
"""
from __future__ import annotations

import time
from typing import Any

import z3

#: Z3 resource units per second of the budget (the calibration above)
RLIMIT_PER_SECOND = 3_000_000
#: the slowest rate measured on a query the prover decided (units a second): a budget's units take at most
#: units / SLOWEST_RATE seconds on a quiet reference machine
SLOWEST_RATE = 1_500_000
#: the wall-clock backstop, as a multiple of the longest a budget's units take (units / SLOWEST_RATE seconds)
BACKSTOP = 5.0
#: the note of a verdict the backstop stopped
BACKSTOP_NOTE = ("stopped by the wall-clock backstop ({:.0f} s, {:g}x the longest the budget takes): the machine is much "
                 "slower than the calibration")


class Budget:
    """Resource units left for a proof (or a part of it), with the wall-clock backstop of the whole."""

    def __init__(self, units: int, wall: float, parent: "Budget | None" = None, seconds: float = 0.0):
        self.units = int(units)
        self.wall = wall
        self.parent = parent
        self.used = 0
        self.seconds_ = seconds
        self.stopped = False   # a query was stopped by the backstop

    @classmethod
    def seconds(cls, seconds: float, backstop: float = BACKSTOP) -> "Budget":
        """The budget of `seconds` (in resource units), with its backstop starting now."""
        units = int(seconds * RLIMIT_PER_SECOND)
        wall = backstop * units / SLOWEST_RATE
        return cls(units, time.perf_counter() + wall, None, wall)

    @classmethod
    def until(cls, deadline: float) -> "Budget":
        """A budget from a wall-clock deadline (for callers that still give one): the seconds left, converted."""
        return cls.seconds(max(0.0, deadline - time.perf_counter()), backstop=BACKSTOP)

    def part(self, fraction: float) -> "Budget":
        """A budget of `fraction` of what is left, charged to this one as it is spent."""
        return Budget(int(self.left() * fraction), self.wall, self, self.seconds_)

    def left(self) -> int:
        own = max(0, self.units - self.used)
        return own if self.parent is None else min(own, self.parent.left())

    def charge(self, units: int) -> None:
        self.used += int(units)
        if self.parent is not None:
            self.parent.charge(units)

    def wall_out(self) -> bool:
        return time.perf_counter() > self.wall

    def out(self) -> bool:
        """Nothing left (or the backstop passed)."""
        if self.wall_out():
            self.mark_stopped()
        return self.left() <= 0 or self.wall_out()

    def mark_stopped(self) -> None:
        b: Budget | None = self
        while b is not None:
            b.stopped = True
            b = b.parent

    def limit(self, solver: Any, cap_seconds: float | None = None) -> None:
        """Set a solver's resource limit (what is left, at most `cap_seconds` worth) and the backstop; the
        solver's count so far is remembered so that :meth:`spent` charges only this check."""
        units = self.left() if cap_seconds is None else min(self.left(), int(cap_seconds * RLIMIT_PER_SECOND))
        solver.set("rlimit", max(1, units))
        solver.set("timeout", max(1, int((self.wall - time.perf_counter()) * 1000)))
        solver._nimjos_base = _count(solver)

    def spent(self, solver: Any) -> int:
        """Charge what the last check of `solver` spent (see :meth:`limit`) and return it."""
        n = max(0, _count(solver) - getattr(solver, "_nimjos_base", 0))
        self.charge(n)
        if self.wall_out():
            self.mark_stopped()
        return n

    def backstop_note(self) -> str:
        root = self
        while root.parent is not None:
            root = root.parent
        return BACKSTOP_NOTE.format(root.seconds_, BACKSTOP)


def _count(solver: Any) -> int:
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError):
        return 0


def check(budget: Budget, solver: Any, cap_seconds: float | None = None) -> Any:
    """``solver.check()`` within the budget (at most `cap_seconds` worth of it), charged.

    >>> s = z3.Solver(); s.add(z3.Int("y") < 0)
    >>> check(Budget.seconds(1), s)
    sat
    """
    budget.limit(solver, cap_seconds)
    r = solver.check()
    budget.spent(solver)
    return r
