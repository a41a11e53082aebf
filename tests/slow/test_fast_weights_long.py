"""The long test of tests/test_fast_weights.py, slow by its folder."""
from __future__ import annotations


import pathlib


import numpy as np


import pytest


from hypothesis import HealthCheck, given, settings


from hypothesis import strategies as st


import nimjos.games.fast.weights as weights


from nimjos.games.declared import GameDecl


from nimjos.games.engine import ReferenceEngine


from nimjos.games.fast import outcomes_fast


from nimjos.lang.compiler import Namespace


from nimjos.spec.loader import load_spec


ROOT = pathlib.Path(__file__).resolve().parents[2]


def declare(where: str, to: str = "(x - t, y - u)", params: dict | None = None):
    decl = GameDecl.declare("g", {"params": list(params or {}), "position": ["x", "y"],
                                  "moves": [{"to": to, "where": where}]}, Namespace())
    return decl(*(params or {}).values()) if params else decl.instance(())


def reference_p(game, X: int, Y: int) -> np.ndarray:
    """The P-positions of the box by the reference engine alone (mex over every option)."""
    engine = ReferenceEngine()
    engine.use_fast = False
    engine.solve(game, [(x, y) for x in range(X) for y in range(Y)])
    return np.array([[game.lookup((x, y)) == 0 for y in range(Y)] for x in range(X)])


WRONG = '''
[source]
id = "wrong-p-set"

[game.wn]
position = ["x", "y"]
moves = [{ to = "(x - t, y - u)", where = "0 <= t <= x and 0 <= u <= y and 1 <= 2*t + u <= floor((2*x + y) / 2)" }]

[[claim]]
id = "wrong"
game = "wn"
for_all = "0 <= x <= SIDE and 0 <= y <= SIDE"
p_positions = "x == 2**ilog2(x + 1) - 1 and y == 0 or (x == 0 and y <= 1) or x + y == 40"
'''


@pytest.mark.parametrize("text", [
    "any(in_P0(h[0], h[1]) for h in WN(x, y))",
    "all(h[0] + h[1] != 7 for h in options(weighted_nim, (x, y)))",
    "x > 3 and any((h[0] * 3 + h[1]) % 11 == 4 for h in WN(x, y))",
])
def test_a_condition_over_the_options_is_searched_as_the_scalar_language_lists_them(text):
    from checkers.vectorised import ARRAY_CALLS
    from nimjos.lang.expr import compile_expression
    from nimjos.lang.syntax import parse
    from nimjos.lang.vector import vectorise
    spec = load_spec(ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml")
    ns = spec.namespace
    xs, ys = np.meshgrid(np.arange(26, dtype=np.int64), np.arange(31, dtype=np.int64), indexing="ij")
    x, y = xs.ravel(), ys.ravel()
    vector = vectorise(parse(text), ns, ARRAY_CALLS)({"x": x, "y": y})
    scalar = compile_expression(text, ns, {"x", "y"})
    assert vector.tolist() == [bool(scalar({"x": int(a), "y": int(b)})) for a, b in zip(x, y)]
