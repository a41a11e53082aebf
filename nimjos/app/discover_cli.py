"""``nimjos discover FILE::GAME [--param NAME=VALUE] [--window N] [--rounds R] [--json] [--out FILE.toml]``: from a game's moves
to a checked description of its P-positions or Grundy values, without being given a formula.

GAME is named as ``nimjos grundy`` names it (a game declared in FILE, or a game expression over the built-in
families: ``octal("0.77")``, ``subtraction({1, 2, 3})``); the table comes from :func:`nimjos.api.tables.grundy_table`
(the fast engines), the fitting and checking from :mod:`checkers.discover.search`. ``--window N`` is the largest
coordinate of the box the classes are fitted on (default: 1000 for one coordinate, 63 for two, 15 for three); a
fit is confirmed on the box up to 2N + 1, which is the printed claim's window.

>>> import pathlib
>>> path = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml"
>>> source = game_source(f"{path}::nim1", [])
>>> source.claim_game, source.coords, source.declarations.splitlines()[0]
('nim1', ('x',), '[game.nim1]')
"""
from __future__ import annotations

import argparse
import json
import sys
import tomllib
from pathlib import Path
from typing import Any

import numpy as np

from checkers.discover.search import (CLASSES, MISERE_CLASSES, Discovery, DiscoveryBug, GameSource, automaton_file,
                                     discover)
from nimjos.app.cli import EXIT_PROVER_BUG
from nimjos.api.tables import grundy_table, resolve_game
from nimjos.games.declared import MISERE
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec

#: the coordinate of a built-in heap game (one heap)
HEAP = "n"


def toml_value(value: Any) -> str:
    """A value of a game's declaration (strings, integers, booleans, lists, tables) as TOML text.

    >>> toml_value([{"to": "x - t", "where": "1 <= t <= x"}])
    '[ { to = "x - t", where = "1 <= t <= x" } ]'
    >>> toml_value(True), toml_value(3)
    ('true', '3')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value)   # a JSON string is a TOML basic string (the same escapes)
    if isinstance(value, list):
        return "[ " + ", ".join(toml_value(v) for v in value) + " ]" if value else "[]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise SpecError(f"nimjos discover cannot copy a declaration value {value!r}")


def _key(name: str) -> str:
    """A TOML key: bare when it is a plain name, else quoted."""
    return name if name.replace("-", "_").isidentifier() else json.dumps(name)


def game_source(target: str, assignments: list[str]) -> GameSource:
    """The game ``target`` names (``FILE::NAME``, ``FILE::EXPR`` or ``EXPR``) as a discovered claim names it.

    >>> game_source('octal("0.77")', []).coords
    ('n',)
    """
    path, sep, name = target.rpartition("::")
    spec = load_spec(path) if sep else None
    if spec is None or name not in spec.games:
        if assignments:
            raise SpecError("--param gives the params of a declared game; write a built-in game's in its expression")
        return GameSource(name, (HEAP,), "", heap=True, misere=resolve_game(target, [])[0].play == MISERE)
    decl = spec.games[name]
    misere = decl.play == MISERE
    values = {name.strip(): value for name, _, value in (a.partition("=") for a in assignments)}
    args = [values.get(p, "").strip() for p in decl.params]
    if any(not a for a in args):
        raise SpecError(f"game {name} needs --param NAME=VALUE for each of {', '.join(decl.params)}")
    raw = tomllib.loads(spec.text)["game"][name]
    body = [f"{_key(key)} = {toml_value(value)}" for key, value in raw.items()]
    claim_game = f"{name}({', '.join(args)})" if args else name
    return GameSource(claim_game, tuple(decl.position), "\n".join([f"[game.{name}]"] + body) + "\n", misere=misere)


def table_function(target: str, assignments: list[str], names: tuple[str, ...]):
    """The table of the game on the box from 0 up to given highs, from its moves (``nimjos grundy``'s table).

    >>> table_function('subtraction({1, 2})', [], ("n",))((7,)).tolist()
    [0, 1, 2, 0, 1, 2, 0, 1]
    """
    def table_of(highs: tuple[int, ...]) -> np.ndarray:
        window = " and ".join(f"0 <= {n} <= {h}" for n, h in zip(names, highs))
        return grundy_table(target, assignments, window)[0]
    return table_of


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
        if result.closest:
            lines.append(f"best window-checked description: {result.closest}")
    if result.refuted:
        lines.append("fitted on the tables but refuted by the methods beyond them: " + "; ".join(result.refuted))
    for found in result.found:
        states = f"; largest automaton {found.states:,} states" if found.states else ""
        lines.append(f"{found.klass}: {found.verdict} ({found.method}{states}): {found.scope}")
        lines += ["    " + line for line in found.claim.splitlines()]
    return lines


def cmd_discover(args: argparse.Namespace) -> int:
    """Run ``nimjos discover``: exit 0 when a description was found and checked, 1 when none was found, 3 when a
    claim discover wrote does not load (a fault of discover, never reported as one of the user's spec).

    >>> cmd_discover(argparse.Namespace(target="subtraction({1, 2})", param=None, window=30, out=None,
    ...                                 json=False, rounds=1))  # doctest: +ELLIPSIS
    subtraction({1, 2}): 2 class(es) tried (periodic, arithmetic-periodic); 93 positions valued from the moves; ...
    periodic: proved (periodicity): every n >= 0: finite subtraction set, max(S) = 2: ...
        [[claim]]
    ...
        periodic = { period = 3, preperiod = 0, saltus = 0 }
        expect = "holds"
    0
    """
    source = game_source(args.target, args.param or [])
    tried = (MISERE_CLASSES if source.misere else CLASSES).get(len(source.coords))
    if tried is None:
        raise SpecError(f"nimjos discover fits games of 1 to 3 coordinates, not {len(source.coords)}")
    try:
        result = discover(source, table_function(args.target, args.param or [], source.coords),
                          fit_size=args.window, out=Path(args.out) if args.out else None, rounds=args.rounds)
    except DiscoveryBug as exc:   # never reported as a fault of the user's spec (exit status 2)
        print(f"nimjos discover: internal error: {exc}", file=sys.stderr)
        return EXIT_PROVER_BUG
    if args.out:
        for found in result.found:
            if found.stored:   # discover wrote the learned automaton, in Walnut's format, beside the spec
                found.scope += (f"; stored in {Path(args.out).with_name(automaton_file(Path(args.out)))} (Walnut's "
                                "automaton format)")
    if args.json:
        print(json.dumps({"game": source.claim_game, "tried": result.tried, "positions": result.positions,
                          "window": result.window, "seconds": round(result.seconds, 3), "closest": result.closest,
                          "refuted": result.refuted,
                          "found": [f.to_json() for f in result.found]}))
    else:
        print("\n".join(report_lines(result)))
        if args.out and result.found:
            print(f"wrote {args.out}")
    sys.stdout.flush()
    return 0 if result.found else 1
