"""Periodicity proved for every heap size: the Guy-Smith theorem, finite subtraction games, and the
``periodicity`` method on periodic claims (proved, or refuted at the first failing n)."""
from __future__ import annotations

from pathlib import Path

import pytest

from checkers.heaps.periodicity import periodic_verdict
from checkers.run import RunOptions, run_claim
from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.periodicity import guy_smith_range, octal_proof, subtraction_proof
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, octal_rules
from nimjos.lang.errors import EvalError
from nimjos.spec.loader import load_spec
from nimjos.verdict import LeftOut


def test_guy_smith_proves_the_known_periods_and_refutes_wrong_ones():
    kayles, dawson = octal_rules("0.77"), octal_rules("0.07")
    assert octal_proof(kayles, 12, 71).holds and octal_proof(dawson, 34, 53).holds
    assert octal_proof(octal_rules("0.137"), 34, 52).holds
    assert octal_proof(kayles, 12, 72).holds  # a later start is true too
    wrong = octal_proof(kayles, 12, 70)
    assert not wrong.holds and wrong.first_failure == 70 and wrong.values == (2, 6)
    assert octal_proof(dawson, 34, 52).first_failure == 52
    seq = sequence(kayles, 500).tolist()
    bad = octal_proof(kayles, 6, 71)
    assert bad.first_failure == next(n for n in range(71, 400) if seq[n + 6] != seq[n])
    assert guy_smith_range(GRUNDYS_GAME, 3, 0) is None and guy_smith_range(LASKERS_NIM, 4, 0) is None
    assert guy_smith_range(kayles, 12, 71) == 2 * 71 + 12 + 2  # the theorem as printed for octal games
    with pytest.raises(EvalError):
        octal_proof(kayles, 0, 71)


def test_the_theorem_agrees_with_a_long_computation():
    """Every period the theorem proves on a few octal games holds far beyond its range."""
    for code in ("0.77", "0.07", "0.137", "0.6", "0.16", "4.07", "0.51", "0.71"):
        rules = octal_rules(code)
        seq = sequence(rules, 6000).tolist()
        for p in range(1, 80):
            for n0 in (0, 1, 10, 53, 71, 120):
                proof = octal_proof(rules, p, n0, seq)
                if proof.holds:
                    assert all(seq[n + p] == seq[n] for n in range(n0, 6000 - p)), (code, p, n0)


def test_finite_subtraction_sets():
    assert subtraction_proof(frozenset({2, 3}), 5, 0).holds
    assert subtraction_proof(frozenset({1, 4}), 5, 0).holds
    wrong = subtraction_proof(frozenset({2, 3}), 4, 0)
    assert not wrong.holds and wrong.first_failure == 0
    assert subtraction_proof(lambda s: True, 1, 0) is None


SPEC = '''[source]
id = "per"
[[claim]]
id = "kayles"
game = 'octal("0.77")'
position = ["n"]
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 12, preperiod = 71 }
[[claim]]
id = "kayles-late"
game = 'octal("0.77")'
position = ["n"]
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 12, preperiod = 69 }
[[claim]]
id = "dawson"
game = 'octal("0.07")'
position = ["n"]
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 34, preperiod = 53 }
[[claim]]
id = "dawson-period"
game = 'octal("0.07")'
position = ["n"]
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 17, preperiod = 53 }
[[claim]]
id = "sub"
game = "subtraction({1, 2, k})"
position = ["n"]
for_all = "0 <= n and 3 <= k <= 5"
window = "n <= 100"
periodic = { period = "k + 1" }
[[claim]]
id = "grundy"
game = "grundys_game()"
position = ["n"]
for_all = "0 <= n"
window = "n <= 100"
periodic = { period = 3 }
'''


def test_the_method_on_claims(write_spec):
    spec = load_spec(write_spec(SPEC))
    v = periodic_verdict(spec.claim("kayles"), RunOptions())
    assert v.verdict == "proved" and "Guy-Smith" in v.scope and "71 <= n < 156" in v.scope
    v = periodic_verdict(spec.claim("kayles-late"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 70}  # g(81) = g(69), the first failure is 70
    assert periodic_verdict(spec.claim("dawson"), RunOptions()).verdict == "proved"
    v = periodic_verdict(spec.claim("dawson-period"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings["n"] >= 53
    v = periodic_verdict(spec.claim("sub"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"k": 4, "n": 0}  # {1, 2, 4} has period 3
    left = periodic_verdict(spec.claim("grundy"), RunOptions())   # no theorem for Grundy's game: left out, with why
    assert isinstance(left, LeftOut) and left.reason.startswith("no periodicity theorem applies to")


def test_periodic_claims_are_sampled_beyond_the_window_and_not_proved_by_the_prover():
    """A periodic claim is sampled (g(n + p) = g(n) at heap sizes beyond the window) and the prover says it
    does not apply; a wrong period is refuted by the sampler too, and the verdicts do not change between runs."""
    spec = load_spec(Path(__file__).resolve().parents[4] / "examples" / "heap_games.toml")
    right = run_claim(spec.claim("kayles-period-12"), RunOptions(methods=("sample", "prove"), repair=False))
    by = {v.method: v for v in right.verdicts}
    assert by["sample"].verdict == "sampled" and by["sample"].beyond >= 20 and by["sample"].largest > 10_000
    assert by["prove"].verdict == "inconclusive" and "periodicity method" in by["prove"].scope
    wrong = run_claim(spec.claim("kayles-period-12-from-70"), RunOptions(methods=("sample",), repair=False))
    again = run_claim(spec.claim("kayles-period-12-from-70"), RunOptions(methods=("sample",), repair=False))
    assert wrong.verdicts[0].verdict == "sampled"  # from 70 on it fails only at n = 70, inside the window
    assert [v.to_json()["scope"] for v in wrong.verdicts] == [v.to_json()["scope"] for v in again.verdicts]
