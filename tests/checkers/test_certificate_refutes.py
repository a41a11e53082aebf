"""A confirmed failure of the local certificate refutes (DESIGN.md, principle 11): the claim evaluated exactly at the
failing position and at its witness option, or at every option (checkers.certificate.Certificate.confirm), for
a game whose moves are proved to end and stay in the domain. The adversarial side: moves that leave the domain, a
game that does not end, a predicate undefined at the witness, an assumption; none of them refutes."""
from __future__ import annotations

import pytest

import checkers.prove.method as prove_method
from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.certificate import CONFIRM_SCALAR, VECTORISED, Certificate
from checkers.prove.method import prove_claim
from nimjos.spec.loader import load_spec

GAMES = """
[source]
id = "confirm"

[game.nim1]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= x" } ]

[game.nim2]
position = ["x", "y"]
moves = [{ to = "(x - k, y)", where = "1 <= k <= x" }, { to = "(x, y - k)", where = "1 <= k <= y" }]

[game.wythoff]
position = ["x", "y"]
moves = [
  { to = "(x - t, y)", where = "1 <= t <= x" },
  { to = "(x, y - t)", where = "1 <= t <= y" },
  { to = "(x - t, y - t)", where = "1 <= t <= min(x, y)" },
]

[game.up]
title = "a game that never ends: every move adds a token"
position = ["x"]
moves = [ { to = "x + t", where = "t == 1 and x >= 0" } ]
"""


def _claim(cid: str, game: str, for_all: str, window: str, body: str) -> str:
    return f'\n[[claim]]\nid = "{cid}"\ngame = "{game}"\nfor_all = "{for_all}"\nwindow = "{window}"\n{body}\n'


CLAIMS = (
    _claim("wythoff-987-610", "wythoff", "0 <= x and 0 <= y", "x <= 30 and y <= 30",
           'p_positions = [\n  { point = "(n * 987 // 610, n * 987 // 610 + n)", where = "n >= 0" },\n'
           '  { point = "(n * 987 // 610 + n, n * 987 // 610)", where = "n >= 0" },\n]')
    + _claim("nim2-extra", "nim2", "x >= 0 and y >= 0", "x <= 12 and y <= 12",
             'p_positions = "x == y or (x == 1000 and y == 1001)"')
    + _claim("nim2-missing", "nim2", "x >= 0 and y >= 0", "x <= 12 and y <= 12",
             'p_positions = "x == y and x != 3000"')
    + _claim("nim1-leaves-domain", "nim1", "x >= 5", "x <= 40", 'p_positions = "x < 0"')
    + _claim("nim1-undefined", "nim1", "x >= 0", "x <= 2", 'p_positions = "x == 0 or 1 // (x - 3) == 7"')
    + _claim("nim1-grundy-undefined", "nim1", "x >= 0", "x <= 2", 'grundy = "x if x != 3 else 1 // (x - 3)"')
    + _claim("nim1-assume", "nim1", "x >= 0", "x <= 20", 'assume = "x % 2 == 0"\ngrundy = "0"')
    + _claim("never-ends", "up", "x >= 0", "x <= 5", 'p_positions = "x < 0"')
    + _claim("nim1-negative", "nim1", "x >= 0", "x <= 20", 'grundy = "x if x < 9000 else -1"')
)


@pytest.fixture
def spec(write_spec):
    return load_spec(write_spec(GAMES + CLAIMS))


def _cert(spec, cid: str) -> Certificate:
    return Certificate.for_claim(spec.claim(cid), {})


def test_a_failure_of_a_at_a_witness_option_is_confirmed_by_two_evaluations(spec):
    """The 987/610 Wythoff family: Z3's model (4180, 2583), move 1 with t = 2584, leads to (1596, 2583); both are
    claimed P-positions. The engine cannot value a 4181 x 2584 box: two evaluations of the claim confirm it."""
    conf = _cert(spec, "wythoff-987-610").confirm((4180, 2583), 0, {"t": 2584})
    assert conf is not None and conf.failure.condition == "a" and conf.failure.option == (1596, 2583)
    assert not conf.every_option and conf.options == 1
    assert conf.wrong_where() == "the claim is wrong at (4180, 2583) or at its option (1596, 2583)"
    # a binding that is no move, or a move to a position that is not claimed: nothing is confirmed
    assert _cert(spec, "wythoff-987-610").confirm((4180, 2583), 0, {"t": 5000}) is None
    assert _cert(spec, "wythoff-987-610").confirm((4180, 2583), 0, {"t": 1}) is None


def test_a_failure_of_b_is_confirmed_at_every_option(spec):
    """(3000, 3000) is not claimed, and none of its 6000 options is: (b) fails there (scalar); with the options
    beyond CONFIRM_SCALAR the vectorised evaluator evaluates them, and says so."""
    conf = _cert(spec, "nim2-missing").confirm((3000, 3000))
    assert conf is not None and conf.failure.condition == "b" and conf.every_option and conf.options == 6000
    assert conf.truth == 0          # were every option's label right, (3000, 3000) would be a P-position
    big = (CONFIRM_SCALAR, CONFIRM_SCALAR)
    assert _cert(spec, "nim2-missing").confirm(big) is None            # (b) holds there: (k, k) is claimed P
    assert _cert(spec, "nim2-extra").confirm((1000, 1001)).failure.option == (1000, 1000)
    assert _cert(spec, "nim2-missing").confirm((3000, 2999)) is None     # its option (2999, 2999) is claimed


