"""Messages beside a verdict that must not mislead: a closed statement's counterexample, the report's expectation
column, the order an expected counterexample is written in, what ``explain`` says at a family member and on a misère
game, and the observations of periodicity printed beside a window."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

HEAD = '[source]\nid = "m"\n\n'


def _write(tmp_path: Path, text: str, name: str = "m.toml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + text)
    return path


# ----------------------------------------------------------------------------- a closed statement

CLOSED = '[[claim]]\nid = "c"\nholds = "2 ** 5 - 1 == 30"\n'


def test_a_closed_statement_s_counterexample_names_no_empty_place(tmp_path, cli):
    path = _write(tmp_path, CLOSED)
    r = cli("check", path, "--no-store")
    assert r.returncode == 1
    assert "false as a closed statement (no variables): left side 31, right side 30" in r.stdout
    assert "counterexample: :" not in r.stdout
    assert f"re-run: nimjos check {path} --claim c\n" in r.stdout and "--at" not in r.stdout
    r = cli("check", path, "--no-store", "--json")
    assert json.loads(r.stdout)["claims"][0]["rerun"] == f"nimjos check {path} --claim c"
    r = cli("explain", f"{path}::c")
    assert r.stdout.splitlines()[0] == "claim c: refuted; false as a closed statement (no variables)"


def test_a_closed_statement_in_the_report_and_the_notebook_api(tmp_path, cli):
    from nimjos.app.api import check
    path = _write(tmp_path, CLOSED)
    assert check(path)[0].counterexample() == "the closed statement (no variables): left side 31, right side 30"
    store = tmp_path / "r.sqlite"
    assert cli("check", path, "--store", store).returncode == 1
    assert cli("report", "--store", store, "--out", tmp_path / "out", "--format", "md").returncode == 0
    index = (tmp_path / "out" / "index.md").read_text()
    assert "`the closed statement (no variables)`" in index
