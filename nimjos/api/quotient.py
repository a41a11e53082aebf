"""The misère quotient of a heap game from Python: :func:`quotient` (what ``nimjos quotient`` prints, as data) over
:mod:`nimjos.games.heaps.quotient` (Plambeck and Siegel's quotient, verified for every sum of heaps up to a bound).

>>> q = quotient('octal("0.77")', 20, outcomes=[(2, 2), (1, 4, 9)])
>>> q["order"], q["single_p"], q["outcomes"]
(24, [1, 4, 9, 12, 20], {'2,2': 'P', '1,4,9': 'P'})
"""
from __future__ import annotations

from typing import Any, Iterable

from nimjos.api.tables import resolve_game
from nimjos.games.heaps.misere import misere, one_heap_rule
from nimjos.games.heaps.quotient import MisereQuotient, QuotientBudget, QuotientBuilder
from nimjos.games.periodicity import observe
from nimjos.lang.errors import EvalError, SpecError

__all__ = ["quotient", "quotient_summary", "PUBLISHED"]


#: published orders of misère quotients to compare with: the code -> (heaps 0..n, order, where it was reported)
PUBLISHED = {"0.07": (30, 360, "A. N. Siegel, 2007, reported for misère Dawson's Kayles; Plambeck-Siegel list 0.07 "
                               "as unsolved")}


def moves_code(game: Any) -> str | None:
    """The code of a take-and-break game ('0.07'), or None for another game.

    >>> from nimjos.games.heaps.game import heap_game
    >>> from nimjos.games.heaps.rules import octal_rules
    >>> moves_code(heap_game(octal_rules(".07")))
    '0.07'
    """
    rules = getattr(game, "rules", None)
    return rules.code() if rules is not None and hasattr(rules, "code") else None


def quotient(game: str, heaps: int, outcomes: Iterable[tuple[int, ...]] = (), table: bool = False,
             states: int | None = None, products: int | None = None) -> dict[str, Any]:
    """The misère quotient of ``game`` (a take-and-break code, ``nim()``, ``heaps(GAME)``, or ``FILE::GAME``, a
    one-heap game played on any number of heaps) for every sum of heaps of at most ``heaps`` tokens, as
    :func:`quotient_summary` gives it, with the misère outcome of each position of ``outcomes`` (None where a heap
    is beyond what was verified), the products when ``table``, the order at each heap (``orders``), the published
    order to compare with when one is known (``published``), and ``stopped`` (at which heap, why) when the budget
    ended the computation first: counts, ``states`` of one search and ``products`` in all (None: the defaults).

    >>> quotient("nim()", 3)["p_portion"]
    [1, 4]
    """
    target = resolve_game(game, [])[0]
    label = game.rpartition("::")[2]
    try:
        moves = one_heap_rule(misere(target))
    except EvalError as exc:
        raise SpecError(f"{label}: {exc}") from None
    if moves is None:
        raise SpecError(f"{label} is not a game on sums of heaps (a take-and-break code, nim(), heaps(GAME)): "
                        "it has no misère quotient here")
    if heaps < 0:
        raise SpecError(f"--heaps is the largest heap, 0 or more; got {heaps}")
    positions = [tuple(p) for p in outcomes]
    top = max([heaps] + [max(p, default=0) for p in positions])
    builder = QuotientBuilder(moves) if states is None else QuotientBuilder(moves, budget=states)
    if products is not None:
        builder.work_limit = products
    try:
        found = builder.grow(top)
    except QuotientBudget:
        found = builder.quotient()   # what was verified, with where it stopped
    summary = quotient_summary(found, label)
    summary["orders"] = builder.orders[:found.bound + 1]
    summary["budget"] = {"states": builder.auto.budget, "products": builder.work_limit}
    code = moves_code(target)
    published = PUBLISHED.get(code) if code is not None else None
    if published is not None:
        summary["published"] = dict(zip(("heaps", "order", "source"), published))
    if builder.stuck_at is not None:
        summary["stopped"] = {"at": builder.stuck_at, "asked": top, "reason": builder.stop_reason}
    summary["outcomes"] = {",".join(map(str, p)): found.outcome(p) if max(p, default=0) <= found.bound else None
                           for p in positions}
    if table:
        summary["table"] = [list(row) for row in found.table]
    return summary


def quotient_summary(quotient: MisereQuotient, label: str) -> dict[str, Any]:
    """What ``nimjos quotient`` prints, as data: order, P-portion, pretending function and its observed period,
    the single heaps in P, the least position of each element.

    >>> from nimjos.games.heaps.quotient import misere_quotient
    >>> from nimjos.games.heaps.rules import NIM
    >>> s = quotient_summary(misere_quotient(NIM.moves, 3), "nim()"); s["order"], s["p_portion"], s["single_p"]
    (6, [1, 4], [1])
    """
    images = list(quotient.images)
    seen = observe(images[1:]) if len(images) > 2 else None   # printed only with several periods of evidence
    repeats = None
    if seen is not None and seen.saltus == 0:
        repeats = {"period": seen.period, "from": seen.preperiod + 1, "through": quotient.bound}
    return {"game": label, "heaps": quotient.bound, "order": quotient.order,
            "p_portion": sorted(quotient.p_portion), "pretending": images, "repeats": repeats,
            "single_p": [n for n in range(quotient.bound + 1) if quotient.outcome((n,)) == "P"],
            "least_positions": [list(w) for w in quotient.words], "work": quotient.work}
