"""Heap games: codes, the sequence against the game graph (the Sprague-Grundy theorem, checked), the compiled
kernels against the plain mex, known sequences (OEIS), Moore's Nim, the built-ins in claims."""
from __future__ import annotations

import z3
import itertools
from pathlib import Path

import pytest

from checkers.heaps.reduction import graph_moves, heap_prove, heap_sample
from checkers.certificate import Certificate, game_kind
from checkers.sample.evaluate import GameEvaluator
from checkers.run import RunOptions, run_claim
from nimjos.spec.budget import enforce_limits
from nimjos.spec.loader import load_spec
from nimjos.verdict import agreement

from nimjos.games.engine import ReferenceEngine
from nimjos.games.declared import GameInstance, subtraction
from nimjos.games.functions import G, grundys_game, heaps, laskers_nim, nim, octal
from nimjos.games.heaps.fast import MASK_PREFIX, sequence
from nimjos.games.heaps.game import HeapPositions, MooreNim, heap_game
from nimjos.games.heaps.positions import count_multisets, multisets
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, NIM, HeapRules, octal_rules, plain_sequence
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.syntax import parse

CODES = ["0.77", "0.07", "0.137", "4.07", "0.6", "0.16", "0.4", "0.f", "0.8"]

# OEIS A002186 (Kayles), A002187 (Dawson's Kayles, from n = 0), A002188 (Grundy's game)
KAYLES = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8,
          6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2,
          1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7]
DAWSON = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7,
          4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2]
GRUNDY = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1, 2, 4,
          1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2, 4, 3, 2, 4,
          3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3, 5, 2, 3, 5, 2, 3,
          5, 2, 3]
# Grundy's game, the sparse values (an even number of ones in G(n) without its lowest bit), every heap n <= 231
# that has one, as tabulated by A. Flammenkamp, "Sprague-Grundy Values of Grundy's Game" (Bielefeld)
GRUNDY_SPARSE = {0: 0, 1: 0, 2: 0, 3: 1, 4: 0, 6: 1, 7: 0, 9: 1, 10: 0, 12: 1, 15: 1, 20: 0, 23: 0, 26: 0, 28: 1,
                 31: 1, 34: 1, 37: 1, 40: 1, 43: 1, 46: 1, 49: 1, 50: 0, 52: 1, 53: 0, 55: 1, 58: 1, 61: 1, 87: 7,
                 90: 7, 93: 7, 146: 6, 149: 6, 152: 6, 158: 11, 161: 11, 164: 11, 167: 11, 176: 7, 179: 7, 181: 12,
                 182: 7, 185: 7, 188: 7, 190: 12, 193: 12, 196: 10, 231: 10}


def test_codes():
    assert octal_rules("0.77").digits == (0, 7, 7) and octal_rules(".07").digits == (0, 0, 7)
    assert octal_rules("4.07").digits == (4, 0, 7) and octal_rules("0.770").digits == (0, 7, 7)
    assert octal_rules("0.f").max_parts == 3 and octal_rules("0.137").max_take == 3
    for bad in ("077", "0.7x", "1.7", "00.7", 0.77):
        with pytest.raises(EvalError):
            octal_rules(bad)
    assert LASKERS_NIM.max_take is None and GRUNDYS_GAME.max_parts == 2


@pytest.mark.parametrize("code", ["0.77", "0.07", "0.137", "4.07", "0.16", "0.44", "0.6", "4.", "0.37"])
def test_compiled_kernels_agree_with_the_plain_mex(code):
    rules = GRUNDYS_GAME if code == "4." else octal_rules(code)
    plain = plain_sequence(rules, 700)
    assert sequence(rules, 700, method="plain").tolist() == plain
    assert sequence(rules, 700).tolist() == plain


def test_rare_value_method_agrees_with_the_plain_kernel_to_2000_and_resumes():
    plain = sequence(GRUNDYS_GAME, 6000, method="plain")
    assert (sequence(GRUNDYS_GAME, 6000, method="rare") == plain).all()
    assert (sequence(GRUNDYS_GAME, 6000, prefix=plain[:2500]) == plain).all()
    with pytest.raises(EvalError):
        sequence(LASKERS_NIM, 10, method="rare")


