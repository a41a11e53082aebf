"""The tests mirror the packages (tests/conftest.py, docs/testing.md): every test file under tests/nimjos/,
tests/checkers/ and their slow twins under tests/slow/ names a module that exists, ``test_<module>.py`` or
``test_<module>_<topic>.py`` in the folder that mirrors the module's package; every other test file sits in a
declared folder of the whole product. The folders of the mirror are not packages, so that ``nimjos`` and
``checkers`` are always this tree's packages, never tests/nimjos/ or tests/checkers/."""
from __future__ import annotations

import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
#: the packages the tests mirror
MIRRORED = ("nimjos", "checkers")
#: the folders of tests about the whole product (under tests/ and under tests/slow/)
PRODUCT = ("product", "conformance")
SLOW = "slow"


def _tested_module(rel: tuple[str, ...], root: pathlib.Path = ROOT) -> str | None:
    """The dotted module a test file tests, from its path under tests/ (tests/slow/ left out), or None when it names
    no module: ``("nimjos", "lang", "test_expr_chains.py")`` names nimjos.lang.expr when nimjos/lang/expr.py (or a
    package nimjos/lang/expr/) exists. The module is the longest prefix of the name, cut at an underscore, that
    exists in the package the folder mirrors."""
    *folders, name = rel
    if not folders or folders[0] not in MIRRORED or not name.startswith("test_") or not name.endswith(".py"):
        return None
    package = root.joinpath(*folders)
    if not (package / "__init__.py").is_file():
        return None
    words = name[len("test_"):-len(".py")].split("_")
    for n in range(len(words), 0, -1):
        module = "_".join(words[:n])
        if (package / f"{module}.py").is_file() or (package / module / "__init__.py").is_file():
            return ".".join([*folders, module])
    return None


def _misplaced(root: pathlib.Path) -> list[str]:
    """The test files under root/tests that break the rule, each with the reason."""
    bad = []
    tests = root / "tests"
    for path in sorted(p for pattern in ("test_*.py", "*_test.py") for p in tests.rglob(pattern)):
        rel = path.relative_to(tests).parts
        if rel[0] == SLOW:
            rel = rel[1:]
        if len(rel) > 1 and rel[0] in PRODUCT:
            continue
        if _tested_module(rel, root) is None:
            bad.append(f"{path.relative_to(root)}: names no module of {'/'.join(rel[:-1]) or 'tests/'} "
                       f"(move it to tests/<package path>/test_<module>.py, or to tests/product/)")
    return bad


def test_every_test_file_names_an_existing_module_or_is_in_a_product_folder():
    assert not _misplaced(ROOT), "\n".join(_misplaced(ROOT))


def test_the_mirror_holds_tests():
    """The rule is not vacuous: the mirrored folders hold most of the test files."""
    mirrored = [p for top in MIRRORED for p in (TESTS / top).rglob("test_*.py")]
    assert len(mirrored) >= 80


#: a small tree of packages for the cases below (the real tree's modules move; the rule does not)
TREE = ("nimjos/__init__.py", "nimjos/verdict.py", "nimjos/lang/__init__.py", "nimjos/lang/expr.py",
        "checkers/__init__.py", "checkers/prove/__init__.py", "checkers/prove/rule_function.py",
        "checkers/prove/holds.py", "checkers/prove/walnut/__init__.py", "nimjos/nosuch/expr.py")


@pytest.fixture
def tree(tmp_path):
    for name in TREE:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    return tmp_path


@pytest.mark.parametrize("rel, module", [
    (("nimjos", "lang", "test_expr.py"), "nimjos.lang.expr"),
    (("nimjos", "lang", "test_expr_more_cases.py"), "nimjos.lang.expr"),
    (("checkers", "test_prove.py"), "checkers.prove"),
    (("checkers", "test_prove_walnut_soundness.py"), "checkers.prove"),
    (("checkers", "prove", "test_rule_function.py"), "checkers.prove.rule_function"),
    (("checkers", "prove", "test_rule.py"), None),              # rule_function is one name
    (("nimjos", "test_verdict_model.py"), "nimjos.verdict"),
    (("nimjos", "lang", "test_exprs.py"), None),                # not cut at an underscore
    (("nimjos", "lang", "test_nosuch.py"), None),
    (("nimjos", "test_expr.py"), None),                         # expr is in nimjos/lang/, not nimjos/
    (("checkers", "prove", "walnut", "test_holds.py"), None),   # holds is checkers/prove/holds.py
    (("nimjos", "nosuch", "test_expr.py"), None),               # nimjos/nosuch/ is not a package
    (("nimjos", "lang", "expr_test.py"), None),
    (("test_expr.py",), None),
    (("other", "test_expr.py"), None),
])
def test_the_module_a_test_file_names(tree, rel, module):
    assert _tested_module(rel, tree) == module


def test_a_flat_or_misnamed_test_file_is_reported(tree):
    tmp_path = tree
    files = {"tests/test_flat.py": True, "tests/nimjos/lang/test_expr.py": False,
             "tests/nimjos/lang/test_exprs.py": True, "tests/slow/nimjos/lang/test_expr_long.py": False,
             "tests/slow/test_flat_slow.py": True, "tests/product/test_cli.py": False,
             "tests/slow/product/test_specs.py": False, "tests/conformance/test_vector.py": False,
             "tests/slow/nimjos/test_lang_long.py": False, "tests/slow/nimjos/test_nosuch.py": True,
             "tests/nimjos/lang/expr_test.py": True, "tests/product/data/helper.py": False}
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    reported = {line.split(":")[0] for line in _misplaced(tmp_path)}
    assert reported == {name for name, bad in files.items() if bad}


def test_the_mirror_folders_are_not_packages():
    """An ``__init__.py`` in tests/nimjos/ would make a second package ``nimjos`` that could shadow this tree's."""
    inits = [p.relative_to(ROOT) for top in (TESTS, TESTS / SLOW) for name in MIRRORED
             for p in (top / name).rglob("__init__.py")]
    assert not inits


def test_nimjos_and_checkers_are_this_trees_packages():
    import checkers
    import nimjos
    assert pathlib.Path(nimjos.__file__).resolve() == ROOT / "nimjos" / "__init__.py"
    assert pathlib.Path(checkers.__file__).resolve() == ROOT / "checkers" / "__init__.py"
