"""``nimjos quotient GAME --heaps N [--outcome HEAPS ...] [--table] [--json]``: the misère quotient of a heap game
from its moves (Plambeck and Siegel), verified for every sum of heaps of at most N tokens.

GAME is a heap game as ``nimjos grundy`` names it: a take-and-break code (``octal("0.77")``, Kayles;
``octal("0.07")``, Dawson's Kayles), ``nim()``, ``heaps(subtraction({1, 2}))``, or a one-heap game declared in a
file (``FILE::GAME`` played on any number of heaps); its play convention does not matter, the quotient is the
misère one. The command prints the order of the quotient and of its P-portion, the element of each heap (the
pretending function) and where it is observed to repeat, the single heaps that are P-positions, the least
position of each element, and the misère outcome of each ``--outcome`` position (heaps separated by commas). The
computation is :func:`nimjos.api.quotient.quotient` (the same for notebooks). A bound it cannot reach within its
budget (a count of states and products) gets what was verified: the same lines for the heaps reached, a line saying at which heap it
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

from nimjos.api.quotient import quotient
from nimjos.app.cli import main
from nimjos.lang.errors import SpecError

__all__ = ["cmd_quotient", "main"]


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
    """Run ``nimjos quotient``: :func:`nimjos.api.quotient.quotient`, printed."""
    positions = _positions(args.outcome or [])
    for name in ("states", "products"):
        value = getattr(args, name, None)
        if value is not None and value < 1:
            raise SpecError(f"--{name} is a count, 1 or more; got {value}")
    summary = quotient(args.target, args.heaps, positions, table=bool(args.table),
                       states=getattr(args, "states", None), products=getattr(args, "products", None))
    if args.json:
        print(json.dumps(summary))
    else:
        print("\n".join(_lines(summary, summary.get("table"))))
        bound = summary["heaps"]
        for p in positions:
            found = summary["outcomes"][",".join(map(str, p))]
            print(f"outcome of ({', '.join(map(str, p))}{',' if len(p) == 1 else ''}): "
                  + (found or f"not known (a heap beyond {bound}, where the computation stopped)"))
    sys.stdout.flush()
    return 1 if "stopped" in summary else 0