@pytest.mark.parametrize("digits", [(0, 0, 4), (4, 0, 4), (0, 1, 4)])
def test_rare_value_method_with_unequal_parts_past_its_prefix(digits):
    """Splits into two unequal heaps (as Grundy's game) with other codes: the split into two equal rare heaps
    must be left out (these sequences differ from 2008, 2050 and 3688 on when it is not)."""
    rules = HeapRules(digits, unequal=True)
    plain = sequence(rules, 5000, method="plain")
    assert (sequence(rules, 5000, method="rare") == plain).all()


def test_rare_value_method_widens_its_copy_of_the_values_midway():
    """Values below 256 up to the prefix's end (a one-byte copy), 256 first at heap 2085, 730 by 8000."""
    rules = HeapRules((0, 0, 0, 3, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 6, 0, 7, 3, 0, 2, 0, 0, 0, 0, 7))
    plain = sequence(rules, 8000, method="plain")
    assert plain[:MASK_PREFIX + 1].max() < 256 <= plain.max()
    assert (sequence(rules, 8000, method="rare") == plain).all()
    assert (sequence(rules, 8000, prefix=plain[:2100]) == plain).all()


def test_known_sequences_and_structure_to_1000():
    kayles = sequence(octal_rules("0.77"), 1200).tolist()
    dawson = sequence(octal_rules("0.07"), 1200).tolist()
    chess = sequence(octal_rules("0.137"), 1200).tolist()
    grundy = sequence(GRUNDYS_GAME, 1200).tolist()
    lasker = sequence(LASKERS_NIM, 1200).tolist()
    assert kayles[:len(KAYLES)] == KAYLES
    assert dawson[:len(DAWSON)] == DAWSON
    assert grundy[:len(GRUNDY)] == GRUNDY
    assert dawson[1:] == chess[:-1]
    # Kayles: period 12 from 71 (not from 70); Dawson's Kayles 0.07: period 34 from 53 (not from 52;
    # Dawson's chess 0.137, the same sequence shifted by one, from 52)
    assert all(kayles[n + 12] == kayles[n] for n in range(71, 1188)) and kayles[82] != kayles[70]
    assert all(dawson[n + 34] == dawson[n] for n in range(53, 1166)) and dawson[86] != dawson[52]
    # Lasker's Nim: g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4, g(4k+4) = 4k+3
    assert lasker[0] == 0 and all(lasker[n] == {1: n, 2: n, 3: n + 1, 0: n - 1}[n % 4] for n in range(1, 1201))


def test_moore_nim():
    """Moore's theorem: P-positions are those whose binary digits sum to 0 mod k + 1 in every column."""
    for k in (1, 2, 3):
        game = MooreNim(k)
        for p in itertools.combinations_with_replacement(range(8), 3):
            sums = [sum(h >> b & 1 for h in p) % (k + 1) for b in range(3)]
            assert (game.grundy(p) == 0) == (sums == [0, 0, 0]), (k, p)
    assert MooreNim(1).grundy((3, 5, 6)) == 0 and MooreNim(1).grundy((1, 2, 4)) == 7


def test_builtins_and_strings():
    assert G(octal("0.77"), 70) == 6 and G(octal("0.77"), (70, 70)) == 0
    assert G(grundys_game(), ()) == 0 and G(laskers_nim(), 3) == 4
    parse('octal("0.77")')
    with pytest.raises(SpecError):
        parse('"0.77"')
    with pytest.raises(SpecError):
        parse('G("0.77", 3)')
    with pytest.raises(EvalError):
        G(octal("0.77"), -1)
    assert HeapRules((0, 3)).code() == "0.3"


def test_positions_of_n_heaps_are_multisets_counted_once():
    for n in range(0, 5):
        for hi in range(0, 6):
            got = multisets(n, 0, hi)
            assert len(got) == len(set(got)) == count_multisets(n, 0, hi)
            assert set(got) == {tuple(sorted(t)) for t in itertools.product(range(hi + 1), repeat=n)}
    with pytest.raises(EvalError):
        multisets("3", 0, 4)


