"""The mex facts of G at a symbolic position, and proved grundy / P-position claims standing for G (route C of
the prover): true statements proved, false variants refuted or left unproved, never proved."""
from __future__ import annotations

import ast
import pathlib

import pytest

from checkers.context import CheckContext
from checkers.prove import prove_claim
from checkers.prove.method import _with_stand_ins
from checkers.prove.mex import terminates
from checkers.prove.stand_in import stand_in_text
from checkers.z3.terms import GameRef
from checkers.z3.translate import Builder
from checkers.run import RunOptions
from nimjos.lang.syntax import parse
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
SPEC = load_spec(ROOT / "tests" / "data" / "mex.toml")
OPTS = RunOptions(timeout=20)


@pytest.mark.parametrize("cid", ["p-iff-no-p-option", "options-differ"])
def test_statements_true_of_every_game_are_proved_from_the_mex_facts(cid):
    v = prove_claim(SPEC.claim(cid), OPTS)
    assert v.verdict == "proved", v.scope
    assert "the mex facts of G" in v.scope


@pytest.mark.parametrize("cid", ["wrong-p-iff", "wrong-every-option-positive", "wrong-value"])
def test_a_wrong_step_is_never_proved(cid):
    assert prove_claim(SPEC.claim(cid), OPTS).verdict in ("refuted", "inconclusive")


def test_no_mex_facts_for_a_game_the_descent_check_does_not_cover():
    b = Builder(SPEC.namespace, "int", 0)
    assert not terminates(b, GameRef(SPEC.namespace.games["up_and_down"], {}))   # loopy
    assert not terminates(b, GameRef(SPEC.namespace.games["shift_up"], {}))      # ends, but the sum grows
    assert terminates(b, GameRef(SPEC.namespace.games["nim2"], {}))
    v = prove_claim(SPEC.claim("sum-grows-p-iff"), OPTS)
    assert v.verdict != "proved" and "the mex facts" not in v.scope


def test_a_proved_grundy_claim_stands_for_g(walnut):
    v = prove_claim(SPEC.claim("nim2-from-grundy"), OPTS)
    assert v.verdict == "proved" and "from nim2-grundy (proved" in v.scope


def test_a_proved_p_position_claim_stands_for_g_equal_to_0(walnut):
    # the rewritten statement is built as a tree: the same tree as the text a reader writes
    assert ast.dump(parse(stand_in_text(SPEC.claim("nim2-p-from-p-positions")))) == ast.dump(parse(
        "(0 <= y and 0 <= x) and (0 <= x and 0 <= y) and (not (x == y) or (y == x and x == y))"))
    v = prove_claim(SPEC.claim("nim2-p-from-p-positions"), OPTS)
    assert v.verdict == "proved" and "nim2-p-positions" in v.scope


def test_a_wrong_lemma_proves_nothing(walnut):
    assert prove_claim(SPEC.claim("nim2-from-wrong-grundy"), OPTS).verdict != "proved"


def test_a_lemma_on_a_smaller_class_does_not_stand_for_g_outside_it(walnut):
    c = SPEC.claim("nim2-row-from-smaller-lemma")
    assert "(1 <= x and 0 <= 1)" in stand_in_text(c)     # the lemma's domain at the position, stated
    ctx = CheckContext.for_claim()
    with ctx.installed():
        assert _with_stand_ins(c, OPTS, (), ctx) is None


def test_a_lemma_proved_on_a_smaller_class_is_not_used_beyond_it(walnut):
    lemma = prove_claim(SPEC.claim("nim2-grundy-small"), OPTS)
    assert lemma.verdict == "proved" and lemma.scope.startswith("exhaustive: the whole domain")
    c = SPEC.claim("nim2-sum-from-small-lemma")
    assert "(0 <= x <= 3 and 0 <= y <= 3)" in stand_in_text(c)
    ctx = CheckContext.for_claim()
    with ctx.installed():
        assert _with_stand_ins(c, OPTS, (), ctx) is None
    assert prove_claim(c, OPTS).verdict != "proved"
