"""``nimjos discover FILE::GAME [--param NAME=VALUE] [--domain EXPR] [--window N] [--rounds R] [--json] [--out FILE.toml]``: from a game's moves
to a checked description of its P-positions or Grundy values, without being given a formula.

GAME is named as ``nimjos grundy`` names it (a game declared in FILE, or a game expression over the built-in
families: ``octal("0.77")``, ``subtraction({1, 2, 3})``); the table comes from :func:`nimjos.api.tables.grundy_table`
(the fast engines), the fitting and checking from :mod:`checkers.discover.search`. ``--window N`` is the largest
coordinate of the box the classes are fitted on (default: 1000 for one coordinate, 63 for two, 15 for three); a
fit is confirmed on the box up to 2N + 1, which is the printed claim's window.

The work is :func:`nimjos.api.discover.discover` (the same for notebooks); this module parses the arguments and
prints.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from checkers import Discovery, DiscoveryBug, GameSource, automaton_file
from nimjos.api.discover import discover
from nimjos.app.cli import EXIT_PROVER_BUG
from nimjos.verdict import phrases
from nimjos.words import PhraseKind


def report_lines(result: Discovery) -> list[str]:
    """The text ``nimjos discover`` prints: what was tried, each description with its verdict, or that none fits.

    >>> print("\\n".join(report_lines(Discovery(GameSource("g", ("x",)), ["periodic"], window="x <= 9"))))
    g: 1 class(es) tried (periodic); 0 positions valued from the moves; 0.0 s
    no description in these classes within the budget (window x <= 9)
    """
    lines = [f"{result.game.claim_game}: {len(result.tried)} class(es) tried ({', '.join(result.tried)}); "
             f"{result.positions:,} positions valued from the moves; {result.seconds:.1f} s"]
    if not result.found:
        lines.append(f"no description in these classes within the budget (window {result.window})")
        lines += [f"  {klass}: {why}" for klass, why in result.misses.items()]
        best = result.near_miss or result.closest
        if best:
            lines.append(f"best window-checked description: {best}")
    if result.refuted:
        lines.append("fitted on the tables but refuted by the methods beyond them: " + "; ".join(result.refuted))
    for found in result.found:
        states = f"; largest automaton {found.states:,} states" if found.states else ""
        lines.append(f"{found.klass}: {found.verdict} ({found.method}{states}): {found.scope}")
        lines += ["    " + line for line in found.claim.splitlines()]
        if found.stored and not found.formula:   # no formula equals the automaton: show the automaton itself
            lines += ["    # " + line for line in found.stored.splitlines()]
    return lines


def cmd_discover(args: argparse.Namespace) -> int:
    """Run ``nimjos discover``: exit 0 when a description was found and checked, 1 when none was found, 3 when a
    claim discover wrote does not load (a fault of discover, never reported as one of the user's spec).

    >>> cmd_discover(argparse.Namespace(target="subtraction({1, 2})", param=None, window=30, out=None,
    ...                                 json=False, rounds=1))  # doctest: +ELLIPSIS
    subtraction({1, 2}): 2 class(es) tried (periodic, arithmetic-periodic); 62 positions valued from the moves; ...
    periodic: proved (periodicity): every n >= 0: finite subtraction set, max(S) = 2: ...
        [[claim]]
    ...
        periodic = { period = 3, preperiod = 0, saltus = 0 }
        expect = "holds"
    0
    """
    try:
        result = discover(args.target, args.param or [], args.window, args.rounds, getattr(args, "domain", None),
                          args.out)
    except DiscoveryBug as exc:   # never reported as a fault of the user's spec (exit status 2)
        print(f"nimjos discover: internal error: {exc}", file=sys.stderr)
        return EXIT_PROVER_BUG
    if args.out:
        for found in result.found:
            if found.stored:   # discover wrote the learned automaton, in Walnut's format, beside the spec
                found.phrases = phrases(found.phrases, (PhraseKind.READ_BACK, f"stored in "
                                        f"{Path(args.out).with_name(automaton_file(Path(args.out)))} (Walnut's "
                                        "automaton format)"))
    if args.json:
        print(json.dumps({"game": result.game.claim_game, "tried": result.tried, "positions": result.positions,
                          "window": result.window, "seconds": round(result.seconds, 3), "closest": result.closest,
                          "near_miss": result.near_miss, "misses": result.misses,
                          "refuted": result.refuted,
                          "found": [f.to_json() for f in result.found]}))
    else:
        print("\n".join(report_lines(result)))
        if args.out and result.found:
            print(f"wrote {args.out}")
    sys.stdout.flush()
    return 0 if result.found else 1
