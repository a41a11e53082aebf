"""Proofs over every function of a family of symbolic size (checkers.z3.unknown): what is true is proved, by
induction on n with f an unknown function; a wrong induction step, a non-monotone f where monotone is needed and a
lemma proved for the nondecreasing f used for every f are never proved."""
from __future__ import annotations

import pathlib

import pytest

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.run import RunOptions
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = load_spec(ROOT / "tests" / "data" / "unknown_function.toml")


@pytest.mark.parametrize("cid", ["step", "intervals"])
def test_a_statement_for_every_nondecreasing_f_is_proved_by_induction(cid):
    v = prove_claim(SPEC.claim(cid), RunOptions(timeout=10))
    assert v.verdict == "proved", v.scope
    assert "for every f in nondecreasing(K, 1, V) (f an unknown function)" in v.scope
    assert "by strong induction on n" in v.scope and "mex facts" not in v.scope


@pytest.mark.parametrize("cid", ["wrong-step", "any-f-step", "any-f-from-step", "any-f-invariant"])
def test_a_false_variant_is_never_proved(cid):
    claim = SPEC.claim(cid)
    v = prove_claim(claim, RunOptions(timeout=2))
    assert v.verdict not in ("proved", "proved-bounded"), v.scope
    # and each is false indeed: the window refutes it
    assert check_exhaustive(claim, "default", 1, None).verdict == "refuted"


def test_f_read_beyond_its_table_is_not_proved():
    claim = SPEC.claim("beyond-the-table")
    v = prove_claim(claim, RunOptions(timeout=2))
    assert v.verdict not in ("proved", "proved-bounded"), v.scope
    assert check_exhaustive(claim, "default", 1, None).verdict == "ill-defined"


def test_a_model_of_the_unknown_function_is_read_back_and_confirmed():
    v = prove_claim(SPEC.claim("all-above-one"), RunOptions(timeout=5))
    assert v.verdict == "refuted"
    cx = v.counterexamples[0].bindings
    f = cx["f"]
    assert len(f.table) == cx["K"] and f(cx["k"]) < 2   # a table of the family, where the statement fails
