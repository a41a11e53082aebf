"""Z3 solvers whose answers do not depend on the machine's load.

Z3's default solver hands a quantifier-free integer query to the strategy of its logic, and two of those
strategies run sub-tactics under wall-clock timeouts (Z3Prover/z3#2359):

- QF_NIA (``qfnia``): bit-blasting, then ``smt`` for 2 s, then ``nlsat`` for 3 s, then ``smt``;
- QF_LIA (``qflia``): for bounded or unbounded integer programs, ``smt`` without cuts for 2 to 15 s, and
  bit-blasting for 5 to 10 s, before ``smt``.

On a loaded machine a sub-tactic is cut sooner, the query's resource budget (``rlimit``) is spent differently,
and the same claim could come out ``proved`` on a quiet machine and ``inconclusive`` on a busy one. A
:class:`SteadySolver` gives such a query the same strategy with every wall-clock timeout replaced by a
count of conflicts (a limit Z3 counts, whatever the load); every other query gets Z3's default solver, whose
strategies have no timeout. The choice is made at the first check, from the assertions then (Z3's own probes
``is-qfnia`` and ``is-qflia``). Such a query first gets Z3's default solver for :data:`QUICK_UNITS` units, far
below what its first timeout allows (about 0.1 s of 2 s): most queries are decided there, as on a quiet machine
(and they make the same terms in the context, which the later queries' search depends on).

>>> ctx = z3.Context(); x, y = z3.Ints("x y", ctx)
>>> s = SteadySolver(ctx); s.add(x * y == 6, x > 0, y > 0, x + y == 4); s.set("rlimit", 10_000_000)
>>> s.check(), s.strategy   # decided within Z3's own first units
(unsat, 'default')
>>> s = SteadySolver(ctx); s.add(x * x * x + y * y * y == 12345678901, x > 0, y > 0); s.set("rlimit", 2_000_000)
>>> s.check(), s.strategy   # not decided within them: the counted strategy has the rest
(unknown, 'qfnia, conflicts counted')
>>> s = SteadySolver(ctx); s.add(z3.Function("f", z3.IntSort(ctx), z3.IntSort(ctx))(x) > x); s.check(), s.strategy
(sat, 'default')
"""
from __future__ import annotations

from typing import Any

import z3

#: conflicts of ``smt`` in place of qfnia's 2 s (about what a quiet machine reaches in 2 s on the prover's
#: nonlinear queries), and of ``nlsat`` in place of its 3 s
SMT_CONFLICTS = 20_000
NLSAT_CONFLICTS = 20_000
#: the resource units Z3's own solver has first (about 0.1 s: a query it decides within them gets its answer, and
#: the terms it makes in the context, as on a quiet machine; a 2 s timeout could cut it only at a load of about 40)
QUICK_UNITS = 300_000
#: the parameters a caller may set that a strategy's solver takes as well (the budget's); any other one (such
#: as ``combined_solver.ignore_solver1``) keeps Z3's own solver
_CARRIED = {"rlimit", "timeout"}


def _count(solver: Any) -> int:
    try:
        return int(solver.statistics().get_key_value("rlimit count"))
    except (z3.Z3Exception, KeyError):
        return 0


def _qfnia(ctx: z3.Context) -> z3.Tactic:
    """Z3's ``qfnia`` strategy (src/tactic/smtlogics/qfnia_tactic.cpp) with conflict limits for its timeouts."""
    def t(name: str, **params: Any) -> z3.Tactic:
        return z3.With(z3.Tactic(name, ctx), **params) if params else z3.Tactic(name, ctx)
    undecided = t("fail-if-undecided")
    bits = z3.Then(t("simplify", hoist_mul=True), t("nla2bv", nla2bv_max_bv_size=64),
                   z3.OrElse(z3.Then(t("simplify"), t("propagate-values"), t("max-bv-sharing"),
                                     t("bit-blast", max_memory=100), t("sat", max_conflicts=500)), t("skip")),
                   undecided, ctx=ctx)
    return z3.Then(t("simplify"), t("propagate-values"), t("solve-eqs"), t("elim-uncnstr"),
                   z3.OrElse(bits,
                             z3.Then(t("simplify", som=True), t("smt", max_conflicts=SMT_CONFLICTS), undecided,
                                     ctx=ctx),
                             z3.Then(t("simplify", som=True), t("qfnra-nlsat", max_conflicts=NLSAT_CONFLICTS),
                                     undecided, ctx=ctx),
                             z3.Then(t("simplify", som=True), t("smt"), ctx=ctx), ctx=ctx), ctx=ctx)


