"""The prover and the local certificate stay inside a claim's domain, and say how much of it they proved.

* ``proved`` only for the whole domain; ``proved-bounded`` for a smaller class, which the scope prints;
* an option outside the domain is never judged by the claimed formula (DESIGN.md, "A claim's domain and its
  window"): take at most half with a one-time pass (coordinate p), claimed for p = 1, is never refuted at p = 0;
* a statement about xor alone is not proved by the xor laws that state it.
"""
from __future__ import annotations

import pytest
import z3

from checkers.options import RunOptions
from checkers.prove import prove_claim
from checkers.certificate import Certificate, OutsideDomain
from checkers.sample.point_solver import PointSolver
from checkers.prove.xor_law import about_xor_alone
from nimjos.lang.syntax import parse
from nimjos.spec.loader import load_spec
from nimjos.spec.names import spec_namespace

#: Grundy values of "take at most half" with a pass: G(x, 1) = ((o - 1) / 2) xor 1, o the odd part of x + 1
#: (and G(x, 0) = (o - 1) / 2, so the formula is wrong at p = 0, outside the claim)
PASS = """
[source]
id = "pass"
title = "take at most half, with a one-time pass (OEIS A295041)"

[game.half_pass]
position = ["x", "p"]
moves = [ { to = "(x - t, p)", where = "1 <= t <= x // 2" },
          { to = "(x, p - 1)", where = "p >= 1" } ]

[[claim]]
id = "pass-grundy"
game = "half_pass"
for_all = "1 <= x and 1 <= p <= 1"
window = "x <= 2000"
grundy = "xor((x + 1) // 2 ** v2(x + 1) // 2, 1)"
expect = "holds"
"""

SUBTRACTION = """
[source]
id = "sub"

[game.sub]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= k and t <= x" } ]

[[claim]]
id = "whole"
game = "sub(k)"
for_all = "1 <= k <= 5 and 0 <= x"
window = "x <= 60"
grundy = "x % (k + 1)"

[[claim]]
id = "some-k"
game = "sub(k)"
for_all = "1 <= k and 0 <= x"
window = "k <= 12 and x <= 60"
grundy = "x % (k + 1)"

[[claim]]
id = "stated"
game = "sub(k)"
for_all = "k >= 1 and x >= 0"
window = "1 <= k <= 5 and 0 <= x <= 60"
grundy = "x % (k + 1)"
"""

XOR = """
[source]
id = "xor"

[[claim]]
id = "identity"
for_all = "0 <= a"
window = "a <= 1000"
holds = "xor(a, 0) == a"

[[claim]]
id = "inverse"
for_all = "0 <= a"
window = "a <= 1000"
holds = "xor(a, a) == 0"
"""


@pytest.fixture
def pass_spec(write_spec):
    return load_spec(write_spec(PASS, "pass.toml"))


def test_the_certificate_takes_the_engines_value_at_an_option_outside_the_domain(pass_spec):
    c = pass_spec.claim("pass-grundy")
    cert = Certificate.for_claim(c, {})
    assert not cert.inside((1, 0)) and cert.inside((1, 1))
    # (1, 1) has the one option (1, 0); the formula gives 1 at both, the engine 0 at (1, 0)
    assert cert.labels([(1, 1), (1, 0)]) == [1, 0]
    assert all(cert.check((x, 1)) is None for x in range(1, 200))
    assert cert.reevaluate((1, 1)) is None


def test_the_point_solver_does_not_judge_options_outside_the_domain(pass_spec):
    cert = Certificate.for_claim(pass_spec.claim("pass-grundy"), {})
    with pytest.raises(OutsideDomain):
        PointSolver(cert, z3.Context()).check((2 ** 40 + 5, 1))


def test_proved_is_for_the_whole_domain_and_proved_bounded_prints_the_class(write_spec, walnut):
    spec = load_spec(write_spec(SUBTRACTION))
    whole = prove_claim(spec.claim("whole"), RunOptions(timeout=20))   # k = 1..5 is the stated domain
    assert whole.verdict == "proved", whole.scope
    some = prove_claim(spec.claim("some-k"), RunOptions(timeout=20))   # the domain is k >= 1
    assert some.verdict == "proved-bounded", some.scope
    assert "for k = 1..12 only (" in some.scope   # (the Z3 prover or Walnut: each prints the class)
    stated = prove_claim(spec.claim("stated"), RunOptions(timeout=20))
    assert stated.verdict == "proved-bounded" and "for k = 1..5 only (" in stated.scope


def test_a_law_of_the_xor_abstraction_is_not_proved_by_it(write_spec, walnut):
    spec = load_spec(write_spec(XOR))
    for cid in ("identity", "inverse"):
        v = prove_claim(spec.claim(cid), RunOptions(timeout=10))
        assert "xor by its laws" not in v.scope, (cid, v.scope)
        if "Walnut" in v.scope:   # a decision procedure with xor defined bit by bit: every a
            assert v.verdict == "proved"
        else:                     # Z3 with bvxor, a definition: below 2^32
            assert v.verdict == "proved-bounded" and "a < 2^32" in v.scope
            assert any("restate the claim" in n for n in v.notes)


def test_statements_about_xor_alone():
    ns = spec_namespace()
    assert about_xor_alone([parse("xor(a, b) == xor(b, a)")], ns)
    assert not about_xor_alone([parse("xor(a, b) <= a + b")], ns)
    assert not about_xor_alone([parse("G(nim, xor(a, b)) == xor(a, b)")], ns)
