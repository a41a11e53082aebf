"""The sampler one step past the window, and a claim's parameters beyond it (issue 42 items 3 and 4, issue 38 items
3 and 5): checkers.sample.edge evaluates the window's own check at the next values of every name past the window's
edge and at far values of a game claim's parameters, before the sampler draws far.

Each failure asserted here is also confirmed by a plain mex written in the test (no engine of the project), and
each adversarial case must end refuted or unproved, never with a false `proved` or `refuted`: a parameter whose
far values change the game's shape, a parameter domain bounded above, a statement undefined at far parameters, a
game too large to build at far parameters."""
from __future__ import annotations

import random

import pytest

from checkers.run import RunOptions, run_claim
from checkers.sample import sample_claim
from checkers.sample.edge import EDGE_STEPS, FAR_PARAMETER, far_values, moves
from nimjos.spec.loader import load_spec

SPEC = """
[source]
id = "edge"

[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]

[[claim]]
id = "sub-4k-period-3"
ref = "false at k = 3: g(12) = 3, g(9) = 0"
game = "subtraction({1, 2, 4 * k})"
position = ["n"]
for_all = "k >= 1 and n >= 0"
window = "k <= 2 and n <= 60"
periodic = { period = 3 }

[[claim]]
id = "sub-4k-grundy"
game = "subtraction({1, 2, 4 * k})"
position = ["n"]
for_all = "k >= 1 and n >= 0"
window = "k <= 2 and n <= 60"
grundy = "n % 3"

[[claim]]
id = "sub-4k-members"
game = "subtraction({1, 2, 4 * k})"
position = ["n"]
for_all = "k >= 1 and n >= 0"
window = "k in {1, 2} and n <= 60"
grundy = "n % 3"

[[claim]]
id = "sub-4k-bounded"
ref = "true: the domain stops at k = 2"
game = "subtraction({1, 2, 4 * k})"
position = ["n"]
for_all = "1 <= k <= 2 and n >= 0"
window = "n <= 60"
periodic = { period = 3 }

[[claim]]
id = "odd-period-2"
ref = "true: subtraction({1, 2j + 1}) has g(n) = n mod 2"
game = "subtraction({1, 2 * j + 1})"
position = ["n"]
for_all = "j >= 0 and n >= 0"
window = "j <= 3 and n <= 60"
periodic = { period = 2 }

[[claim]]
id = "shape-changes-far"
ref = "true for j < 100, where the set is {1, 2j + 1}; {1, 2} from j = 100 on (period 3)"
game = "subtraction({1, 2 * j + 1} if j < 100 else {1, 2})"
position = ["n"]
for_all = "j >= 0 and n >= 0"
window = "j <= 3 and n <= 60"
periodic = { period = 2 }

[[claim]]
id = "shape-changes-outside-domain"
ref = "true: the domain stops at j = 50, before the shape changes"
game = "subtraction({1, 2 * j + 1} if j < 100 else {1, 2})"
position = ["n"]
for_all = "0 <= j <= 50 and n >= 0"
window = "j <= 3 and n <= 60"
grundy = "n % 2"

[[claim]]
id = "undefined-far"
ref = "the statement divides by zero from k = 50 on"
game = "subtraction({1, 2})"
position = ["n"]
for_all = "k >= 1 and n >= 0"
window = "k <= 3 and n <= 40"
grundy = "n % 3 if k < 50 else n % (k - k)"

[[claim]]
id = "too-large-far"
ref = "true; from k = 10^6 on the set is too large to build, which is no counterexample"
game = "subtraction(set(range(1, k + 1)))"
position = ["n"]
for_all = "k >= 1 and n >= 0"
window = "k <= 3 and n <= 30"
grundy = "n % (k + 1)"

[[claim]]
id = "nim-pinned"
ref = "false only from x = 10^6 on, pinned there"
game = "nim1"
for_all = "x >= 0"
window = "x <= 20"
grundy = "x if x < 10**6 else 0"
sample = { pins = ["x=1000001"] }
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("edge") / "edge.toml"
    path.write_text(SPEC)
    return load_spec(path)


def plain_grundy(moves_of, top: int) -> list[int]:
    """Grundy values 0..top of a one-heap game by a plain mex over the options, independent of the engines."""
    g: list[int] = []
    for n in range(top + 1):
        seen = {g[m] for m in moves_of(n)}
        g.append(next(v for v in range(len(seen) + 1) if v not in seen))
    return g


def subtraction_grundy(s: set[int], top: int) -> list[int]:
    return plain_grundy(lambda n: [n - t for t in s if 1 <= t <= n], top)


def verdicts(result) -> dict:
    return {v.method: v for v in result.verdicts}


def test_a_period_false_at_the_first_parameter_past_the_window_is_refuted_there(spec):
    result = run_claim(spec.claim("sub-4k-period-3"))
    # the periodicity theorem proves k = 1, 2 (the window); the sampler refutes at k = 3
    assert verdicts(result)["periodicity"].verdict == "proved-bounded"
    final = result.final
    assert final.verdict == "refuted" and final.method == "sample"
    first = final.counterexamples[0]
    assert first.bindings == {"k": 3, "n": 9} and (first.lhs, first.rhs) == (3, 0)
    g = subtraction_grundy({1, 2, 12}, 30)
    assert g[12] == 3 and g[9] == 0
    # the smallest: g(n + 3) = g(n) for every n < 9 at k = 3
    assert all(g[n + 3] == g[n] for n in range(9))
    assert final.scope.startswith("refuted just past the window's edge (k = 3..5")


@pytest.mark.parametrize("claim_id", ["sub-4k-grundy", "sub-4k-members"])
def test_a_formula_false_at_the_first_parameter_past_the_window_is_refuted_at_its_least_position(spec, claim_id):
    final = run_claim(spec.claim(claim_id)).final
    assert final.verdict == "refuted" and final.method == "sample"
    assert final.counterexamples[0].bindings == {"k": 3, "n": 12}
    g = subtraction_grundy({1, 2, 12}, 12)
    assert g[12] == 3 and all(g[n] == n % 3 for n in range(12))


def test_a_domain_bounded_above_is_never_left(spec):
    plan = spec.claim("sub-4k-bounded").plan()
    assert all(m.name != "k" for m in moves(plan, 1))   # k = 3 lies outside the domain
    result = run_claim(spec.claim("sub-4k-bounded"))
    assert result.final.verdict == "proved"
    # a domain that stops at j = 50: every value drawn for j is at most 50
    plan = spec.claim("shape-changes-outside-domain").plan()
    far = [m for m in moves(plan, 7) if m.name == "j"]
    assert far and max(m.hi for m in far) <= 50
    result = run_claim(spec.claim("shape-changes-outside-domain"))
    assert result.final.verdict not in ("refuted", "ill-defined", "proved")
    sample = verdicts(result)["sample"]
    assert sample.verdict == "sampled" and "far parameter values j = " in sample.scope


def test_a_true_parametric_periodic_claim_keeps_its_verdicts(spec):
    result = run_claim(spec.claim("odd-period-2"))
    by = verdicts(result)
    assert result.final.verdict == "proved-bounded" and by["periodicity"].verdict == "proved-bounded"
    sample = by["sample"]
    assert sample.verdict == "sampled"
    # heap sizes drawn for parameter values beyond the window too, and the window's check one step past it
    assert "beyond it (j=4, j=5, j=6" in sample.scope
    assert "just past the window:" in sample.scope and "j = 4..6" in sample.scope


def test_a_parameter_whose_far_values_change_the_games_shape_is_refuted_there_never_proved(spec):
    result = run_claim(spec.claim("shape-changes-far"))
    final = result.final
    assert final.verdict == "refuted" and final.method == "sample"
    first = final.counterexamples[0]
    j, n = first.bindings["j"], first.bindings["n"]
    assert j >= 100   # the next values j = 4..6 hold
    g = subtraction_grundy({1, 2}, n + 2)
    assert g[n + 2] != g[n] and (first.lhs, first.rhs) == (g[n + 2], g[n])


def test_a_statement_undefined_at_far_parameters_is_ill_defined_never_refuted_or_proved(spec):
    final = run_claim(spec.claim("undefined-far")).final
    assert final.verdict == "ill-defined" and final.method == "sample"
    assert not final.counterexamples and final.undefined[0].bindings["k"] >= 50
    assert "modulo by zero" in final.undefined[0].reason


def test_a_game_too_large_to_build_at_far_parameters_is_skipped_not_undefined(spec):
    result = run_claim(spec.claim("too-large-far"))
    sample = verdicts(result)["sample"]
    assert result.final.verdict == "sampled" and sample.verdict == "sampled"
    assert any("not evaluated past the window" in n and "exceeds the limit" in n for n in sample.notes)


def test_a_refutation_at_a_pin_says_so_not_that_nothing_was_sampled(spec):
    # issue 38 item 5: the scope read "0 instances held (0 beyond the window; largest value 0)"
    sample = sample_claim(spec.claim("nim-pinned"), RunOptions())
    assert sample.verdict == "refuted" and sample.counterexamples[0].bindings == {"x": 1000000}   # made smaller
    assert sample.scope.startswith("a pinned instance failed (pins are checked first")
    assert "0 instances held" not in sample.scope
    assert "just past the window: 3 instances held (x = 21..23)" in sample.scope


def test_far_values_stay_within_the_cap_and_above_the_window():
    rng = random.Random(3)
    for _ in range(200):
        above = rng.randrange(0, 10 ** rng.randrange(1, 12))
        cap = None if rng.random() < 0.3 else above + rng.randrange(0, 10 ** rng.randrange(1, 15))
        values = far_values(above, cap, rng)
        assert values == sorted(set(values))
        assert all(above < v <= (FAR_PARAMETER if cap is None else cap) for v in values)


def test_the_next_values_come_first_and_far_values_only_for_parameters(spec):
    plan = spec.claim("sub-4k-grundy").plan()
    found = moves(plan, 1)
    assert [(m.name, m.lo, m.hi, m.far) for m in found[:2]] == [("k", 3, 2 + EDGE_STEPS, False),
                                                               ("n", 61, 60 + EDGE_STEPS, False)]
    far = [m for m in found[2:]]
    assert far and all(m.far and m.name == "k" and m.lo == m.hi for m in far)   # n is a coordinate: no far values
    assert [m.lo for m in far] == sorted(m.lo for m in far)
