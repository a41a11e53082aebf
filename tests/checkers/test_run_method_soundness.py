"""Soundness of the periodicity method, the Sprague-Grundy reduction and the sampler (issue 24): each method
judges a claim only where it speaks (its domain and its assumption), and says the class it proved.

Each test states a claim that is false somewhere a method used to over-reach (a parameter value beyond the
window, heap sizes a lemma does not cover, points outside a printed range or an assumption, odd values a window
filter left out) and checks the method's word against a brute-force computation of the truth."""
from __future__ import annotations

from checkers.heaps.reduction import heap_prove
from checkers.options import RunOptions, SamplingLimits
from checkers.heaps.periodicity import periodic_sample, periodic_verdict
from nimjos.games.heaps.periodicity import subtraction_sequence
from nimjos.spec.loader import load_spec
from nimjos.verdict import LeftOut


def _periods(S: set, p: int, n0: int = 0, upto: int = 400) -> bool:
    """Brute force: g(n + p) = g(n) for n0 <= n < upto in the subtraction game of S."""
    g = subtraction_sequence(frozenset(S), upto + p)
    return all(g[n + p] == g[n] for n in range(n0, upto))


PARAM = '''[source]
id = "param"
[[claim]]
id = "beyond-k"
game = "subtraction({1, k, k + 1})"
position = ["n"]
window = "1 <= k <= 2 and 0 <= n <= 60"
for_all = "k >= 1 and n >= 0"
periodic = { period = "k + 2" }
[[claim]]
id = "exact-k"
game = "subtraction({1, k, k + 1})"
position = ["n"]
window = "1 <= k <= 2 and 0 <= n <= 60"
for_all = "1 <= k <= 2 and n >= 0"
periodic = { period = "k + 2" }
'''


def test_periodicity_over_a_parameter_proves_only_the_windows_values(write_spec):
    """Case 10: the period k + 2 holds for k = 1, 2 and fails at k = 3; with the domain k >= 1 the method proves
    the window's values of k only and says so (proved-bounded), never proved."""
    assert _periods({1, 1, 2}, 3) and _periods({1, 2, 3}, 4) and not _periods({1, 3, 4}, 5)
    spec = load_spec(write_spec(PARAM))
    v = periodic_verdict(spec.claim("beyond-k"), RunOptions())
    assert v.verdict == "proved-bounded"
    assert "for k = 1, 2 only (domain k >= 1 and n >= 0)" in v.scope
    assert v.proved_class.enumerated == {"k": (1, 2)}
    # the domain's values of k are the window's: proved
    assert periodic_verdict(spec.claim("exact-k"), RunOptions()).verdict == "proved"


WHERE = '''[source]
id = "where"
[[claim]]
id = "below-60"
game = "subtraction({1, 2, 60})"
position = ["n"]
window = "0 <= n <= 59"
for_all = "0 <= n <= 59"
periodic = { period = 3 }
[[claim]]
id = "assumed"
game = "subtraction({1, 2, 60})"
position = ["n"]
for_all = "0 <= n"
window = "n <= 200"
assume = "n <= 59"
periodic = { period = 3 }
[[claim]]
id = "wrong-inside"
game = "subtraction({1, 2, 60})"
position = ["n"]
window = "0 <= n <= 70"
for_all = "0 <= n <= 70"
periodic = { period = 3 }
'''


def test_periodicity_judges_a_claim_only_where_it_speaks(write_spec):
    """Case 13: g(n + 3) = g(n) holds while n + 3 <= 59 and first fails at n = 57 (g(60) = 3); a claim whose domain
    (or assumption) stops at 59 is not refuted at 57, where n + 3 lies outside it; one that reaches 70 is refuted
    at its least failure where it speaks, n = 57 (57 + 3 = 60 <= 70)."""
    g = subtraction_sequence(frozenset({1, 2, 60}), 80)
    fails = [n for n in range(70) if g[n + 3] != g[n]]
    assert fails[0] == 57 and all(n + 3 > 59 for n in fails)
    spec = load_spec(write_spec(WHERE))
    for cid in ("below-60", "assumed"):
        v = periodic_verdict(spec.claim(cid), RunOptions())
        assert isinstance(v, LeftOut) or v.verdict not in ("refuted", "ill-defined"), (cid, v)
        s = periodic_sample(spec.claim(cid), RunOptions())
        assert s.verdict not in ("refuted", "ill-defined"), (cid, s.scope)
    v = periodic_verdict(spec.claim("wrong-inside"), RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 57}


