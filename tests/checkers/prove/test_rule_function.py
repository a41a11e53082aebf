"""Maximum Nim's Grundy values for every rule function (checkers.prove.rule_function): the lemma, and its use."""
from __future__ import annotations

import pathlib

from checkers.window.exhaustive import check_exhaustive
from checkers.prove import prove_claim
from checkers.prove.rule_function import general_lemma, rule_function_of
from checkers.run import RunOptions
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = load_spec(ROOT / "tests" / "data" / "induction.toml")


def test_the_general_lemma_is_proved():
    ok, how = general_lemma()
    assert ok, how
    assert "every rule function" in how


def test_the_shape_is_read_from_the_declared_moves():
    assert rule_function_of(SPEC.namespace.games["maxnim"]) is not None
    assert rule_function_of(SPEC.namespace.games["shifted"]) is not None  # the shape; f is checked later
    assert rule_function_of(SPEC.namespace.games["sub2"]) is None


def test_lemma_3_1_ii_is_proved_from_the_lemma_and_names_it():
    v = prove_claim(SPEC.claim("maxnim-lemma-3.1-ii"), RunOptions(timeout=30))
    assert v.verdict == "proved", v.scope
    assert "Lemma 2.3" in v.scope and ("k = 2..4" in v.scope or "2 <= k <= 4, x >= 0" in v.scope)


def test_a_mutant_is_refuted_never_proved():
    """The facts are consistent with a false statement's negation: Z3 finds the model, the engine confirms it."""
    v = prove_claim(SPEC.claim("maxnim-lemma-3.1-i-mutant"), RunOptions(timeout=30))
    assert v.verdict == "refuted", v.scope
    window = check_exhaustive(SPEC.claim("maxnim-lemma-3.1-i-mutant"))
    assert window.verdict == "refuted"
    assert v.counterexamples[0].bindings == window.counterexamples[0].bindings


def test_no_facts_for_a_game_whose_f_is_not_a_rule_function():
    """f(0) = 1: the lemma does not apply, the statement is false, and the prover must not prove it."""
    claim = SPEC.claim("shifted-lemma")
    assert check_exhaustive(claim).verdict == "refuted"
    v = prove_claim(claim, RunOptions(timeout=10))
    assert v.verdict in ("inconclusive", "refuted"), v.scope
    assert "Lemma 2.3" not in v.scope


def test_one_heap_nim_written_as_maximum_nim_is_proved_from_the_lemma(write_spec):
    """x -> x - t for 1 <= t <= x is Maximum Nim with f(x) = x, a rule function: G(x) = x follows."""
    text = (ROOT / "tests" / "data" / "lemmas.toml").read_text().replace(
        'moves = [ { to = "t", where = "0 <= t <= x - 1" } ]', 'moves = [ { to = "x - t", where = "1 <= t <= x" } ]')
    v = prove_claim(load_spec(write_spec(text)).claim("shift"), RunOptions(timeout=10))
    assert v.verdict == "proved" and "Lemma 2.3" in v.scope
