"""The prover's budget: Z3 resource units, not seconds, decide when a query stops (DESIGN.md, principle 7), and
the backstop behind them counts the process's CPU time, so a loaded machine (where a query waits for a core)
does not reach it sooner. In process: the claims of specs/ on a loaded machine are in
tests/slow/checkers/test_prove_deterministic.py."""
from __future__ import annotations

import time

import z3

from checkers.z3.budget import Budget, check
from checkers.z3.steady import SteadySolver


def test_a_check_is_limited_by_resources_not_seconds():
    # a query Z3 cannot finish stops after the same number of resource units, whatever the load (a nonlinear
    # query: Z3's own solver would run sub-tactics under wall-clock timeouts, the steady one counts conflicts)
    spent = []
    for _ in range(2):
        x, y = z3.Ints("x y")
        s = SteadySolver(z3.main_ctx())
        s.add(x * x * x + y * y * y == 12345678901, x > 0, y > 0)
        budget = Budget.seconds(0.2)
        assert check(budget, s) == z3.unknown
        spent.append(budget.used)
    assert spent[0] == spent[1] and spent[0] >= Budget.seconds(0.2).units


def test_the_backstop_counts_cpu_time_and_interrupts_the_query():
    # units to spare (the rlimit cannot stop it): only the backstop can, and it stops at its CPU seconds
    x, y = z3.Ints("x y")
    s = z3.Solver()
    s.add(x * x * x + y * y * y == 12345678901, x > 0, y > 0)
    budget = Budget(10**12, time.process_time() + 0.3, None, 0.3)
    assert check(budget, s) == z3.unknown
    assert budget.stopped and budget.backstop_note().startswith("stopped by the backstop (0 s of CPU time")
    assert time.process_time() > budget.cpu   # stopped after the CPU seconds, not before


def test_the_backstop_ignores_time_the_process_spends_waiting():
    # a process that sleeps spends no CPU: its backstop is not reached, however long the wall clock runs
    budget = Budget.seconds(0.01)
    time.sleep(0.3)
    assert not budget.cpu_out()
    x = z3.Int("x")
    s = z3.Solver()
    s.add(x > 1)
    assert check(budget, s) == z3.sat and not budget.stopped
