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
