"""Helpers shared by the tests of the vectorised window (tests/nimjos/lang/test_vector.py and
tests/slow/nimjos/lang/test_vector_specs.py): a claim's exhaustive verdict by both paths, and the size of its
window."""
from __future__ import annotations

from typing import Any

import checkers.window.exhaustive as exhaustive
import checkers.window.vectorised as vectorised


def scalar_and_vector(claim: Any) -> tuple[Any, Any]:
    """The exhaustive verdict of `claim` by the scalar path and by the vectorised path."""
    old = vectorised.VECTOR_MIN
    try:
        vectorised.VECTOR_MIN = 10 ** 12
        scalar = exhaustive.check_exhaustive(claim)
        vectorised.VECTOR_MIN = 0
        vector = exhaustive.check_exhaustive(claim)
    finally:
        vectorised.VECTOR_MIN = old
    return scalar, vector


def window_size(claim: Any) -> int:
    """The number of instances of `claim`'s window in the default profile."""
    plan = claim.plan("default")
    arrays = plan.window.arrays({})
    return sum(1 for _ in plan.window.bindings({})) if arrays is None else len(next(iter(arrays.values())))
