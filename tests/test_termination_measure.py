"""A declared game's termination measure (``measure = "x1 + 2*x2 + 3*x3"``, or a list compared
lexicographically): proved bounded below on the domain and decreased by every move before the prover's induction
relies on it; Staircase Nim proved with it, a measure some move does not decrease refused with the move named."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove.domain import proof_domain
from checkers.prove.method import prove_claim
from checkers.prove.queries import GameQueries
from checkers.prove.solver import Context
from checkers.prove.terms import Untranslatable
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import ProveOptions, load_spec

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "staircase_nim.toml"

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
    ctx = Context(c, plan, proof_domain(c, plan, ProveOptions(), spec.namespace), {}, "int", None, 0,
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


def test_without_a_measure_the_coordinate_sum_fails_as_before(write_spec, walnut):
    text = STAIRS.format(measure='"x1"').replace('measure = "x1"\n', "")
    spec = load_spec(write_spec(text))
    v = prove_claim(spec.claim("c"), RunOptions(timeout=20), context=CheckContext.for_claim())
    assert v.verdict == "inconclusive" and "'move 2 decreases the coordinate sum' fails" in v.scope


@pytest.mark.parametrize("measure,words", [('"x1 + t"', "names t"), ("[]", "non-empty list"),
                                           ("[1]", "non-empty list")])
def test_a_measure_the_loader_refuses(write_spec, measure, words):
    with pytest.raises(SpecError, match=words):
        load_spec(write_spec(STAIRS.format(measure=measure)))
