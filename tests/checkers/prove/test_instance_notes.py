"""The prover's notes when Z3's model of a failure is not confirmed: they say what was tried and what may let Z3
decide (before: "(an abstraction)" or "not confirmed by the engine (an abstraction, or too large)" alone)."""
from __future__ import annotations

import pathlib

from checkers.prove.instance import Attempt, _confirm
from checkers.prove.attempt import QueryResult
from nimjos.spec.loader import load_spec

DATA = pathlib.Path(__file__).resolve().parents[2] / "data"


def _spec(tmp_path, text):
    p = tmp_path / "s.toml"
    p.write_text(text)
    return load_spec(p)


def test_a_holds_model_that_holds_exactly_names_the_abstraction_and_what_to_do(tmp_path):
    spec = _spec(tmp_path, '''[source]
id = "s"
[[claim]]
id = "pow"
for_all = "0 <= n"
window = "n <= 30"
holds = "2**n != 3 * n + 7"
expect = "holds"
''')
    claim = spec.claims[0]
    plan = claim.plan()
    # a model Z3 could give with 2^n abstracted: n = 3 (exactly, 2^3 = 8 != 16, so the statement holds there)
    att = _confirm(plan, None, {}, QueryResult("the statement", "fails", {"n": 3}),
                   Attempt({}, "proved", abstractions={"2^e"}))
    assert att.status == "inconclusive"
    assert att.note.startswith("Z3's model n=3 is not a counterexample when evaluated exactly: Z3 decided an "
                               "abstraction of the statement (abstracting 2^n)")
    assert "prove.using" in att.note and "prove.each" in att.note and "prove.for_all" in att.note


def test_a_game_model_the_engine_does_not_confirm_says_what_was_tried():
    spec = load_spec(DATA / "tiny.toml")
    claim = spec.claims[0]   # nim1: G(x) = x, true
    plan = claim.plan()
    att = _confirm(plan, "grundy", {}, QueryResult("(b) every lower value is reached", "fails", {"x": 7}),
                   Attempt({}, "proved", abstractions={"unknown G"}))
    assert att.status == "inconclusive"
    assert "the engine finds no failure at that position (re-evaluated from the moves, up to 500,000 positions)" in att.note
    assert "a lemma in prove.using, prove.each or a strategy may let Z3 decide" in att.note


def test_walnuts_class_beside_a_z3_proof_says_it_is_walnuts(tmp_path, walnut):
    # Walnut proves it one h at a time (h * Q: multiplication of two variables), Z3 for every h: the verdict is
    # Z3's `proved`, and Walnut's narrower class is in the notes as Walnut's, never read as the proof's scope
    from checkers.prove import prove_claim
    from checkers.run import RunOptions
    spec = _spec(tmp_path, '''[source]
id = "s"
[[claim]]
id = "cases"
window = "1 <= h <= 10 and 0 <= Q <= 40 and 0 <= R < h and 0 <= k < Q*h + R"
for_all = "h >= 1 and Q >= 0 and 0 <= R < h and 0 <= k < Q*h + R"
holds = "(Q*h <= k < Q*h + R and 0 <= k - Q*h < R) or (k < Q*h and k // h < Q and 0 <= k % h < h)"
''')
    v = prove_claim(spec.claims[0], RunOptions())
    assert v.verdict == "proved" and "for h = 1..10 only" not in v.scope
    walnut = [n for n in v.notes if "for h = 1..10 only" in n]
    assert walnut and all(n.startswith("Walnut: proved-bounded (") for n in walnut)
