"""The long tests of tests/nimjos/games/test_heaps.py (each several seconds of CPU: a whole examples file, long
tables), slow by their folder."""
from __future__ import annotations




import itertools


from pathlib import Path


import pytest








from checkers.run import RunOptions, run_claim


from nimjos.spec.budget import enforce_limits


from nimjos.spec.loader import load_spec


from nimjos.verdict import agreement


from nimjos.games.engine import ReferenceEngine






from nimjos.games.heaps.fast import sequence


from nimjos.games.heaps.game import HeapPositions, heap_game




from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, NIM, octal_rules, plain_sequence






CODES = ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "0.4", "0.f", "0.8"]


def _sorted_lasker_spec(tmp_path, slots=10):
    """Lasker's Nim on `slots` sorted slots declared by moves (take from a slot; split a heap into two, one part
    into the empty first slot), every position of at most `slots` tokens in the window."""
    a = [f"a{i}" for i in range(1, slots + 1)]
    moves = []
    for i in range(slots):
        parts = list(a)
        parts[i] = f"{a[i]} - t"
        moves.append(f'{{ to = "sorted(({", ".join(parts)}))", where = "1 <= t <= {a[i]}" }}')
    for i in range(1, slots):
        parts = list(a)
        parts[i], parts[0] = f"{a[i]} - s", "s"
        moves.append(f'{{ to = "sorted(({", ".join(parts)}))", where = "1 <= s < {a[i]} and a1 == 0" }}')
    window = " and ".join([f"0 <= a1 <= {slots}"] + [f"{a[i - 1]} <= {a[i]} <= {slots}" for i in range(1, slots)]
                          + [" + ".join(a) + f" <= {slots}"])
    position = ", ".join(a)
    p = tmp_path / "lasker.toml"
    p.write_text(f"""[source]
id = "lasker-slots"

[game.lasker]
position = [{", ".join(f'"{x}"' for x in a)}]
moves = [
{("," + chr(10)).join(moves)}
]

[[claim]]
id = "lasker-sorted-slots"
for_all = "{window}"
holds = "G(lasker, ({position})) == G(laskers_nim(), ({position}))"
""")
    return load_spec(p)


@pytest.mark.parametrize("rules", [octal_rules(c) for c in CODES] + [GRUNDYS_GAME, LASKERS_NIM, NIM],
                         ids=lambda r: r.name or r.code())
def test_sequence_is_the_value_of_the_game_graph(rules):
    """Sprague-Grundy: the graph value of every multiset of up to 4 heaps of size <= 8 (3 heaps <= 8 for
    hexadecimal codes) is the nim-sum of the sequence's values."""
    seq = plain_sequence(rules, 8)
    graph = HeapPositions(rules)
    engine = ReferenceEngine()
    engine.use_fast = False
    most = 3 if rules.max_parts > 2 else 4
    positions = [p for k in range(most + 1) for p in itertools.combinations_with_replacement(range(9), k)]
    engine.solve(graph, positions)
    game = heap_game(rules)
    for p in positions:
        want = 0
        for h in p:
            want ^= seq[h]
        assert graph.table[p] == want, (p, graph.table[p], want)
        assert game.grundy(p) == want


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.16", "0.6", "0.36", "0.56", "0.74", "0.775"])
def test_rare_value_method_agrees_with_the_plain_kernel_past_its_prefix(code):
    """The rare-value kernel starts after the first MASK_PREFIX values (those are the plain kernel's): compared
    past them on octal codes with one or two splitting digits, small values and values past 255."""
    rules = octal_rules(code)
    plain = sequence(rules, 5000, method="plain")
    assert (sequence(rules, 5000, method="rare") == plain).all()


def test_the_examples_file_gets_its_expected_verdicts():
    """Every method, as `nimjos check` runs them: Bouton proved by the Sprague-Grundy reduction, Moore's Nim_k
    sampled beyond the window, the 8-digit reading of Moore's theorem refuted at (256)."""
    spec = load_spec(Path(__file__).resolve().parents[4] / "examples" / "heap_games.toml")
    assert len(spec.claims) >= 13
    for claim in spec.claims:
        result = run_claim(claim, RunOptions(repair=False))
        ok, why = agreement(result.final, claim.expect, claim.expect_counterexample)
        assert ok, (claim.id, result.final.verdict, why)


def test_the_resource_guard_counts_the_reachable_positions_of_a_ten_slot_lasker_nim(tmp_path):
    """Issue 17: the box of 10 coordinates holds 11^10 positions (the guard once refused it: "217 TiB"), but
    only the 139 partitions of at most 10 tokens are reachable, and the window has 139 instances."""
    spec = _sorted_lasker_spec(tmp_path)
    est = enforce_limits(spec.claims[0].plan())
    assert est.over == "" and est.instances == 139 and est.positions < 200
    assert any("counted by following the moves" in n for n in est.notes)
    v = run_claim(spec.claims[0], RunOptions(methods=("exhaustive",), repair=False)).final
    assert v.verdict == "checked" and v.instances == 139
