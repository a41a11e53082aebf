"""Determinism: the same command twice gives the same verdicts and the same counterexamples in the same order,
whatever Python's hash seed (sets of tuples and functions, families, ill-defined instances, every method
that applies)."""
from __future__ import annotations

import json
import os
import re
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
for_all = "0 <= x and 0 <= y"
window = "x <= 12 and y <= 12"
p_positions = "(x + y) % 3 == 0"
expect = "refuted"

[[claim]]
id = "families"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 12 and y <= 12"
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
for_all = "0 <= n"
window = "n <= 30"
holds = "12 % (n % 5) >= 0"
expect = "ill-defined"

[[claim]]
id = "holds"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 12 and y <= 12"
grundy = "xor(x, y)"
'''


def _essentials(data: dict) -> list:
    """What must be the same in two runs: each claim's verdict, counterexamples and ill-defined instances,
    by every method; for the exhaustive method also its scope and counts (a method that samples for a given
    time may try a different number of instances, never reach a different verdict). The scope's "ground truth: ..."
    label is left out: it names the engines that answered, and a table an earlier claim of the same worker process
    computed (which claims a worker gets depends on the pool) is answered by the engine that computed it."""
    def method(m: dict) -> dict:
        keep = ("method", "verdict", "counterexamples", "undefined", "failures")
        if m.get("method") == "exhaustive":
            keep += ("scope", "instances", "assumption_held", "notes")
        out = {k: m.get(k) for k in keep}
        if isinstance(out.get("scope"), str):
            out["scope"] = re.sub(r"; ground truth: .*", "", out["scope"])
        return out
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



ORDER_SPEC = '''[source]
id = "order"
title = "Claims whose verdicts must not depend on the claims checked before them in the process"

[game.delete_nim]
position = ["x", "y"]
moves = [ { to = "(a, x - 1 - a)", where = "0 <= a <= x - 1" }, { to = "(a, y - 1 - a)", where = "0 <= a <= y - 1" } ]

[game.maxnim]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= floor(x / k)" } ]

[define]
"twice(r)" = "2 * r + 1"

[[claim]]
id = "delete-nim"
game = "delete_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
grundy = "v2((x | y) + 1)"

[[claim]]
id = "maxnim-table"
for_all = "2 <= k <= 4 and 0 <= x"
window = "x <= 200"
holds = "G(maxnim(k), k * x) == x or G(maxnim(k), k * x) != x"

[[claim]]
id = "maxnim-floor"
for_all = "2 <= k <= 4 and 0 <= x"
window = "x <= 300"
holds = "G(maxnim(k), x) >= 0 and floor(x / k) >= 0"

[[claim]]
id = "iterated"
for_all = "0 <= p"
window = "p <= 40"
holds = "iterate(twice, p, 0) == 2 ** p - 1"
'''


def _claim_essentials(data: dict, cid: str) -> list:
    """Everything a claim's methods decided (verdicts, scopes without timings and without the name of the engine
    that filled a shared table, counts beyond the window)."""
    c = next(c for c in data["claims"] if c["id"] == cid)
    return [(m["method"], m["verdict"], re.sub(r"[\d.]+ s\b|; ground truth: [^;]*", "", m.get("scope") or ""), m.get("instances"),
             m.get("beyond"), m.get("largest"), m.get("counterexamples")) for m in c["methods"]]


def test_a_claims_verdicts_do_not_depend_on_the_claims_checked_before_it(tmp_path):
    # one process (--jobs 1) checks the claims in order: each claim alone on a quiet machine, and each after all
    # the others on a loaded one, must give the same verdicts, scopes and counts (Z3 contexts, engine tables,
    # memos and seeds are per claim; the sampler's search ends by counts of examples and Z3 units)
    path = tmp_path / "order.toml"
    path.write_text(ORDER_SPEC)
    ids = ["delete-nim", "maxnim-table", "maxnim-floor", "iterated"]

    def run(*claims: str) -> dict:
        args = [a for c in claims for a in ("--claim", c)]
        r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--json", "--no-store",
                            "--jobs", "1", "--no-repair", *args], capture_output=True, text=True, timeout=900)
        assert r.returncode == 0, r.stdout[-3000:] + r.stderr
        return json.loads(r.stdout)

    # all together on a loaded machine (two processes spinning): the counts, not the clock, end every search
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        together = run(*ids)
    finally:
        for p in hogs:
            p.kill()
            p.wait()
    for cid in ids:
        alone = run(cid)
        assert _claim_essentials(alone, cid) == _claim_essentials(together, cid), cid
    assert {c["id"]: c["verdict"] for c in together["claims"]}["delete-nim"] in ("sampled", "proved")
