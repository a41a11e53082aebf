"""The verdict model every checker returns and every consumer (CLI, store, reports) reads.

A :class:`Verdict` says what one method established about one claim, and how far:
its scope (which variables over which bounds), how many instances were evaluated, how many
satisfied the claim's assumption, and the smallest counterexamples.

>>> v = Verdict(claim_id="c", verdict="checked", method="exhaustive", scope="0 <= x <= 3",
...             instances=4, assumption_held=4)
>>> v.agrees_with("holds")
True
>>> v.to_json()["verdict"]
'checked'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from nimjos.lang.values import format_value, json_value, sortable_key

#: every verdict word, strongest evidence first (DESIGN.md, principle 7)
VERDICTS = ("refuted", "ill-defined", "proved", "sampled", "checked", "vacuous", "inconclusive")

#: verdicts that mean "the claim held under this method"
HOLDING = ("proved", "sampled", "checked")

#: the words a spec may write in `expect`
EXPECTABLE = ("holds", "refuted", "ill-defined", "vacuous", "proved", "sampled", "checked", "inconclusive")

#: ordering used to pick the strongest verdict among several methods
STRENGTH = {"refuted": 6, "ill-defined": 5, "proved": 4, "sampled": 3, "checked": 2, "vacuous": 1, "inconclusive": 0}


@dataclass
class Counterexample:
    """One instance where the claim fails (or cannot be evaluated).

    `bindings` maps each bound variable, in declared order, to its value; `lhs` and `rhs` are the
    two sides' values (for a predicate that is not a comparison: its value and `True`).
    `reason` is set for ill-defined instances (what could not be evaluated).
    """

    bindings: dict[str, Any]
    lhs: Any = None
    rhs: Any = None
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)

    def key(self) -> tuple:
        """Smallest-first order: least sum of the bound integer values, then lexicographic.

        >>> Counterexample({"x": 0, "y": 2}).key() < Counterexample({"x": 2, "y": 1}).key()
        True
        """
        ints = [v for v in self.bindings.values() if isinstance(v, int) and not isinstance(v, bool)]
        return (sum(ints), tuple(sortable_key(v) for v in self.bindings.values()))

    def position_text(self) -> str:
        """The bindings as a tuple, in declared order, e.g. ``(0, 2)``.

        >>> Counterexample({"x": 0, "y": 2}).position_text()
        '(0, 2)'
        """
        vals = list(self.bindings.values())
        return format_value(vals[0]) if len(vals) == 1 else format_value(tuple(vals))

    def to_json(self) -> dict[str, Any]:
        out = {
            "bindings": {k: json_value(v) for k, v in self.bindings.items()},
            "lhs": json_value(self.lhs),
            "rhs": json_value(self.rhs),
        }
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = {k: json_value(v) if not isinstance(v, (list, dict)) else v for k, v in self.detail.items()}
        return out


@dataclass
class Verdict:
    """What one method established about one claim."""

    claim_id: str
    verdict: str
    method: str
    scope: str
    instances: int = 0
    assumption_held: int | None = None
    counterexamples: list[Counterexample] = field(default_factory=list)
    failures: int = 0  # how many instances failed in total (counterexamples keeps only the smallest)
    undefined: list[Counterexample] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)  # small data for reports (plots, option tables)

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")

    def holds(self) -> bool:
        return self.verdict in HOLDING

    def agrees_with(self, expect: str | None) -> bool:
        """Does this verdict satisfy a spec's `expect` (None: must not be refuted or ill-defined)?

        >>> Verdict("c", "refuted", "exhaustive", "").agrees_with(None)
        False
        """
        if expect is None:
            return self.verdict not in ("refuted", "ill-defined")
        if expect == "holds":
            return self.verdict in HOLDING
        if expect == "checked":
            return self.verdict in HOLDING
        if expect == "sampled":
            return self.verdict in ("sampled", "proved")
        return self.verdict == expect

    def to_json(self) -> dict[str, Any]:
        out = {
            "verdict": self.verdict,
            "method": self.method,
            "scope": self.scope,
            "instances": self.instances,
            "assumption_held": self.assumption_held,
            "failures": self.failures,
            "counterexamples": [c.to_json() for c in self.counterexamples],
            "seconds": round(self.seconds, 4),
        }
        if self.undefined:
            out["undefined"] = [c.to_json() for c in self.undefined]
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def strongest(verdicts: list[Verdict]) -> Verdict:
    """The verdict with the strongest evidence among several methods' verdicts.

    >>> a = Verdict("c", "checked", "exhaustive", ""); b = Verdict("c", "proved", "z3", "")
    >>> strongest([a, b]).method
    'z3'
    """
    return max(verdicts, key=lambda v: STRENGTH[v.verdict])
