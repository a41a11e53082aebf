"""The winning move of condition (b) of a game claim, as the claim's ``strategy`` states it (the papers' proofs
name the move): an expression, an if-else chain split into exclusive cases, or a table with the name of
the target value, helper definitions and listed cases.

>>> s = read_strategy(type("C", (), {"strategy": {"move": "x - v", "value": "v", "let": {"h": "x // 2"}}})())
>>> len(s.cases), s.value, [name for name, _ in s.let], s.listed
(1, 'v', ['h'], False)
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Any, Protocol

from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import parse

@dataclass
class Strategy:
    """The winning move of condition (b): cases (conditions, move expression), the name of the target
    value (grundy claims) and helper definitions (`let`)."""

    cases: list
    value: str = "v"
    let: list = field(default_factory=list)
    listed: bool = False


class StrategyClaim(Protocol):
    """A claim as far as its winning move goes: its ``strategy`` field, as written, and where a fault in it is."""

    @property
    def strategy(self) -> Any: ...

    @property
    def label(self) -> str: ...

    @property
    def spec(self) -> Any: ...

    def error(self, message: str, field_name: str | None = None, hint: str | None = None) -> SpecError: ...


def read_strategy(claim: StrategyClaim) -> Strategy | None:
    """The claim's ``strategy``: an expression (an if-else chain is split into cases) or a table
    ``{ move = "...", value = "v", let = { n = "..." }, cases = [ { when = "...", move = "..." } ] }``.

    >>> c = type("C", (), {"strategy": "(x - 1, y) if x > y else (x, y - 1)"})()
    >>> [len(w) for w, _ in read_strategy(c).cases]
    [1, 1]
    """
    raw = claim.strategy
    if raw is None:
        return None
    try:
        if isinstance(raw, str):
            return Strategy(_split(parse(raw)))
        if not isinstance(raw, dict):
            raise claim.error("strategy must be an expression or a table", "strategy")
        for k in raw:
            if k not in ("move", "value", "let", "cases"):
                raise claim.error(f"unknown field {k!r} in strategy", "strategy")
        let = [(k, parse(v)) for k, v in (raw.get("let") or {}).items()]
        value = raw.get("value", "v")
        if "cases" in raw:
            cases: list[tuple[list[ast.expr], ast.expr]] = []
            for c in raw["cases"]:
                whens = [parse(c["when"])] if c.get("when") else []
                cases.extend((whens + w, m) for w, m in _split(parse(c["move"])))
            return Strategy(cases, value, let, listed=True)
        return Strategy(_split(parse(raw["move"])), value, let)
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field="strategy") from None


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
