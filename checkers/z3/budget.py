"""The prover's resource budget: Z3 resource units (``rlimit``), not wall-clock seconds, so that the same spec
gives the same verdicts on a quiet and on a loaded machine (DESIGN.md, principle 7).

A budget of S seconds is ``S * RLIMIT_PER_SECOND`` units, the rate Z3 reached on the prover's own queries on
the reference machine (measured over the 507 queries of specs/000 and 004: from 1.5 to 10 million units a
second, about 5 million over all of them, 2 to 4.6 million on the queries that took over 0.1 s and were
decided; a query Z3 does not decide often runs faster, so 3 million keeps the time of a proof and cuts the
time of a failure). Each query may spend what is left; what it spent (Z3's ``rlimit count``) is charged
to the budget and to every budget it was carved from. A backstop of :data:`BACKSTOP` times the longest the
units take (at the slowest rate measured, :data:`SLOWEST_RATE`) stops a query that runs far slower; it counts
the process's CPU time, not the wall clock, so that a loaded machine (where a query waits for a core) does not
reach it sooner: a watchdog thread interrupts the query's Z3 context when the process has spent the backstop's
CPU seconds (:class:`CpuWatchdog`). Only a hang that spends no CPU meets the wall clock, at :data:`HANG_FACTOR`
times the backstop. Either only ever turns a verdict into ``inconclusive``, with a note that says so. Z3's
random seeds are fixed (:func:`checkers.context.fix_seeds`).

A query may also allocate at most :data:`QUERY_MEMORY_MB` of Z3 memory beyond what the process held when it began
(Z3's ``memory_high_watermark``, which its search checks as it allocates: a count, not a clock). A query past it
ends ``unknown``, "out of memory". Such queries were E-matching blow-ups that never decided within their units: three
queries of specs/002 held 3.3 GB and ran at 0.6 million units a second, against 2 to 10 million elsewhere. Of the
1,744 queries of specs/ that Z3 decides, the most any allocated was 89 MB; of the undecided ones, 63 MB apart from
those three.

>>> b = Budget.seconds(2)
>>> b.units, b.left() == b.units
(6000000, True)
>>> part = b.part(0.5); part.charge(1000); b.left()
5999000
>>> s = z3.Solver(); b.limit(s); s.add(z3.Int("x") > 1); s.check(), b.spent(s) > 0
(sat, True)
"""
from __future__ import annotations

import os
import threading
import time
from typing import Any

import z3

#: Z3 resource units per second of the budget (the calibration above)
RLIMIT_PER_SECOND = 3_000_000
#: the slowest rate measured on a query the prover decided (units a second): a budget's units take at most
#: units / SLOWEST_RATE seconds on a quiet reference machine
SLOWEST_RATE = 1_500_000
#: the backstop, in seconds of the process's CPU time, as a multiple of the longest a budget's units take
#: (units / SLOWEST_RATE seconds)
BACKSTOP = 5.0
#: the wall-clock net against a query that hangs without spending CPU, as a multiple of the backstop's seconds
HANG_FACTOR = 10.0
#: the Z3 memory one query may allocate, in MB, beyond what the process held when the query began: Z3 counts its
#: allocations as it searches and ends the query ``unknown`` ("out of memory") past it (a count, as the units are:
#: the same on every machine)
QUERY_MEMORY_MB = 500
#: the note of a verdict the backstop stopped
BACKSTOP_NOTE = ("stopped by the backstop ({:.0f} s of CPU time, {:g}x the longest the budget takes): Z3 ran much "
                 "slower than the calibration")


class Budget:
    """Resource units left for a proof (or a part of it), with the backstop of the whole: `cpu`, the process CPU
    time (:func:`time.process_time`) past which a query is stopped."""

    def __init__(self, units: int, cpu: float, parent: "Budget | None" = None, seconds: float = 0.0):
        self.units = int(units)
        self.cpu = cpu
        self.parent = parent
        self.used = 0
        self.seconds_ = seconds
        self.stopped = False   # a query was stopped by the backstop

    @classmethod
    def seconds(cls, seconds: float, backstop: float = BACKSTOP) -> "Budget":
        """The budget of `seconds` (in resource units), with its backstop starting now."""
        units = int(seconds * RLIMIT_PER_SECOND)
        allowance = backstop * units / SLOWEST_RATE
        return cls(units, time.process_time() + allowance, None, allowance)

    @classmethod
    def until(cls, deadline: float) -> "Budget":
        """A budget from a wall-clock deadline (for callers that still give one): the seconds left, converted."""
        return cls.seconds(max(0.0, deadline - time.perf_counter()), backstop=BACKSTOP)

    def part(self, fraction: float) -> "Budget":
        """A budget of `fraction` of what is left, charged to this one as it is spent."""
        return Budget(int(self.left() * fraction), self.cpu, self, self.seconds_)

    def left(self) -> int:
        own = max(0, self.units - self.used)
        return own if self.parent is None else min(own, self.parent.left())

    def charge(self, units: int) -> None:
        self.used += int(units)
        if self.parent is not None:
            self.parent.charge(units)

    def cpu_out(self) -> bool:
        """The backstop passed: the process has spent its CPU seconds."""
        return time.process_time() > self.cpu

    def out(self) -> bool:
        """Nothing left (or the backstop passed)."""
        if self.cpu_out():
            self.mark_stopped()
        return self.left() <= 0 or self.cpu_out()

    def mark_stopped(self) -> None:
        b: Budget | None = self
        while b is not None:
            b.stopped = True
            b = b.parent

    def limit(self, solver: Any, cap_seconds: float | None = None) -> None:
        """Set a solver's resource limit (what is left, at most `cap_seconds` worth) and the wall-clock net against
        a hang (:data:`HANG_FACTOR` times the CPU seconds left to the backstop, which :func:`check` watches); the
        solver's count so far is remembered so that :meth:`spent` charges only this check."""
        units = self.left() if cap_seconds is None else min(self.left(), int(cap_seconds * RLIMIT_PER_SECOND))
        solver.set("rlimit", max(1, units))
        solver.set("timeout", max(1, int(HANG_FACTOR * max(0.0, self.cpu - time.process_time()) * 1000)))
        solver._nimjos_base = _count(solver)

    def spent(self, solver: Any) -> int:
        """Charge what the last check of `solver` spent (see :meth:`limit`) and return it."""
        n = max(0, _count(solver) - getattr(solver, "_nimjos_base", 0))
        self.charge(n)
        if self.cpu_out() or getattr(solver, "_nimjos_interrupted", False):
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
    held = z3.Z3_get_estimated_alloc_size() >> 20
    z3.set_param("memory_high_watermark_mb", held + QUERY_MEMORY_MB)
    try:
        with WATCHDOG.watching(solver, budget.cpu) as watch:
            r = solver.check()
    finally:
        z3.set_param("memory_high_watermark_mb", 0)
    solver._nimjos_interrupted = watch.fired
    budget.spent(solver)
    return r


