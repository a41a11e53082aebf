"""A finite domain, wholly enumerated, is proved (checkers.prove.finite): and nothing less than that is."""
from __future__ import annotations

import pathlib
from dataclasses import replace

import pytest

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.prove.finite import finite_proof, finite_reason
from checkers.run import RunOptions
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = load_spec(ROOT / "tests" / "data" / "finite.toml")


@pytest.mark.parametrize("cid, count", [("small-square", 11), ("depends-on-a-parameter", 126), ("huge-values", 11),
                                        ("filtered", 31), ("closed", 1)])
def test_a_finite_domain_checked_whole_is_proved(cid, count):
    v = finite_proof(SPEC.claim(cid), RunOptions())
    assert v is not None and v.verdict == "proved" and v.method == "prove"
    assert v.scope.startswith(f"exhaustive: the whole domain, {count} instance")
    assert v.instances == count


def test_a_printed_table_is_proved_whole():
    v = finite_proof(SPEC.claim("table"), RunOptions())
    assert v is not None and v.verdict == "proved" and "the whole printed table, 5 values" in v.scope


def test_prove_claim_takes_the_exhaustive_proof_first():
    v = prove_claim(SPEC.claim("small-square"), RunOptions())
    assert v.verdict == "proved" and v.scope.startswith("exhaustive: the whole domain")


# false variants: each is refuted or left unproved, never proved by exhaustion
def test_false_at_the_last_instance_is_not_proved():
    c = SPEC.claim("false-at-the-edge")
    assert finite_proof(c, RunOptions()) is None
    assert check_exhaustive(c).verdict == "refuted"


@pytest.mark.parametrize("cid", ["window-equal-to-domain", "open-domain"])
def test_a_window_of_its_own_is_never_the_whole_domain(cid):
    c = SPEC.claim(cid)
    assert finite_reason(c, RunOptions()) is not None
    assert finite_proof(c, RunOptions()) is None


def test_a_vacuous_window_proves_nothing():
    assert finite_proof(SPEC.claim("nowhere"), RunOptions()) is None


def test_a_window_verdict_that_missed_instances_proves_nothing():
    c = SPEC.claim("small-square")
    w = check_exhaustive(c)
    assert finite_proof(c, RunOptions(), window=replace(w, instances=w.instances - 1)) is None
    assert finite_proof(c, RunOptions(), window=replace(w, verdict="ill-defined")) is None
    assert finite_proof(c, RunOptions(), window=replace(w, method="sample")) is None


def test_a_pinned_run_proves_nothing():
    assert finite_proof(SPEC.claim("small-square"), RunOptions(pins={"x": 3})) is None
