"""Determinism: the same command twice gives the same verdicts and the same counterexamples in the same order,
whatever Python's hash seed (sets of tuples and functions, families, ill-defined instances, every method
that applies)."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

SPEC = '''[source]
id = "det"
title = "Orders that a careless checker would scramble"

[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]

[[claim]]
id = "many-counterexamples"
game = "nim2"
for_all = "0 <= x <= 12 and 0 <= y <= 12"
p_positions = "(x + y) % 3 == 0"
expect = "refuted"

[[claim]]
id = "families"
game = "nim2"
for_all = "0 <= x <= 12 and 0 <= y <= 12"
p_positions = [ { point = "(n, n + 1)", where = "n >= 0" }, { point = "(2 * n, n)", where = "n >= 0" } ]
expect = "refuted"

[[claim]]
id = "sets"
for_all = "S in subsets(0, 4) and 0 <= n <= 5"
holds = "len(S) != n or n in S"
expect = "refuted"

[[claim]]
id = "tuples-and-functions"
for_all = "p in {(1, 2), (2, 1), (0, 3), (3, 0), (2, 2)} and f in functions(2, 0, 2)"
holds = "f(1) + f(2) != p[0]"
expect = "refuted"

[[claim]]
id = "undefined-here-and-there"
for_all = "0 <= n <= 30"
holds = "12 % (n % 5) >= 0"
expect = "ill-defined"

[[claim]]
id = "holds"
game = "nim2"
for_all = "0 <= x <= 12 and 0 <= y <= 12"
grundy = "xor(x, y)"
'''


def _essentials(data: dict) -> list:
    """What must be the same in two runs: each claim's verdict, counterexamples and ill-defined instances,
    by every method; for the exhaustive method also its scope and counts (a method that samples for a given
    time may try a different number of instances, never reach a different verdict)."""
    def method(m: dict) -> dict:
        keep = ("method", "verdict", "counterexamples", "undefined", "failures")
        if m.get("method") == "exhaustive":
            keep += ("scope", "instances", "assumption_held", "notes")
        return {k: m.get(k) for k in keep}
    return [{"id": c["id"], "verdict": c["verdict"], "agrees": c["agrees"],
             "counterexamples": c.get("counterexamples"), "undefined": c.get("undefined"),
             "methods": [method(m) for m in c.get("methods", [])]} for c in data["claims"]] + [data["errors"]]


def _run(path, seed: str, *extra: str) -> tuple[dict, str]:
    env = dict(os.environ, PYTHONHASHSEED=seed)
    r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--json", "--no-store", *extra],
                       capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr
    return _essentials(json.loads(r.stdout)), r.stderr


@pytest.fixture(scope="module")
def spec_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("det") / "det.toml"
    path.write_text(SPEC)
    return path


def test_same_command_twice_same_json(spec_path):
    first, err1 = _run(spec_path, "0")
    second, err2 = _run(spec_path, "4242")
    assert first == second
    assert err1 == err2
    claims = {c["id"]: c for c in first[:-1]}
    assert claims["many-counterexamples"]["verdict"] == "refuted"
    assert len(claims["many-counterexamples"]["counterexamples"]) >= 3
    keys = [sum(v for v in cx["bindings"].values() if isinstance(v, int))
            for cx in claims["many-counterexamples"]["counterexamples"]]
    assert keys == sorted(keys)
    assert claims["undefined-here-and-there"]["undefined"][0]["bindings"] == {"n": 0}

