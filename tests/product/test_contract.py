"""contract.toml end to end: every claim gets the verdict it states, through the command line."""
from __future__ import annotations

import json

import pytest


@pytest.fixture
def run_nimjos(cli):
    """The command line in this process (tests/conftest.py's ``cli``); test_contract_json runs a real one."""
    return cli


def test_contract_json(contract_path, tmp_path, cli_process):
    r = cli_process("check", str(contract_path), "--json", "--store", str(tmp_path / "r.sqlite"))
    assert r.returncode == 0, r.stderr + r.stdout
    data = json.loads(r.stdout)
    claims = {c["id"]: c for c in data["claims"]}
    assert set(claims) == {"delete-nim-grundy", "wythoff-p-positions", "maxnim-josephus", "josephus-by-g",
                           "subtraction-23-table", "nim-sum-parity"}
    for c in claims.values():
        assert c["agrees"] is True
        for key in ("file", "source", "document", "id", "ref", "kind", "verdict", "method", "scope",
                    "instances", "assumption_held", "counterexamples", "seconds"):
            assert key in c
    assert claims["nim-sum-parity"]["verdict"] == "refuted"
    first = claims["nim-sum-parity"]["counterexamples"][0]
    assert first["bindings"] == {"x": 0, "y": 2}
    assert first["lhs"] == "N" and first["rhs"] == "P"
    assert claims["delete-nim-grundy"]["verdict"] in ("checked", "sampled", "proved")

    def window(cid):
        """The window check's own verdict (the final one may be a proof or a sample)."""
        return {m["method"]: m for m in claims[cid]["methods"]}["exhaustive"]

    assert window("delete-nim-grundy")["verdict"] == "checked"
    assert window("delete-nim-grundy")["instances"] == 128 * 128
    assert window("josephus-by-g")["assumption_held"] == 6 * 500
    assert window("maxnim-josephus")["instances"] == 5 * sum(range(1, 61))


def test_flipped_expectation_fails(contract_path, tmp_path, run_nimjos):
    text = contract_path.read_text().replace('expect_counterexample = "(0, 2)"', 'expect_counterexample = "(2, 0)"')
    p = tmp_path / "flipped.toml"
    p.write_text(text)
    r = run_nimjos("check", str(p), "--claim", "nim-sum-parity", "--no-store")
    assert r.returncode == 1
    assert "expected smallest counterexample (2, 0)" in r.stdout


def test_import_attack_exits_2_and_runs_nothing(write_spec, tmp_path, run_nimjos):
    marker = tmp_path / "pwned"
    p = write_spec(f'''[source]
id = "evil"
[[claim]]
id = "evil"
for_all = "0 <= n <= 3"
holds = "__import__('os').system('touch {marker}')"
''')
    r = run_nimjos("check", str(p), "--no-store")
    assert r.returncode == 2
    assert not marker.exists()
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr
    assert "evil" in lines[0] and "holds" in lines[0]
