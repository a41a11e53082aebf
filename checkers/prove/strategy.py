"""The winning move of condition (b) of a game claim, as the claim's ``strategy`` states it (the papers' proofs
name the move): an expression, an if-else chain split into exclusive cases, or a table with the name of
the target value, helper definitions and listed cases.

>>> from nimjos.spec.plan import ClaimPlan
>>> c = type("C", (), {"strategy": {"move": "x - v", "value": "v", "let": {"h": "x // 2"}}})()
>>> s = read_strategy(ClaimPlan(claim=c, profile="default"))
>>> len(s.cases), s.value, [name for name, _ in s.let], s.listed
(1, 'v', ['h'], False)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Protocol

from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import copy_tree

@dataclass
class Strategy:
    """The winning move of condition (b): cases (conditions, move expression), the name of the target
    value (grundy claims) and helper definitions (`let`)."""

    cases: list
    value: str = "v"
    let: list = field(default_factory=list)
    listed: bool = False


class StrategyPlan(Protocol):
    """A plan as far as its winning move goes: its claim (the ``strategy`` field as written, where a fault in it
    is) and the strategy's expressions as the plan parsed them (:attr:`nimjos.spec.plan.ClaimPlan.strategy_trees`)."""

    @property
    def claim(self) -> Any: ...

    @property
    def strategy_trees(self) -> dict[str, ast.expr]: ...


def read_strategy(plan: StrategyPlan) -> Strategy | None:
    """The claim's ``strategy``: an expression (an if-else chain is split into cases) or a table
    ``{ move = "...", value = "v", let = { n = "..." }, cases = [ { when = "...", move = "..." } ] }``, read from
    the trees the plan parsed (each copied: a translation may keep the nodes it is given).

    >>> from nimjos.spec.plan import ClaimPlan
    >>> c = type("C", (), {"strategy": "(x - 1, y) if x > y else (x, y - 1)"})()
    >>> [len(w) for w, _ in read_strategy(ClaimPlan(claim=c, profile="default")).cases]
    [1, 1]
    """
    claim = plan.claim
    raw = claim.strategy
    if raw is None:
        return None
    try:
        if isinstance(raw, str):
            return Strategy(_split(_tree(plan, "strategy")))
        if not isinstance(raw, dict):
            raise claim.error("strategy must be an expression or a table", "strategy")
        for k in raw:
            if k not in ("move", "value", "let", "cases"):
                raise claim.error(f"unknown field {k!r} in strategy", "strategy")
        let = [(k, _tree(plan, f"strategy.let.{k}")) for k in (raw.get("let") or {})]
        value = raw.get("value", "v")
        if "cases" in raw:
            cases: list[tuple[list[ast.expr], ast.expr]] = []
            for i, c in enumerate(raw["cases"]):
                whens = [_tree(plan, f"strategy.cases[{i}].when")] if c.get("when") else []
                cases.extend((whens + w, m) for w, m in _split(_tree(plan, f"strategy.cases[{i}].move")))
            return Strategy(cases, value, let, listed=True)
        return Strategy(_split(_tree(plan, "strategy.move")), value, let)
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field="strategy") from None


def _tree(plan: StrategyPlan, label: str) -> ast.expr:
    """A copy of the strategy's expression at field `label`, as the plan parsed it."""
    return copy_tree(plan.strategy_trees[label])


def _split(tree: ast.expr) -> list:
    """An if-else chain as exclusive cases: [([conditions], move)], a negated condition as ('not', tree)."""
    cases = []
    negs: list = []
    while isinstance(tree, ast.IfExp):
        cases.append((negs + [tree.test], tree.body))
        negs = negs + [("not", tree.test)]
        tree = tree.orelse
    cases.append((negs, tree))
    return cases