def unknown_reason(solver: Any) -> str:
    """Why Z3 left the last check of `solver` undecided, in words: Z3's own reason, or the memory limit of a query
    (:data:`QUERY_MEMORY_MB`), which Z3 words in several ways.

    >>> s = z3.Solver(); s.add(z3.Int("x") ** 3 + z3.Int("y") ** 3 == 33, z3.Int("z") == 1); s.set("rlimit", 10)
    >>> s.check(), unknown_reason(s)
    (unknown, 'max. resource limit exceeded')
    """
    why = solver.reason_unknown()
    if "memout" in why or "out of memory" in why:
        return f"out of memory: more than {QUERY_MEMORY_MB:,} MB of Z3 memory in one query"
    return why


class CpuWatchdog:
    """One daemon thread per process that interrupts a Z3 check once the process's CPU time passes the check's
    deadline (Z3's own ``timeout`` counts the wall clock, which a loaded machine stretches).

    The thread holds no Python object of Z3 (dropping the last reference to one there would free it outside the
    thread that uses its context): only the context's raw pointer, used under the lock that the checking thread
    takes to stop the watch, so that the context is alive whenever it is interrupted.

    >>> dog = CpuWatchdog(); s = z3.Solver()
    >>> with dog.watching(s, time.process_time() + 60) as watch:
    ...     s.check()
    sat
    >>> watch.fired, dog.watched
    (False, {})
    """

    def __init__(self) -> None:
        self.watched: dict[int, _Watch] = {}   # id of the watch -> the watch
        self._lock = threading.Condition()
        self._thread: threading.Thread | None = None

    def watching(self, solver: Any, deadline: float) -> "_Watch":
        """A context manager: `solver`'s check, interrupted if the process's CPU time passes `deadline`."""
        return _Watch(self, solver.ctx.ref(), deadline)

    def _add(self, watch: "_Watch") -> None:
        with self._lock:
            self.watched[id(watch)] = watch
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="z3-cpu-backstop", daemon=True)
                self._thread.start()
            self._lock.notify()

    def _remove(self, watch: "_Watch") -> None:
        with self._lock:
            self.watched.pop(id(watch), None)

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self.watched:
                    self._lock.wait()
                now = time.process_time()
                for key, watch in list(self.watched.items()):
                    if now > watch.deadline:
                        watch.fired = True
                        z3.Z3_interrupt(watch.ctx_ref)
                        del self.watched[key]
                # a single busy thread spends at most one CPU second per second: sleep until the nearest
                # deadline could be due (at most a second, at least 10 ms), then look again
                nearest = min((w.deadline for w in self.watched.values()), default=now + 1.0)
                self._lock.wait(timeout=min(1.0, max(0.01, nearest - now)))


class _Watch:
    """One watched check: the raw pointer of its Z3 context, its CPU deadline, and whether it was interrupted."""

    def __init__(self, dog: CpuWatchdog, ctx_ref: Any, deadline: float):
        self.dog, self.ctx_ref, self.deadline, self.fired = dog, ctx_ref, deadline, False

    def __enter__(self) -> "_Watch":
        self.dog._add(self)
        return self

    def __exit__(self, *exc: object) -> None:
        self.dog._remove(self)


#: the process's watchdog
WATCHDOG = CpuWatchdog()


def _reset_after_fork() -> None:
    """A forked child starts with no watchdog thread and a fresh lock (the parent's may be held at the fork)."""
    WATCHDOG.__init__()   # type: ignore[misc]  # the same object, re-initialised: importers keep their reference


os.register_at_fork(after_in_child=_reset_after_fork)
