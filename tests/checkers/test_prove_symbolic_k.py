"""Maximum Nim with k symbolic (route B of issue 40): floor(a / b) with b symbolic as an exact quotient, G of
maxnim(k) for every k from the rule-function lemma, and false variants that are refuted or left unproved."""
from __future__ import annotations

import itertools
import pathlib

import pytest
import z3

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.z3.translate import Builder
from checkers.run import RunOptions
from nimjos.lang.syntax import parse
from nimjos.lang.expr import compile_expression
from nimjos.spec.loader import load_spec
from nimjos.spec.names import spec_namespace

ROOT = pathlib.Path(__file__).resolve().parents[2]
SPEC = load_spec(ROOT / "tests" / "data" / "symbolic_k.toml")


@pytest.mark.parametrize("text", ["a // b", "a % b", "floor(a / b)", "ceil(a / b)", "(a + 1) // b - a // b"])
def test_the_quotient_agrees_with_the_language(text):
    """The translation with a and b symbolic, evaluated at each point, is the language's value (signs included)."""
    b = Builder(spec_namespace(), mode="int")
    a_, b_ = b.var("a"), b.var("b")
    t = b.to_term(b.term(parse(text), {"a": a_, "b": b_}))
    exact = compile_expression(text, spec_namespace(), variables={"a", "b"})
    for a, d in itertools.product(range(-9, 10), [-4, -3, -2, -1, 1, 2, 3, 5]):
        s = z3.Solver()
        s.add(*b.assertions(), a_ == a, b_ == d)
        assert s.check() == z3.sat
        assert s.model().eval(t).as_long() == exact({"a": a, "b": d}), (text, a, d)


def test_lemma_3_1_ii_is_proved_for_every_k():
    v = prove_claim(SPEC.claim("lemma-3.1-ii"), RunOptions(timeout=30))
    assert v.verdict == "proved", v.scope
    assert "k >= 2" in v.scope and "k symbolic" in v.scope and "Lemma 2.3" in v.scope


def test_lemma_2_2_for_the_ceiling_is_proved_for_every_k():
    v = prove_claim(SPEC.claim("lemma-2.2-ceil"), RunOptions(timeout=30))
    assert v.verdict == "proved", v.scope
    assert "ceil(x / k) shown a rule function" in v.scope


def test_the_values_below_k_are_proved_by_induction():
    v = prove_claim(SPEC.claim("below-k"), RunOptions(timeout=30))
    assert v.verdict == "proved", v.scope
    assert "induction on m" in v.scope


@pytest.mark.parametrize("cid", ["wrong-step", "beyond-small-class"])
def test_a_false_variant_is_never_proved(cid):
    """A wrong induction step, and a lemma proved for k = 2 used for every k: each is false (the window refutes
    it), and the prover refutes it or leaves it unproved."""
    _never_proved(cid)


def test_a_consequence_of_a_wrong_floor_fact_is_never_proved(walnut):
    """Walnut is asked about the floor fact first (and says no: it is not automatic with k symbolic)."""
    _never_proved("from-wrong-floor")


def _never_proved(cid):
    claim = SPEC.claim(cid)
    assert check_exhaustive(claim).verdict == "refuted"
    v = prove_claim(claim, RunOptions(timeout=20))
    assert v.verdict in ("refuted", "inconclusive"), (v.verdict, v.scope)


def test_the_wrong_floor_fact_is_refuted_by_the_exact_quotient(walnut):
    v = prove_claim(SPEC.claim("wrong-floor"), RunOptions(timeout=10))
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0].bindings
    assert cx["x"] % cx["k"] == 0


def test_the_lemma_on_a_smaller_class_is_proved_there():
    assert prove_claim(SPEC.claim("small-class"), RunOptions(timeout=10)).verdict == "proved"
