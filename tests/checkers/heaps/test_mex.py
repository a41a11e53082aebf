"""Arithmetic periodicity (g(n + p) = g(n) + s) proved for every heap size by the mex certificate in Walnut
(checkers/heaps/mex.py): Lasker's Nim proved, wrong saltus and preperiods refuted at the least n the engine
confirms, hexadecimal codes that leave three heaps, and the certificate against the engine on codes whose
periodicity the detector finds."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from checkers.heaps.mex import MexDisagreement, confirm_with_engine, mex_commands, mex_proof
from checkers.heaps.periodicity import periodic_verdict
from checkers.run import RunOptions
from nimjos.games.heaps.periodicity import heap_sequence
from nimjos.games.heaps.rules import LASKERS_NIM, HeapRules, octal_rules
from nimjos.games.periodicity import detect, holds
from nimjos.lang.errors import EvalError
from nimjos.spec.loader import load_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "arithmetic_periodicity.toml"


def _least_failure(rules: HeapRules, p: int, n0: int, s: int, reach: int = 300) -> int | None:
    return holds(heap_sequence(rules, n0 + p + reach), p, n0, s)


def test_laskers_nim_is_proved_for_every_heap_size_and_its_wrong_variants_refuted(walnut):
    spec = load_spec(EXAMPLES)
    v = periodic_verdict(spec.claim("laskers-nim-saltus-4"), RunOptions())
    assert v.verdict == "proved" and "mex certificate" in v.scope and "Walnut" in v.scope
    assert "g(n + 4) = g(n) + 4" in v.scope and "every n >= 1" in v.scope
    v = periodic_verdict(spec.claim("laskers-nim-saltus-3"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 1}
    assert (v.counterexamples[0].lhs, v.counterexamples[0].rhs) == (5, 4)   # g(5) = 5, g(1) + 3 = 4
    v = periodic_verdict(spec.claim("laskers-nim-saltus-4-from-0"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 0}
    assert periodic_verdict(spec.claim("laskers-nim-period-8-saltus-8"), RunOptions()).verdict == "proved"


@pytest.mark.parametrize("code,p,n0,s", [("0.8", 3, 1, 1), ("0.c", 2, 1, 1), ("0.3f", 6, 0, 3)])
def test_hexadecimal_codes_that_leave_up_to_three_heaps(code, p, n0, s, walnut):
    rules = octal_rules(code)
    assert mex_proof(rules, p, n0, s).holds
    for wrong in (s + 1, s - 1) if s else (1,):
        r = mex_proof(rules, p, n0, wrong)
        assert not r.holds and r.counterexample == _least_failure(rules, p, n0, wrong)


def test_the_certificate_agrees_with_the_engine_on_codes_the_detector_reads(walnut):
    """Codes with a tail digit or two-heap splits, drawn at random: where the detector finds an arithmetic
    periodicity in 300 values, the certificate proves it (and the engine agrees 1,000 further), or refutes it
    at the least failure the engine finds; one more in the saltus is never proved (refuted, or Walnut
    gives no answer within its state counts)."""
    rng = random.Random(26)
    tried = 0
    while tried < 4:
        rules = HeapRules(tuple([rng.choice((0, 4))] + [rng.randrange(8) for _ in range(rng.randrange(3))]),
                          tail=rng.choice((0, 2, 3, 6, 7)))
        found = detect(heap_sequence(rules, 300))
        if found is None or found.period > 8 or found.preperiod > 20 or found.saltus == 0:
            continue
        tried += 1
        p, n0, s = found.period, found.preperiod, found.saltus
        r = mex_proof(rules, p, n0, s)
        assert r.holds or r.counterexample == _least_failure(rules, p, n0, s, 2000), rules
        wrong = mex_proof(rules, p, n0, s + 1)   # refuted at the engine's least failure, or no answer (state limit)
        assert isinstance(wrong, str) or (not wrong.holds and
                                          wrong.counterexample == _least_failure(rules, p, n0, s + 1)), rules


def test_the_certificate_refuses_what_it_cannot_state():
    with pytest.raises(ValueError):
        mex_commands(LASKERS_NIM, [0, 1, 2, 4, 3], 4, 1, -1)      # a negative saltus
    with pytest.raises(ValueError):
        mex_commands(LASKERS_NIM, [0, 1, 2, 4, 3], 4, 1, True)    # a boolean is no saltus
    with pytest.raises(ValueError):
        mex_commands(LASKERS_NIM, [0, 1, 2], 4, 1, 4)             # the base table is short
    assert isinstance(mex_proof(LASKERS_NIM, 4, 1, -4), str)
    with pytest.raises(EvalError):
        mex_proof(LASKERS_NIM, True, 1, 4)


def test_a_proof_the_engine_contradicts_is_a_loud_prover_bug():
    confirm_with_engine(LASKERS_NIM, 4, 1, 4, 100)
    with pytest.raises(MexDisagreement):
        confirm_with_engine(LASKERS_NIM, 4, 1, 5, 100)


def test_the_detector_reads_laskers_nim():
    found = detect(heap_sequence(LASKERS_NIM, 400))
    assert (found.period, found.preperiod, found.saltus) == (4, 1, 4)


GRUNDY_SPEC = '''
[source]
id = "g"
title = "grundy claims about one-heap codes"

[[claim]]
id = "lasker"
game = "laskers_nim()"
position = ["n"]
for_all = "1 <= n"
window = "n <= 50"
grundy = "n if n % 4 in (1, 2) else (n + 1 if n % 4 == 3 else n - 1)"

[[claim]]
id = "lasker-from-5"
game = "laskers_nim()"
position = ["n"]
for_all = "5 <= n"
window = "n <= 50"
grundy = "n if n % 4 in (1, 2) else (n + 1 if n % 4 == 3 else n - 1)"

[[claim]]
id = "lasker-residues-swapped"
game = "laskers_nim()"
position = ["n"]
for_all = "1 <= n"
window = "n <= 50"
grundy = "n if n % 4 in (1, 2) else (n + 1 if n % 4 == 0 else n - 1)"

[[claim]]
id = "lasker-from-0"
game = "laskers_nim()"
position = ["n"]
for_all = "0 <= n"
window = "n <= 50"
grundy = "n if n % 4 in (1, 2) else (n + 1 if n % 4 == 3 else n - 1)"

[[claim]]
id = "hex-0.8"
game = 'hexadecimal("0.8")'
position = ["n"]
for_all = "1 <= n"
window = "n <= 50"
grundy = "(n - 1) // 3"
'''


def test_grundy_formulas_of_one_heap_codes_by_the_certificate(write_spec, walnut):
    from checkers.heaps.periodicity import heap_grundy_verdict
    spec = load_spec(write_spec(GRUNDY_SPEC))
    v = heap_grundy_verdict(spec.claim("lasker"), RunOptions())
    assert v.verdict == "proved" and "mex certificate" in v.scope and "Walnut" in v.engines
    assert heap_grundy_verdict(spec.claim("lasker-from-5"), RunOptions()).verdict == "proved"
    assert heap_grundy_verdict(spec.claim("hex-0.8"), RunOptions()).verdict == "proved"
    v = heap_grundy_verdict(spec.claim("lasker-residues-swapped"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 3}      # g(3) = 4, the formula 2
    assert (v.counterexamples[0].lhs, v.counterexamples[0].rhs) == (4, 2)
    # g(0) = 0 but the formula says -1: Walnut's naturals cannot state it, the method says so (the window refutes)
    v = heap_grundy_verdict(spec.claim("lasker-from-0"), RunOptions())
    assert v.verdict == "inconclusive" and "not exact" in v.scope


def test_a_plain_period_of_a_code_with_a_tail_digit(walnut):
    """Saltus 0 with a tail digit (take any number, leave 0 or 2 heaps: code 0.5...): no Guy-Smith range, the
    certificate decides it."""
    rules = HeapRules((0,), tail=5)
    assert mex_proof(rules, 1, 1, 0).holds
    wrong = mex_proof(rules, 1, 0, 0)
    assert not wrong.holds and wrong.counterexample == 0 == _least_failure(rules, 1, 0, 0)
