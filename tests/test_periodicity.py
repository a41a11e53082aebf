"""Periodicity detection and the periodic / stair claim kinds."""
from __future__ import annotations

from checkers.exhaustive import check_exhaustive
from nimjos.games.periodicity import detect, first_stair_break, holds, smallest_stair, stair_of
from nimjos.spec.loader import load_spec


def test_detect_periodic_and_arithmetic():
    seq = [0, 0, 1, 1, 2] * 6
    assert (detect(seq).period, detect(seq).preperiod, detect(seq).saltus) == (5, 0, 0)
    seq = [7, 3] + [0, 1, 2] * 5
    found = detect(seq)
    assert (found.period, found.preperiod) == (3, 2)
    arith = [n // 2 * 3 + n % 2 for n in range(40)]
    found = detect(arith)
    assert (found.period, found.saltus) == (2, 3)
    assert detect([1, 5, 2, 8, 3, 9, 4, 1]) is None


def test_stairs_example_2_3():
    # 004 Example 2.3: the 3-stair of 0, 0, 1, 5, 4 is 0,1,2, 0,1,2, 3,4,5, 15,16,17, 12,13,14
    b = [0, 1, 2, 0, 1, 2, 3, 4, 5, 15, 16, 17, 12, 13, 14]
    assert stair_of(b, 3) == [0, 0, 1, 5, 4]
    assert smallest_stair(b) == 3
    assert first_stair_break(b[:-1] + [15], 3) == 14
    assert holds([0, 1] * 5, 2, 0) is None


def test_claim_kinds(write_spec):
    spec = load_spec(write_spec('''[source]
id = "p"
[game.sub23]
position = ["n"]
moves = [ { to = "n - s", where = "s in {2, 3} and s <= n" } ]
[[claim]]
id = "per"
game = "sub23"
for_all = "0 <= n <= 200"
periodic = { period = 5 }
[[claim]]
id = "per-wrong"
game = "sub23"
for_all = "0 <= n <= 200"
periodic = { period = 4, preperiod = 0 }
'''))
    v = check_exhaustive(spec.claim("per"))
    assert v.verdict == "checked"
    assert any("periodic with period 5 from 0" in n and "exact through 200" in n for n in v.notes)
    v = check_exhaustive(spec.claim("per-wrong"))
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 0}
