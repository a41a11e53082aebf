"""``nimjos check`` and ``nimjos list``: their arguments, and every spec file read and validated before anything
is checked. Only the spec layer is imported here: a bad spec, and ``--help``, answer before the methods (z3,
numba, sympy...) are loaded; once every file and every claim is valid, ``check`` hands them to
:mod:`nimjos.app.check_cli` (imported then).

Every independent fault of every file is reported in one run, one line each, with exit status 2, and then no
claim is checked, not even those of valid files: a run checks what the user wrote or nothing.
``nimjos list`` lists the files that are valid and then reports the faults of the others (exit status 2).

>>> parser = argparse.ArgumentParser(); register_check(parser.add_subparsers())
>>> parser.parse_args(["check", "specs/", "--claim", "a"]).claim
['a']
"""
from __future__ import annotations

import argparse
import os

from nimjos.lang.errors import raise_all
from nimjos.lang.lazy import import_on_use
from nimjos.spec.loader import Spec, load_specs
from nimjos.app.cli import EXIT_OK, help_of, runner_of


def valid_specs(paths: list[str]) -> list[Spec]:
    """Every spec file of `paths` (default: specs/), read and validated; every fault of every file raised together.

    >>> [s.source.id for s in valid_specs(["tests/data/tiny.toml"])]
    ['tiny']
    """
    specs, errors = load_specs(paths or ["specs"])
    raise_all(errors)
    return specs


def cmd_check(args: argparse.Namespace) -> int:
    """``nimjos check``: read and validate every spec, then check their claims (:func:`nimjos.app.check_cli.cmd_check`).

    >>> parser = argparse.ArgumentParser(); register_check(parser.add_subparsers())
    >>> cmd_check(parser.parse_args(["check", "no/such.toml"]))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: no/such.toml: no such file or directory
    """
    args.specs = valid_specs(args.paths)
    return import_on_use(runner_of("check")).cmd_check(args)


def cmd_list(args: argparse.Namespace) -> int:
    """``nimjos list``: the claims of every valid spec file, then the faults of the others (raised together).

    >>> parser = argparse.ArgumentParser(); register_list(parser.add_subparsers())
    >>> cmd_list(parser.parse_args(["list", "tests/data/tiny.toml"]))  # doctest: +ELLIPSIS
    tests/data/tiny.toml  (...)
      nim1-grundy ...
    0
    """
    specs, errors = load_specs(args.paths or ["specs"])
    for spec in specs:
        print(f"{spec.path}  ({spec.source.title or spec.source.id})")
        for c in spec.claims:
            extra = f" corrects {c.corrects}" if c.corrects else ""
            print(f"  {c.id:<40} {c.kind:<12} {c.ref:<28} expect {c.expect or '-'}{extra}")
    raise_all(errors)
    return EXIT_OK


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
    check.add_argument("--profile", default="default", choices=["default", "deep"])
    check.add_argument("--at", help="check one instance only, e.g. --at 'x=0,y=2'")
    check.add_argument("--method", help="comma-separated methods: exhaustive,sample,prove (default: all that apply)")
    check.add_argument("--timeout", type=float, default=None,
                       help="seconds per claim for the prover (default: 10, or 30 with --profile deep)")
    check.add_argument("--store", default=os.environ.get("NIMJOS_STORE", ".nimjos/results.sqlite"),
                       help="results store (SQLite)")
    check.add_argument("--no-store", action="store_true", help="do not record results")
    check.add_argument("--no-repair", action="store_true", help="do not search corrections of refuted claims")
    check.add_argument("--resume", action="store_true", help="skip claims already recorded by an interrupted run")
    check.add_argument("--jobs", type=int, default=0,
                       help="claims checked at once, one process each (default: one per core)")
    check.add_argument("--workers", type=int, default=1, help="processes for sharded exhaustive checks (local executor)")
    check.add_argument("--shards", type=int, default=0, help="shards per claim (default: 4 x workers, balanced)")
    check.add_argument("--executor", default="local", choices=["local", "dask"], help="where shards run")
    check.add_argument("--scheduler", help="Dask scheduler address, e.g. tcp://127.0.0.1:8786")
    check.add_argument("--max-positions", type=int, default=0, help="resource guard: positions one table may hold")
    check.set_defaults(func=cmd_check)


def register_list(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos list`` to the subcommands of a parser.

    >>> parser = argparse.ArgumentParser(); register_list(parser.add_subparsers())
    >>> parser.parse_args(["list", "specs/"]).paths
    ['specs/']
    """
    lst = sub.add_parser("list", help=help_of("list"))
    lst.add_argument("paths", nargs="*")
    lst.set_defaults(func=cmd_list)
