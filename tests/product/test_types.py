"""The static type check: `python -m mypy nimjos checkers` reports no error, under the configuration of
`[tool.mypy]` in pyproject.toml (the untyped third-party packages it may skip are listed there by name).
"""
from __future__ import annotations

import importlib.util
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from nimjos.lang.syntax import parse

from nimjos.games.declared import GameDecl
from nimjos.results.store import ResultsStore
from nimjos.spec.names import spec_namespace
from checkers.prove.walnut.certificate import game_job
from checkers.prove.walnut.run import Result, _watch

ROOT = Path(__file__).resolve().parents[2]

needs_mypy = pytest.mark.skipif(
    importlib.util.find_spec("mypy") is None,
    reason="mypy is not installed (it comes with the test extra: pip install -e '.[test]')")


# mypy runs in a process of its own: the fixture ``mypy`` (tests/conftest.py) marks its users slow

@needs_mypy
def test_mypy_finds_no_error_in_nimjos_and_checkers(mypy):
    run = mypy("nimjos", "checkers")
    assert run.returncode == 0, f"`python -m mypy nimjos checkers` failed:\n{run.stdout}{run.stderr}"


@needs_mypy
def test_mypy_reports_a_type_error(tmp_path, mypy):
    """The check can fail: a module with a wrong annotation, checked under the project's configuration."""
    bad = tmp_path / "bad_annotation.py"
    bad.write_text('def count() -> int:\n    return "three"\n')
    run = mypy("--config-file", str(ROOT / "pyproject.toml"), "--no-incremental", str(bad))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "Incompatible return value type" in run.stdout


def test_every_type_ignore_names_its_error_code_and_says_why():
    """``# type: ignore[code]  # the reason``: an ignore without a code or a reason is a silenced error."""
    found = []
    for package in ("nimjos", "checkers"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "type: ignore" in line and not re.search(r"# type: ignore\[[\w-]+(, *[\w-]+)*\] +# *\w", line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


# -- paths the type check found unguarded (none reachable from a spec today; each now fails with its reason)

def test_a_level_set_certificate_without_its_levels_is_refused_with_the_reason():
    ns = spec_namespace()
    nim = GameDecl.declare("nim", {"position": ["x"], "moves": [{"to": "x - t", "where": "1 <= t <= x"}]}, ns)
    with pytest.raises(ValueError, match="needs its levels"):
        game_job(ns, nim, {}, {}, "level", parse("x == 0"), None, None, ("x",), levels=None)


def test_the_walnut_watcher_refuses_a_process_without_pipes(starts_processes):
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    try:
        with pytest.raises(ValueError, match="stdout=PIPE"):
            _watch(proc, Result(), 5.0, None)
    finally:
        proc.wait()


def test_a_closed_results_store_says_so():
    store = ResultsStore(":memory:")
    store.close()
    store.close()
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        store.schema_version()
