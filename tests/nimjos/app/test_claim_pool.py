"""Claims on a process pool: the same verdicts, counts and order as one after another; bad input still exits 2."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

import checkers.prove.method as prove_method
from checkers.window.exhaustive import check_exhaustive
from checkers.z3.budget import Budget
from nimjos.app import cli
from nimjos.games.engine import default_engine
from nimjos.spec.loader import load_spec

SPEC = '''[source]
id = "pool"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[[claim]]
id = "bouton"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
p_positions = "x == y"
expect = "holds"
[[claim]]
id = "parity"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
p_positions = "(x + y) % 2 == 0"
expect = "refuted"
[[claim]]
id = "floor"
for_all = "0 <= p and 1 <= q"
window = "p <= 30 and q <= 9"
holds = "p // q == floor(p / q)"
expect = "holds"
[[claim]]
id = "ceil"
for_all = "0 <= p and 1 <= q"
window = "p <= 30 and q <= 9"
holds = "p // q == ceil(p / q)"
expect = "refuted"
'''


def check(path, *args):
    r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--json", "--no-store",
                        "--method", "exhaustive", *args], capture_output=True, text=True, timeout=300)
    return r


def test_two_jobs_give_what_one_gives(write_spec, starts_processes):
    p = write_spec(SPEC)
    one, two = check(p, "--jobs", "1"), check(p, "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr

    def strip(out):
        claims = json.loads(out)["claims"]
        for c in claims:
            c.pop("seconds")
            for m in c["methods"]:
                m.pop("seconds")
        return claims
    a, b = strip(one.stdout), strip(two.stdout)
    assert [c["id"] for c in b] == ["bouton", "parity", "floor", "ceil"]
    assert a == b
    assert b[1]["counterexamples"][0]["bindings"] == {"x": 0, "y": 2}


def test_a_claim_past_the_resource_limit_on_a_worker_names_its_file_and_exits_2(write_spec, starts_processes):
    # the limit is set in the parent (--max-positions) and must reach the workers
    p = write_spec(SPEC + '''[[claim]]
id = "big"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 60 and y <= 60"
grundy = "xor(x, y)"
''')
    r = check(p, "--jobs", "2", "--max-positions", "1000")
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert str(p) in r.stderr and "'big'" in r.stderr
    assert [c["id"] for c in json.loads(r.stdout)["claims"]] == ["bouton", "parity", "floor", "ceil"]


def test_a_claims_seconds_are_the_sum_of_its_methods(write_spec, starts_processes):
    # the claim printed the seconds of the method whose verdict it got (a proof in 0.01 s) while its window
    # took minutes: the claim's seconds are now every method's, and the text line names each
    p = write_spec('''[source]
id = "time"
[game.nim2]
position = ["x", "y"]
moves = [ { to = "(x - t, y)", where = "1 <= t <= x" }, { to = "(x, y - t)", where = "1 <= t <= y" } ]
[[claim]]
id = "bouton"
game = "nim2"
for_all = "0 <= x and 0 <= y"
window = "x <= 200 and y <= 200"
p_positions = "x == y"
sample = { count = 20 }
expect = "holds"
''')
    # all three asked for by name: by default a claim proved on its whole domain is not sampled
    every = ["--method", "exhaustive,sample,prove"]
    r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(p), "--json", "--no-store", *every],
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    claim = json.loads(r.stdout)["claims"][0]
    methods = {m["method"]: m["seconds"] for m in claim["methods"]}
    assert {"exhaustive", "sample", "prove"} <= set(methods)
    assert claim["method"] != "exhaustive"  # the verdict is another method's, yet its time counts the window's
    assert abs(claim["seconds"] - sum(methods.values())) < 0.01
    assert claim["seconds"] >= methods["exhaustive"] > 0
    text = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(p), "--no-store", *every],
                          capture_output=True, text=True, timeout=600).stdout
    line = next(l for l in text.splitlines() if " bouton " in l)
    assert "(exhaustive " in line and " sample " in line and " prove " in line, line
    # by default the proof ends it: no sampling of a claim proved on its whole domain, and the proof says so
    r = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(p), "--json", "--no-store"],
                       capture_output=True, text=True, timeout=600)
    claim = json.loads(r.stdout)["claims"][0]
    assert [m["method"] for m in claim["methods"]] == ["exhaustive", "prove", "audit"]   # the proof, then its audit
    assert claim["verdict"] == "proved"
    assert "sampling not run: the proof covers the whole domain" in claim["methods"][1]["notes"]


def test_a_claims_ground_truth_names_only_the_engines_of_its_own_games(write_spec):
    # claims checked one after another in one process: the second claim's label listed the engine of the first
    spec = load_spec(write_spec('''[source]
id = "engines"
[game.maxnim]
params = ["k"]
position = ["x"]
moves = [ { to = "x - t", where = "1 <= t <= floor(x / k)" } ]
[game.sub23]
position = ["n"]
moves = [ { to = "n - s", where = "s in {2, 3} and s <= n" } ]
[[claim]]
id = "big-graph"
game = "maxnim(k)"
for_all = "2 <= k <= 3 and 0 <= x"
window = "x <= 3000"
assume = "x % k == 0"
grundy = "x // k"
[[claim]]
id = "small-graph"
for_all = "0 <= n"
window = "n <= 50"
holds = "all(G(sub23, m) >= 0 for m in range(n))"
[[claim]]
id = "no-game"
for_all = "0 <= n <= 5"
holds = "n >= 0"
'''))
    first, second, third = (check_exhaustive(c).scope for c in spec.claims)
    engines_of_first = first.split("ground truth: ")[1]
    assert "networkx" not in engines_of_first, first  # a fast engine, or the post-order one: a large graph
    assert second.endswith("ground truth: reference engine (networkx game graph, mex)"), second
    assert "ground truth" not in third, third


def test_timeout_is_the_budget_of_each_claims_own_proof(write_spec, monkeypatch, capsys):
    # `--timeout 20` reached the prover as 10 s (issue: the claim's budget was shared with the lemmas it uses);
    # the budget is counted in Z3 resource units (checkers.z3.budget), so this records the seconds asked for
    asked: list[float] = []

    class Recording(Budget):
        @classmethod
        def seconds(cls, s):
            asked.append(s)
            return Budget.seconds(s)
    monkeypatch.setattr(prove_method, "Budget", Recording)  # the claim's budget, not the prover's inner queries
    p = write_spec('''[source]
id = "budget"
[[claim]]
id = "lemma"
for_all = "0 <= n"
window = "n <= 30"
holds = "n * n >= n"
[[claim]]
id = "uses-it"
for_all = "0 <= n"
window = "n <= 30"
holds = "n * n + 1 > n"
prove = { using = ["lemma"] }
''')
    assert cli.main(["check", str(p), "--method", "prove", "--timeout", "20", "--jobs", "1", "--no-store"]) in (0, 1)
    capsys.readouterr()
    # lemma alone: 20; uses-it: its lemma with half (10), then its own 20
    assert asked == [20.0, 10.0, 20.0], asked


def test_max_positions_holds_for_one_run_only(write_spec, capsys):
    # it was set for the whole process: a later check in the same process (the pytest plugin, the API) kept it
    before = default_engine().max_positions
    p = write_spec(SPEC)
    assert cli.main(["check", str(p), "--claim", "floor", "--no-store", "--method", "exhaustive",
                     "--max-positions", "5000"]) == 0
    capsys.readouterr()
    assert default_engine().max_positions == before
