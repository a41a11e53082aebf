"""The architecture as tests: the layers contract (import-linter), no import cycle, no import hidden inside a
function, methods that read compiled claims only. docs/architecture.md describes the layers; its module list
is generated from the tree by scripts/architecture.py and checked here.
"""
from __future__ import annotations

import ast
import os
import re
import shutil
import sys
import tomllib
from pathlib import Path

import networkx as nx
import pytest

import nimjos
from nimjos.app.cli import CHECKS, SUBCOMMANDS
from nimjos.lang.lazy import LIBRARIES_ON_USE, MODULES_ON_USE

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import architecture  # noqa: E402  (scripts/architecture.py: the module list of docs/architecture.md)

PACKAGES = ("nimjos", "checkers")

#: third-party modules that are optional dependencies (extras): the only imports allowed inside a function
OPTIONAL = {"dask", "distributed"}


def _modules(root: Path = ROOT) -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for path in (root / pkg).rglob("*.py"):
            name = ".".join(path.relative_to(root).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, ast.stmt]]:
    """(imported project module, statement) for every import statement of a module, wherever it stands."""
    tree = ast.parse(path.read_text())
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            for alias in node.names:
                target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                out.append((target, node))
        elif isinstance(node, ast.Import):
            out += [(alias.name, node) for alias in node.names]
    return [(t, n) for t, n in out if t.split(".")[0] in PACKAGES]


# lint-imports runs in a process of its own: the fixture ``lint_imports`` (tests/conftest.py) marks its users slow

def test_the_layers_contract_is_kept(lint_imports):
    run = lint_imports(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "2 kept, 0 broken" in run.stdout


def test_an_upward_import_breaks_the_layers_contract(tmp_path, lint_imports):
    for item in (*PACKAGES, "pyproject.toml"):
        src = ROOT / item
        (shutil.copytree if src.is_dir() else shutil.copy)(src, tmp_path / item)
    with open(tmp_path / "nimjos" / "lang" / "values.py", "a") as f:
        f.write("\nimport nimjos.app.cli  # the language importing the command line: against the layers\n")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    run = lint_imports(tmp_path, env)
    assert run.returncode != 0
    assert "nimjos.lang is not allowed to import nimjos.app" in run.stdout


def test_no_import_cycle_among_the_modules_counting_imports_inside_functions():
    """Nor through the engines a module imports on first use (:data:`nimjos.lang.lazy.MODULES_ON_USE`)."""
    modules = _modules()
    graph = nx.DiGraph()
    graph.add_nodes_from(modules)
    for name, path in modules.items():
        for target, _ in _imports(name, path, modules):
            if target != name and target in modules:
                graph.add_edge(name, target)
        for target in _lazy_modules(path):
            graph.add_edge(name, target)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert not cycles, cycles


def test_no_import_inside_a_function_but_an_optional_dependency_with_its_comment():
    found = []
    for name, path in _modules().items():
        text = path.read_text()
        lines = text.splitlines()
        for fn in ast.walk(ast.parse(text)):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                top = (node.module if isinstance(node, ast.ImportFrom) else node.names[0].name) or ""
                here = " ".join(lines[max(0, node.lineno - 2): node.lineno])
                if top.split(".")[0] not in OPTIONAL or "optional" not in here:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not found, found


#: the one module that imports by name at run time (nimjos.lang.lazy.import_on_use)
LAZY_MODULE = "nimjos.lang.lazy"


def _calls(path: Path, name: str) -> list[ast.Call]:
    """Every call of ``name`` (a plain name or an attribute ``x.name``) in a module."""
    return [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)
            and (getattr(node.func, "id", None) == name or getattr(node.func, "attr", None) == name)]


def test_import_by_name_only_in_the_one_lazy_import():
    """A module imported by its name at run time (importlib.import_module, __import__) is imported by
    nimjos.lang.lazy.import_on_use and nowhere else."""
    found = [f"{path.relative_to(ROOT)}:{call.lineno}: {ast.unparse(call)}"
             for name, path in _modules().items() if name != LAZY_MODULE
             for by in ("import_module", "__import__") for call in _calls(path, by)]
    assert not found, found


#: the layers of the import-linter contract, top first
LAYERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"][0]["layers"]


def _depth(module: str) -> int:
    """The index in :data:`LAYERS` of the layer a module belongs to (0: the top); -1 for the package itself."""
    return next((i for i, layer in enumerate(LAYERS) if module == layer or module.startswith(layer + ".")), -1)


def _lazy_modules(path: Path) -> list[str]:
    """The engines of the project a module imports on first use: the string constants of its import_on_use calls
    that name a module of MODULES_ON_USE."""
    return [call.args[0].value for call in _calls(path, "import_on_use")
            if call.args and isinstance(call.args[0], ast.Constant) and call.args[0].value in MODULES_ON_USE]


def _lazy_import_misuses(modules: dict[str, Path]) -> list[str]:
    """Calls of import_on_use that are neither a listed library (a string constant), nor an engine of
    MODULES_ON_USE in the caller's layer or a layer below it, nor, in the application and the API (nimjos.app,
    nimjos.api and the package's API in nimjos/__init__.py), a registry entry."""
    wrong = []
    for name, path in modules.items():
        top = name == "nimjos" or name.startswith(("nimjos.app", "nimjos.api"))
        for call in _calls(path, "import_on_use"):
            arg = call.args[0] if call.args else None
            literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            if (literal and arg.value in LIBRARIES_ON_USE) or (top and not literal):
                continue
            if literal and arg.value in MODULES_ON_USE and _depth(arg.value) >= _depth(name):
                continue
            wrong.append(f"{path}:{call.lineno}: {ast.unparse(call)}")
    return wrong


