"""The arguments of the subcommands whose work loads the heavy libraries or reads specs (``check``, ``list``,
``report``, ``grundy``, ``discover``, ``quotient``, ``explain``): their parsers are built from here, so that
``--help`` and a bad argument answer at once, and the module that does the work (:data:`nimjos.app.cli.SUBCOMMANDS`)
is imported when the subcommand runs (:func:`nimjos.app.cli.deferred`).

>>> parser = argparse.ArgumentParser(); register_quotient(parser.add_subparsers())
>>> parser.parse_args(["quotient", 'octal("0.77")', "--heaps", "30"]).heaps
30
"""
from __future__ import annotations

import argparse
import os

from nimjos.app.cli import deferred, help_of
from nimjos.words import Executor, Profile

#: the results store the commands use unless NIMJOS_STORE or --store names another: the store's own default
#: (:data:`nimjos.results.store.DEFAULT_PATH`, not imported: the store module is not needed to parse arguments)
STORE = ".nimjos/results.sqlite"


def register_check(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos check`` to the subcommands of a parser.

    >>> parser = argparse.ArgumentParser(); register_check(parser.add_subparsers())
    >>> parser.parse_args(["check", "--jobs", "2"]).jobs
    2
    """
    check = sub.add_parser("check", help=help_of("check"))
    check.add_argument("paths", nargs="*", help="spec files or directories")
    check.add_argument("--claim", action="append", help="check only this claim id (repeatable)")
    check.add_argument("--json", action="store_true", help="print one JSON object instead of text")
    check.add_argument("--max-counterexamples", type=int, default=10, metavar="N")
    check.add_argument("--profile", default=Profile.DEFAULT, choices=list(Profile))
    check.add_argument("--at", help="check one instance only, e.g. --at 'x=0,y=2'")
    check.add_argument("--method", help="comma-separated methods: exhaustive,sample,prove (default: all that apply)")
    check.add_argument("--timeout", type=float, default=None,
                       help="seconds per claim for the prover (default: 10, or 30 with --profile deep)")
    check.add_argument("--store", default=os.environ.get("NIMJOS_STORE", STORE),
                       help="results store (SQLite)")
    check.add_argument("--no-store", action="store_true", help="do not record results")
    check.add_argument("--fresh", action="store_true",
                       help="check every claim again instead of reusing the stored result of an unchanged claim "
                            "(the new results are still recorded)")
    check.add_argument("--no-repair", action="store_true", help="do not search corrections of refuted claims")
    check.add_argument("--resume", action="store_true", help="skip claims already recorded by an interrupted run")
    check.add_argument("--jobs", type=int, default=0,
                       help="claims checked at once, one process each (default: one per core)")
    check.add_argument("--workers", type=int, default=1, help="processes for sharded exhaustive checks (local executor)")
    check.add_argument("--shards", type=int, default=0, help="shards per claim (default: 4 x workers, balanced)")
    check.add_argument("--executor", default=Executor.LOCAL, choices=list(Executor),
                       help="where shards run")
    check.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786")
    check.add_argument("--max-positions", type=int, default=0, help="resource guard: positions one table may hold")
    check.set_defaults(func=deferred("check", "cmd_check"))


def register_list(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos list`` to the subcommands of a parser.

    >>> parser = argparse.ArgumentParser(); register_list(parser.add_subparsers())
    >>> parser.parse_args(["list", "specs/"]).paths
    ['specs/']
    """
    lst = sub.add_parser("list", help=help_of("list"))
    lst.add_argument("paths", nargs="*")
    lst.set_defaults(func=deferred("list", "cmd_list"))


def register_report(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos report`` (its work: :func:`nimjos.report.run_report_command`).

    >>> parser = argparse.ArgumentParser(); register_report(parser.add_subparsers())
    >>> parser.parse_args(["report", "--format", "md"]).format
    'md'
    """
    rep = sub.add_parser("report", help=help_of("report"))
    add_report_arguments(rep)
    rep.set_defaults(func=deferred("report", "run_report_command"))


def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--format``, ``--out``, ``--store`` and ``--measured`` to the parser of ``nimjos report`` (the formats are
    :data:`nimjos.report.FORMATS`, checked when the report is written).

    >>> parser = argparse.ArgumentParser(prog="nimjos report")
    >>> add_report_arguments(parser)
    >>> args = parser.parse_args(["--format", "md", "--out", "out/"])
    >>> args.format, args.out
    ('md', 'out/')
    """
    parser.add_argument("--format", default="md,html", metavar="md,html",
                        help="comma-separated formats to write (default: md,html)")
    parser.add_argument("--out", default="reports/", metavar="DIR", help="output directory (default: reports/)")
    parser.add_argument("--store", default=os.environ.get("NIMJOS_STORE", STORE), metavar="FILE",
                        help="results store to read (default: .nimjos/results.sqlite)")
    parser.add_argument("--measured", default="bench/results", metavar="DIR",
                        help="benchmark results with measured performance claims (default: bench/results)")


def register_grundy(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos grundy``.

    >>> parser = argparse.ArgumentParser(); register_grundy(parser.add_subparsers())
    >>> parser.parse_args(["grundy", "f.toml::g", "--window", "0 <= x <= 9"]).window
    '0 <= x <= 9'
    """
    p = sub.add_parser("grundy", help=help_of("grundy"))
    p.add_argument("target", metavar="FILE::GAME",
                   help='a spec file and one of its games or a game expression (FILE::octal("0.77")); '
                        'a built-in game alone: laskers_nim()')
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a param of the game (an expression of the spec language; repeatable)")
    p.add_argument("--window", required=True, help='positions, e.g. "0 <= x <= 10**8", "0 <= x < 40 and 0 <= y < 40", "0 <= a <= 20 and 0 <= b <= a"')
    p.add_argument("--out", metavar="FILE.npy", help="write the values as a NumPy array")
    p.add_argument("--png", metavar="FILE.png", help="draw the values: a heatmap (2-D) or the sequence (1-D)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--max-positions", type=int, default=0,
                   help="resource guard (default: enough for the box from 0 up to the window)")
    p.set_defaults(func=deferred("grundy", "cmd_grundy"))


def register_discover(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos discover``.

    >>> parser = argparse.ArgumentParser(); register_discover(parser.add_subparsers())
    >>> parser.parse_args(["discover", "f.toml::g", "--window", "31"]).window
    31
    """
    p = sub.add_parser("discover", help=help_of("discover"))
    p.add_argument("target", metavar="FILE::GAME",
                   help='a spec file and one of its games, or a game expression (FILE::octal("0.77"), octal("0.07"))')
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a param of the game (repeatable)")
    p.add_argument("--window", type=int, default=None, metavar="N",
                   help="fit on every coordinate from 0 to N (default 1000, 63 or 15 for 1, 2 or 3 coordinates); "
                        "confirm and check on 0 to 2N + 1")
    p.add_argument("--rounds", type=int, default=1, metavar="R",
                   help="an automaton that the next power of two breaks is learned again on it, R confirmations "
                        "in all (each doubles the box; default 1)")
    p.add_argument("--domain", metavar="EXPR",
                   help='the positions the game is played on, a condition on its coordinates ("a < b < c"); '
                        "default: the game's domain field, else every position")
    p.add_argument("--out", metavar="FILE.toml", help="write the spec of the discovered claims (the game declared)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=deferred("discover", "cmd_discover"))


def register_quotient(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos quotient``.

    >>> parser = argparse.ArgumentParser(); register_quotient(parser.add_subparsers())
    >>> parser.parse_args(["quotient", 'octal("0.77")', "--heaps", "30"]).heaps
    30
    """
    p = sub.add_parser("quotient", help=help_of("quotient"))
    p.add_argument("target", metavar="GAME", help='a heap game: octal("0.77"), nim(), heaps(subtraction({1, 2})), or FILE::GAME')
    p.add_argument("--heaps", type=int, required=True, help="the largest heap of the positions the quotient covers")
    p.add_argument("--outcome", action="append", metavar="HEAPS",
                   help="a position (heaps separated by commas) whose misère outcome to print; repeatable")
    p.add_argument("--table", action="store_true", help="print the multiplication table too")
    p.add_argument("--states", type=int, default=None, metavar="N",
                   help="the most states one search may hold (a count; default 400000)")
    p.add_argument("--products", type=int, default=None, metavar="N",
                   help="the most products all the searches together may take (a count; default 500 times --states)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=deferred("quotient", "cmd_quotient"))


def register_explain(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos explain``.

    >>> parser = argparse.ArgumentParser(); register_explain(parser.add_subparsers())
    >>> parser.parse_args(["explain", "f.toml::c", "--depth", "2"]).depth
    2
    """
    p = sub.add_parser("explain", help=help_of("explain"))
    p.add_argument("target", help="FILE::CLAIM")
    p.add_argument("--at", help="a position, e.g. '(0, 2)' or 'x=0,y=2' (default: the smallest counterexample)")
    p.add_argument("--depth", type=int, default=0, help="also print the game tree this deep")
    p.add_argument("--profile", default=Profile.DEFAULT, choices=list(Profile))
    p.set_defaults(func=deferred("explain", "cmd_explain"))