LEMMA = '''[source]
id = "lemma"
[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]
[[claim]]
id = "even-heaps"
game = "nim1"
for_all = "0 <= x and x % 2 == 0"
window = "x <= 60"
holds = "G(nim1, x) == (x if x % 2 == 0 else 0)"
prove = { induction = "x" }
[[claim]]
id = "every-heap"
game = "nim1"
for_all = "0 <= x"
window = "x <= 60"
holds = "G(nim1, x) == x"
prove = { induction = "x" }
[[claim]]
id = "many-even"
game = "heaps(nim1)"
position = ["h"]
for_all = "n >= 1 and len(h) == n and all(x >= 0 for x in h)"
window = "1 <= n <= 3 and h in multisets(n, 0, 6)"
grundy = "xor((x if x % 2 == 0 else 0) for x in h)"
prove = { using = ["even-heaps"] }
[[claim]]
id = "bouton"
game = "heaps(nim1)"
position = ["h"]
for_all = "n >= 1 and len(h) == n and all(x >= 0 for x in h)"
window = "1 <= n <= 3 and h in multisets(n, 0, 6)"
p_positions = "xor(x for x in h) == 0"
prove = { using = ["every-heap"] }
'''


def test_the_heap_reduction_proves_only_what_its_lemma_covers(write_spec):
    """Case 11: a one-heap lemma proved for even heap sizes (a window filter read into its domain) proves the
    claim only for positions of even heaps (proved-bounded, naming the class); the claim is false at h = (3,).
    A lemma for every heap size still proves Bouton's theorem."""
    spec = load_spec(write_spec(LEMMA))
    v = heap_prove(spec.claim("many-even"), RunOptions())
    assert v.verdict == "proved-bounded", v.scope
    assert "every heap x satisfies 0 <= x and x % 2 == 0 only" in v.scope
    plan = spec.claim("many-even").plan()
    assert plan.formula({"n": 1, "h": (3,)}) != 3   # G((3,)) = 3 in Nim: the claim is false there
    assert heap_prove(spec.claim("bouton"), RunOptions()).verdict == "proved"


ASSUMED = '''[source]
id = "assumed"
[game.sub12]
position = ["x"]
moves = [ { to = "x - s", where = "s in {1, 2} and s <= x" } ]
[[claim]]
id = "even"
game = "sub12"
for_all = "0 <= x"
window = "x <= 60"
assume = "x % 2 == 0"
grundy = "x % 3 if x % 2 == 0 else 7"
sample = { scale = 5000, count = 60 }
[[claim]]
id = "even-wrong"
game = "sub12"
for_all = "0 <= x"
window = "x <= 60"
assume = "x % 2 == 0"
grundy = "(x % 3 if x < 1000 else 5) if x % 2 == 0 else 7"
sample = { scale = 5000, count = 60 }
'''


def test_sampling_a_game_claim_never_judges_it_where_its_assumption_is_false(write_spec):
    """Case 14: the formula is right at every even x (the assumption) and says 7 at odd x, where the claim states
    nothing. The certificate at an even x used to take the formula at its odd options and the failure was reported
    at an odd x; the options there are now labelled by the engine. A claim false at even x >= 1000 is still
    refuted, at an x where the assumption holds."""
    from checkers.sample.method import sample_claim

    spec = load_spec(write_spec(ASSUMED))
    right = sample_claim(spec.claim("even"), RunOptions())
    assert right.verdict not in ("refuted", "ill-defined"), (right.scope, right.counterexamples)
    assert right.verdict == "sampled"
    wrong = sample_claim(spec.claim("even-wrong"), RunOptions())
    assert wrong.verdict == "refuted"
    x = wrong.counterexamples[0].bindings["x"]
    assert x % 2 == 0 and x >= 1000


