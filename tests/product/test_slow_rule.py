"""The rule of tests/conftest.py that splits the suite (issue 37, item 7): everything under tests/slow/ and every
user of a slow fixture is marked ``slow``; a test outside the rule that starts a process fails. Checked on a small
tree of its own, run by pytester in this process (no process is started: the one test that tries is refused)."""
from __future__ import annotations

import pathlib

import pytest

pytest_plugins = ["pytester"]

CONFTEST = (pathlib.Path(__file__).resolve().parents[1] / "conftest.py").read_text()

FAST = '''
import multiprocessing
import os
import subprocess
import sys

import pytest


def test_fast():
    assert 1 + 1 == 2


def test_starts_a_subprocess_and_swallows_the_error():
    try:
        subprocess.run([sys.executable, "-c", "pass"])
    except Exception:
        pass


def test_forks():
    pid = os.fork()
    if pid == 0:
        os._exit(0)


def test_spawns_a_pool_process():
    multiprocessing.get_context("spawn").Process(target=print).start()


def test_uses_a_cli_process(cli_process):
    cli_process("--help")


def test_uses_walnut(walnut):
    pass


@pytest.mark.usefixtures("starts_processes")
def test_says_it_starts_processes():
    subprocess.run([sys.executable, "-c", "pass"])
'''

SLOW = '''
def test_in_the_slow_folder():
    assert True
'''


@pytest.fixture
def tree(pytester):
    (pytester.path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n")
    tests = pytester.path / "tests"
    (tests / "slow").mkdir(parents=True)
    (tests / "conftest.py").write_text(CONFTEST)
    (tests / "test_fast.py").write_text(FAST)
    (tests / "slow" / "test_slow.py").write_text(SLOW)
    return pytester


def test_the_fast_subset_leaves_out_the_slow_folder_and_the_users_of_slow_fixtures(tree):
    result = tree.runpytest_inprocess("tests", "-m", "not slow", "-p", "no:cacheprovider", "-p", "no:benchmark")
    result.assert_outcomes(passed=1, failed=3, deselected=4)
    out = result.stdout.str()
    for name in ("test_starts_a_subprocess_and_swallows_the_error", "test_forks", "test_spawns_a_pool_process"):
        assert f"test_fast.py::{name} started a process" in out, out
    assert "but is not marked slow: move it to tests/slow/, give it one of the fixtures" in out


def test_the_slow_subset_is_exactly_the_rule(tree):
    result = tree.runpytest_inprocess("tests", "-m", "slow", "--collect-only", "-q", "-p", "no:cacheprovider", "-p", "no:benchmark")
    got = {line.split("::")[-1] for line in result.stdout.lines if "::" in line}
    assert got == {"test_uses_a_cli_process", "test_uses_walnut", "test_says_it_starts_processes",
                   "test_in_the_slow_folder"}, result.stdout.str()
