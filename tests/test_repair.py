"""Repair suggestions: only candidates rechecked on the whole window, fewest edits first."""
from __future__ import annotations

from checkers.repair import find_repairs
from checkers.run import RunOptions, run_claim
from nimjos.spec import load_spec

SPEC = '''[source]
id = "rep"
[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]
[[claim]]
id = "jos"
for_all = "1 <= n <= 200"
holds = "survivor(n, 2) == 2 * (n - 2 ** ilog2(n + 1)) + 1"
expect = "refuted"
[[claim]]
id = "p-from-1"
game = "sub12"
for_all = "0 <= n <= 100"
p_positions = [ { point = "3 * j", where = "j >= 1" } ]
expect = "refuted"
[[claim]]
id = "hopeless"
game = "sub12"
for_all = "0 <= n <= 100"
grundy = "n % 7"
expect = "refuted"
'''


def test_repairs_found_and_rechecked(write_spec):
    spec = load_spec(write_spec(SPEC))
    texts = [r.text for r in find_repairs(spec.claim("jos"))]
    assert "survivor(n, 2) == 2 * (n - 2 ** ilog2(n)) + 1" in texts
    fams = find_repairs(spec.claim("p-from-1"))
    assert fams and fams[0].field == "p_positions[0].where" and fams[0].text == "j >= 0"
    assert all(r.verdict == "checked" and r.instances == 101 for r in fams)


def test_no_repair_is_invented(write_spec):
    spec = load_spec(write_spec(SPEC))
    assert find_repairs(spec.claim("hopeless")) == []


def test_repairs_reach_the_run_result(write_spec):
    spec = load_spec(write_spec(SPEC))
    result = run_claim(spec.claim("p-from-1"), RunOptions(methods=("exhaustive",)))
    assert result.final.evidence["repairs"][0]["text"] == "j >= 0"
