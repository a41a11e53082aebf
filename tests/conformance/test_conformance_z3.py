"""Conformance of the Z3 translation (checkers/z3/translate.py, the Builder) to the scalar language, in the
int world and in the bit-vector world (tests/conformance/backends.py, check_z3, says what is checked at each
point; docs/testing.md: the long mode)."""
from __future__ import annotations

import ast

from hypothesis import event, example, given
from hypothesis import strategies as st

from checkers.z3.terms import is_term
from checkers.z3.translate import Builder

from conformance import conformance_settings
from conformance.backends import check_z3
from conformance.grammar import claim

#: bit-vector widths of the class (the prover's default is 32; prove.width may set any)
WIDTHS = (6, 8, 16, 32)
COORD = st.one_of(st.integers(-12, 20), st.sampled_from([-2 ** 8, 2 ** 8 - 1, 2 ** 16 - 1, 2 ** 31, -2 ** 32,
                                                          2 ** 32 - 1, 2 ** 40]))
POINTS = st.lists(st.fixed_dictionaries({"x": COORD, "y": COORD}), min_size=1, max_size=4)


@conformance_settings(25, 5_000)
@given(claim(big=True), POINTS, st.sampled_from(WIDTHS))
# the harness's findings, kept as explicit examples: a constant of more than 4,300 digits (ValueError, not
# Untranslatable), a constant range of more than 2**63 values (OverflowError; a range of 10**8 values is listed in
# memory before its length is checked), a truth value where a built-in needs an integer (the language refuses it)
@example(({}, "(x << 20000) > 0"), [{"x": 1, "y": 0}], 32)
@example(({}, "all(i >= x for i in range(0, 2 ** 70))"), [{"x": 1, "y": 0}], 32)
@example(({}, "x in range(x, True)"), [{"x": 0, "y": 0}], 8)
@example(({}, "xor(False, x) >= 0"), [{"x": 0, "y": 0}], 8)
def test_z3_truth_values_agree(c, points, width):
    event(check_z3(*c, points, "int"))
    event(check_z3(*c, points, "bv", width))


@conformance_settings(25, 5_000)
@given(claim(big=True, boolean=False), POINTS, st.sampled_from(WIDTHS))
def test_z3_integers_agree(c, points, width):
    event(check_z3(*c, points, "int"))
    event(check_z3(*c, points, "bv", width))


def test_the_harness_sees_a_wrong_translation(monkeypatch):
    """The check can fail: a Builder whose floor division by a negative constant rounds the Euclidean way is
    caught at a negative point."""
    assert check_z3({}, "x // (-2) == y", [{"x": -3, "y": 1}], "int") == "judged int"
    original = Builder.binop

    def euclidean(self, op, a, b):
        if op is ast.FloorDiv and is_term(a):
            return a / self.to_term(b)      # Z3's integer division: Euclidean, not floor
        return original(self, op, a, b)
    monkeypatch.setattr(Builder, "binop", euclidean)
    try:
        check_z3({}, "x // (-2) == y", [{"x": -3, "y": 1}], "int")
    except AssertionError:
        return
    raise AssertionError("a translation that rounds the wrong way was not caught")
