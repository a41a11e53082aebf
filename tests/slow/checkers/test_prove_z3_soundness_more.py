"""More generated claims for the Z3 translation's soundness test of tests/checkers/test_prove_z3_soundness.py
(another name, so another fixed seed): the inner loop runs 40, this file 80 more (a CPU hog, so slow)."""
from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from conformance import conformance_settings
from conformance.grammar import claim
from tests.checkers.test_prove_z3_soundness import COORD, check_z3


@conformance_settings(80, 80)
@given(claim(big=True), st.lists(st.tuples(COORD, COORD), min_size=1, max_size=6))
def test_more_int_translations_never_prove_a_false_point(c, points):
    event(check_z3(*c, points, "int"))