def test_the_vectorised_confirmation_agrees_with_the_scalar_one(spec):
    cert = _cert(spec, "nim2-missing")
    opts = list(cert.inst.options((3000, 3000)))
    assert cert._vector_labels(opts) == cert.labels(opts)
    cert = _cert(spec, "nim1-leaves-domain")        # options below 5 lie outside the domain: the engine's labels
    opts = list(cert.inst.options(40))
    assert cert._vector_labels(opts) == cert.labels(opts)


def test_many_options_go_through_the_vectorised_evaluator(spec):
    """(3000 + K, 3000) is not claimed, and neither is any option (its one option on the diagonal, (3000, 3000), is
    left out of the claim): (b) fails, confirmed at its 3000 + K + 3000 options by the vectorised evaluator."""
    k = CONFIRM_SCALAR
    conf = _cert(spec, "nim2-missing").confirm((3000 + k, 3000))
    assert conf is not None and conf.failure.condition == "b" and conf.how == VECTORISED
    assert conf.options == 6000 + k and VECTORISED in conf.words()
    assert _cert(spec, "nim2-missing").confirm((3001 + k, 3001)) is None     # (3001, 3001) is claimed
    assert _cert(spec, "nim1-negative").confirm(9000).failure.condition == "label"


def test_an_option_outside_the_domain_is_labelled_by_the_engine_never_by_the_formula(spec):
    """The claim says nothing below 5: at 7 the options 0..4 get the engine's labels (0 is a P-position), so (b)
    holds at 7 and nothing is confirmed, although the formula would call none of them a P-position."""
    cert = _cert(spec, "nim1-leaves-domain")
    assert cert.confirm(7) is None and cert.confirm(200_000) is None
    assert cert.confirm(3) is None                   # outside the domain: nothing is judged there


def test_a_predicate_undefined_at_the_witness_confirms_nothing(spec):
    cert = _cert(spec, "nim1-undefined")
    assert cert.confirm(4) is None                    # option 3: 1 // 0
    assert cert.confirm(5, 0, {"t": 2}) is None       # the witness option 3 itself
    assert _cert(spec, "nim1-grundy-undefined").confirm(5) is None


def test_a_claim_with_an_assumption_confirms_nothing(spec):
    """G = 0 on the even heaps is false (G(2) = 2), but the formula says nothing at the odd options: the
    confirmation does not apply."""
    assert _cert(spec, "nim1-assume").confirm(2) is None


def _prove_with_z3_only(monkeypatch, spec, cid: str):
    monkeypatch.setattr(prove_method, "walnut_verdict", lambda *a, **k: None)
    with CheckContext.for_claim().installed() as context:
        return prove_claim(spec.claim(cid), RunOptions(), context=context)


def test_z3s_failure_beyond_the_engine_refutes_with_the_failing_position_and_its_witness(monkeypatch, spec):
    """(1000, 1001) and its option (1000, 1000) are both claimed P-positions: Z3 finds (a) failing, the engine
    cannot value a 1001 x 1002 box (over 500,000 positions), the two evaluations confirm it; the moves are proved
    to lower the coordinate sum and stay in the domain. The refutation says what it shows, and no more."""
    v = _prove_with_z3_only(monkeypatch, spec, "nim2-extra")
    assert v.verdict == "refuted", v.scope
    cx = v.counterexamples[0]
    # the two failures of (a): (1000, 1001) -> (1000, 1000) and (1001, 1001) -> (1000, 1001); Z3 picks one
    witness = {(1000, 1001): (1000, 1000), (1001, 1001): (1000, 1001)}
    at = (cx.bindings["x"], cx.bindings["y"])
    assert at in witness and cx.rhs == "P" and cx.lhs is None and cx.detail["least"] == "not known"
    assert f"certificate (a) fails at {at}" in v.scope
    assert f"wrong at {at} or at its option {witness[at]}" in v.scope
    assert "not necessarily the least counterexample" in v.scope


def test_a_game_that_never_ends_is_not_refuted(monkeypatch, spec):
    """No position of 'up' is ever left for good: every position is a draw, so "no P-positions" is true, although
    (b) fails everywhere (no option is claimed). Without a proof that the moves end, nothing refutes it."""
    cert = _cert(spec, "never-ends")
    assert cert.confirm(10 ** 6) is not None          # the local failure is there: only the caller's proof decides
    v = _prove_with_z3_only(monkeypatch, spec, "never-ends")
    assert v.verdict != "refuted", v.scope


def test_moves_that_leave_the_domain_are_not_refuted(monkeypatch, spec):
    v = _prove_with_z3_only(monkeypatch, spec, "nim1-leaves-domain")
    assert v.verdict != "refuted", v.scope


def test_the_cli_prints_a_certificate_failure_as_such(monkeypatch, spec, cli):
    monkeypatch.setattr(prove_method, "walnut_verdict", lambda *a, **k: None)
    out = cli("check", str(spec.path), "--claim", "nim2-extra", "--no-store", "--method", "exhaustive,prove").stdout
    assert "refuted" in out
    assert ("(the claim is wrong there or at an option of it; the least counterexample is not known): claimed "
            "outcome P") in out and "certificate failure at x=100" in out
    assert "smallest counterexample" not in out
