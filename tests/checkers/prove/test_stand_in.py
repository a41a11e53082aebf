"""A claim proved with proved formulas standing for G (checkers.prove.stand_in): the stand-in claim states the
rewritten statement in plans of its own, so a backend that reads its plan (Walnut) translates the stand-in, not
the original statement with G in it; the original claim's plans are left as they were."""
from __future__ import annotations

import pathlib

from checkers.prove.stand_in import stand_in_claim, stand_in_text
from nimjos.spec.loader import load_spec

SPEC = load_spec(pathlib.Path(__file__).resolve().parents[3] / "tests" / "data" / "mex.toml")


def test_the_stand_in_claim_is_compiled_from_the_rewritten_statement():
    original = SPEC.claim("nim2-from-grundy")
    before = original.plan().formula.text
    proxy = stand_in_claim(original)
    assert proxy is not None and proxy.plans is not original.plans
    for profile in ("default", "deep"):
        plan = proxy.plan(profile)
        assert plan.formula.text == stand_in_text(original) and "G(" not in plan.formula.text
        assert plan.assume is None
    assert original.plan().formula.text == before and "G(nim2" in before


def test_the_stand_in_of_a_claim_with_an_assumption_has_none():
    original = SPEC.claim("nim2-p-from-p-positions")
    proxy = stand_in_claim(original)
    assert proxy is not None and proxy.assume_text is None and proxy.plan().assume is None
    assert proxy.plan().formula.text == stand_in_text(original)


def test_a_stand_in_proof_that_fails_beyond_the_window_is_a_prover_bug(monkeypatch, walnut):
    """The stand-in proof is evaluated beyond the window before it prints: a failure there is marked as every prover
    bug is (checkers.prove.soundness.prover_bug: inconclusive, its evidence, exit 3), not raised."""
    from checkers.context import CheckContext
    from checkers.options import RunOptions
    import checkers.prove.method as prove_method
    from checkers.prove.soundness import PROVER_BUG
    from nimjos.verdict import Counterexample
    monkeypatch.setattr(prove_method, "probe_beyond", lambda *a, **k: (1, 1, Counterexample({"x": 40, "y": 3})))
    ctx = CheckContext.for_claim()
    with ctx.installed():
        v = prove_method._with_stand_ins(SPEC.claim("nim2-from-grundy"), RunOptions(timeout=20), (), ctx)
    assert v is not None and v.verdict == "inconclusive"
    assert "fails beyond the window at" in v.evidence[PROVER_BUG] and "standing for G" in v.evidence[PROVER_BUG]
