"""The long test of tests/checkers/prove/test_domain_certificate.py (a Z3 proof with a 10 s budget, then the window
on 2,000 positions), slow by its folder."""
from __future__ import annotations

import pytest

from checkers.options import RunOptions
from checkers.prove import prove_claim
from checkers.run import run_claim
from nimjos.spec.loader import load_spec

#: Grundy values of "take at most half" with a pass: G(x, 1) = ((o - 1) / 2) xor 1, o the odd part of x + 1
#: (and G(x, 0) = (o - 1) / 2, so the formula is wrong at p = 0, outside the claim); as in
#: tests/checkers/prove/test_domain_certificate.py
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


@pytest.fixture
def pass_spec(write_spec):
    return load_spec(write_spec(PASS, "pass.toml"))


def test_prove_never_refutes_outside_the_domain(pass_spec):
    c = pass_spec.claim("pass-grundy")
    v = prove_claim(c, RunOptions(timeout=10))
    assert v.verdict != "refuted", v.scope
    assert all(cx.bindings.get("p") == 1 for cx in v.counterexamples)
    final = run_claim(c, RunOptions(methods=("exhaustive", "prove"), repair=False))
    assert final.final.verdict in ("checked", "sampled", "proved", "proved-bounded")
