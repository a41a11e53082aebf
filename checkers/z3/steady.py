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
``is-qfnia`` and ``is-qflia``).

>>> ctx = z3.Context(); x, y = z3.Ints("x y", ctx)
>>> s = SteadySolver(ctx); s.add(x * y == 6, x > 0, y > 0, x + y == 4); s.set("rlimit", 10_000_000)
>>> s.check(), s.strategy
(unsat, 'qfnia, conflicts counted')
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
#: the parameters a caller may set that a strategy's solver takes as well (the budget's); any other one (such
#: as ``combined_solver.ignore_solver1``) keeps Z3's own solver
_CARRIED = {"rlimit", "timeout"}


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
            if not self._scoped and not assumptions:
                self._choose()
        return self._solver.check(*assumptions)

    def _choose(self) -> None:
        names = {str(a[0]) for a, _ in self._params if a} | {k for _, keys in self._params for k in keys}
        if not names <= _CARRIED:
            return
        goal = z3.Goal(ctx=self.ctx)
        goal.add(*self._solver.assertions())
        for probe, name, strategy in _TIMED:
            if z3.Probe(probe, self.ctx)(goal):
                counted = strategy(self.ctx).solver()
                for args, keys in self._params:
                    counted.set(*args, **keys)
                counted.add(*self._solver.assertions())
                self._solver, self.strategy = counted, name
                return

    def __getattr__(self, name: str) -> Any:
        return getattr(self._solver, name)
