"""Counting a window's bindings with its filters (nimjos.spec.survey.count_filtered) without enumerating them: the
innermost level without a filter is counted at once, with the same count and the same visits charged to the budget
as visiting each of its values."""
from __future__ import annotations

import pytest

from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace
from nimjos.spec.survey import count_filtered

WINDOWS = [
    "0 <= a <= 10 and a <= b <= 10 and a + b <= 10",          # the filter on the innermost level
    "0 <= a <= 63 and 0 <= b <= 63 and 0 <= i <= 6",           # no filter
    "1 <= n <= 40 and 1 <= m <= n and n % 3 == 1",             # a filter on an outer level
    "0 <= x <= 30 and x % 2 == 0 and 0 <= y <= x and y != 3",  # filters on both levels
    "s in {2, 3, 5} and 0 <= t <= 2 * s",                      # members outside, a range inside
    "0 <= k <= 5 and 0 <= j <= k - 3",                         # empty inner ranges
]


def _enumerated(binder: Binder) -> int:
    return sum(1 for _ in binder.bindings({}))


@pytest.mark.parametrize("text", WINDOWS)
def test_count_filtered_is_the_number_of_bindings(text):
    binder = Binder.from_text(text, Namespace())
    assert count_filtered(binder, {}) == _enumerated(binder)


@pytest.mark.parametrize("text", WINDOWS)
def test_count_filtered_gives_up_exactly_where_visiting_each_value_would(text):
    """The budget counts visits: the outer levels' values and every value of the innermost level, whether counted at
    once or one at a time; so a count succeeds with the budget of its visits and fails with one fewer."""
    binder = Binder.from_text(text, Namespace())
    # the visits of each value one at a time: every value of every level reached through values that passed
    # the filters before it
    visits = _visits(binder)
    assert count_filtered(binder, {}, budget=visits) == _enumerated(binder)
    if visits:
        assert count_filtered(binder, {}, budget=visits - 1) is None


def _visits(binder: Binder) -> int:
    levels = binder.levels
    total = 0

    def rec(i: int, env: dict) -> None:
        nonlocal total
        if i == len(levels):
            return
        level = levels[i]
        if level.members is not None:
            values = list(level.members(env))
        else:
            lo, hi = Binder.range_of(level, env)
            values = range(lo, hi + 1)
        for v in values:
            total += 1
            env[level.name] = v
            if all(f(env) for f in level.filters):
                rec(i + 1, env)

    rec(0, {})
    return total
