"""The window of a claim on a loopy game: generalized Sprague-Grundy values from the moves, against the claim.

A loopy game (``loopy = true``) is judged by the values of :mod:`nimjos.games.loopy`, computed by the labelling
algorithm of Smith and Fraenkel over the game graph reachable from the window's positions: a ``p_positions`` claim
by the positions of value 0, a ``draws`` claim by the positions of value ∞(K) with 0 not in K, a ``grundy`` claim by
the values themselves (an integer, or a set K written for ∞(K)). The graph is explored up to a count of positions;
a position that can reach one whose options were not listed has a value the graph cannot decide: it is left out of
the check, counted, and the verdict says so (never a guess).

>>> count_outcomes([0, 1, Infinite(frozenset({1}))])
{'P': 1, 'N': 1, 'D': 1}
"""
from __future__ import annotations

from typing import Any, Callable

from checkers.window.collector import Collector
from nimjos.games.engine import active_engine
from nimjos.games.loopy import MAX_POSITIONS, Infinite, Value, as_claimed, describe, outcome
from nimjos.lang.errors import EvalError
from nimjos.spec.plan import ClaimPlan, DrawsPlan, GrundyPlan, PPositionsPlan
from nimjos.verdict import Counterexample

#: the name of the ground truth, in a verdict's scope
LABELLING = "generalized Sprague-Grundy values (Smith-Fraenkel labelling of the game graph)"


def count_outcomes(values: list[Value]) -> dict[str, int]:
    """How many of `values` are P-, N- and draw positions.

    >>> count_outcomes([0, 0, 2])
    {'P': 2, 'N': 1, 'D': 0}
    """
    out = {"P": 0, "N": 0, "D": 0}
    for v in values:
        out[outcome(v)] += 1
    return out


def solve_window(by_inst: dict) -> tuple[dict, int, int]:
    """The generalized values of every instance's window positions: ({(instance, position): value} for the decided
    ones, positions undecided, positions explored), each instance explored from its window positions up to the
    claim engine's count of positions."""
    limit = min(active_engine().max_positions, MAX_POSITIONS)
    values: dict = {}
    undecided = explored = 0
    for inst, positions in by_inst.items():
        sol = inst.loopy_values(positions, limit)
        inst.solved_by.add(LABELLING)
        explored += sol.explored
        for p in positions:
            if p in sol.values:
                values[(inst, p)] = sol.values[p]
            else:
                undecided += 1
    return values, undecided, explored


def loopy_rows(plan: ClaimPlan, rows: list, by_inst: dict, param_names: tuple, col: Collector,
               family_points: Callable[..., set]) -> dict:
    """Judge the window's rows ((binding values, instance, position)) of a claim on a loopy game against the
    generalized values; `family_points` lists the points of a P-positions claim given by families (the window's own
    enumeration). Evidence: the outcomes counted, the positions explored and those left undecided (``undecided``,
    which the window subtracts from the instances judged)."""
    assert plan.window is not None, "a game claim's plan has a window"
    names = plan.window.names
    values, _, explored = solve_window(by_inst)
    judged = [(vals, inst, pos) for vals, inst, pos in rows if (inst, pos) in values]
    claimed_sets: dict = {}
    if isinstance(plan, PPositionsPlan) and plan.families is not None:
        idx = [names.index(n) for n in param_names]
        groups: dict = {}
        for row in judged:
            groups.setdefault(tuple(row[0][i] for i in idx), []).append(row)
        for key, grows in groups.items():
            pts = family_points(plan, plan.families, dict(zip(param_names, key)), [p for _, _, p in grows], col, names)
            claimed_sets.update({(key, p): True for p in pts})
    for vals, inst, pos in judged:
        env = dict(zip(names, vals))
        actual = values[(inst, pos)]
        if isinstance(plan, PPositionsPlan) and plan.families is not None:
            key = tuple(env[n] for n in param_names)
            _judge_set(env, actual, (key, pos) in claimed_sets, "P", col)
            continue
        try:
            assert isinstance(plan, (GrundyPlan, PPositionsPlan, DrawsPlan)) and plan.formula is not None
            claimed = plan.formula(env)
        except EvalError as exc:
            col.undef(Counterexample.undefined_at(env, exc, describe(actual)))
            continue
        if isinstance(plan, GrundyPlan):
            try:
                want = as_claimed(claimed)
            except ValueError as exc:
                col.undef(Counterexample.undefined_at(env, exc, describe(actual)))
                continue
            if want != actual:
                col.fail(Counterexample(env, describe(actual), describe(want),
                                        detail={"outcome": outcome(actual)}))
        else:
            _judge_set(env, actual, bool(claimed), "D" if isinstance(plan, DrawsPlan) else "P", col)
    left_out = len(rows) - len(judged)
    evidence: dict[str, Any] = {"loopy": {"outcomes": count_outcomes([values[(i, p)] for _, i, p in judged]),
                                          "explored": explored, "undecided": left_out}}
    if left_out:
        evidence["observations"] = [f"{left_out} instance(s) of the window left out: their positions can reach one "
                                    f"whose options lie beyond the {explored:,} positions explored, so the game "
                                    "graph cannot decide their generalized values"]
    return evidence


def _judge_set(env: dict, actual: Value, claimed: bool, word: str, col: Collector) -> None:
    """A claimed membership in the P-positions (`word` "P") or the draws ("D") against the actual outcome."""
    got = outcome(actual)
    if claimed != (got == word):
        col.fail(Counterexample(env, got, word if claimed else f"not {word}",
                                detail={"value": describe(actual)}))


__all__ = ["LABELLING", "Infinite", "count_outcomes", "loopy_rows", "solve_window"]
