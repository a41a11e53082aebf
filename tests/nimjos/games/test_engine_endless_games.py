"""A declared game whose plays need not end: from x >= 100 the one move is x -> x + 1, forever.

Positions 0..99 have no move (P); from 100 on, play never ends (a draw), so "the P-positions are exactly x < 100" is
true of this game. The sampler's local certificate fails at x = 100 (a position labelled N with no option labelled
P), but such a failure shows a wrong label only in a game that ends: it must not be reported as a refutation, and
no method may explore the endless game without a bound (the check used to hang)."""
from __future__ import annotations

import pytest

from checkers.run import RunOptions
from checkers.sample import sample_claim
from nimjos.games.engine import ReferenceEngine, positions_at_most, using_engine
from nimjos.lang.errors import ResourceError
from nimjos.spec.loader import load_spec

SPEC = """
[source]
id = "endless"

[game.climb]
position = ["x"]
moves = [ { to = "x + 1", where = "x >= 100" } ]

[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]

[[claim]]
id = "climb-p-below-100"
ref = "true: 0..99 have no move; from 100 on play never ends"
game = "climb"
for_all = "x >= 0"
window = "x <= 5"
p_positions = "x < 100"

[[claim]]
id = "climb-proof-class-ends"
ref = "true, as climb-p-below-100; the prover's class x <= 99 has no move at all, and says nothing beyond it"
game = "climb"
for_all = "x >= 0"
window = "x <= 5"
p_positions = "x < 100"
prove = { for_all = "x <= 99" }

[[claim]]
id = "nim-p-below-100"
ref = "false at x = 100 (a one-heap Nim position other than 0 is N): a game that ends, refuted"
game = "nim1"
for_all = "x >= 0"
window = "x <= 5"
p_positions = "x == 0 or x >= 100"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("endless") / "endless.toml"
    path.write_text(SPEC)
    return load_spec(path)


def test_an_endless_declared_game_is_explored_within_a_bound(spec):
    climb = spec.games["climb"].instance(())
    with using_engine(ReferenceEngine()):
        with positions_at_most(1_000), pytest.raises(ResourceError, match="more than 1,000 positions"):
            climb.grundy(100)
        assert climb.grundy(99) == 0       # a position with no move is still valued


@pytest.mark.parametrize("claim_id", ["climb-p-below-100", "climb-proof-class-ends"])
def test_a_certificate_failure_in_a_game_not_known_to_end_is_not_a_refutation(spec, claim_id):
    # the second claim's prove.for_all is a class where every play ends (no move): whether plays end is asked on
    # the claim's own domain, where the sampler draws
    sample = sample_claim(spec.claim(claim_id), RunOptions())
    assert sample.verdict == "inconclusive" and not sample.counterexamples
    assert any("nothing shows that every play of climb ends" in n for n in sample.notes)


def test_a_certificate_failure_the_engine_confirms_is_still_a_refutation(spec):
    sample = sample_claim(spec.claim("nim-p-below-100"), RunOptions())
    assert sample.verdict == "refuted"
    cx = sample.counterexamples[0]
    assert cx.detail.get("engine") == "re-evaluated by the engine" and (cx.lhs, cx.rhs) == ("N", "P")
    assert cx.bindings["x"] >= 100
