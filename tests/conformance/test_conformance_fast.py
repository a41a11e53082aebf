"""Conformance of the fast Grundy engines (nimjos/games/fast/: the translation of move families, then the
engine) to the reference engine (mex over the game graph) on generated declared games with parameters
(tests/conformance/; docs/testing.md: the long mode)."""
from __future__ import annotations

from hypothesis import event, example, given
from hypothesis import strategies as st

from conformance import conformance_settings
from conformance.backends import check_fast
from conformance.grammar import declared_game


@conformance_settings(60, 5_000)
@given(declared_game(), st.integers(8, 40))
# a finding of the long mode: the language refuses a bound that is a truth value (the game is ill-defined), the
# offsets engine reads True as 1 and fills a table
@example(({"position": ["x", "y"], "params": ["k"], "moves": [{"to": "(x - t, y)", "where": "True <= t <= k and t <= x"}]},
          (0,)), 12)
def test_fast_engines_agree_with_the_reference(game, side):
    table, values = game
    event(check_fast(table, values, side if len(table["position"]) == 1 else max(3, side // 3)))


def test_the_harness_sees_the_fast_engine():
    """A Nim-like game goes to a fast engine and is compared with the reference engine."""
    table = {"position": ["x"], "params": ["k"], "moves": [{"to": "x - t", "where": "1 <= t <= k and t <= x"}]}
    assert "fast" in check_fast(table, (3,), 40)
