"""Start-up: each command imports only what it uses. ``nimjos --help``, ``import nimjos`` and
``nimjos josephus survivor`` run in a fresh interpreter and list which heavy libraries they loaded
(issue 28: sympy alone took 4.6 s of every command's start).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: every test here but the last starts a fresh interpreter: slow by the rule of tests/conftest.py
pytestmark = pytest.mark.usefixtures("starts_processes")

#: libraries the checks need and the light commands must not load
HEAVY = ("sympy", "numba", "z3", "matplotlib", "dask", "hypothesis", "networkx")

PROBE = """
import contextlib, io, json, sys
from nimjos.app.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
print(json.dumps({"code": code, "out": out.getvalue(), "heavy": sorted(m for m in HEAVY if m in sys.modules)}))
"""


def loaded_by(code: str, *argv: str) -> dict:
    """Run ``code`` (with HEAVY defined) in a fresh interpreter; the JSON object it prints last."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + code, *argv], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_help_imports_none_of_the_heavy_libraries():
    result = loaded_by(PROBE, "--help")
    assert result["code"] == 0 and "josephus" in result["out"] and "grundy" in result["out"]
    assert result["heavy"] == []


def test_a_subcommands_help_loads_only_that_subcommand():
    result = loaded_by(PROBE, "josephus", "--help")
    assert result["code"] == 0 and "--k" in result["out"]
    assert result["heavy"] == []


def test_josephus_survivor_of_a_huge_circle_imports_none_of_the_heavy_libraries():
    result = loaded_by(PROBE, "josephus", "survivor", "--k", "12031", "--n", "9876543210987654321")
    assert result["code"] == 0 and result["out"].strip() == "3554846299321782414"
    assert result["heavy"] == []


def test_import_nimjos_is_light():
    result = loaded_by("import sys, json, nimjos\nprint(json.dumps({'heavy': sorted(m for m in HEAVY if m in sys.modules)}))")
    assert result["heavy"] == []


def test_the_probe_sees_a_heavy_library_when_a_command_loads_one():
    """The probe is not vacuous: ``nimjos check``'s module loads the methods (z3, sympy...)."""
    result = loaded_by("import sys, json, nimjos.app.check_cli\n"
                       "print(json.dumps({'heavy': sorted(m for m in HEAVY if m in sys.modules)}))")
    assert "z3" in result["heavy"]


def test_every_help_line_of_the_light_parser_is_the_full_parsers():
    """``nimjos --help`` (nothing loaded) lists the same subcommands with the same help as the full parser."""
    from nimjos.app.cli import build_parser
    assert build_parser("").format_help() == build_parser().format_help()
