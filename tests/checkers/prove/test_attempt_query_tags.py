"""The prover's queries carry a typed tag (checkers.prove.attempt.Query: a role and the move it is along), and the
code that decides what a failing query shows reads the tag, never the query's name (words for people): with every
name replaced by an opaque one, a certificate failure beyond the engine still refutes, and a failing side
condition still refutes nothing."""
from __future__ import annotations

import pathlib

import pytest

import checkers.prove.method as prove_method
from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove import prove_claim
from checkers.prove.domain import proof_domain
from checkers.prove.instance import prove_instance
from checkers.prove.attempt import Context, Query, QueryRole
from nimjos.spec.loader import ProveOptions, load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]
TINY = load_spec(ROOT / "tests" / "data" / "tiny.toml")

SPEC = '''[source]
id = "tags"

[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]

[game.nim2]
position = ["x", "y"]
moves = [{ to = "(x - k, y)", where = "1 <= k <= x" }, { to = "(x, y - k)", where = "1 <= k <= y" }]

[[claim]]
id = "nim2-extra"
game = "nim2"
for_all = "x >= 0 and y >= 0"
window = "x <= 12 and y <= 12"
p_positions = "x == y or (x == 1000 and y == 1001)"

[[claim]]
id = "nim1-leaves-domain"
game = "nim1"
for_all = "x >= 5"
window = "x <= 40"
p_positions = "x < 0"
'''


def test_every_query_of_a_game_claim_is_tagged():
    plan = TINY.claims[0].plan()
    att = prove_instance(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, 10 ** 12)
    assert att.status == "proved" and all(r.query is not None for r in att.results)
    roles = [r.query.role for r in att.results]
    assert roles[0] is QueryRole.DESCENT and QueryRole.CLOSURE in roles and QueryRole.A in roles
    assert all(r.query.move == 0 for r in att.results if r.query.role in (QueryRole.CLOSURE, QueryRole.A))


@pytest.fixture
def opaque_names(monkeypatch):
    """Every query the solver answers gets a name that says nothing (its tag is kept)."""
    run = Context.run
    count = iter(range(10 ** 6))

    def renamed(self, name, *args, **kwargs):
        return run(self, f"query {next(count)}", *args, **kwargs)
    monkeypatch.setattr(Context, "run", renamed)
    monkeypatch.setattr(prove_method, "walnut_verdict", lambda *a, **k: None)


def _z3(spec, cid):
    with CheckContext.for_claim().installed() as context:
        return prove_claim(spec.claim(cid), RunOptions(), context=context)


def test_a_certificate_failure_is_read_from_the_tag(opaque_names, write_spec):
    spec = load_spec(write_spec(SPEC))
    v = _z3(spec, "nim2-extra")
    assert v.verdict == "refuted", v.scope
    assert (v.counterexamples[0].bindings["x"], v.counterexamples[0].bindings["y"]) in ((1000, 1001), (1001, 1001))
    assert "not necessarily the least counterexample" in v.scope


def test_a_side_condition_along_a_move_refutes_nothing(opaque_names, write_spec):
    spec = load_spec(write_spec(SPEC))
    assert _z3(spec, "nim1-leaves-domain").verdict != "refuted"


def test_a_tag_along_a_move():
    assert Query(QueryRole.CLOSURE, 0).along_a_move and Query(QueryRole.DESCENT, 3).along_a_move
    assert not Query(QueryRole.DESCENT).along_a_move and not Query(QueryRole.A, 0).along_a_move
