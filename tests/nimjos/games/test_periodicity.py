"""Periodicity detection and the periodic / stair claim kinds."""
from __future__ import annotations

from checkers.window.exhaustive import check_exhaustive
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
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 5 }
[[claim]]
id = "per-wrong"
game = "sub23"
for_all = "0 <= n"
window = "n <= 200"
periodic = { period = 4, preperiod = 0 }
'''))
    v = check_exhaustive(spec.claim("per"))
    assert v.verdict == "checked"
    assert any("periodic with period 5 from 0" in n and "exact through 200" in n for n in v.notes)
    v = check_exhaustive(spec.claim("per-wrong"))
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 0}


def _detect_by_definition(seq, min_repeats=3):
    """The periodicity of `seq` straight from its definition: every (period, preperiod) pair tried, the one with
    the least preperiod + period (then least period) whose periodic part is seen min_repeats times."""
    n = len(seq)
    found = []
    for p in range(1, n // min_repeats + 1):
        s = seq[-1] - seq[-1 - p] if n > p else 0
        n0 = min(m for m in range(n - p + 1) if all(seq[i + p] == seq[i] + s for i in range(m, n - p)))
        if n - n0 >= min_repeats * p:
            found.append((n0 + p, p, n0, s))
    if not found:
        return None
    _, p, n0, s = min(found)
    return (p, n0, s)


def test_detect_agrees_with_the_definition_on_random_sequences():
    import random
    from nimjos.games.periodicity import detect
    rng = random.Random(7)
    for _ in range(400):
        pre = [rng.randrange(4) for _ in range(rng.randrange(0, 25))]
        block = [rng.randrange(3) for _ in range(rng.randrange(1, 7))]
        saltus = rng.choice([0, 0, 1, 3])
        seq = pre + [block[k % len(block)] + saltus * (k // len(block)) for k in range(rng.randrange(4, 70))]
        if rng.random() < 0.3:
            seq = [rng.randrange(3) for _ in range(rng.randrange(1, 50))]
        got = detect(seq)
        assert (None if got is None else (got.period, got.preperiod, got.saltus)) == _detect_by_definition(seq), seq


def test_detect_finds_a_long_preperiod_in_a_long_table():
    # a table of 150,000 values, periodic with period 4 only from 131,070 on (the walk used to take a minute)
    import random
    from nimjos.games.periodicity import detect
    rng = random.Random(3)
    head = [rng.randrange(13) for _ in range(131_070)]
    seq = head + [5, 6, 7, 8] * 4_733
    got = detect(seq)
    assert (got.period, got.saltus) == (4, 0) and 131_070 - 13 <= got.preperiod <= 131_070
