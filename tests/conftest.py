"""Shared fixtures: the path to the contract spec (tests/data/contract.toml, an in-repository copy of
shared/spec-examples/contract.toml, so that the suite needs nothing outside the repository) and spec writing.

Where a test lives: the tests mirror the packages, as networkx's do.

* ``tests/<package path>/test_<module>.py`` tests ``<package path>/<module>.py`` (or the package
  ``<package path>/<module>/``): tests/nimjos/lang/test_expr.py tests nimjos/lang/expr.py, tests/checkers/test_prove.py
  the package checkers/prove/. A second file on one module adds a topic: ``test_<module>_<topic>.py``
  (tests/checkers/test_certificate_refutes.py). A file that holds no tests of its own, shared by the tests
  beside it, is named the same way (tests/nimjos/test_report_data.py);
* tests of the whole product (the command line end to end, the README, the docs, the architecture, start-up, the
  hostile corpus, the test suite's own rules) are in tests/product/; the conformance tests sit beside their harness
  in tests/conformance/ (the package ``conformance``);
* tests/slow/ holds the slow tests in the same tree (tests/slow/nimjos/..., tests/slow/checkers/...,
  tests/slow/product/);
* tests/ itself holds only this file, the helpers the tests import by name (engine_agreement, vector_paths,
  conformance) and the data (tests/data/, tests/hostile/). tests/product/test_mirror.py keeps the rule;
* the folders of the mirror have no ``__init__.py``: test files are imported by pytest's importlib mode, each named
  by its path from the root (``tests.checkers.test_prove``: the name another test imports it by), and the root comes
  first on the path (``pythonpath`` in pyproject.toml), so ``nimjos`` and ``checkers`` are this tree's packages.

Fast and slow, by rule (the model is hypothesis's tests/cover and tests/nocover):

* a test is ``slow`` when it lies under ``tests/slow/`` (tests that start processes, JVMs, mypy or
  lint-imports, check whole spec folders, or hog the CPU), or when it uses one of the fixtures in
  :data:`SLOW_FIXTURES` (``cli_process``: a real ``python -m nimjos.app.cli`` process; ``walnut``: a Walnut
  JVM; ``mypy``; ``lint_imports``; ``starts_processes``: any other process, pool or CPU hog), or, for a doctest
  of nimjos/ or checkers/, when one of its examples ends with the comment ``# runs Walnut`` (or ``# starts a
  process``). Nothing is listed test by test;
* ``python -m pytest -m "not slow"`` is the inner loop: in-process tests only. A test outside that rule that
  starts a process (subprocess, fork, spawn, a Walnut JVM, a process pool) fails loudly, naming the rule;
* ``python -m pytest`` runs everything.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

#: helper modules the tests share: their asserts report values like a test's own
pytest.register_assert_rewrite("engine_agreement", "vector_paths")

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "tests" / "data" / "contract.toml"
SLOW_DIR = ROOT / "tests" / "slow"
SLOW_FIXTURES = frozenset({"cli_process", "walnut", "mypy", "lint_imports", "starts_processes"})
#: the comment on a doctest example that starts a Walnut JVM or another process
SLOW_DOCTEST_NOTES = ("# runs Walnut", "# starts a process")


@pytest.fixture
def contract_path() -> pathlib.Path:
    return CONTRACT


@pytest.fixture
def write_spec(tmp_path):
    """Write a spec text to a temporary file and return its path."""
    def write(text: str, name: str = "spec.toml") -> pathlib.Path:
        p = tmp_path / name
        p.write_text(text)
        return p
    return write


@pytest.fixture
def cli(monkeypatch):
    """Run ``nimjos`` in this process: ``cli("check", path, ...)`` gives a CompletedProcess (status, stdout,
    stderr) like a real process would, without starting one (an argparse error's exit becomes status 2).
    ``check`` without ``--jobs`` runs its claims here, one after another, as ``--jobs 1`` does."""
    from nimjos.app import check_cli
    from nimjos.app.cli import main
    monkeypatch.setattr(check_cli, "default_jobs", lambda n_claims: 1)

    def run(*args: str) -> subprocess.CompletedProcess:
        import contextlib
        import io
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main([str(a) for a in args])
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        return subprocess.CompletedProcess(list(args), status, out.getvalue(), err.getvalue())
    return run


@pytest.fixture(scope="session")
def cli_process():
    """Run ``python -m nimjos.app.cli ARGS`` as a real process (marks its user slow): ``cli_process(*args,
    timeout=300, env=None, input=None, cwd=ROOT)`` gives the CompletedProcess, text captured."""
    def run(*args: str, timeout: float = 300, env: dict | None = None, input: str | None = None,
            cwd: pathlib.Path | str = ROOT) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "nimjos.app.cli", *map(str, args)], capture_output=True,
                              text=True, timeout=timeout, env=env, input=input, cwd=cwd)
    return run


@pytest.fixture(scope="session")
def walnut():
    """A test that runs Walnut (a JVM per run) asks for this fixture, which marks it slow; it gives the
    (java, jar) pair Walnut runs with."""
    from checkers.prove.walnut.run import find_jar, find_java
    return find_java(), find_jar()


@pytest.fixture(scope="session")
def mypy():
    """Run ``python -m mypy ARGS`` in the repository (marks its user slow); the CompletedProcess."""
    def run(*args: str) -> subprocess.CompletedProcess:
        # the incremental cache (.mypy_cache/ in the tree, gitignored) makes a run after a small change short
        return subprocess.run([sys.executable, "-m", "mypy", *args], cwd=ROOT, capture_output=True, text=True,
                              timeout=900)
    return run


@pytest.fixture(scope="session")
def lint_imports():
    """Run ``lint-imports --no-cache`` in a folder (marks its user slow): ``lint_imports(cwd, env=None)``."""
    import shutil

    def run(cwd: pathlib.Path, env: dict | None = None) -> subprocess.CompletedProcess:
        exe = shutil.which("lint-imports") or str(pathlib.Path(sys.executable).with_name("lint-imports"))
        return subprocess.run([exe, "--no-cache"], cwd=cwd, capture_output=True, text=True, env=env, timeout=300)
    return run


@pytest.fixture(scope="session")
def starts_processes():
    """A test that starts processes in another way (a process pool, a nested pytest, mypy, a CPU hog) asks
    for this fixture (or ``@pytest.mark.usefixtures("starts_processes")``), which marks it slow."""
    return None


def _is_slow(item: pytest.Item) -> bool:
    if item.get_closest_marker("slow"):
        return True
    path = pathlib.Path(str(getattr(item, "path", "") or ""))
    if SLOW_DIR in path.parents:
        return True
    if SLOW_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    # a doctest (nimjos/, checkers/) says so in the example that starts the process: ``>>> ...  # runs Walnut``
    examples = getattr(getattr(item, "dtest", None), "examples", ())
    return any(note in ex.source for ex in examples for note in SLOW_DOCTEST_NOTES)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """The rule: everything under tests/slow/, and every user of a fixture in SLOW_FIXTURES, is ``slow``."""
    for item in items:
        if not item.get_closest_marker("slow") and _is_slow(item):
            item.add_marker(pytest.mark.slow)


class ProcessInFastTest(BaseException):
    """A test outside the slow rule started a process (a BaseException, so that no `except Exception` in the
    code under test can swallow it)."""


# Every way a test could start a process: subprocess (Walnut's JVM too), multiprocessing's spawn and
# forkserver, fork, posix_spawn, os.system.
def _starters():
    import _posixsubprocess
    return [(subprocess.Popen, "_execute_child"), (_posixsubprocess, "fork_exec"), (os, "fork"),
            (os, "forkpty"), (os, "posix_spawn"), (os, "posix_spawnp"), (os, "system")]


class _FastGuard:
    """Applied to every test not marked slow, doctests of nimjos/ and checkers/ included: starting a process
    fails the test, whatever the code under test does with the exception."""

    def _guarded(self, item: pytest.Item):
        if item.get_closest_marker("slow"):
            return (yield)
        started: list[str] = []

        def refuse(name):
            def start(*args, **kwargs):
                argv = next((a for a in args[:2] if isinstance(a, (list, tuple))), None)
                started.append(name + (f" {' '.join(map(str, argv[:4]))[:120]}" if argv else ""))
                raise ProcessInFastTest(f"{started[-1]}: a test not marked slow may not start a process")
            return start

        with pytest.MonkeyPatch.context() as mp:
            for owner, name in _starters():
                if hasattr(owner, name):
                    mp.setattr(owner, name, refuse(f"{getattr(owner, '__name__', owner)}.{name}"))
            try:
                return (yield)
            finally:
                if started:
                    pytest.fail(f"{item.nodeid} started a process ({', '.join(started)}) but is not marked "
                                f"slow: move it to tests/slow/, give it one of the fixtures {sorted(SLOW_FIXTURES)}, "
                                f"or, a doctest, end the example with {SLOW_DOCTEST_NOTES[0]!r} (see tests/conftest.py)",
                                pytrace=False)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item):
        return (yield from self._guarded(item))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        return (yield from self._guarded(item))


def pytest_configure(config):
    # A plugin object, not conftest hooks: conftest hooks would apply to tests/ only, this also guards the
    # doctests of nimjos/ and checkers/.
    if not config.pluginmanager.has_plugin("nimjos-fast-guard"):
        config.pluginmanager.register(_FastGuard(), "nimjos-fast-guard")


os.environ.setdefault("NIMJOS_STORE", str(ROOT / ".nimjos" / "test-results.sqlite"))
