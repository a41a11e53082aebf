"""The result of checking one claim: every method's verdict, the candidate corrections of a refuted claim, and
whether the check finished without an error (only a complete result is kept for reuse, nimjos.results.key). Kept
apart from the runner (checkers.run) so that a result read back from the results store needs none of the methods.

>>> r = ClaimResult(None, [Verdict("c", "checked", "exhaustive", "0 <= x <= 3", seconds=1.5)])
>>> r.final.verdict, r.seconds, r.complete
('checked', 1.5, True)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from nimjos.verdict import HasId, LeftOut, Verdict, final_verdict


@dataclass
class ClaimResult:
    claim: HasId
    verdicts: list[Verdict]
    repairs: list = field(default_factory=list)
    repair_seconds: float = 0.0  # the search for candidate corrections of a refuted claim
    #: False when a method or the audit failed with an error, or the claim's check did not finish (a crash): such
    #: a result is printed and recorded, never kept for reuse (nimjos.results.key)
    complete: bool = True
    #: the methods that gave no verdict, each with its reason (checkers.run: a method not run, or one with nothing
    #: to say); kept as data, not printed
    left_out: list[LeftOut] = field(default_factory=list)

    @property
    def seconds(self) -> float:
        """The claim's time: its methods' seconds (each the whole call of the method) and the search for corrections.

        >>> ClaimResult(None, [Verdict("c", "checked", "exhaustive", "", seconds=2.0),
        ...                    Verdict("c", "proved", "prove", "", seconds=0.5)], repair_seconds=0.25).seconds
        2.75
        """
        return sum(v.seconds for v in self.verdicts) + self.repair_seconds

    @property
    def final(self) -> Verdict:
        """The verdict the claim earned from its methods (the rule: :func:`nimjos.verdict.final_verdict`)."""
        return final_verdict(self.verdicts)