def _qflia(ctx: z3.Context) -> z3.Tactic:
    """Z3's ``qflia`` strategy without its timed searches for a model: its preprocessing, then ``smt``."""
    return z3.Then(*(z3.Tactic(n, ctx) for n in ("simplify", "propagate-values", "solve-eqs", "elim-uncnstr",
                                                  "smt")), ctx=ctx)


#: the strategies with timeouts, by the probe that selects them in Z3's default strategy (in its order)
_TIMED = (("is-qflia", "qflia", _qflia), ("is-qfnia", "qfnia, conflicts counted", _qfnia))


class SteadySolver:
    """A solver of `ctx` that answers the same on a quiet and on a loaded machine (see the module): it takes
    assertions, parameters and scopes like ``z3.Solver``, and at its first check becomes either Z3's default
    solver or the counted strategy of its logic. `strategy` names which (``None`` before the first check)."""

    def __init__(self, ctx: z3.Context | None):
        self._solver: Any = z3.Solver(ctx=ctx)
        self.ctx = self._solver.ctx   # z3's main context for None
        self._params: list[tuple[tuple, dict]] = []
        self._scoped = False
        self.strategy: str | None = None

    def set(self, *args: Any, **keys: Any) -> None:
        self._params.append((args, keys))
        self._solver.set(*args, **keys)

    def push(self) -> None:
        self._scoped = True
        self._solver.push()

    def check(self, *assumptions: Any) -> Any:
        if self.strategy is None:
            self.strategy = "default"
            strategy = self._timed() if not self._scoped and not assumptions else None
            if strategy is not None:
                return self._quick_then_counted(*strategy)
        return self._solver.check(*assumptions)

    def _timed(self) -> tuple[str, Any] | None:
        """The counted strategy of the query's logic, if Z3's default strategy for it has timeouts."""
        names = {str(a[0]) for a, _ in self._params if a} | {k for _, keys in self._params for k in keys}
        if not names <= _CARRIED:
            return None
        goal = z3.Goal(ctx=self.ctx)
        goal.add(*self._solver.assertions())
        for probe, name, strategy in _TIMED:
            if z3.Probe(probe, self.ctx)(goal):
                return name, strategy
        return None

    def _quick_then_counted(self, name: str, strategy: Any) -> Any:
        """Z3's own solver within QUICK_UNITS (far below its first timeout on any machine, so it answers as on a
        quiet one), then, if undecided, the counted strategy with the units the caller's limit has left."""
        limit = next((int(a[1]) for a, _ in reversed(self._params) if len(a) == 2 and a[0] == "rlimit"), None)
        quick = min(QUICK_UNITS, limit) if limit is not None else QUICK_UNITS
        self._solver.set("rlimit", quick)
        before = _count(self._solver)
        r = self._solver.check()
        spent = max(0, _count(self._solver) - before)
        if r != z3.unknown or spent < quick:
            return r   # decided, or stopped by something else than its units (an interrupt, the hang net)
        counted = strategy(self.ctx).solver()
        for args, keys in self._params:
            counted.set(*args, **keys)
        if limit is not None:
            if limit <= spent:
                return r
            counted.set("rlimit", limit - spent)
        counted.add(*self._solver.assertions())
        self._solver, self.strategy = counted, name
        return counted.check()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._solver, name)
