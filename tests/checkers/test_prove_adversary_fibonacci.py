"""False claims about the Fibonacci-numeration built-ins (an off-by-one of floor_phi2, a negative domain Walnut
cannot read, booleans as integers) and one undefined at 0: none may come back proved."""
from __future__ import annotations

from pathlib import Path

import pytest

from checkers.run import RunOptions, run_claim
from nimjos.spec.loader import load_spec

SPEC = load_spec(Path(__file__).resolve().parents[1] / "data" / "adversary_fibonacci.toml")


@pytest.mark.parametrize("claim_id, verdict", [
    ("phi2-off-by-one", "refuted"), ("zeck-tz-at-zero", "ill-defined"), ("phi-negative", "refuted"),
    ("phi-bool", "refuted"),
])
def test_no_false_fibonacci_claim_is_proved(claim_id, verdict, walnut):
    result = run_claim(SPEC.claim(claim_id), RunOptions(repair=False))
    assert result.final.verdict == verdict
    assert all(v.verdict not in ("proved", "proved-bounded") for v in result.verdicts)
