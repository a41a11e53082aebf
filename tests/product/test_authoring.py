"""Authoring tools: `nimjos new`, `nimjos explain` and the pytest plugin, used as a person would."""
from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.fixture
def nimjos(cli):
    """`nimjos ARGS` as a person would type it, run in this process (the fixture ``cli`` of tests/conftest.py)."""
    return cli


def test_new_writes_a_skeleton_that_checks(tmp_path, nimjos, walnut):
    r = nimjos("new", str(tmp_path / "paper.toml"), "--game", "stones")
    assert r.returncode == 0, r.stderr
    r = nimjos("check", str(tmp_path / "paper.toml"), "--no-store")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.count("\n  ok ") == 3 and "XX" not in r.stdout
    r = nimjos("new", str(tmp_path / "paper.toml"))
    assert r.returncode == 2 and "already exists" in r.stderr


def test_explain_shows_options_and_mex(contract_path, nimjos):
    r = nimjos("explain", f"{contract_path}::nim-sum-parity")
    assert r.returncode == 0, r.stderr
    assert "smallest counterexample x=0, y=2" in r.stdout
    assert "mex of the options = G((0, 2)) = 2" in r.stdout
    r = nimjos("explain", f"{contract_path}::wythoff-p-positions", "--at", "(1, 2)", "--depth", "1")
    assert "G((1, 2)) = 0" in r.stdout and "game tree to depth 1" in r.stdout


def test_pytest_collects_claims(contract_path, tmp_path, starts_processes):
    spec = tmp_path / "contract.toml"
    spec.write_text(contract_path.read_text())
    r = subprocess.run([sys.executable, "-m", "pytest", str(spec), "-q", "-k", "parity or subtraction"],
                       capture_output=True, text=True, timeout=300)
    assert "2 passed" in r.stdout, r.stdout
    broken = spec.read_text().replace('expect_counterexample = "(0, 2)"', 'expect_counterexample = "(2, 0)"')
    spec.write_text(broken)
    r = subprocess.run([sys.executable, "-m", "pytest", str(spec), "-q", "-k", "parity"],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1 and "counterexample x=0, y=2" in r.stdout, r.stdout


PATTERNS = """[source]
id = "per"
[game.sub23]
position = ["n"]
moves = [ { to = "n - s", where = "s in {2, 3} and s <= n" } ]
[[claim]]
id = "p4"
game = "sub23"
for_all = "0 <= n"
window = "n <= 40"
periodic = { period = 4 }
[[claim]]
id = "st"
game = "sub23"
for_all = "0 <= n"
window = "n <= 40"
stair = { h = 2 }
[[claim]]
id = "table"
game = "sub23"
values = { grundy = [0, 0, 1, 1, 2, 0] }
"""


def test_explain_shows_what_pattern_and_table_claims_compare(write_spec):
    from nimjos.api.explain import explain_text
    path = write_spec(PATTERNS)
    # smallest counterexample of period 4: G(0 + 4) = 2, G(0) = 0
    assert "G(0 + 4) = G(0) + 0; here G(4) = 2 and G(0) + 0 = 0" in explain_text(f"{path}::p4")
    assert "a 2-stair: G(1) = G(0) + 1 = 1" in explain_text(f"{path}::st")
    text = explain_text(f"{path}::table", at="n=5")
    assert "G(5) = 0 (the printed table)" in text and "mex of the options = G(5) = 0" in text
