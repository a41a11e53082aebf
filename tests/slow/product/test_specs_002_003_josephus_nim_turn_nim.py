"""The specs of documents 002 and 003 (specs/002_josephus_nim.toml, specs/003_turn_nim_and_weighted_nim.toml:
Josephus Nim, Turn Nim and weighted Nim): they load, every claim plans in both profiles, every printed statement
found wrong has a corrected sibling with a note and a deep window (or rests on a reading, whose note says under
which reading the text holds), and on the default windows the wrong
statements are refuted (or ill-defined) at their recorded smallest counterexample while their corrections
and the hypothesis-dropping claims get the verdicts the specs expect (one test per claim).

The remaining claims are left to ``nimjos check``.
"""
from __future__ import annotations

import functools
import tomllib
from pathlib import Path

import pytest

from checkers.window.exhaustive import check_exhaustive
from nimjos.spec.plan import plan_claim
from nimjos.spec.loader import load_spec

SPECS = Path(__file__).resolve().parents[3] / "specs"
FILES = ("002_josephus_nim.toml", "003_turn_nim_and_weighted_nim.toml")
WRONG = ("refuted", "ill-defined")


@functools.lru_cache(maxsize=None)
def _spec(name: str):
    return load_spec(SPECS / name)


def _related_ids(name: str) -> list[str]:
    """Ids of the wrong statements, the claims correcting them and the claims dropping a hypothesis."""
    claims = tomllib.loads((SPECS / name).read_text(encoding="utf-8"))["claim"]
    wrong = {c["id"] for c in claims if c.get("expect") in WRONG}
    return [c["id"] for c in claims if c["id"] in wrong or c.get("corrects") in wrong or c.get("relaxes")]


@pytest.mark.parametrize("name", FILES)
def test_every_claim_plans_in_both_profiles(name):
    for claim in _spec(name).claims:
        for profile in ("default", "deep"):
            assert plan_claim(claim, profile) is not None, (claim.id, profile)


@pytest.mark.parametrize("name", FILES)
def test_every_wrong_printed_statement_has_a_noted_correction(name):
    spec = _spec(name)
    corrections = {c.corrects: c for c in spec.claims if c.corrects}
    for claim in spec.claims:
        if claim.expect in WRONG and not claim.relaxes:
            if claim.id not in corrections:
                assert claim.reading and claim.note, f"{claim.id} is {claim.expect}: nothing corrects it, no reading"
                continue
            fix = corrections[claim.id]
            assert fix.expect == "holds" and fix.note, fix.id
            assert "deep" in fix.raw, f"{fix.id} has no deep window"


@pytest.mark.parametrize("name,cid", [(n, cid) for n in FILES for cid in _related_ids(n)])
def test_wrong_statements_corrections_and_relaxations(name, cid):
    claim = _spec(name).claim(cid)
    verdict = check_exhaustive(claim, "default")
    assert verdict.agrees_with(claim.expect), (cid, verdict.verdict)
    if claim.expect_counterexample and verdict.verdict == "refuted":
        assert verdict.counterexamples[0].position_text() == claim.expect_counterexample, cid
