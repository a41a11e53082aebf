"""``nimjos quotient GAME --heaps N [--outcome HEAPS ...] [--table] [--json]``: the misère quotient of a heap game
from its moves (Plambeck and Siegel), verified for every sum of heaps of at most N tokens.

GAME is a heap game as ``nimjos grundy`` names it: a take-and-break code (``octal("0.77")``, Kayles;
``octal("0.07")``, Dawson's Kayles), ``nim()``, ``heaps(subtraction({1, 2}))``, or a one-heap game declared in a
file (``FILE::GAME`` played on any number of heaps); its play convention does not matter, the quotient is the
misère one. The command prints the order of the quotient and of its P-portion, the element of each heap (the
pretending function) and where it is observed to repeat, the single heaps that are P-positions, the least
position of each element, and the misère outcome of each ``--outcome`` position (heaps separated by commas). The
computation is :mod:`nimjos.games.heaps.quotient`. A bound it cannot reach within its budget (a count of states
and products) gets what was verified: the same lines for the heaps reached, a line saying at which heap it
stopped and which budget stopped it, and the outcome of an ``--outcome`` position only where its heaps were
reached; the exit status is then 1 (0: the quotient to the bound asked; 2: bad input).

>>> main(["quotient", 'octal("0.77")', "--heaps", "20", "--outcome", "2,2", "--outcome", "1,4,9"])  # doctest: +ELLIPSIS
misère quotient of octal("0.77") for heaps of 0..20: 24 elements, 8 in the P-portion; verified for every sum ...
...
single heaps that are P-positions: 1, 4, 9, 12, 20
outcome of (2, 2): P
outcome of (1, 4, 9): P
0
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from nimjos.app.cli import main
from nimjos.app.grundy_cli import resolve_game
from nimjos.games.heaps.misere import misere, one_heap_rule
from nimjos.games.heaps.quotient import MisereQuotient, QuotientBudget, QuotientBuilder
from nimjos.games.periodicity import observe
from nimjos.lang.errors import EvalError, SpecError

__all__ = ["cmd_quotient", "quotient_summary", "main"]


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


def _positions(texts: list[str]) -> list[tuple[int, ...]]:
    """The ``--outcome`` positions: heaps separated by commas ('' is the empty position)."""
    out = []
    for text in texts:
        try:
            heaps = tuple(int(t) for t in text.replace(" ", "").split(",") if t)
        except ValueError:
            raise SpecError(f"--outcome takes heaps separated by commas, e.g. 3,4,5; got {text!r}") from None
        if any(h < 0 for h in heaps):
            raise SpecError(f"--outcome: a heap has 0 or more tokens, got {text!r}")
        out.append(heaps)
    return out


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


def _lines(summary: dict[str, Any], table: list[list[int]] | None) -> list[str]:
    """The text of ``nimjos quotient``."""
    lines = [f"misère quotient of {summary['game']} for heaps of 0..{summary['heaps']}: {summary['order']} elements, "
             f"{len(summary['p_portion'])} in the P-portion; verified for every sum of such heaps "
             f"({summary['work']:,} products)"]
    stopped = summary.get("stopped")
    if stopped:
        lines.append(f"stopped at heap {stopped['at']} of the {stopped['asked']} asked: no verified quotient with "
                     f"heap {stopped['at']} within the budget ({stopped['reason']}); what follows covers heaps of "
                     f"0..{summary['heaps']} only")
    if summary.get("orders"):
        lines.append("order at each heap (the quotient of heaps 0..n): "
                     + " ".join(f"{n}:{x}" for n, x in enumerate(summary["orders"])))
    published = summary.get("published")
    if published:
        reached = summary["heaps"] >= published["heaps"]
        ours = summary["orders"][published["heaps"]] if reached else None
        lines.append(f"published: {published['order']} elements for heaps 0..{published['heaps']} ({published['source']}); "
                     + (f"here: {ours}, {'the same' if ours == published['order'] else 'DIFFERENT'}" if reached
                        else f"not compared: the quotient here stops at heap {summary['heaps']}"))
    lines.append("element of each heap (pretending function): "
                 + " ".join(f"{h}:{x}" for h, x in enumerate(summary["pretending"])))
    if summary["repeats"]:
        r = summary["repeats"]
        lines.append(f"  observed: period {r['period']} from heap {r['from']} through heap {r['through']} "
                     "(an observation on the computed heaps, not a proof for larger ones)")
    lines.append("P-portion (element: its least position): "
                 + ", ".join(f"{x}: ({', '.join(map(str, summary['least_positions'][x]))})" for x in summary["p_portion"]))
    lines.append("single heaps that are P-positions: " + (", ".join(map(str, summary["single_p"])) or "none"))
    if table is not None:
        lines.append("products (row x column):")
        lines.extend("  " + " ".join(f"{v:3d}" for v in row) for row in table)
    return lines


def cmd_quotient(args: argparse.Namespace) -> int:
    """Run ``nimjos quotient``."""
    game = resolve_game(args.target, [])[0]
    label = args.target.rpartition("::")[2]
    try:
        moves = one_heap_rule(misere(game))
    except EvalError as exc:
        raise SpecError(f"{label}: {exc}") from None
    if moves is None:
        raise SpecError(f"{label} is not a game on sums of heaps (a take-and-break code, nim(), heaps(GAME)): "
                        "it has no misère quotient here")
    if args.heaps < 0:
        raise SpecError(f"--heaps is the largest heap, 0 or more; got {args.heaps}")
    positions = _positions(args.outcome or [])
    top = max([args.heaps] + [max(p, default=0) for p in positions])
    for name in ("states", "products"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise SpecError(f"--{name} is a count, 1 or more; got {value}")
    states = getattr(args, "states", None)
    builder = QuotientBuilder(moves) if states is None else QuotientBuilder(moves, budget=states)
    if getattr(args, "products", None) is not None:
        builder.work_limit = args.products
    try:
        quotient = builder.grow(top)
    except QuotientBudget:
        quotient = builder.quotient()   # what was verified, printed with where it stopped
    summary = quotient_summary(quotient, label)
    summary["orders"] = builder.orders[:quotient.bound + 1]
    summary["budget"] = {"states": builder.auto.budget, "products": builder.work_limit}
    code = moves_code(game)
    published = PUBLISHED.get(code) if code is not None else None
    if published is not None:
        summary["published"] = dict(zip(("heaps", "order", "source"), published))
    if builder.stuck_at is not None:
        summary["stopped"] = {"at": builder.stuck_at, "asked": top, "reason": builder.stop_reason}
    summary["outcomes"] = {",".join(map(str, p)): quotient.outcome(p) if max(p, default=0) <= quotient.bound
                           else None for p in positions}
    if args.json:
        if args.table:
            summary["table"] = [list(row) for row in quotient.table]
        print(json.dumps(summary))
    else:
        print("\n".join(_lines(summary, [list(r) for r in quotient.table] if args.table else None)))
        for p in positions:
            found = summary["outcomes"][",".join(map(str, p))]
            print(f"outcome of ({', '.join(map(str, p))}{',' if len(p) == 1 else ''}): "
                  + (found or f"not known (a heap beyond {quotient.bound}, where the computation stopped)"))
    sys.stdout.flush()
    return 1 if builder.stuck_at is not None else 0
