"""Conformance of the Walnut translation (checkers/prove/walnut/) to the scalar language: batches of generated
statements, each decided in one Walnut run (a JVM per batch) and compared with the language on a window of
naturals (tests/conformance/backends.py, check_walnut; docs/testing.md: the long mode)."""
from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from conformance import conformance_settings
from conformance.backends import check_walnut
from conformance.grammar import claim

#: statements per Walnut run
BATCH = 8


@conformance_settings(2, 60, shrink=False)
@given(st.lists(claim(linear=True), min_size=BATCH, max_size=BATCH))
def test_walnut_agrees_on_the_naturals(walnut, statements):
    for e in check_walnut(statements):
        event(e)


def test_truth_values_where_a_builtin_needs_an_integer():
    """A finding of the harness, kept: the language refuses xor(True, y) and range(0, True) (xor and range need
    integers); Walnut's translation read True as 1 and proved such claims, ill-defined where the truth value is
    reached (x < 3 here). It must refuse them or agree with the language."""
    assert check_walnut([({}, "xor(x < 3, y) >= 0"), ({}, "all(i < 2 for i in range(0, x < 3))")])


def test_the_harness_judges_walnut(walnut):
    """Automatic statements are judged (the automaton against the window, the claim path's proofs)."""
    assert check_walnut([({}, "x // 3 + y % 2 >= 0"), ({}, "xor(x, y) == xor(y, x) and x < 9")]) == ["judged"] * 2
