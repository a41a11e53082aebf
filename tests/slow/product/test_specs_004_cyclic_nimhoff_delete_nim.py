"""The spec of document 004 (specs/004_cyclic_nimhoff_delete_nim.toml): it loads, every claim plans in both
profiles, and the printed statements found wrong are refuted at their recorded counterexample while their
corrections (and the hypothesis-dropping claims) get the verdict the spec expects.

The long windows are left to ``nimjos check``; these tests run the refuted claims, their corrected
siblings and the relaxations only, each on its default window (a few seconds in all).
"""
from __future__ import annotations

from pathlib import Path

import pytest

from checkers.window.exhaustive import check_exhaustive
from nimjos.spec.plan import plan_claim
from nimjos.spec.loader import load_spec

SPEC = Path(__file__).resolve().parents[3] / "specs" / "004_cyclic_nimhoff_delete_nim.toml"


@pytest.fixture(scope="module")
def spec():
    return load_spec(SPEC)


def _related(spec) -> list:
    """Claims expected to fail, the claims correcting them, and the claims dropping a hypothesis."""
    wrong = {c.id for c in spec.claims if c.expect in ("refuted", "ill-defined")}
    return [c for c in spec.claims if c.id in wrong or c.corrects in wrong or c.relaxes]


def test_every_claim_plans_in_both_profiles(spec):
    for claim in spec.claims:
        for profile in ("default", "deep"):
            assert plan_claim(claim, profile) is not None


def test_every_wrong_statement_has_a_correction_or_is_a_relaxation(spec):
    corrected = {c.corrects for c in spec.claims if c.corrects}
    for c in spec.claims:
        if c.expect == "refuted" and not c.relaxes:
            assert c.id in corrected or (c.reading and c.note), f"{c.id} is refuted: nothing corrects it, no reading"


def test_refuted_statements_and_their_corrections(spec):
    for claim in _related(spec):
        verdict = check_exhaustive(claim, "default")
        assert verdict.agrees_with(claim.expect), (claim.id, verdict.verdict)
        if claim.expect_counterexample:
            assert verdict.counterexamples[0].position_text() == claim.expect_counterexample, claim.id