def test_a_one_heap_game_on_any_number_of_heaps_is_its_game_graph():
    """heaps(g): the nim-sum of the one-heap values equals the value on the game graph of multisets."""
    sub = subtraction(frozenset({1, 3, 4}))
    game = heaps(sub)
    graph = ReferenceEngine()
    graph.use_fast = False
    positions = [p for k in range(4) for p in itertools.combinations_with_replacement(range(9), k)]

    class Graph(GameInstance):
        """The game graph of the multisets, with the options of heaps(g)."""

        def normalise(self, position):
            return tuple(sorted(position))

        def options(self, position):
            return game.options(position)
    g = Graph("graph", 0, ("heaps",), {}, "graph of heaps(subtraction({1, 3, 4}))")
    graph.solve(g, positions)
    assert all(g.table[p] == game.grundy(p) for p in positions)
    assert G(nim(), (3, 5, 6)) == 0 and G(heaps(nim()), (1, 2)) == 3


def _moore_spec(tmp_path, domain, window, digits):
    p = tmp_path / "moore.toml"
    p.write_text(f"""[source]
id = "moore"

[[claim]]
id = "moore-2"
game = "moore_nim(2)"
position = ["h"]
for_all = "{domain}"
window = "{window}"
p_positions = "all(sum(x >> i & 1 for x in h) % 3 == 0 for i in range({digits}))"
""")
    return load_spec(p)


def test_a_four_heap_moore_claim_on_eight_digits_is_refuted_in_every_run(tmp_path):
    """Issue 15: Moore's Nim_2 on four heaps with a predicate that reads 8 binary digits only is false from
    heap size 256 on; the window (heaps up to 7) cannot see it, the sampler finds (0, 0, 0, 256) every time."""
    spec = _moore_spec(tmp_path, "len(h) == 4 and all(x >= 0 for x in h)", "h in multisets(4, 0, 7)", 8)
    claim = spec.claims[0]
    found = []
    for _ in range(2):
        result = run_claim(claim, RunOptions(repair=False))
        assert result.final.verdict == "refuted"
        found.append(result.final.counterexamples[0].bindings)
    assert found[0] == found[1] == {"h": (0, 0, 0, 256)}
    window = run_claim(claim, RunOptions(methods=("exhaustive",), repair=False)).final
    assert window.verdict == "checked"  # the window alone cannot refute it: the sampler does


def test_moore_claims_are_not_proved_by_the_sum_reduction(tmp_path):
    spec = _moore_spec(tmp_path, "n >= 1 and len(h) == n and all(x >= 0 for x in h)",
                       "n <= 3 and h in multisets(n, 0, 3)", "ilog2(max(h) + 1) + 1")
    v = heap_prove(spec.claims[0], RunOptions())
    assert v.verdict == "inconclusive" and "not applicable" in v.scope
    s = heap_sample(spec.claims[0], RunOptions())
    assert s.verdict == "sampled" and s.beyond >= 20
    assert graph_moves((0, 0, 256), 2) == 257 * 257


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


def test_the_generic_certificate_binds_a_heap_position_whole():
    # a claim whose one coordinate is a tuple of heaps: the local certificate used to bind h = pos[0], the first
    # heap, so nimsum(h) judged (3, 4, 5) as the heap 3; now the position is bound whole, at the point and at its options
    spec = load_spec(Path(__file__).resolve().parents[3] / "examples" / "heap_games.toml")
    claim = spec.claim("bouton")
    plan = claim.plan()
    ev = GameEvaluator(plan, "default", z3.Context())
    assert ev({"n": 3, "h": (1, 2, 3)}).kind == "held"       # a P-position: no option has nim-sum 0
    assert ev({"n": 3, "h": (3, 4, 5)}).kind == "held"       # an N-position: (1, 4, 5) is an option in P
    cert = Certificate(plan, {"n": 3}, game_kind(plan))
    assert cert.env_at((3, 4, 5))["h"] == (3, 4, 5)


def test_grundys_game_has_the_published_sparse_values_to_231():
    from nimjos.games.heaps.fast import sequence
    from nimjos.games.heaps.rules import GRUNDYS_GAME
    g = sequence(GRUNDYS_GAME, 231).tolist()
    sparse = {n: v for n, v in enumerate(g) if bin(v >> 1).count("1") % 2 == 0}
    assert sparse == GRUNDY_SPARSE
