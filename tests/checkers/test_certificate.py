"""The local certificate: (a) and (b) at single positions, listed or searched by Z3, and re-evaluation."""
from __future__ import annotations

import z3
import pytest

from checkers.certificate import Certificate, TooManyOptions, Undecided, count_options
from checkers.sample.point_solver import PointSolver
from checkers.sample.evaluate import GameEvaluator
from nimjos.spec.loader import load_spec

GAMES = """
[source]
id = "cert"

[game.delete_nim]
position = ["x", "y"]
moves = [
  { to = "(a, x - 1 - a)", where = "0 <= a <= x - 1" },
  { to = "(a, y - 1 - a)", where = "0 <= a <= y - 1" },
]

[game.vdn]
position = ["x", "y"]
moves = [
  { to = "(a, x - a)", where = "1 <= a <= x - 1" },
  { to = "(a, y - a)", where = "1 <= a <= y - 1" },
]

[game.sub23]
position = ["n"]
moves = [ { to = "n - s", where = "s in {2, 3} and s <= n" } ]
"""

CLAIMS = """
[[claim]]
id = "dn"
game = "delete_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
grundy = "v2((x | y) + 1)"

[[claim]]
id = "dn-wrong"
game = "delete_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
grundy = "v2((x | y) + 2)"

[[claim]]
id = "vdn"
game = "vdn"
for_all = "1 <= x and 1 <= y"
window = "x <= 20 and y <= 20"
p_positions = "x % 2 == 1 and y % 2 == 1"

[[claim]]
id = "vdn-wrong"
game = "vdn"
for_all = "1 <= x and 1 <= y"
window = "x <= 20 and y <= 20"
p_positions = "x % 2 == 1"

[[claim]]
id = "sub23-levels"
game = "sub23"
for_all = "0 <= n"
window = "n <= 30"
levels = "0 <= s <= 2"
level_set = "(0, 0, 1, 1, 2)[n % 5] == s"

[[claim]]
id = "sub23-families"
game = "sub23"
for_all = "0 <= n"
window = "n <= 30"
p_positions = [ { point = "5 * j", where = "j >= 0" }, { point = "5 * j + 1", where = "j >= 0" } ]
"""


@pytest.fixture
def spec(write_spec):
    return load_spec(write_spec(GAMES + CLAIMS))


def cert(spec, cid, params=None):
    return Certificate.for_claim(spec.claim(cid), params or {})


def test_true_claims_pass_everywhere_listed(spec):
    for cid, positions in [("dn", [(0, 0), (5, 9), (40, 17)]), ("vdn", [(1, 1), (7, 8), (33, 21)]),
                           ("sub23-levels", [0, 7, 123]), ("sub23-families", [0, 5, 6, 7, 99])]:
        c = cert(spec, cid)
        for p in positions:
            assert c.check(p) is None, (cid, p)


def test_failures_name_the_condition(spec):
    f = cert(spec, "dn-wrong").check((0, 0))
    assert f.condition == "b" and f.detail["missing"] == 0          # value 1 at an end position
    f = cert(spec, "vdn-wrong").check((3, 2))
    assert f.condition == "a" and f.option == (1, 2)               # (1, 2) is claimed P too


def test_counting_options_is_constant_time_for_intervals(spec):
    inst = spec.games["delete_nim"].instance(())
    assert count_options(inst, (10 ** 18, 10 ** 17), 100) > 100
    assert count_options(inst, (10 ** 18, 10 ** 17), 10 ** 19) == 10 ** 18 + 10 ** 17
    with pytest.raises(TooManyOptions):
        cert(spec, "dn").check((10 ** 9, 3))


def test_z3_searches_the_options_of_huge_positions(spec):
    big = (10 ** 18 + 7, 3 * 10 ** 17 + 5)
    assert PointSolver(cert(spec, "dn"), z3.Context()).check(big) is None
    assert PointSolver(cert(spec, "vdn"), z3.Context()).check(big) is None
    f = PointSolver(cert(spec, "vdn-wrong"), z3.Context()).check((10 ** 18 + 1, 10 ** 17 + 1))
    assert f is not None and f.condition == "a"
    # the option Z3 found is a real option, verified exactly
    q = f.option
    assert q[0] + q[1] == 10 ** 18 + 1 and q[0] % 2 == 1


def test_one_family_cannot_constrain_the_search_along_another(spec):
    # at (0, y) the first family has no move, and its option's label v2((a | (-1 - a)) + 1) is v2(0): that
    # obligation once made the search along the second family unsatisfiable, a false failure of (b)
    for pos in [(0, 101), (0, 4001), (0, 10 ** 18 + 1), (5, 0)]:
        assert PointSolver(cert(spec, "dn"), z3.Context()).check(pos) is None, pos


def test_reevaluation_by_the_engine_finds_the_smallest_wrong_value(spec):
    found = cert(spec, "dn-wrong").reevaluate((2, 1))
    assert found is not None
    q, actual, claimed = found
    assert actual != claimed
    assert cert(spec, "dn").reevaluate((6, 5)) is None


def test_levels_must_start_at_zero(write_spec):
    text = GAMES + CLAIMS.replace('levels = "0 <= s <= 2"', 'levels = "1 <= s <= 2"')
    s = load_spec(write_spec(text))
    from nimjos.lang.errors import SpecError
    with pytest.raises(SpecError):
        cert(s, "sub23-levels")


def test_a_query_z3_cannot_decide_is_never_counted_as_held(spec):
    # with no resource units every search query answers unknown: before, check() returned None (held)
    for name, pos in [("dn", (10 ** 18 + 7, 3 * 10 ** 17 + 5)), ("vdn", (10 ** 18 + 7, 3 * 10 ** 17 + 5))]:
        ps = PointSolver(cert(spec, name), z3.Context(), timeout_ms=0)
        ps._options_inside = lambda pos, bits: None     # only the certificate's own queries are starved
        with pytest.raises(Undecided):
            ps.check(pos)
    # the sampler skips such a position, with the reason, instead of counting it
    c = spec.claim("dn")
    ev = GameEvaluator(c.plan(), "default", z3.Context())
    ps = PointSolver(ev.certificate({}), ev.ctx, timeout_ms=0)
    ps._options_inside = lambda pos, bits: None
    ev._solvers[id(ev.certificate({}))] = ps
    out = ev({"x": 10 ** 18 + 7, "y": 3 * 10 ** 17 + 5})
    assert out.kind == "skip" and "could not decide" in out.note
