"""nimjos.josephus.algorithms against plain circle simulation, and its fast paths against each other."""
from __future__ import annotations

import doctest
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import nimjos.josephus.kernels as kernels
import nimjos.josephus.algorithms as jos

SMALL = [(n, k) for n in range(1, 61) for k in range(1, 9)]


@pytest.fixture(scope="module")
def orders():
    """simulate_circle(n, k) for every n <= 60, k <= 8."""
    return {(n, k): jos.simulate_circle(n, k) for n, k in SMALL}


def test_simulate_circle_small_cases():
    assert jos.simulate_circle(7, 3) == [3, 6, 2, 7, 5, 1, 4]
    assert jos.simulate_circle(5, 1) == [1, 2, 3, 4, 5]
    assert jos.simulate_circle(3, 10) == [1, 3, 2]


def test_every_function_against_simulation(orders):
    for (n, k), order in orders.items():
        index = {m: i for i, m in enumerate(order, start=1)}
        assert jos.elimination_order(n, k).tolist() == order
        assert jos.survivor(n, k) == order[-1]
        assert [jos.removed(n, k, i) for i in range(1, n + 1)] == order
        assert [jos.removal_index(n, k, m) for m in range(1, n + 1)] == [index[m] for m in range(1, n + 1)]
        assert [jos.JJ(k, n, m) for m in range(1, n + 1)] == [n - index[m] for m in range(1, n + 1)]
        if k >= 2:
            assert jos.paper_classical(n, k) == order[-1]
            assert jos.paper_theorem36(n, k) == order[-1]


def test_uncached_paths_against_simulation(orders):
    for (n, k), order in orders.items():
        assert jos._laps_order(n, k).tolist() == order
        assert kernels.fenwick_order(n, k).tolist() == order
        assert kernels.linked_list_order(n, k).tolist() == order
        assert [kernels.forward(n - i + 1, 0, n, k) for i in range(1, n + 1)] == order
        assert [order[kernels.backward(n, k, m) - 1] for m in range(1, n + 1)] == list(range(1, n + 1))


def test_tables_against_simulation(orders):
    for k in range(1, 9):
        table = jos.survivor_table(60, k)
        assert table.dtype == np.int64 and table[0] == 0
        assert table[1:].tolist() == [orders[n, k][-1] for n in range(1, 61)]
        jj = jos.jj_table(60, k)
        for n in range(1, 61):
            expected = [-1] + [jos.JJ(k, n, m) for m in range(1, n + 1)] + [-1] * (60 - n)
            assert jj[n].tolist() == expected


def test_F_is_counted_from_the_last(orders):
    for v in range(1, 61):
        order = orders[v, 2]
        assert [jos.F(s, v) for s in range(v)] == [order[v - s - 1] for s in range(v)]
    # 002 Lemma 2.1: F_s(s + k) = 2k for 1 <= k <= s, and F_s(2s + 1) = 1
    assert all(jos.F(s, s + k) == 2 * k for s in range(1, 30) for k in range(1, s + 1))
    assert all(jos.F(s, 2 * s + 1) == 1 for s in range(1, 30))


def test_compiled_kernels_match_python():
    run = kernels.compiled
    for n, k in [(1, 2), (7, 3), (60, 8), (1000, 13), (777, 1000)]:
        order = kernels.fenwick_order(n, k)
        assert run(kernels.fenwick_order)(n, k).tolist() == order.tolist()
        assert run(kernels.linked_list_order)(n, k).tolist() == order.tolist()
        assert run(kernels.forward)(1, 0, n, k) == order[-1]
        assert run(kernels.backward)(n, k, int(order[0])) == 1
    for k in (2, 3, 5, 9):
        table = jos.survivor_table(3000, k)
        filled = np.empty(3001, dtype=np.int64)
        run(kernels.fill_survivor_table)(filled, k)
        assert filled.tolist() == table.tolist()
        assert (run(kernels.classical_table)(3000, k)[1:] + 1).tolist() == table[1:].tolist()
        assert run(kernels.theorem36_table)(3000, k).tolist() == table.tolist()


def test_survivor_table_paths_agree(monkeypatch):
    for k in (1, 2, 3, 7, 50, 4000):
        numpy_fill = jos.survivor_table(20000, k)
        monkeypatch.setattr(jos, "TABLE_MAX_RUNS", -1)
        compiled_fill = jos.survivor_table(20000, k)
        monkeypatch.undo()
        assert numpy_fill.tolist() == compiled_fill.tolist()
        assert [numpy_fill[n] for n in (1, 999, 20000)] == [jos.survivor(n, k) for n in (1, 999, 20000)]


