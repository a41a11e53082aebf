"""A pytest plugin: ``pytest specs/`` collects every claim of every spec file as a test item
``file::claim-id``. An item fails when the claim's verdict differs from its ``expect`` (a claim without
``expect`` must not be refuted or ill-defined); the failure shows the smallest counterexample.

Spec files are ``*.toml`` files with a ``[source]`` table; files under a ``tests`` directory (fixtures,
deliberately broken specs) are collected only when named on the command line.

>>> _looks_like_spec("[source]\\nid = 'x'\\n[[claim]]\\n")
True
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from nimjos.lang.lazy import import_on_use

#: the module of the test items, imported at the first spec file collected: pytest imports this plugin (an entry
#: point) before other plugins start, so it imports no checker, and a coverage plugin still sees them load
ITEMS = "nimjos.app.spec_items"


def _looks_like_spec(text: str) -> bool:
    return bool(re.search(r"^\s*\[source\]", text, re.M)) and "[[claim]]" in text


def _explicit(config: Any, path: Path) -> bool:
    for arg in config.args:
        try:
            if Path(arg.split("::")[0]).resolve() == path.resolve():
                return True
        except OSError:
            continue
    return False


def pytest_addoption(parser: Any) -> None:
    group = parser.getgroup("nimjos")
    group.addoption("--nimjos-profile", default="default", choices=["default", "deep"],
                    help="profile used when checking spec claims")


def pytest_collect_file(file_path: Path, parent: Any) -> Any:
    if file_path.suffix != ".toml":
        return None
    if "tests" in file_path.parts and not _explicit(parent.config, file_path):
        return None
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if not _looks_like_spec(text):
        return None
    return import_on_use(ITEMS).SpecFile.from_parent(parent, path=file_path)


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "printed_wrong: a claim the spec expects to be refuted or ill-defined")