FILTERED = '''[source]
id = "filtered"
[[claim]]
id = "odd-missed"
window = "0 <= x <= 40 and x % 2 == 0"
for_all = "x >= 0"
holds = "x % 2 == 0"
[[claim]]
id = "negative"
window = "0 <= x <= 20"
for_all = "x >= -5"
holds = "x >= 0"
[[claim]]
id = "negative-true"
window = "0 <= x <= 20"
for_all = "x >= -5"
holds = "x >= -5"
[[claim]]
id = "read-from-window"
for_all = "0 <= x and x % 2 == 0"
window = "x <= 40"
holds = "x % 2 == 0"
'''


def test_sampling_draws_from_the_domain_not_the_windows_filters_or_lower_bounds(write_spec):
    """Case 9: a window filtered to even x with the written domain x >= 0 is sampled at odd x too (the claim is
    false at every odd x); the domain x >= -5 with the window 0 <= x <= 20 is sampled at negative x (refuted at
    x = -1, the failure nearest 0), and a claim true on it is sampled there without a failure. A domain read from
    the window keeps the window's filter: it is the domain's."""
    from checkers.sample.method import sample_claim

    spec = load_spec(write_spec(FILTERED))
    opts = RunOptions(sampling=SamplingLimits(examples=60))
    v = sample_claim(spec.claim("odd-missed"), opts)
    assert v.verdict == "refuted" and v.counterexamples[0].bindings["x"] % 2 == 1
    v = sample_claim(spec.claim("negative"), opts)
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"x": -1}
    assert sample_claim(spec.claim("negative-true"), opts).verdict == "sampled"
    assert sample_claim(spec.claim("read-from-window"), opts).verdict == "sampled"


SETS = '''[source]
id = "sets"
[[claim]]
id = "all-sets"
game = "subtraction(S | {3})"
position = ["n"]
for_all = "S in subsets(1, 2) and 0 <= n"
window = "n <= 300"
periodic = { period = 60 }
[[claim]]
id = "more-sets"
game = "subtraction(S | {3})"
position = ["n"]
window = "S in subsets(1, 2) and 0 <= n <= 300"
for_all = "S in subsets(1, 4) and n >= 0"
periodic = { period = 60 }
'''


def test_periodicity_over_set_parameters_says_which_sets_it_proved(write_spec):
    """A parameter that is a set: proved when the window's sets are the domain's, proved-bounded naming them when
    the domain has more (S = {4} gives {3, 4}, whose period 7 does not divide 60)."""
    assert not _periods({3, 4}, 60)
    spec = load_spec(write_spec(SETS))
    assert periodic_verdict(spec.claim("all-sets"), RunOptions()).verdict == "proved"
    v = periodic_verdict(spec.claim("more-sets"), RunOptions())
    assert v.verdict == "proved-bounded" and "only (domain S in subsets(1, 4)" in v.scope


def test_the_heap_reduction_does_not_apply_to_negative_heap_sizes(write_spec):
    """A window of heap sizes from -2: the claim is ill-defined at (-2,), so the reduction (a statement about
    heaps of 0 tokens or more) must not prove it."""
    text = LEMMA.replace('id = "bouton"', 'id = "bouton-negative"').replace("multisets(n, 0, 6)", "multisets(n, -2, 6)")
    text = text.replace("all(x >= 0 for x in h)", "all(x >= -2 for x in h)")
    spec = load_spec(write_spec(text))
    v = heap_prove(spec.claim("bouton-negative"), RunOptions())
    assert v.verdict == "inconclusive" and "not applicable" in v.scope


def test_a_truth_value_in_a_subtraction_set_is_the_integer_1(write_spec):
    """{True, 2} == {1, 2} in the language, so subtraction({True, 2}) is subtraction({1, 2}) in every engine: the
    built-in family dropped True, and a true claim was refuted (G(1) = 0)."""
    from nimjos.spec.loader import load_spec
    from checkers.run import RunOptions, run_claim
    spec = load_spec(write_spec('''[source]
id = "bool-set"
[[claim]]
id = "g"
game = "subtraction({True, 2})"
position = ["n"]
window = "0 <= n <= 60"
for_all = "n >= 0"
grundy = "n % 3"
[[claim]]
id = "gcn"
holds = "G(gcn(1, ({True, 2},)), 1) == 1"
'''))
    for claim in spec.claims:
        assert run_claim(claim, RunOptions(methods=("exhaustive",), repair=False)).final.verdict == "checked"
