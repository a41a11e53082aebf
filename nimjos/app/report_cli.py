"""``nimjos report``: render reports/ from the results store (the work is :mod:`nimjos.report`'s).

>>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
>>> parser.parse_args(["report", "--format", "md"]).format
'md'
"""
from __future__ import annotations

import argparse

from nimjos.report import add_report_arguments, run_report_command
from nimjos.app.cli import help_of


def register(sub: argparse._SubParsersAction) -> None:
    """Add ``nimjos report`` to the subcommands of a parser.

    >>> parser = argparse.ArgumentParser(); register(parser.add_subparsers())
    >>> parser.parse_args(["report"]).func is run_report_command
    True
    """
    rep = sub.add_parser("report", help=help_of("report"))
    add_report_arguments(rep)
    rep.set_defaults(func=run_report_command)
