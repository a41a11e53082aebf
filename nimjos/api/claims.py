"""Claims from Python: load a spec, check one claim, or :func:`check` a spec file (results that show as claim cards
in a notebook). ``import nimjos`` gives ``nimjos.check``, ``nimjos.check_claim`` and ``nimjos.load_spec`` without
loading this module until they are called.

>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> [(c.id, check_claim(c).final.verdict) for c in spec.claims]  # runs Walnut
[('nim1-grundy', 'proved')]
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from checkers import ClaimResult, RunOptions, run_claim
from nimjos.lang.values import format_value
from nimjos.spec.loader import Claim, Spec, load_spec
from nimjos.verdict import Verdict, agreement
from nimjos.words import Word

__all__ = ["load_spec", "check_claim", "check", "Spec", "Claim", "ClaimResult", "ClaimCheck", "CheckResults"]


def check_claim(claim: Claim, profile: str = "default", methods: tuple[str, ...] | None = None) -> ClaimResult:
    """Run the verification methods on one loaded claim (all that apply, or `methods`); ``.final`` is its verdict.

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> check_claim(spec.claims[0], methods=("exhaustive",)).final.verdict
    'checked'
    """
    return run_claim(claim, RunOptions(profile=profile, methods=methods))


@dataclass(frozen=True)
class ClaimCheck:
    """One claim and what the methods found; in a notebook it shows as a card (verdict, method, scope, the smallest
    counterexample, agreement with the spec's ``expect``)."""

    claim: Claim
    result: ClaimResult

    @property
    def final(self) -> Verdict:
        """The claim's final verdict (``nimjos.verdict``'s rule over its methods' verdicts)."""
        return self.result.final

    @property
    def verdict(self) -> Word:
        """The final verdict's word (a :class:`nimjos.words.Word`): refuted, ill-defined, proved, proved-bounded,
        sampled, checked, vacuous, inconclusive."""
        return Word(self.final.verdict)

    @property
    def agrees(self) -> bool:
        """Whether the verdict is the one the spec's ``expect`` says."""
        return agreement(self.final, self.claim.expect, self.claim.expect_counterexample, self.claim.coords)[0]

    def counterexample(self) -> str:
        """The smallest counterexample as text ("x=3: left side 1, right side 2"), or "" when there is none.

        >>> from nimjos.verdict import Counterexample
        >>> v = Verdict("c", "refuted", "exhaustive", "0 <= x <= 9", counterexamples=[Counterexample({"x": 3}, 1, 2)])
        >>> ClaimCheck(None, ClaimResult(None, [v])).counterexample()
        'x=3: left side 1, right side 2'
        """
        final = self.final
        if final.counterexamples:
            cx = final.counterexamples[0]
            return f"{cx.at_text()}: left side {format_value(cx.lhs)}, right side {format_value(cx.rhs)}"
        if final.undefined:
            cx = final.undefined[0]
            return f"{cx.at_text()}: {cx.reason}"
        return ""

    def __repr__(self) -> str:
        final = self.final
        return f"<{self.claim.id}: {final.verdict} by {final.method} ({final.scope})>"

    def _repr_html_(self) -> str:
        """The claim card a notebook shows; every text from the spec or the methods is escaped."""
        final, e = self.final, html.escape
        rows = [("verdict", f"<b>{e(final.verdict)}</b>"), ("method", e(final.method)), ("scope", e(final.scope)),
                ("instances", f"{final.instances:,}")]
        if self.counterexample():
            rows.append(("counterexample" if final.counterexamples else "ill-defined at", e(self.counterexample())))
        rows.append(("expected", e(self.claim.expect or "-") + ("" if self.agrees else " <b>(disagrees)</b>")))
        body = "".join(f"<tr><th style='text-align:left'>{k}</th><td>{v}</td></tr>" for k, v in rows)
        title = e(self.claim.id) + (f" <small>({e(self.claim.ref)})</small>" if self.claim.ref else "")
        return (f"<div class='nimjos-claim'><div><b>{title}</b></div>"
                f"<div><code>{e(self.claim.formula_text() or self.claim.text or '')}</code></div>"
                f"<table>{body}</table></div>")


class CheckResults(list):
    """The checks of a spec's claims, in the spec's order; in a notebook, one card per claim."""

    def _repr_html_(self) -> str:
        """The claims' cards, one after another."""
        return "".join(c._repr_html_() for c in self)

    def verdicts(self) -> dict[str, Word]:
        """{claim id: final verdict}.

        >>> CheckResults().verdicts()
        {}
        """
        return {c.claim.id: c.verdict for c in self}


def check(path: str | Path, profile: str = "default", methods: tuple[str, ...] | None = None) -> CheckResults:
    """Check every claim of the spec file ``path`` (nothing is recorded in the results store).

    >>> import pathlib
    >>> results = check(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")  # runs Walnut
    >>> results.verdicts(), "<b>proved</b>" in results._repr_html_()
    ({'nim1-grundy': 'proved'}, True)
    """
    spec = load_spec(path)
    return CheckResults(ClaimCheck(claim, check_claim(claim, profile, methods)) for claim in spec.claims)
