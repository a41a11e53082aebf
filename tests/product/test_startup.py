"""Start-up: each command imports only what it uses. ``nimjos --help``, ``import nimjos`` and
``nimjos josephus survivor`` run in a fresh interpreter and list which heavy libraries they loaded
(issue 28: sympy alone took 4.6 s of every command's start). Issue 37: every subcommand's ``--help``, and
``check`` and ``list`` on a bad spec, load none of them either: reading and validating a spec imports no solver,
compiler or plotting library (a fresh interpreter for each command, and, in process, the static imports of the
modules those commands import at start-up). Nor numpy: a spec is read and validated with the names of the language
and the games, whose engines (numpy, the compiled kernels) are imported when a method asks for values
(nimjos.lang.lazy.MODULES_ON_USE); numpy alone costs about 0.1 s of CPU at every start.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from nimjos.app.arguments import STORE, add_report_arguments
from nimjos.app.cli import SUBCOMMANDS
from nimjos.lang.lazy import MODULES_ON_USE
from nimjos.report import FORMATS
from nimjos.results.store import DEFAULT_PATH

ROOT = Path(__file__).resolve().parents[2]

#: libraries the checks need and the light commands must not load
HEAVY = ("sympy", "numba", "z3", "matplotlib", "dask", "hypothesis", "networkx")
#: what reading and validating a spec must not load either: the arrays of the engines
SPEC_HEAVY = HEAVY + ("numpy",)

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


def loaded_by(code: str, *argv: str, heavy: tuple[str, ...] = HEAVY) -> dict:
    """Run ``code`` (with HEAVY defined as `heavy`) in a fresh interpreter; the JSON object it prints last."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", f"HEAVY = {heavy!r}\n" + code, *argv], capture_output=True, text=True,
                         cwd=ROOT, env=env, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_help_imports_none_of_the_heavy_libraries(starts_processes):
    result = loaded_by(PROBE, "--help")
    assert result["code"] == 0 and "josephus" in result["out"] and "grundy" in result["out"]
    assert result["heavy"] == []


def test_a_subcommands_help_loads_only_that_subcommand(starts_processes):
    result = loaded_by(PROBE, "josephus", "--help")
    assert result["code"] == 0 and "--k" in result["out"]
    assert result["heavy"] == []


def test_josephus_survivor_of_a_huge_circle_imports_none_of_the_heavy_libraries(starts_processes):
    result = loaded_by(PROBE, "josephus", "survivor", "--k", "12031", "--n", "9876543210987654321")
    assert result["code"] == 0 and result["out"].strip() == "3554846299321782414"
    assert result["heavy"] == []


def test_import_nimjos_is_light(starts_processes):
    result = loaded_by("import sys, json, nimjos\nprint(json.dumps({'heavy': sorted(m for m in HEAVY if m in sys.modules)}))")
    assert result["heavy"] == []


def test_the_probe_sees_a_heavy_library_when_a_command_loads_one(starts_processes):
    """The probe is not vacuous: ``nimjos check``'s module loads the methods (z3, sympy...)."""
    result = loaded_by("import sys, json, nimjos.app.check_cli\n"
                       "print(json.dumps({'heavy': sorted(m for m in HEAVY if m in sys.modules)}))")
    assert "z3" in result["heavy"]


def test_every_help_line_of_the_light_parser_is_the_full_parsers():
    """``nimjos --help`` (nothing loaded) lists the same subcommands with the same help as the full parser."""
    from nimjos.app.cli import build_parser
    assert build_parser("").format_help() == build_parser().format_help()


BAD_SPEC = '[source]\nid = "bad"\n\n[[claim]]\nid = "c"\nfor_all = "0 <= n <= 3"\nholds = "n >= m"\nexpct = "proved"\n'


@pytest.mark.parametrize("name", [c.name for c in SUBCOMMANDS])
def test_every_subcommands_help_imports_none_of_the_heavy_libraries(name, starts_processes):
    result = loaded_by(PROBE, name, "--help")
    assert result["code"] == 0 and f"usage: nimjos {name}" in result["out"]
    assert result["heavy"] == []


@pytest.mark.parametrize("command", ["check", "list"])
def test_a_bad_spec_is_refused_before_any_heavy_library_is_imported(command, tmp_path, starts_processes):
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_SPEC)
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    result = loaded_by(PROBE, command, str(bad), str(empty), heavy=SPEC_HEAVY)
    assert result["code"] == 2
    assert result["heavy"] == []


def test_reading_and_validating_every_spec_imports_no_engine(starts_processes):
    """``nimjos list specs/`` reads and validates every claim of every spec (heap games, Josephus functions,
    declared games, definitions...) and lists them: no numpy, no kernel, no solver."""
    result = loaded_by(PROBE, "list", str(ROOT / "specs"), heavy=SPEC_HEAVY)
    assert result["code"] == 0
    assert all(spec.name in result["out"] for spec in (ROOT / "specs").glob("*.toml"))
    assert result["heavy"] == []


