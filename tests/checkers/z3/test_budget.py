"""The prover's budget: Z3 resource units, not seconds, decide when a query stops (DESIGN.md, principle 7), and
the backstop behind them counts the process's CPU time, so a loaded machine (where a query waits for a core)
does not reach it sooner. In process: the claims of specs/ on a loaded machine are in
tests/slow/checkers/test_prove_deterministic.py."""
from __future__ import annotations

import time

import z3

from checkers.z3 import budget as budget_module
from checkers.z3.budget import Budget, check, unknown_reason
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


def _instantiating(n: int) -> z3.Solver:
    """An unsatisfiable query whose proof instantiates a quantifier at many pairs of terms: its Z3 memory grows with n
    (n = 100: between 30 and 40 MB)."""
    f = z3.Function("f", z3.IntSort(), z3.IntSort())
    g = z3.Function("g", z3.IntSort(), z3.IntSort(), z3.IntSort())
    a, b = z3.Ints("a b")
    s = z3.Solver()
    s.add(z3.ForAll([a, b], z3.Implies(a < b, g(f(a), f(b)) > f(a) + f(b)), patterns=[z3.MultiPattern(f(a), f(b))]))
    s.add(z3.And([f(i) == i * i - 7 * i for i in range(n)]))
    s.add(z3.Or([g(f(i), f(i + 1)) <= f(i) + f(i + 1) for i in range(0, n - 1, 5)]))
    return s


def test_a_query_past_its_memory_ends_unknown_and_says_so(monkeypatch):
    monkeypatch.setattr(budget_module, "QUERY_MEMORY_MB", 10)
    s = _instantiating(100)
    assert check(Budget.seconds(20), s) == z3.unknown
    assert unknown_reason(s) == "out of memory: more than 10 MB of Z3 memory in one query"
    assert z3.get_param("memory_high_watermark_mb") == "0"   # the process's limit is lifted after the query
    monkeypatch.setattr(budget_module, "QUERY_MEMORY_MB", 100)
    assert check(Budget.seconds(20), _instantiating(100)) == z3.unsat


def test_the_memory_limit_counts_only_what_the_query_allocates(monkeypatch):
    # Z3 memory the process already holds (another live solver) does not count against a query
    monkeypatch.setattr(budget_module, "QUERY_MEMORY_MB", 1000)
    held = _instantiating(200)
    assert check(Budget.seconds(20), held) == z3.unsat
    assert z3.Z3_get_estimated_alloc_size() >> 20 > 60
    monkeypatch.setattr(budget_module, "QUERY_MEMORY_MB", 50)
    assert check(Budget.seconds(20), _instantiating(100)) == z3.unsat
    del held
