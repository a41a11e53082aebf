"""docs/notebook.md's worked example runs as printed (its ``>>>`` lines are doctests, run from the repository's root)."""
from __future__ import annotations

import doctest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "notebook.md"


def test_the_notebook_page_runs_as_printed(monkeypatch, starts_processes):
    monkeypatch.chdir(ROOT)
    result = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.attempted >= 10 and result.failed == 0, result
