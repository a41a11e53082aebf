"""A Josephus function's unknown in Z3 stands for it on its domain only (checkers/z3/translate.py,
JOSEPHUS_DOMAINS): a call outside it is undefined, as in the language (found by the conformance long mode)."""
from __future__ import annotations

from conformance.backends import check_z3


def test_a_call_outside_the_domain_is_not_excluded_silently():
    # before the obligation, Z3 excluded x = -1 although the language has no value there (an assertion in check_z3)
    assert check_z3({}, "(x in range(x, survivor(x, 1)))", [{"x": -1, "y": 0}], "int") == "judged int"
    for text in ("removal_index(x, 2, y) == removal_index(x, 2, y)", "F(y, x) == F(y, x)", "JJ(2, x, y) >= 0"):
        check_z3({}, text, [{"x": 3, "y": 4}, {"x": 0, "y": 0}, {"x": 5, "y": 2}], "int")
