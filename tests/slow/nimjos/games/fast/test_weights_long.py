"""The long test of tests/nimjos/games/fast/test_weights.py, slow by its folder."""
from __future__ import annotations


import pathlib


import numpy as np


import pytest








from nimjos.games.declared import GameDecl






from nimjos.lang.compiler import Namespace


from nimjos.spec.loader import load_spec


ROOT = pathlib.Path(__file__).resolve().parents[5]


def declare(where: str, to: str = "(x - t, y - u)", params: dict | None = None):
    decl = GameDecl.declare("g", {"params": list(params or {}), "position": ["x", "y"],
                                  "moves": [{"to": to, "where": where}]}, Namespace())
    return decl(*(params or {}).values()) if params else decl.instance(())


@pytest.mark.parametrize("text", [
    "any(in_P0(h[0], h[1]) for h in WN(x, y))",
    "all(h[0] + h[1] != 7 for h in options(weighted_nim, (x, y)))",
    "x > 3 and any((h[0] * 3 + h[1]) % 11 == 4 for h in WN(x, y))",
])
def test_a_condition_over_the_options_is_searched_as_the_scalar_language_lists_them(text):
    from checkers.window.vectorised import ARRAY_CALLS
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
