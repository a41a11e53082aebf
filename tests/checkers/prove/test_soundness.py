"""A proof against its window: one rule (checkers.prove.soundness), applied by the dispatcher (checkers.run) to the
verdict of every proving route. Each route's proof of a true claim is given a window that contradicts it inside
its class (a fake window verdict: the claims are true, so only the rule can turn their proofs down): it must come
out as a prover bug, ``inconclusive``, never ``proved``; a point outside the proof's class is no bug."""
from __future__ import annotations

import pathlib

import pytest

import checkers.prove.soundness as soundness
from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove.method import prove_lemma
from checkers.prove.soundness import PROVER_BUG, against_window
from checkers.run import Earlier, METHODS, route
from nimjos.spec.loader import load_spec
from nimjos.verdict import Counterexample, ProvedClass, Verdict
from nimjos.words import Method

ROOT = pathlib.Path(__file__).resolve().parents[3]
LEMMAS = load_spec(ROOT / "tests" / "data" / "lemmas.toml")
HEAPS = load_spec(ROOT / "examples" / "heap_games.toml")
KAYLES = load_spec(ROOT / "examples" / "misere" / "kayles.toml")


def refuted_at(claim_id: str, **bindings) -> Verdict:
    """A window verdict that says the claim fails at `bindings` (the claim is true there: only a fake says so)."""
    return Verdict(claim_id, "refuted", "exhaustive", "", counterexamples=[Counterexample(bindings, 0, 1)])


def dispatched(method: Method, claim, window: Verdict, opts: RunOptions | None = None) -> Verdict:
    """The verdict of `method` on `claim` through the dispatcher, the window's verdict being `window`."""
    with CheckContext.for_claim().installed() as context:
        v = METHODS[method](claim, opts or RunOptions(), Earlier(window=window), context)
    assert isinstance(v, Verdict)
    return v


def assert_bug(v: Verdict, backend: str) -> None:
    assert v.verdict == "inconclusive", (v.verdict, v.scope)
    assert v.evidence[PROVER_BUG].startswith(f"PROVER BUG: {v.method} ({backend}) said proved")
    assert any(n.startswith("PROVER BUG") and "; was: proved" in n for n in v.notes)


def test_the_route_proves_the_claim_when_the_window_agrees():
    """The claims below are proved by their routes when the window holds (the contrary tests mean something)."""
    checked = Verdict("half", "checked", "exhaustive", "")
    assert dispatched(Method.PROVE, LEMMAS.claim("half"), checked, RunOptions(walnut=False)).verdict == "proved"
    assert route(Method.PROVE, KAYLES.claim("kayles-rows-every-n").plan()).handler.__name__ == "_misere"
    assert dispatched(Method.PROVE, KAYLES.claim("kayles-rows-every-n"), checked).verdict == "proved"


def test_z3_proof_the_window_refutes_is_a_prover_bug():
    v = dispatched(Method.PROVE, LEMMAS.claim("half"), refuted_at("half", x=3), RunOptions(walnut=False))
    assert_bug(v, "Z3")


def test_walnut_proof_the_window_refutes_is_a_prover_bug(walnut):
    v = dispatched(Method.PROVE, LEMMAS.claim("half"), refuted_at("half", x=3))
    assert_bug(v, "Walnut")


def test_heap_reduction_proof_the_window_refutes_is_a_prover_bug(walnut):
    claim = HEAPS.claim("bouton")
    assert route(Method.PROVE, claim.plan()).handler.__name__ == "_heap_prove"
    v = dispatched(Method.PROVE, claim, refuted_at("bouton", n=2, h=(3, 3)))
    assert_bug(v, "Sprague-Grundy")


def test_misere_proof_the_window_refutes_is_a_prover_bug():
    v = dispatched(Method.PROVE, KAYLES.claim("kayles-rows-every-n"), refuted_at("kayles-rows-every-n", n=20))
    assert_bug(v, "periodicity")


def test_periodicity_proof_the_window_refutes_is_a_prover_bug():
    claim = HEAPS.claim("kayles-period-12")
    v = dispatched(Method.PERIODICITY, claim, refuted_at("kayles-period-12", n=100))
    assert_bug(v, "periodicity")


def test_a_window_ill_defined_inside_the_class_leaves_the_proof_inconclusive_and_no_bug():
    """A proof says the claim holds at every point of its class where it has a value: a point where the claim's
    language cannot evaluate it leaves the class not proved (inconclusive, with a note), and the window's
    ill-defined is the claim's verdict; a prover bug (exit 3) is a point where the claim is false."""
    window = Verdict("half", "ill-defined", "exhaustive", "",
                     undefined=[Counterexample({"x": 4}, reason="no value", undefined="language")])
    v = dispatched(Method.PROVE, LEMMAS.claim("half"), window, RunOptions(walnut=False))
    assert v.verdict == "inconclusive" and PROVER_BUG not in v.evidence
    assert any("cannot be evaluated at 4" in n and "not proved" in n for n in v.notes)


def test_a_point_only_over_a_limit_of_the_machine_is_no_contradiction():
    window = Verdict("half", "ill-defined", "exhaustive", "",
                     undefined=[Counterexample({"x": 4}, reason="too many steps", undefined="resource")])
    proof = Verdict("half", "proved", "prove", "all x >= 0", engines=("Z3",))
    against_window(LEMMAS.claim("half"), proof, window)
    assert proof.verdict == "proved" and PROVER_BUG not in proof.evidence


@pytest.mark.parametrize("x, bug", [(3, True), (99, False), (-1, False)])
def test_a_bounded_proof_is_judged_inside_its_recorded_class_only(x, bug):
    """Below 2^4 (a bit width recorded as data) the window's point contradicts the proof; at 99 it lies outside
    the class, at -1 outside the claim's domain: no bug (and the window's refutation stays the claim's verdict)."""
    proof = Verdict("half", "proved-bounded", "prove", "for x < 2^4 only", proved_class=ProvedClass(width=4),
                    engines=("Z3",))
    against_window(LEMMAS.claim("half"), proof, refuted_at("half", x=x))
    assert (proof.verdict == "inconclusive") is bug and (PROVER_BUG in proof.evidence) is bug


def test_a_bounded_class_in_words_only_gives_a_note_not_a_bug():
    proof = Verdict("half", "proved-bounded", "prove", "for heaps h >= 1 only",
                    proved_class=ProvedClass(heaps="h >= 1", lemma="one-heap"), engines=("Sprague-Grundy",))
    against_window(LEMMAS.claim("half"), proof, refuted_at("half", x=3))
    assert proof.verdict == "proved-bounded" and any("stated in words" in n for n in proof.notes)


def test_the_same_rule_holds_a_lemma_to_its_own_window(monkeypatch):
    """A claim another proof uses is held to its own window (checked by the rule, as the runner's is this
    claim's): a lemma the window contradicts is not proved, so no proof rests on it."""
    monkeypatch.setattr(soundness, "check_exhaustive", lambda *a, **k: refuted_at("half", x=5))
    v = prove_lemma(LEMMAS.claim("half"), RunOptions(walnut=False), ("halves",))
    assert_bug(v, "Z3")


def test_refuted_and_other_words_are_left_alone():
    for word in ("refuted", "inconclusive", "checked"):
        v = Verdict("half", word, "prove", "")
        against_window(LEMMAS.claim("half"), v, refuted_at("half", x=3))
        assert v.verdict == word and not v.notes
