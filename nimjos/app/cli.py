"""The command line: ``nimjos check``, ``nimjos list``, ``nimjos report`` and the tools around them.

Each subcommand lives in its own module, named in :data:`SUBCOMMANDS` and imported (by
:func:`nimjos.lang.lazy.import_on_use`) only when that subcommand runs: ``nimjos --help`` and
``nimjos josephus survivor`` load none of the libraries the checks need (sympy, z3, matplotlib, dask).

Exit status: 0 when every verdict agrees with its claim's ``expect``; 1 when one does not; 2 on bad input
(one line naming file, claim, field and line; never a traceback); 3 when a proof failed its audit.

>>> main(["josephus", "survivor", "--k", "3", "--n", "41"])
31
0
"""
from __future__ import annotations

import argparse
import sys
from typing import Callable, NamedTuple

from nimjos.lang.errors import NimjosError, SpecErrors
from nimjos.lang.lazy import import_on_use

EXIT_OK, EXIT_DISAGREE, EXIT_BAD_INPUT, EXIT_PROVER_BUG = 0, 1, 2, 3


class Subcommand(NamedTuple):
    """One subcommand: its name, its one-line help, the module (with its function) that adds its arguments, and
    the module that does its work when that is another, imported once the input has been read and validated."""

    name: str
    help: str
    module: str
    register: str = "register"
    runs: str = ""


#: every subcommand, in the order ``nimjos --help`` lists them; a module is imported only when its subcommand runs
SUBCOMMANDS = (
    Subcommand("check", "check the claims of spec files (default: specs/)", "nimjos.app.arguments", "register_check",
               "nimjos.app.check_input"),
    Subcommand("list", "list the claims of spec files", "nimjos.app.arguments", "register_list",
               "nimjos.app.check_input"),
    Subcommand("report", "render reports/ from the results store", "nimjos.app.arguments", "register_report",
               "nimjos.app.report_cli"),
    Subcommand("josephus", "the Josephus problem: survivor, survivor table, elimination order", "nimjos.app.josephus_cli"),
    Subcommand("grundy", "Grundy values of a game (declared or built-in) on a window, from its moves",
               "nimjos.app.arguments", "register_grundy", "nimjos.app.grundy_cli"),
    Subcommand("discover", "from a game's moves to a checked description of its P-positions or Grundy values",
               "nimjos.app.arguments", "register_discover", "nimjos.app.discover_cli"),
    Subcommand("quotient", "the misère quotient of a heap game, verified for every sum of heaps up to a bound",
               "nimjos.app.arguments", "register_quotient", "nimjos.app.quotient_cli"),
    Subcommand("new", "write a commented skeleton spec", "nimjos.app.scaffold"),
    Subcommand("explain", "options, Grundy values and mex at a counterexample or position", "nimjos.app.arguments",
               "register_explain", "nimjos.app.explain_cli"),
)


#: the module that checks the claims, imported by :mod:`nimjos.app.check_input` once every spec is read and valid
CHECKS = "nimjos.app.check_cli"


def help_of(name: str) -> str:
    """The one-line help of the subcommand ``name``, as :data:`SUBCOMMANDS` gives it.

    >>> help_of("list")
    'list the claims of spec files'
    """
    return next(c.help for c in SUBCOMMANDS if c.name == name)


def runner_of(name: str) -> str:
    """The module that does the work of the subcommand ``name`` (its own module unless :data:`SUBCOMMANDS` names
    another).

    >>> runner_of("check"), runner_of("josephus")
    ('nimjos.app.check_input', 'nimjos.app.josephus_cli')
    """
    command = next(c for c in SUBCOMMANDS if c.name == name)
    return command.runs or command.module


def deferred(name: str, function: str) -> Callable[[argparse.Namespace], int]:
    """The function ``function`` of the module that does the work of the subcommand ``name`` (:func:`runner_of`),
    imported when the subcommand runs, not when its arguments are parsed.

    >>> import argparse
    >>> deferred("list", "cmd_list")(argparse.Namespace(paths=["tests/data/tiny.toml"]))  # doctest: +ELLIPSIS
    tests/data/tiny.toml  (...)
      nim1-grundy ...
    0
    """
    def run(args: argparse.Namespace) -> int:
        return getattr(import_on_use(runner_of(name)), function)(args)
    run.__qualname__ = run.__name__ = f"{function} (imported on use)"
    return run


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of ``nimjos``; every subcommand gets its arguments (None), or only the one named ``only``.

    The other subcommands are named with their help (for ``nimjos --help``) and their modules are not imported.

    >>> sorted(build_parser("josephus")._subparsers._group_actions[0].choices)[:3]
    ['check', 'discover', 'explain']
    >>> build_parser("josephus").parse_args(["josephus", "table", "--k", "2", "--n", "5"]).n
    '5'
    """
    parser = argparse.ArgumentParser(prog="nimjos", description="Check the formulas printed in papers on "
                                     "impartial games and the Josephus problem.")
    sub = parser.add_subparsers(dest="command", required=True)
    for command in SUBCOMMANDS:
        if only is None or command.name == only:
            getattr(import_on_use(command.module), command.register)(sub)
        else:
            sub.add_parser(command.name, help=command.help)
    return parser


def chosen_subcommand(argv: list[str]) -> str:
    """The subcommand ``argv`` runs: its first word that is not an option ("" when there is none).

    >>> chosen_subcommand(["--help"]), chosen_subcommand(["josephus", "survivor", "--k", "2"])
    ('', 'josephus')
    """
    return next((word for word in argv if not word.startswith("-")), "")


def main(argv: list[str] | None = None) -> int:
    """Run ``nimjos`` with the words ``argv`` (default: the process's); the exit status.

    >>> main(["list", "tests/data/tiny.toml"])  # doctest: +ELLIPSIS
    tests/data/tiny.toml  (...)
      nim1-grundy ...
    0
    """
    words = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(chosen_subcommand(words)).parse_args(words)
    try:
        return args.func(args)
    except NimjosError as exc:   # a SpecError too: one line (one per fault of a SpecErrors), never a traceback
        for error in exc.errors if isinstance(exc, SpecErrors) else [exc]:
            print(f"nimjos: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
