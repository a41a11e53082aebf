"""The window's check of a ``values`` claim: a printed table of Grundy values or of terms, each printed value
against the engine's (or the expression's), and the words that say what the table covers.

>>> printed_extent({"grundy": [0, 1, 2, 0]})
'the printed table G(0)..G(3)'
"""
from __future__ import annotations

from typing import Any

from checkers.window.collector import Collector
from nimjos.games.engine import active_engine
from nimjos.lang.errors import EvalError
from nimjos.lang.values import format_value
from nimjos.spec.plan import ValuesPlan
from nimjos.verdict import Counterexample


def printed_extent(values: dict) -> str:
    """What a `values` claim's printed table covers, for its scope.

    >>> printed_extent({"of": "fib(k)", "var": "k", "from": 0, "equal": [0, 1, 1, 2]})
    'the printed terms k = 0..3'
    >>> printed_extent({"grundy": [0, 0, 1], "from": 2}), printed_extent({"grundy": [[0, 1], [1, 0]]})
    ('the printed table G(2)..G(4)', 'the printed table of 2 x 2 values from (0, 0)')
    """
    start = values.get("from", 0)
    if "equal" in values:
        return f"the printed terms {values['var']} = {start}..{start + len(values['equal']) - 1}"
    cells = printed_cells(values)
    if cells and isinstance(cells[0][0], tuple):
        table = values["grundy"]
        return (f"the printed table of {len(table)} x {max(len(r) for r in table)} values from "
                f"{format_value(cells[0][0])}")
    return f"the printed table G({cells[0][0]})..G({cells[-1][0]})" if cells else "the printed table (empty)"


def printed_cells(values: dict) -> list[tuple[Any, Any]]:
    """The (position, printed Grundy value) pairs of a `values` claim's printed table.

    >>> printed_cells({"grundy": [0, 0, 1], "from": 2})
    [(2, 0), (3, 0), (4, 1)]
    >>> printed_cells({"grundy": [[0, 1], [1, 0]]})
    [((0, 0), 0), ((0, 1), 1), ((1, 0), 1), ((1, 1), 0)]
    """
    start = values.get("from", 0)
    table = values["grundy"]
    if table and isinstance(table[0], list):
        x0, y0 = (start if isinstance(start, list) else [start, start])[:2]
        return [((x0 + i, y0 + j), val) for i, row in enumerate(table) for j, val in enumerate(row)]
    s0 = start[0] if isinstance(start, list) else start
    return [(s0 + i, val) for i, val in enumerate(table)]


def check_values(plan: ValuesPlan, col: Collector, pins: dict | None = None,
                  shard: tuple | None = None) -> tuple[int, int, dict]:
    """A printed table: each printed value against the engine's (Grundy values) or the expression's (terms)."""
    v = plan.values
    instances = 0
    if "grundy" in v:
        assert plan.game is not None, "a printed table has its game"
        inst = plan.game_instance({})
        cells = printed_cells(v)
        positions = [inst.normalise(p) for p, _ in cells]
        active_engine().solve(inst, positions)
        coords = plan.coords
        for p, printed in cells:
            instances += 1
            actual = inst.lookup(inst.normalise(p))
            b = dict(zip(coords, p if isinstance(p, tuple) else (p,)))
            if actual != printed:
                col.fail(Counterexample(b, actual, printed))
        return instances, instances, {"engines": sorted(inst.solved_by)}
    var, start, printed_seq = v["var"], v.get("from", 0), v["equal"]
    assert plan.values_expr is not None, "a printed sequence has its expression"
    for i, printed in enumerate(printed_seq):
        instances += 1
        env = {var: start + i}
        try:
            actual = plan.values_expr(env)
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(env, exc, None, printed))
            continue
        if actual != printed:
            col.fail(Counterexample(env, actual, printed))
    return instances, instances, {}
