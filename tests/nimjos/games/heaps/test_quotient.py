"""Misère quotients (issue 27, item 4): the quotient of a heap game computed from its moves decides the misère
outcome of every sum of heaps it covers.

The reference here is independent of the quotient: a plain outcome recursion over multisets of heaps (a position
is N iff it is terminal or has a P option), and for single heaps the misère nim values of Kayles and Dawson's
Kayles for n = 0..20 as the CGSuite test suite prints them (A. N. Siegel, CGSuite, lib/core/src/test/scala/org/
cgsuite/lang/GameHeapTest.scala). The verification is attacked too: a candidate with one status flipped, or one
heap given the wrong element, must fail it.
"""
from __future__ import annotations

import json
import pathlib
import subprocess
import sys
from functools import lru_cache

import pytest

from checkers.options import RunOptions
from checkers.run import run_claim
from nimjos.games.heaps.game import heap_game
from nimjos.games.heaps.misere import misere, quotient_outcome
from nimjos.games.heaps.quotient import (QuotientBudget, QuotientBuilder, _Automaton, _Pairs, misere_quotient)
from nimjos.games.heaps.rules import NIM, octal_rules
from nimjos.games.functions import misere_grundy
from nimjos.lang.errors import EvalError
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[4]

#: misère nim values of single heaps n = 0..20 as CGSuite's test suite prints them (0: a misère P-position)
CGSUITE_MISERE = {
    "0.77": [1, 0, 2, 3, 0, 1, 3, 2, 1, 0, 2, 4, 0, 1, 2, 5, 1, 6, 3, 2, 0],
    "0.07": [1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0, 2, 1, 1, 0, 0, 2, 1, 3],
}


def _outcome_by_recursion(moves):
    """Is a sorted tuple of heaps a misère P-position: the plain recursion over the moves, no quotient."""
    @lru_cache(maxsize=None)
    def is_p(position: tuple[int, ...]) -> bool:
        options = set()
        for i, h in enumerate(position):
            rest = position[:i] + position[i + 1:]
            for parts in moves(h):
                options.add(tuple(sorted(rest + tuple(p for p in parts if p))))
        return bool(options) and not any(is_p(q) for q in options)
    return is_p


def _sums(total: int, top: int, low: int = 1):
    """Every multiset of heaps of 1..top tokens with at most `total` tokens in all (sorted tuples)."""
    yield ()
    for h in range(low, min(top, total) + 1):
        for rest in _sums(total - h, top, h):
            yield (h,) + rest


@pytest.mark.parametrize("name, moves, bound, total", [
    ("Nim", NIM.moves, 7, 16),
    ("Kayles 0.77", octal_rules("0.77").moves, 12, 20),
    ("Dawson's Kayles 0.07", octal_rules("0.07").moves, 14, 22),
    ("Dawson's chess 0.137", octal_rules("0.137").moves, 10, 18),
    ("Daisies 4.7", octal_rules("4.7").moves, 8, 16),
    ("0.75", octal_rules("0.75").moves, 12, 18),
    ("subtraction {1, 3}", lambda n: [(n - s,) for s in (1, 3) if s <= n], 12, 18),
])
def test_the_quotient_decides_every_sum_as_the_recursion_does(name, moves, bound, total):
    quotient = misere_quotient(moves, bound)
    is_p = _outcome_by_recursion(moves)
    checked = 0
    for position in _sums(total, bound):
        assert (quotient.outcome(position) == "P") == is_p(position), (name, position)
        checked += 1
    assert checked > 500


@pytest.mark.parametrize("code", ["0.77", "0.07"])
def test_single_heaps_against_the_published_misere_values(code):
    published_p = [n for n, v in enumerate(CGSUITE_MISERE[code]) if v == 0]
    quotient = misere_quotient(octal_rules(code).moves, 20)
    assert [n for n in range(21) if quotient.outcome((n,)) == "P"] == published_p
    # the reference engine's misère Grundy values are the printed ones, value for value
    game = misere(heap_game(octal_rules(code)))
    assert [misere_grundy(game, (n,)) for n in range(21)] == CGSUITE_MISERE[code]


def test_misere_nim_quotients_have_the_tame_orders():
    """Misère Nim: heaps of 1 give {1, a}, a^2 = 1; heaps up to 2 or 3 the order-6 quotient; up to 7, order 10."""
    assert [misere_quotient(NIM.moves, b).order for b in (1, 2, 3, 7)] == [2, 6, 6, 10]


def test_kayles_to_two_hundred_heaps():
    quotient = misere_quotient(octal_rules("0.77").moves, 200)
    assert [n for n in range(201) if quotient.outcome((n,)) == "P"] == [1, 4, 9, 12, 20]
    is_p = _outcome_by_recursion(octal_rules("0.77").moves)
    for position in [(1, 1, 1), (2, 2), (3, 3), (1, 4, 9), (5, 7), (9, 9), (12, 20), (1, 2, 3)]:
        assert (quotient.outcome(position) == "P") == is_p(position), position


