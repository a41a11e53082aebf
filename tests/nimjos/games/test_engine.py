"""The reference engine against Grundy values known by hand."""
from __future__ import annotations

import pytest

from nimjos.games.engine import ReferenceEngine
from nimjos.lang.errors import SpecError
from nimjos.lang.compiler import Namespace
from nimjos.games.declared import GameDecl, gcn, subtraction


def declare(name, table):
    return GameDecl.declare(name, table, Namespace()).instance(())


NIM2 = {"position": ["x", "y"], "moves": [{"to": "(x - t, y)", "where": "1 <= t <= x"},
                                         {"to": "(x, y - t)", "where": "1 <= t <= y"}]}
WYTHOFF = {"position": ["x", "y"], "moves": NIM2["moves"] + [{"to": "(x - t, y - t)", "where": "1 <= t <= min(x, y)"}]}


def test_nim_is_xor():
    g = declare("nim2", NIM2)
    for x in range(12):
        for y in range(12):
            assert g.grundy((x, y)) == x ^ y


def test_subtraction_23_by_hand():
    g = declare("sub23", {"position": ["n"], "moves": [{"to": "n - s", "where": "s in {2, 3} and s <= n"}]})
    assert [g.grundy(n) for n in range(11)] == [0, 0, 1, 1, 2, 0, 0, 1, 1, 2, 0]


def test_wythoff_first_rows():
    g = declare("wythoff", WYTHOFF)
    rows = [[0, 1, 2, 3, 4, 5], [1, 2, 0, 4, 5, 3], [2, 0, 1, 5, 3, 4], [3, 4, 5, 6, 2, 0]]
    assert [[g.grundy((x, y)) for y in range(6)] for x in range(4)] == rows


def test_networkx_and_postorder_agree():
    a = declare("w1", WYTHOFF)
    b = declare("w2", WYTHOFF)
    nx_engine = ReferenceEngine(networkx_edge_limit=10**9)
    nx_engine.use_fast = False
    nx_engine.solve(a, [(25, 25)])
    e = ReferenceEngine(networkx_edge_limit=0)
    e.use_fast = False
    e.solve(b, [(25, 25)])
    assert a.table == b.table


def test_cycle_is_named():
    g = declare("loop", {"position": ["n"], "moves": [{"to": "n + 1", "where": "n < 3"}, {"to": "0", "where": "n == 3"}]})
    with pytest.raises(SpecError, match="cycle"):
        g.grundy(0)


def test_negative_option_is_an_error():
    g = declare("neg", {"position": ["n"], "moves": [{"to": "n - 2", "where": "n >= 1"}]})
    with pytest.raises(SpecError, match="negative"):
        g.grundy(1)


def test_builtin_families():
    assert [subtraction(frozenset({1, 2})).grundy(n) for n in range(6)] == [0, 1, 2, 0, 1, 2]
    nimhoff = gcn(3, (lambda s: True, lambda s: True))
    for x in range(7):
        for y in range(7):
            assert nimhoff.grundy((x, y)) == ((x // 3) ^ (y // 3)) * 3 + (x + y) % 3