def test_import_on_use_is_called_with_a_registry_entry_or_a_listed_library_only():
    """Below the application layer import_on_use loads only a listed library; the application loads the modules
    its registries name, and every one of those is a module of nimjos.app or nimjos.api: a lazy import never goes up
    the layers."""
    modules = _modules()
    assert not _lazy_import_misuses(modules)
    registered = ({c.module for c in SUBCOMMANDS} | {c.runs for c in SUBCOMMANDS if c.runs} | {CHECKS}
                  | set(nimjos.API.values()))
    assert registered and all(m.startswith(("nimjos.app.", "nimjos.api.")) and m in modules for m in registered), registered
    assert not any(library.split(".")[0] in PACKAGES for library in LIBRARIES_ON_USE)
    loaded_on_use = {target for path in modules.values() for target in _lazy_modules(path)}
    assert set(MODULES_ON_USE) == loaded_on_use and loaded_on_use <= set(modules), (set(MODULES_ON_USE), loaded_on_use)


def test_a_lower_layer_loading_a_module_of_the_project_on_use_is_caught(tmp_path):
    """The check above is not vacuous: a language module lazily importing the command line fails it."""
    bad = tmp_path / "bad.py"
    bad.write_text("from nimjos.lang.lazy import import_on_use\nimport_on_use('nimjos.app.cli')\n")
    assert _lazy_import_misuses({"nimjos.lang.bad": bad})
    assert not _lazy_import_misuses({"nimjos.lang.bad": ROOT / "nimjos" / "josephus" / "kernels.py"})


def test_a_lower_layer_loading_an_engine_of_a_higher_one_on_use_is_caught(tmp_path):
    """An engine is loaded on use from its own layer or one above: the language loading the games' fast engines
    fails the check, the games' reference engine loading them passes it."""
    bad = tmp_path / "bad.py"
    bad.write_text("from nimjos.lang.lazy import import_on_use\nimport_on_use('nimjos.games.fast')\n")
    assert _lazy_import_misuses({"nimjos.lang.bad": bad})
    assert not _lazy_import_misuses({"nimjos.games.bad": bad})


def test_the_methods_read_compiled_claims_not_their_tables():
    """checkers/ reads a claim through its typed attributes and Claim.plan(), never the TOML table (`raw`)."""
    found = []
    for path in (ROOT / "checkers").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "raw":
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found


def test_a_claim_is_compiled_once_at_load(tmp_path):
    from nimjos.spec.loader import load_spec
    spec = load_spec(ROOT / "tests" / "data" / "tiny.toml")
    claim = spec.claims[0]
    assert set(claim.plans) == {"default", "deep"}
    assert claim.plan("default") is claim.plan("default")
    assert claim.plan().window.names == ("x",)


@pytest.mark.parametrize("layer", ["lang", "josephus", "games", "spec", "results", "report", "app"])
def test_every_layer_is_documented(layer):
    text = (ROOT / "docs" / "architecture.md").read_text()
    assert f"nimjos/{layer}/" in text


def test_the_module_list_of_the_architecture_doc_is_generated_from_the_tree():
    """docs/architecture.md lists every module with its line count and its job as scripts/architecture.py
    generates them from the tree; the failure says how to regenerate it."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    assert doc == architecture.rewrite(doc, architecture.module_list()), (
        f"docs/architecture.md: the module list is out of date; run `{architecture.COMMAND}`")


def test_the_module_list_names_every_module_and_only_modules_of_the_tree():
    listed = set(re.findall(r"^- `([\w/]+\.py)` \(\d+ lines\): \S", (ROOT / "docs" / "architecture.md").read_text(),
                            re.M))
    in_tree = {path.relative_to(ROOT).as_posix() for path in _modules().values()}
    assert listed == in_tree, (sorted(in_tree - listed), sorted(listed - in_tree))


def test_a_new_module_changes_the_generated_list(tmp_path):
    for item in (*PACKAGES, "pyproject.toml"):
        src = ROOT / item
        if src.is_dir():
            shutil.copytree(src, tmp_path / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy(src, tmp_path / item)
    (tmp_path / "nimjos" / "lang" / "newcomer.py").write_text('"""A module added after the list was made."""\n')
    listing = architecture.module_list(tmp_path)
    assert listing != architecture.module_list()
    assert "- `nimjos/lang/newcomer.py` (1 lines): A module added after the list was made" in listing


def test_the_application_and_the_api_import_the_methods_through_their_facade_only():
    """nimjos.app and nimjos.api import from ``checkers`` itself (checkers/__init__.py, the facade), never from a
    module inside it."""
    inside = []
    for name, path in _modules().items():
        if not name.startswith(("nimjos.app", "nimjos.api")):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("checkers."):
                inside.append(f"{path.name}:{node.lineno}: from {node.module}")
            if isinstance(node, ast.Import):
                inside += [f"{path.name}:{node.lineno}: import {a.name}" for a in node.names if a.name.startswith("checkers.")]
    assert not inside, inside


def test_the_methods_parse_no_text():
    # each expression is parsed once, when the plan is made (issue 39): the methods read the plan's trees, and a
    # method that builds a formula builds a tree (nimjos.lang.build), never text to parse
    root = Path(__file__).resolve().parents[2]
    calls = [f"{path.relative_to(root)}:{node.lineno}" for path in sorted((root / "checkers").rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Call)
             and isinstance(node.func, (ast.Name, ast.Attribute))
             and (node.func.id if isinstance(node.func, ast.Name) else node.func.attr) == "parse"]
    assert calls == []
