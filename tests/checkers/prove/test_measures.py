"""A declared game's termination measure (``measure = "x1 + 2*x2 + 3*x3"``, or a list compared
lexicographically): proved bounded below on the domain and decreased by every move before the prover's induction
relies on it; Staircase Nim proved with it, a measure some move does not decrease refused with the move named.
Without one, a measure found by a search (weighted sums with weights 1..4, then lexicographic orders), proved the
same way and named in the scope; the adversarial games where none may be found end unproved, with the hint."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove.domain import proof_domain
from checkers.prove.method import prove_claim
from checkers.prove.queries import GameQueries
from checkers.prove.attempt import Context
from checkers.z3.terms import Untranslatable
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import ProveOptions, load_spec

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "staircase_nim.toml"

STAIRS = '''
[source]
id = "m"
title = "measures"

[game.stairs]
position = ["x1", "x2", "x3"]
measure = {measure}
moves = [
  {{ to = "(x1 - t, x2, x3)", where = "1 <= t <= x1" }},
  {{ to = "(x1 + t, x2 - t, x3)", where = "1 <= t <= x2" }},
  {{ to = "(x1, x2 + t, x3 - t)", where = "1 <= t <= x3" }},
]

[[claim]]
id = "c"
game = "stairs"
for_all = "0 <= x1 and 0 <= x2 and 0 <= x3"
window = "x1 <= 4 and x2 <= 4 and x3 <= 4"
p_positions = "xor(x1, x3) == 0"
'''


def _descent(write_spec, measure: str):
    spec = load_spec(write_spec(STAIRS.format(measure=measure)))
    c = spec.claim("c")
    plan = c.plan()
    ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0,
                  time.perf_counter() + 20)
    return GameQueries(ctx, "p").q_descent_all()


def test_staircase_nim_is_proved_with_its_measure(walnut):
    spec = load_spec(EXAMPLES)
    v = prove_claim(spec.claim("staircase-3"), RunOptions(timeout=30), context=CheckContext.for_claim())
    assert v.verdict == "proved" and "the measure x1 + 2*x2 + 3*x3" in v.scope


def test_a_measure_is_proved_before_it_is_used(write_spec):
    ok = _descent(write_spec, '"x1 + 2*x2 + 3*x3"')
    assert ok.status == "holds" and "the measure x1 + 2*x2 + 3*x3" in ok.name
    lex = _descent(write_spec, '["x3", "x2", "x1"]')
    assert lex.status == "holds" and "lexicographically" in lex.name
    # the coordinate sum: a move between stairs keeps it; the refusal names the move
    bad = _descent(write_spec, '"x1 + x2 + x3"')
    assert bad.status != "holds" and bad.name == "move 2 decreases the measure x1 + x2 + x3"
    # the wrong lexicographic order: moving a coin up the order (stair 2 to stair 1) increases x1 first
    wrong_order = _descent(write_spec, '["x1", "x2", "x3"]')
    assert wrong_order.status != "holds" and wrong_order.name.startswith("move 2 decreases")
    # decreased by every move, but not bounded below by 0 on the domain
    low = _descent(write_spec, '"x1 + 2*x2 + 3*x3 - 5"')
    assert low.status != "holds" and "bounded below" in low.name
    with pytest.raises(Untranslatable):
        _descent(write_spec, '"(x1 + 2*x2 + 3*x3) / 2"')   # not an integer term


STAIRS4 = '''
[source]
id = "m4"
title = "four stairs, no measure"

[game.stairs4]
position = ["a", "b", "c", "d"]
moves = [
  { to = "(a - t, b, c, d)", where = "1 <= t <= a" },
  { to = "(a + t, b - t, c, d)", where = "1 <= t <= b" },
  { to = "(a, b + t, c - t, d)", where = "1 <= t <= c" },
  { to = "(a, b, c + t, d - t)", where = "1 <= t <= d" },
]

[[claim]]
id = "c"
game = "stairs4"
for_all = "0 <= a and 0 <= b and 0 <= c and 0 <= d"
window = "a <= 3 and b <= 3 and c <= 3 and d <= 3"
p_positions = "xor(a, c) == 0"
'''

#: games where no measure may be found or none may be trusted (moves, the claim's domain and its prove.for_all)
ADVERSARIAL = '''
[source]
id = "adv"
title = "termination measures that must not be found"

[game.climb]
title = "x climbs towards y: move 1 increases every weighted sum and every order of the coordinates"
position = ["x", "y"]
moves = [
  {{ to = "(x + 1, y)", where = "x < y" }},
  {{ to = "(x, y - t)", where = "1 <= t <= y" }},
]

[game.stairs]
position = ["a", "b", "c"]
moves = [
  {{ to = "(a - t, b, c)", where = "1 <= t <= a" }},
  {{ to = "(a + t, b - t, c)", where = "1 <= t <= b" }},
  {{ to = "(a, b + t, c - t)", where = "1 <= t <= c" }},
]

[game.leaky]
title = "a + 2*b decreases on every move, but move 1 leaves the coordinates >= 0 (it is unbounded below there)"
position = ["a", "b"]
moves = [
  {{ to = "(a - t, b)", where = "1 <= t <= b + 1" }},
  {{ to = "(a + t, b - t)", where = "1 <= t <= b" }},
]

[game.still]
title = "from a negative a no move: a + 2*b decreases and the coordinates stay >= 0, but a + 2*b is not >= 0"
position = ["a", "b"]
moves = [
  {{ to = "(a - t, b)", where = "1 <= t <= a" }},
  {{ to = "(a + t, b - t)", where = "1 <= t <= b and 0 <= a" }},
]

[[claim]]
id = "climb"
game = "climb"
for_all = "0 <= x and 0 <= y"
window = "x <= 5 and y <= 5"
p_positions = "y == 0"

[[claim]]
id = "negative"
note = "true on the window, but the class to prove lets a be negative, where move 2 gives a negative coordinate"
game = "stairs"
for_all = "{domain}"
window = "0 <= a <= 4 and b <= 4 and c <= 4"
p_positions = "xor(a, c) == 0"
prove = {{ for_all = "{prove}" }}

[[claim]]
id = "leaky"
game = "leaky"
for_all = "0 <= a and 0 <= b"
window = "a <= 3 and b <= 3"
p_positions = "a == 0 and b == 0"

[[claim]]
id = "still"
game = "still"
for_all = "-3 <= a and 0 <= b"
window = "0 <= a <= 3 and b <= 3"
p_positions = "xor(a, b) == 0"
prove = {{ for_all = "-3 <= a <= 100 and 0 <= b <= 100" }}
'''

NEGATIVE = ("-5 <= a and 0 <= b and 0 <= c", "-5 <= a <= 100 and 0 <= b <= 100 and 0 <= c <= 100")


def _queries(write_spec, text: str, claim: str = "c") -> GameQueries:
    spec = load_spec(write_spec(text))
    c = spec.claim(claim)
    plan = c.plan()
    ctx = Context(plan, proof_domain(plan, c.prove), {}, "int", None, 0,
                  time.perf_counter() + 20)
    return GameQueries(ctx, "p")


def test_without_a_measure_one_is_found_and_named(write_spec, walnut):
    text = STAIRS.format(measure='"x1"').replace('measure = "x1"\n', "")
    spec = load_spec(write_spec(text))
    v = prove_claim(spec.claim("c"), RunOptions(timeout=20), context=CheckContext.for_claim())
    assert v.verdict == "proved", v.scope
    assert "the measure x1 + 2*x2 + 3*x3 (found by a search, as the game declares none" in v.scope
    spec4 = load_spec(write_spec(STAIRS4, "four.toml"))
    v4 = prove_claim(spec4.claim("c"), RunOptions(timeout=30), context=CheckContext.for_claim())
    assert v4.verdict == "proved", v4.scope
    assert "the measure a + 2*b + 3*c + 4*d (found by a search" in v4.scope


def test_the_search_finds_a_lexicographic_order_where_no_weighted_sum_decreases(write_spec):
    # five stairs: a strictly increasing weight for each stair needs five weights, the search has 1..4
    text = STAIRS4.replace('"a", "b", "c", "d"]', '"a", "b", "c", "d", "e"]')
    for old, new in [("(a - t, b, c, d)", "(a - t, b, c, d, e)"), ("(a + t, b - t, c, d)", "(a + t, b - t, c, d, e)"),
                     ("(a, b + t, c - t, d)", "(a, b + t, c - t, d, e)"),
                     ("(a, b, c + t, d - t)", "(a, b, c + t, d - t, e)"),
                     ("{ to = \"(a, b, c + t, d - t, e)\", where = \"1 <= t <= d\" },",
                      "{ to = \"(a, b, c + t, d - t, e)\", where = \"1 <= t <= d\" },\n"
                      "  { to = \"(a, b, c, d + t, e - t)\", where = \"1 <= t <= e\" },"),
                     ("0 <= d\"", "0 <= d and 0 <= e\""), ("d <= 3\"", "d <= 3 and e <= 3\"")]:
        assert old in text
        text = text.replace(old, new)
    res = _queries(write_spec, text).q_descent_all()
    assert res.status == "holds" and res.measure == ("e", "d", "c", "b", "a"), res


def test_the_search_is_bounded_in_z3_queries(write_spec, monkeypatch):
    from checkers.prove import attempt
    asked = []
    run = attempt.Context.run
    monkeypatch.setattr(attempt.Context, "run", lambda self, name, *a, **k: asked.append(name) or run(self, name, *a, **k))
    monkeypatch.setattr("checkers.prove.queries.MAX_QUERIES", 2)
    res = _queries(write_spec, STAIRS4).q_descent_all()
    assert res.status == "fails" and "no termination measure found in 2 Z3 queries" in res.text
    assert len([n for n in asked if "the measure" in n]) == 2


def test_a_move_that_increases_every_candidate_leaves_the_descent_unproved(write_spec):
    res = _queries(write_spec, ADVERSARIAL.format(domain=NEGATIVE[0], prove=NEGATIVE[1]), "climb").q_descent_all()
    assert res.status == "fails" and res.name == "move 1 decreases the coordinate sum"
    assert "no termination measure found" in res.text and "`measure`" in res.text


def test_a_domain_that_lets_a_coordinate_go_negative_has_no_measure(write_spec):
    res = _queries(write_spec, ADVERSARIAL.format(domain=NEGATIVE[0], prove=NEGATIVE[1]), "negative").q_descent_all()
    assert res.status == "fails" and "move 2 gives a negative coordinate" in res.text, res
    # the same claim on the non-negative coordinates: the measure is found
    ok = _queries(write_spec, ADVERSARIAL.format(domain=NEGATIVE[0].replace("-5", "0"),
                                                 prove=NEGATIVE[1].replace("-5", "0")), "negative").q_descent_all()
    assert ok.status == "holds" and ok.measure == ("a + 2*b + 3*c",)


def test_a_measure_unbounded_below_where_moves_leave_the_domain_is_refused(write_spec):
    res = _queries(write_spec, ADVERSARIAL.format(domain=NEGATIVE[0], prove=NEGATIVE[1]), "leaky").q_descent_all()
    assert res.status == "fails" and "move 1 gives a negative coordinate" in res.text, res


def test_a_measure_not_bounded_below_on_the_domain_is_refused(write_spec):
    res = _queries(write_spec, ADVERSARIAL.format(domain=NEGATIVE[0], prove=NEGATIVE[1]), "still").q_descent_all()
    assert res.status == "fails" and "is bounded below by 0 on the domain' fails" in res.text, res


@pytest.mark.parametrize("claim", ["climb", "negative", "leaky", "still"])
def test_the_adversarial_games_are_not_proved(write_spec, walnut, claim):
    spec = load_spec(write_spec(ADVERSARIAL.format(domain=NEGATIVE[0], prove=NEGATIVE[1])))
    v = prove_claim(spec.claim(claim), RunOptions(timeout=10), context=CheckContext.for_claim())
    assert v.verdict != "proved" and v.verdict != "proved-bounded", v.scope


@pytest.mark.parametrize("measure,words", [('"x1 + t"', "names t"), ("[]", "non-empty list"),
                                           ("[1]", "non-empty list")])
def test_a_measure_the_loader_refuses(write_spec, measure, words):
    with pytest.raises(SpecError, match=words):
        load_spec(write_spec(STAIRS.format(measure=measure)))