def _verified(code: str, bound: int) -> QuotientBuilder:
    builder = QuotientBuilder(octal_rules(code).moves)
    builder.grow(bound)
    return builder


def test_a_flipped_status_fails_the_verification():
    builder = _verified("0.77", 12)
    auto = builder.auto
    assert _Pairs(auto, builder.heap_opts).search()[1] is None
    for x in range(auto.size):
        wrong = _Automaton(rows=auto.rows, letter_of=auto.letter_of, p=[q != (y == x) for y, q in enumerate(auto.p)])
        assert _Pairs(wrong, builder.heap_opts).search()[1] is not None, x


def test_a_heap_given_another_element_fails_the_verification():
    builder = _verified("0.07", 12)
    auto = builder.auto
    heap = 9
    for other in range(1, 12):
        if auto.apply(0, (other,)) == auto.apply(0, (heap,)):
            continue
        letter_of = list(auto.letter_of)
        letter_of[heap] = auto.letter_of[other]
        wrong = _Automaton(rows=auto.rows, letter_of=letter_of, p=auto.p)
        assert _Pairs(wrong, builder.heap_opts).search()[1] is not None, other


def test_the_budget_stops_and_says_where():
    builder = QuotientBuilder(NIM.moves, budget=200)
    with pytest.raises(QuotientBudget):
        builder.grow(40)
    assert builder.stuck_at is not None and builder.bound == builder.stuck_at - 1
    quotient = builder.grow(builder.bound)  # what was verified stays usable
    assert quotient.outcome((1, 1, 1)) == "P"
    with pytest.raises(QuotientBudget):
        builder.grow(builder.stuck_at)


def test_bad_input_is_refused():
    with pytest.raises(EvalError):
        misere_quotient(NIM.moves, -1)
    with pytest.raises(EvalError):
        misere_quotient(NIM.moves, True)
    with pytest.raises(EvalError, match="smaller heaps"):
        misere_quotient(lambda n: [(n,)], 2)
    with pytest.raises(EvalError, match="0..3"):
        misere_quotient(NIM.moves, 3).outcome((4,))


def test_outcomes_of_a_window_come_from_the_quotient():
    kayles = misere(heap_game(octal_rules("0.77")))
    assert quotient_outcome(kayles, (1, 9, 12)) is True
    assert quotient_outcome(kayles, (2, 3)) is False
    assert quotient_outcome(misere(heap_game(octal_rules("0.77"))), 10 ** 6) is None  # past the bound: the graph


def _check(tmp_path, claims: str):
    path = tmp_path / "k.toml"
    path.write_text('[source]\nid = "t"\ntitle = "t"\n' + claims)
    spec = load_spec(path)
    return {c.id: run_claim(c, RunOptions(methods=("exhaustive",))).final for c in spec.claims}


def test_a_misere_kayles_claim_to_two_hundred_is_checked_and_a_wrong_one_refuted(tmp_path):
    verdicts = _check(tmp_path, '''
[[claim]]
id = "right"
game = 'misere(octal("0.77"))'
position = ["n"]
for_all = "n >= 0"
window = "n <= 200"
p_positions = "n in (1, 4, 9, 12, 20)"

[[claim]]
id = "wrong"
game = 'misere(octal("0.77"))'
position = ["n"]
for_all = "n >= 0"
window = "n <= 200"
p_positions = "n in (1, 4, 9, 12)"
''')
    assert verdicts["right"].verdict == "checked", verdicts["right"].scope
    assert "misère quotient" in verdicts["right"].scope
    assert verdicts["wrong"].verdict == "refuted"
    assert verdicts["wrong"].counterexamples[0].bindings["n"] == 20


def test_the_quotient_command(tmp_path, starts_processes):
    out = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "quotient", 'octal("0.77")', "--heaps", "30",
                          "--outcome", "2,2", "--json"], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["single_p"] == [1, 4, 9, 12, 20] and summary["outcomes"] == {"2,2": "P"}
    assert summary["order"] == len(summary["least_positions"])
    bad = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "quotient", "moore_nim(2)", "--heaps", "3"],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr and "no misère quotient" in bad.stderr


def test_a_candidate_whose_heaps_do_not_commute_is_refused():
    from nimjos.games.heaps.quotient import _check_commutative
    # two letters on states 0, 1, 2: a then b reaches 2, b then a reaches 1
    auto = _Automaton(rows=[[1, 1, 2], [2, 2, 2]], letter_of=[-1, 0, 1], p=[False, True, False])
    auto.rows[1][1] = 2
    auto.rows[0][2] = 1
    with pytest.raises(RuntimeError, match="not commutative"):
        _check_commutative(auto)
    _check_commutative(QuotientBuilder(octal_rules("0.77").moves).grow(12) and _verified("0.77", 12).auto)
