"""Conformance of the vectorised evaluation (nimjos/lang/vector.py, as checkers/window/vectorised.py calls it) to the
scalar language, on generated expressions (tests/conformance/; docs/testing.md: the long mode)."""
from __future__ import annotations

from hypothesis import event, given
from hypothesis import strategies as st

from conformance import conformance_settings
from conformance.backends import check_vector
from conformance.grammar import claim

#: coordinates of the points: small values of both signs, and values near the int64 guard (2**62)
COORD = st.one_of(st.integers(-12, 20), st.sampled_from([2 ** 31, 2 ** 40, -2 ** 40, 2 ** 61, 2 ** 62 - 1]))
POINTS = st.lists(st.tuples(COORD, COORD), min_size=1, max_size=24)


@conformance_settings(150, 20_000)
@given(claim(big=True), POINTS)
def test_vectorised_truth_values_agree(c, points):
    event(check_vector(*c, points))


@conformance_settings(150, 20_000)
@given(claim(big=True, boolean=False), POINTS)
def test_vectorised_integers_agree(c, points):
    event(check_vector(*c, points))


def test_the_harness_compares_and_sees_refusals():
    """A value is compared; where the language has no value (v2(0)) the vectorised path must refuse, and does."""
    assert check_vector({}, "(x // 3) + abs(y)", [(-7, -2), (5, 0)]) == "compared"
    assert check_vector({}, "v2(x) > 0", [(0, 0)]) == "refused"
