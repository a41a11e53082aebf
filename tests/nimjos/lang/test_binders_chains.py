"""A chain of comparisons bounds its names through their neighbours: ``0 <= b <= a <= 20`` is a triangle (the
Chomp-shaped window of issue 28), enumerated exactly, the same as the chain written as separate conditions."""
from __future__ import annotations

import itertools

import pytest

from nimjos.lang.binders import Binder
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError


def _points(text: str) -> set[tuple]:
    binder = Binder.from_text(text, Namespace())
    return {tuple(sorted(b.items())) for b in binder.bindings({})}


def _brute(test, names=("a", "b"), top=25) -> set[tuple]:
    return {tuple(sorted(zip(names, v))) for v in itertools.product(range(-3, top), repeat=len(names)) if test(*v)}


@pytest.mark.parametrize("text, test", [
    ("0 <= b <= a <= 20", lambda a, b: 0 <= b <= a <= 20),
    ("20 >= a >= b >= 0", lambda a, b: 20 >= a >= b >= 0),
    ("0 <= b < a < 7", lambda a, b: 0 <= b < a < 7),
    ("0 <= 2*b <= a <= 9", lambda a, b: 0 <= 2 * b <= a <= 9),
    ("1 <= b <= a <= 8 and a + b != 5", lambda a, b: 1 <= b <= a <= 8 and a + b != 5),
])
def test_a_chain_is_enumerated_exactly(text, test):
    assert _points(text) == _brute(test)


def test_a_chain_with_no_bound_above_is_still_refused():
    with pytest.raises(SpecError, match="upper bound"):
        Binder.from_text("0 <= b <= a", Namespace())


def test_a_chain_that_turns_implies_nothing_across_the_turn():
    # 0 <= b >= a: b is bounded below only, a above only: no bound of b is implied
    with pytest.raises(SpecError):
        Binder.from_text("0 <= b >= a and a >= 0", Namespace())


@pytest.mark.parametrize("text, scope", [
    # specs/000_maxnim_josephus.toml thm-3.4: its domain and window, which the window binds together (printed as
    # 'max(2, 2) <= k <= 8, max(1, 1, 1, 1) <= n <= 60, max(1, 1) <= m <= min(n, n)' before)
    ("2 <= k and 1 <= n and 1 <= m <= n and 2 <= k <= 8 and 1 <= n <= 60 and 1 <= m <= n",
     "2 <= k <= 8, 1 <= n <= 60, 1 <= m <= n"),
    # thm-3.4-eq-15's shape: a bound through a name stays beside the literals, once
    ("3 <= k and k < n and 3 <= k <= 10 and k < n <= 100 and 0 <= s <= n / k and 1 <= i < k - 1"
     " and 0 <= s <= n / k and 1 <= i < k - 1",
     "3 <= k <= 10, k + 1 <= n <= 100, 0 <= s <= n / k, 1 <= i <= k - 1 - 1"),
    # literals fold to the one that binds: the largest below, the smallest above; a strict literal bound too
    ("3 <= n <= 9 and 2 <= n < 12 and n > 0", "3 <= n <= 9"),
    ("-3 <= x <= 5 and -5 <= x and x < 7 and -9 <= z <= -2 and z < -1", "-3 <= x <= 5, -9 <= z <= -2"),
    # a bound through a name beside a literal is kept: which one binds depends on k
    ("1 <= k <= 4 and 2 <= n <= 9 and k + 1 <= n", "1 <= k <= 4, max(2, k + 1) <= n <= 9"),
])
def test_a_window_scope_prints_each_bound_once_and_folds_literals(text, scope):
    binder = Binder.from_text(text, Namespace())
    assert binder.describe() == scope
    # what is printed is what is enumerated: the printed scope, bound alone, gives the same points
    assert _points(scope.replace("max(2, k + 1) <= n", "2 <= n and k + 1 <= n").replace(", ", " and ")) == \
        _points(text)
