"""README.md's command table ("## Commands") cannot drift from the command line: every subcommand of
:func:`nimjos.app.cli.build_parser` has a row, every option of a subcommand is named in the synopsis of its
row (the first column), every positional choice (``josephus survivor|table|order``) too, and no row names an
option or a subcommand that no longer exists.
"""
from __future__ import annotations

import argparse
import pathlib
import re

import pytest

from nimjos.app.cli import build_parser

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"

#: options deliberately left out of the README table, as {subcommand: {"--option", ...}}, each with a comment
#: saying why. Empty: every option is documented (prefer documenting an option to listing it here).
UNDOCUMENTED: dict[str, set[str]] = {}

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def command_rows() -> dict[str, tuple[str, str]]:
    """{subcommand: (synopsis cell, whole row)} of the `nimjos ...` rows of the table under "## Commands"."""
    text = README.read_text(encoding="utf-8")
    section = re.search(r"^## Commands\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert section, "README.md has no '## Commands' section"
    rows: dict[str, tuple[str, str]] = {}
    for line in section.group(1).splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
        synopsis = cells[0].strip("`").replace("\\|", "|")
        words = synopsis.split()
        if len(words) < 2 or words[0] != "nimjos":
            continue    # the header, the separator, `pytest specs/`
        assert words[1] not in rows, f"two README rows for nimjos {words[1]}"
        rows[words[1]] = (synopsis, line.replace("\\|", "|"))
    return rows


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    actions = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    assert len(actions) == 1
    return dict(actions[0].choices)


def options(parser: argparse.ArgumentParser) -> set[str]:
    """The long option strings of a subcommand, without -h/--help."""
    return {s for a in parser._actions if not isinstance(a, argparse._HelpAction)
            for s in a.option_strings if s.startswith("--")}


ROWS = command_rows()
SUBCOMMANDS = subcommands()


def test_every_subcommand_has_a_row_and_every_row_a_subcommand():
    assert sorted(ROWS) == sorted(SUBCOMMANDS)


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_option_is_in_the_row(name):
    synopsis, _ = ROWS.get(name, ("", ""))
    named = set(OPTION.findall(synopsis))
    missing = options(SUBCOMMANDS[name]) - named - UNDOCUMENTED.get(name, set())
    assert not missing, f"README row of nimjos {name} lacks {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(SUBCOMMANDS))
def test_every_positional_choice_is_in_the_row(name):
    synopsis, _ = ROWS.get(name, ("", ""))
    for action in SUBCOMMANDS[name]._actions:
        if not action.option_strings and action.choices:
            missing = [c for c in action.choices if not re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", synopsis)]
            assert not missing, f"README row of nimjos {name} lacks {action.dest} {missing}"


@pytest.mark.parametrize("name", sorted(ROWS))
def test_the_row_names_no_stale_option(name):
    # the whole row: the description may name options too (e.g. "30 with --profile deep")
    _, row = ROWS[name]
    known = options(SUBCOMMANDS[name]) if name in SUBCOMMANDS else set()
    stale = set(OPTION.findall(row)) - known
    assert not stale, f"README row of nimjos {name} names options that do not exist: {sorted(stale)}"


def test_the_check_detects_drift():
    # the row parser sees the options of a row, so the tests above are not vacuous
    synopsis, _ = ROWS["check"]
    assert {"--claim", "--json", "--at"} <= set(OPTION.findall(synopsis))
    assert "--no-such-option" not in options(SUBCOMMANDS["check"])
