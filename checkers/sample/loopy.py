"""Sampling a claim on a loopy game: at each drawn instance, the window's own check of that one instance (the
generalized Sprague-Grundy values over the game graph reachable from the position, :mod:`checkers.window.loopy`),
never the local certificate, which a loopy game does not obey (a set with no move inside it and a move into it from
every other position can leave out draws). The graph must be finite and explored in full from the position:
an instance whose graph is larger than the evaluation's count of positions has an undecided value and is skipped.

>>> LOOPY_SAMPLE_POSITIONS
200000
"""
from __future__ import annotations

from checkers.window.exhaustive import check_exhaustive
from checkers.sample.evaluate import Outcome, too_large
from nimjos.games.engine import active_engine
from nimjos.lang.errors import ResourceError
from nimjos.spec.loader import Claim
from nimjos.verdict import Counterexample
from nimjos.words import Undefined

#: the most positions one drawn instance's game graph may have (a count): a larger one is skipped, undecided
LOOPY_SAMPLE_POSITIONS = 200_000


class LoopyEvaluator:
    """Evaluates a claim on a loopy game exactly at one drawn binding, by the window's check of that instance."""

    def __init__(self, claim: Claim, profile: str):
        self.claim = claim
        self.profile = profile
        plan = claim.plan(profile)
        assert plan.window is not None, "a sampled claim has a window"
        self.names = plan.window.names

    def __call__(self, env: dict) -> Outcome:
        bindings = {n: env[n] for n in self.names if n in env}
        engine = active_engine()
        guard = engine.max_positions
        engine.max_positions = max(1, min(guard, LOOPY_SAMPLE_POSITIONS))
        try:
            v = check_exhaustive(self.claim, self.profile, max_counterexamples=1, pins=bindings, window_limits=False)
        except ResourceError as exc:
            return Outcome(Outcome.SKIP, note=too_large(exc))
        finally:
            engine.max_positions = guard
        if v.verdict == "refuted":
            return Outcome(Outcome.FAIL, v.counterexamples[0])
        if v.verdict == "ill-defined":
            first = v.undefined[0] if v.undefined else Counterexample(bindings, reason="ill-defined", undefined=Undefined.LANGUAGE)
            return Outcome(Outcome.UNDEF, first)
        if v.verdict == "checked":
            return Outcome(Outcome.HELD)
        if v.verdict == "inconclusive":
            return Outcome(Outcome.SKIP, note=f"the game graph from this instance has more than "
                                              f"{engine.max_positions:,} positions: its value is undecided")
        return Outcome(Outcome.ASSUME)