def test_large_circle_paths_agree():
    # beyond the cache: laps, Fenwick (Python and compiled), forward and backward must agree
    for n, k in [(20011, 2), (20011, 3), (30000, 31), (30000, 33), (25000, 1000)]:
        order = jos.elimination_order(n, k)
        assert sorted(order.tolist()) == list(range(1, n + 1))
        assert kernels.compiled(kernels.fenwick_order)(n, k).tolist() == order.tolist()
        assert jos._laps_order(n, k).tolist() == order.tolist()
        for i in (1, 2, n // 3, n - 1, n):
            assert jos.removed(n, k, i) == order[i - 1]
            assert jos.removal_index(n, k, int(order[i - 1])) == i


def test_huge_n():
    n = 10**30
    assert jos.survivor(n, 2) == 2 * (n - 2**99) + 1          # the classical k = 2 closed form
    assert jos.survivor(n, 1) == n
    assert jos.removed(n, 5, 1) == 5 and jos.removed(n, 5, 2) == 10
    assert jos.removal_index(n, 5, 10) == 2
    big = 9876543210987654321
    s = jos.survivor(big, 12031)
    assert s == jos.paper_theorem36(big, 12031) == jos.paper_classical(big, 12031)
    assert jos.removal_index(big, 12031, s) == big


def test_compiled_dispatch_agrees_with_python(monkeypatch):
    cases = [(10**6, 7, 3), (2**62 + 12345, 3, 2**61), (9876543210987654321, 1000, 17), (10**30, 5, 10**29)]
    expected = [(kernels.forward(1, 0, n, k), kernels.forward(n - i + 1, 0, n, k)) for n, k, i in cases]
    monkeypatch.setattr(jos, "CACHE_MAX_N", 0)
    monkeypatch.setattr(jos, "COMPILE_STEPS", 0)
    for (n, k, i), (last, ith) in zip(cases, expected):
        assert jos.survivor(n, k) == last
        assert jos.removed(n, k, i) == ith
        assert jos.removal_index(n, k, ith) == i
        assert jos.removal_index(n, k, last) == n


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 300), st.integers(1, 40))
def test_random_small_circles(n, k):
    order = jos.simulate_circle(n, k)
    assert jos.survivor(n, k) == order[-1]
    assert jos.elimination_order(n, k).tolist() == order
    assert [kernels.forward(n - i + 1, 0, n, k) for i in range(1, n + 1)] == order
    assert [kernels.backward(n, k, m) for m in order] == list(range(1, n + 1))
    assert jos.survivor_table(n, k)[n] == order[-1]


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 200), st.integers(1, 10**9))
def test_random_steps_beyond_the_circle(n, k):
    order = jos.simulate_circle(n, k)
    assert jos._laps_order(n, k).tolist() == order
    assert kernels.fenwick_order(n, k).tolist() == order
    assert kernels.forward(1, 0, n, k) == order[-1]
    assert kernels.backward(n, k, order[0]) == 1


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 10**40), st.integers(1, 60), st.data())
def test_random_huge_circles_are_consistent(n, k, data):
    i = data.draw(st.integers(1, n))
    m = jos.removed(n, k, i)
    assert 1 <= m <= n
    assert jos.removal_index(n, k, m) == i
    if k >= 2:
        assert jos.survivor(n, k) == jos.paper_theorem36(n, k)
    if n < 2**62:
        assert kernels.compiled(kernels.forward)(n - i + 1, 0, n, k) == m
        assert kernels.compiled(kernels.backward)(n, k, m) == i


@pytest.mark.parametrize("call", [
    lambda: jos.survivor(-1, 2),
    lambda: jos.survivor(5, 0),
    lambda: jos.survivor(2.5, 2),
    lambda: jos.survivor(True, 2),
    lambda: jos.removed(5, 2, 6),
    lambda: jos.removed(5, 2, 0),
    lambda: jos.removal_index(5, 2, 0),
    lambda: jos.removal_index(5, 2, 6),
    lambda: jos.JJ(2, 5, 7),
    lambda: jos.F(5, 5),
    lambda: jos.F(-1, 5),
    lambda: jos.elimination_order(-3, 2),
    lambda: jos.survivor_table(-1, 2),
    lambda: jos.jj_table(10**6, 2),
    lambda: jos.paper_classical(5, 1),
    lambda: jos.paper_theorem36(5, 1),
])
def test_invalid_arguments(call):
    with pytest.raises(ValueError):
        call()


def test_exact_integer_arguments_are_accepted():
    assert jos.survivor(Fraction(41), np.int64(3)) == 31
    assert jos.removal_index(np.int32(5), 2, Fraction(4, 2)) == 1


def test_cached_orders_are_read_only():
    order = jos.elimination_order(10, 3)
    order[0] = 99                                  # a copy: the cache is untouched
    assert jos.removed(10, 3, 1) == 3


@pytest.mark.parametrize("module", [jos, kernels])
def test_docstring_examples(module):
    assert doctest.testmod(module).failed == 0


@pytest.mark.parametrize("k", [1, 2, 3, 7, 50, 4000])
def test_survivor_pieces_are_the_table(monkeypatch, k):
    # the table in pieces (the summary of `nimjos josephus table`) is the table, piece edges anywhere, by both fills
    table = jos.survivor_table(5000, k)
    for compiled in (False, True):
        if compiled:
            monkeypatch.setattr(jos, "TABLE_MAX_RUNS", -1)
        for size in (1, 7, 64, 5000, 5001, 10**6):
            pieces = [(first, values.copy()) for first, values in jos.survivor_pieces(5000, k, size=size)]
            assert [first for first, _ in pieces] == list(range(0, 5001, size))
            assert np.concatenate([values for _, values in pieces]).tolist() == table.tolist()
    assert [values.tolist() for _, values in jos.survivor_pieces(0, k)] == [[0]]


def test_table_checksum_is_the_weighted_sum():
    from nimjos.josephus.checksum import WEIGHT, checksum_add, table_checksum
    rng = np.random.default_rng(7)
    for values in ([], [-1], [0, 1, 0], rng.integers(-1, 2**62, 1000), rng.integers(0, 9, 3000).astype(np.int8)):
        exact = sum((int(v) + 1) * (i * WEIGHT + 1) for i, v in enumerate(values)) % 2**64
        assert table_checksum(np.asarray(values, dtype=np.int64) if len(values) == 0 else values) == f"{exact:016x}"
        half = len(values) // 2
        assert checksum_add(checksum_add(0, 0, values[:half]), half, values[half:]) == exact
