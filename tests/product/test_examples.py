"""examples/outside_papers/: games outside the five source papers (a Wythoff variant, Fibonacci Nim, Euclid's game,
take-a-square, a subtraction game with a pass), each with the printed source of its statements, true statements
and at least one deliberately wrong variant. `nimjos check` runs every method on each file, as by default."""
from __future__ import annotations

import ast
import json
import pathlib

import pytest

from nimjos.spec.loader import load_spec
from nimjos.verdict import HOLDING

ROOT = pathlib.Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "examples" / "outside_papers").glob("*.toml"))


def test_one_file_per_game():
    assert [f.stem for f in FILES] == ["euclid", "fibonacci_nim", "subtraction_with_pass", "take_a_square",
                                       "wythoff_a2"]


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_each_statement_has_its_printed_source(path):
    spec = load_spec(path)
    assert spec.source.title and spec.source.cite
    for claim in spec.claims:
        assert claim.text, claim.id
        assert claim.ref or claim.note, f"{claim.id}: a statement names where it is printed, a wrong variant why"
    wrong = [c for c in spec.claims if c.expect == "refuted"]
    assert wrong and all(c.expect_counterexample for c in wrong)
    assert any(c.expect == "holds" for c in spec.claims)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_verdict_is_the_expected_one(path, tmp_path, cli_process):
    # run where a stray folder would show (the sampler's example database is not written with --no-store)
    r = cli_process("check", str(path), "--json", "--no-store", timeout=600, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    out = json.loads(r.stdout)
    assert not out["errors"]
    spec = load_spec(path)
    by_id = {c["id"]: c for c in out["claims"]}
    assert set(by_id) == {c.id for c in spec.claims}
    for claim in spec.claims:
        got = by_id[claim.id]
        assert got["agrees"], (claim.id, got["verdict"], got["scope"])
        if claim.expect == "refuted":
            assert got["verdict"] == "refuted"
            bindings = tuple(got["counterexamples"][0]["bindings"].values())
            want = ast.literal_eval(claim.expect_counterexample)
            assert bindings == (want if isinstance(want, tuple) else (want,))
        else:
            assert got["verdict"] in HOLDING, (claim.id, got["verdict"])
    assert list(tmp_path.iterdir()) == []
