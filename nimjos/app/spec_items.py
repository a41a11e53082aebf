"""The test items of the pytest plugin (:mod:`nimjos.app.pytest_plugin`): a spec file, one item per claim. The
plugin loads this module at the first spec file it collects, so that pytest's start-up (and a coverage plugin
started after it) does not import the checkers.

>>> ClaimDisagrees.__doc__
"The claim's verdict is not the one its spec expects."
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import Claim, load_spec
from checkers import RunOptions, run_claim
from nimjos.verdict import agreement
from nimjos.lang.values import format_value

if TYPE_CHECKING:
    from _pytest._code.code import TerminalRepr


class SpecFile(pytest.File):
    """A spec file: one test item per claim."""

    def collect(self):
        try:
            spec = load_spec(self.path)
        except SpecError as exc:
            raise self.CollectError(str(exc)) from None
        for claim in spec.claims:
            yield ClaimItem.from_parent(self, name=claim.id, claim=claim)


class ClaimDisagrees(Exception):
    """The claim's verdict is not the one its spec expects."""


class ClaimItem(pytest.Item):
    """One claim, checked by every method that applies."""

    def __init__(self, *, claim: Claim, **kwargs: Any):
        super().__init__(**kwargs)
        self.claim = claim
        if claim.expect in ("refuted", "ill-defined"):
            self.add_marker(pytest.mark.printed_wrong)

    def runtest(self) -> None:
        profile = self.config.getoption("--nimjos-profile", "default")
        result = run_claim(self.claim, RunOptions(profile=profile))
        final = result.final
        agrees, why = agreement(final, self.claim.expect, self.claim.expect_counterexample, self.claim.coords)
        if not agrees:
            raise ClaimDisagrees(self._message(final, why))

    def _message(self, final: Any, why: str) -> str:
        lines = [f"{self.claim.id}: verdict {final.verdict} by {final.method} ({final.scope}); {why}"]
        for cx in final.counterexamples[:3]:
            lines.append(f"  counterexample {cx.at_text()}: lhs {format_value(cx.lhs)}, rhs {format_value(cx.rhs)}")
        for cx in final.undefined[:3]:
            lines.append(f"  ill-defined at {cx.at_text()}: {cx.reason}")
        if final.evidence.get("rerun"):
            lines.append(f"  re-run: {final.evidence['rerun']}")
        return "\n".join(lines)

    def repr_failure(self, excinfo: Any, style: Any = None) -> str | TerminalRepr:
        if isinstance(excinfo.value, (ClaimDisagrees, SpecError)):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.path, (self.claim.line or 1) - 1, f"{self.path.name}::{self.claim.id}"