def test_the_probe_sees_numpy_once_a_value_is_computed(starts_processes):
    """The probes above are not vacuous for numpy: a heap game's value and a Josephus survivor import it."""
    for formula in ('G(octal("0.77"), 70) == 6', "survivor(41, 3) == 31"):
        result = loaded_by("import sys, json\nfrom nimjos.lang.expr import compile_expression\n"
                           "from nimjos.spec.names import spec_namespace\n"
                           f"assert compile_expression({formula!r}, spec_namespace())({{}}) is True\n"
                           "print(json.dumps({'heavy': sorted(m for m in HEAVY if m in sys.modules)}))",
                           heavy=SPEC_HEAVY)
        assert "numpy" in result["heavy"], formula


def test_the_probe_sees_the_methods_loaded_once_the_spec_is_valid(tmp_path, starts_processes):
    """The probe above is not vacuous: a valid spec is handed to the methods (z3...)."""
    result = loaded_by(PROBE, "check", str(ROOT / "tests" / "data" / "tiny.toml"), "--no-store", "--jobs", "1",
                       "--method", "exhaustive")
    assert result["code"] == 0 and "z3" in result["heavy"]


# ------------------------------------------------------------------------------- in process: the static imports

PACKAGES = ("nimjos", "checkers")


def _module_file(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _top_level_imports(name: str) -> set[str]:
    """The modules a module of the project imports when it is imported: its import statements at module level
    (and in a ``try``), not those in a function nor under ``if TYPE_CHECKING``; with each one's parent packages."""
    path = _module_file(name)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    body = list(ast.parse(path.read_text()).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.Try):
            body.extend(node.body + node.finalbody)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names if _module_file(f"{base}.{alias.name}"))
    return {".".join(m.split(".")[:i]) for m in found for i in range(1, len(m.split(".")) + 1)}


def imported_at_start(*modules: str) -> set[str]:
    """Every module imported, directly or not, when `modules` are imported (statically: the import statements)."""
    todo = [".".join(m.split(".")[:i]) for m in modules for i in range(1, len(m.split(".")) + 1)]
    seen: set[str] = set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name.split(".")[0] in PACKAGES and _module_file(name):
            todo.extend(_top_level_imports(name))
    return seen


#: what ``nimjos check``/``list`` import before the specs are valid, and what every ``--help`` imports
LIGHT_PATH = tuple({c.module for c in SUBCOMMANDS} | {c.runs for c in SUBCOMMANDS if c.name in ("check", "list")}
                   | {"nimjos.app.cli"})


#: what ``nimjos check``/``list`` import to read and validate the specs
SPEC_PATH = tuple({c.module for c in SUBCOMMANDS if c.name in ("check", "list")}
                  | {c.runs for c in SUBCOMMANDS if c.name in ("check", "list")} | {"nimjos.app.cli"})


def test_reading_a_spec_and_every_help_import_none_of_the_heavy_libraries():
    reached = imported_at_start(*LIGHT_PATH)
    assert "nimjos.spec.loader" in reached and "nimjos.app.check_input" in reached
    assert sorted(m for m in reached if m.split(".")[0] in HEAVY) == []


def test_reading_a_spec_imports_no_engine_nor_numpy():
    """The loader reaches the games' names and declarations, not their engines (the fast engines, the heap kernels,
    the Josephus algorithms: loaded on use) nor numpy."""
    reached = imported_at_start(*SPEC_PATH)
    assert {"nimjos.spec.loader", "nimjos.games.declared", "nimjos.games.functions", "nimjos.josephus.functions"} <= reached
    assert sorted(m for m in reached if m.split(".")[0] in SPEC_HEAVY) == []
    assert sorted(m for m in reached if m in MODULES_ON_USE) == []


def test_the_static_walk_sees_a_heavy_library_where_one_is_imported():
    """The walk is not vacuous: the methods' module reaches z3 and hypothesis, the report sympy and matplotlib,
    the arrays of a game's values numpy."""
    reached = imported_at_start("nimjos.app.check_cli")
    assert {"z3", "hypothesis", "sympy", "matplotlib"} <= {m.split(".")[0] for m in reached}
    assert "numpy" in imported_at_start("nimjos.games.arrays")


def test_the_report_arguments_default_to_every_format_and_to_the_stores_own_path(monkeypatch):
    monkeypatch.delenv("NIMJOS_STORE", raising=False)
    parser = argparse.ArgumentParser()
    add_report_arguments(parser)
    assert parser.parse_args([]).format == ",".join(FORMATS)
    assert parser.parse_args([]).store == STORE == str(DEFAULT_PATH)
