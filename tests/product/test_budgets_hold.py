"""Budgets that hold (issue 37, item 6): a safety net stops the work where it is done and the verdict says so; a
count caps the work before it is spent; a search that runs out of budget prints what it verified. Small budgets,
so that each test takes seconds; nothing is timed."""
from __future__ import annotations

import checkers.heaps.periodicity as periodicity
from checkers.options import RunOptions
from checkers.heaps.periodicity import far_by_moves, periodic_sample
from nimjos.games.functions import hexadecimal
from nimjos.spec.loader import load_spec

HEX_PERIODIC = '''[source]
id = "hex"

[[claim]]
id = "hex-0f-period-2"
game = 'hexadecimal("0.f")'
position = ["n"]
for_all = "0 <= n"
window = "n <= 60"
periodic = { period = 2 }
%s
'''


def test_the_far_bound_of_a_three_heap_code_is_cut_by_the_count_of_moves(write_spec, monkeypatch):
    monkeypatch.setattr(periodicity, "SAMPLE_MOVES", 300_000)
    spec = load_spec(write_spec(HEX_PERIODIC % ""))
    v = periodic_sample(spec.claim("hex-0f-period-2"), RunOptions())
    cut = far_by_moves(hexadecimal("0.f"), 10_000, 2)
    assert 60 < cut < 10_000
    assert v.verdict == "sampled" and v.largest <= cut + 2
    assert any("leave three heaps" in n and "300,000 moves" in n for n in v.notes), v.notes


def test_the_safety_net_stops_the_periodic_samplers_engine_and_says_so(write_spec, monkeypatch):
    # no count to cut the far bound: the plain mex of 0.f to heap 10,000 (about 2.8 x 10^10 moves) would run for
    # hours; the net of 1 s interrupts it inside the mex, and the verdict says the net was reached
    monkeypatch.setattr(periodicity, "SAMPLE_MOVES", 10 ** 15)
    spec = load_spec(write_spec(HEX_PERIODIC % "sample = { seconds = 1 }"))
    v = periodic_sample(spec.claim("hex-0f-period-2"), RunOptions())
    assert v.verdict == "inconclusive"
    assert "the safety net (1 s of CPU time) stopped the sampler" in v.notes[0], v.notes


def test_a_quotient_search_out_of_budget_prints_what_it_verified(monkeypatch, capsys):
    import functools
    import json

    import nimjos.api.quotient as quotient_api
    import nimjos.app.quotient_cli as quotient_cli
    from nimjos.games.heaps.quotient import QuotientBuilder

    # a budget of 40 states: misère Dawson's Kayles stops at heap 10 (its quotient of heaps 0..9 has 6 elements)
    monkeypatch.setattr(quotient_api, "QuotientBuilder", functools.partial(QuotientBuilder, budget=40))
    rc = quotient_cli.main(["quotient", 'octal("0.07")', "--heaps", "30", "--outcome", "2,3", "--outcome", "29"])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert out[0].startswith('misère quotient of octal("0.07") for heaps of 0..9: 6 elements, 2 in the P-portion')
    assert out[1].startswith("stopped at heap 10 of the 30 asked") and "more than 40 elements" in out[1]
    assert out[2] == "order at each heap (the quotient of heaps 0..n): 0:1 1:1 2:2 3:2 4:6 5:6 6:6 7:6 8:6 9:6"
    assert "element of each heap (pretending function): 0:0 1:0 2:1 3:1 4:2 5:0 6:3 7:1 8:1 9:0" in out
    assert "P-portion (element: its least position): 1: (2), 4: (4, 4)" in out
    assert "single heaps that are P-positions: 2, 3, 7, 8" in out
    assert "outcome of (2, 3): N" in out
    assert "outcome of (29,): not known (a heap beyond 9, where the computation stopped)" in out
    rc = quotient_cli.main(["quotient", 'octal("0.07")', "--heaps", "30", "--json"])
    summary = json.loads(capsys.readouterr().out)
    assert rc == 1 and summary["heaps"] == 9 and summary["order"] == 6
    assert summary["stopped"] == {"at": 10, "asked": 30, "reason": "more than 40 elements in a candidate"}
    # the whole budget: the answer to the bound asked, exit 0, no 'stopped'
    monkeypatch.setattr(quotient_api, "QuotientBuilder", QuotientBuilder)
    assert quotient_cli.main(["quotient", 'octal("0.07")', "--heaps", "9", "--json"]) == 0
    assert "stopped" not in json.loads(capsys.readouterr().out)


TURTLES = '''[source]
id = "coins"

[game.turtles]
position = ["m"]
moves = [
  { to = "m - (1 << i)", where = "0 <= i < 64 and (m >> i) & 1 == 1" },
  { to = "xor(m - (1 << i), 1 << j)", where = "0 <= j < i < 64 and (m >> i) & 1 == 1" },
]

[[claim]]
id = "turtles-even"
game = "turtles"
position = ["m"]
for_all = "0 <= m"
window = "m <= 63"
grundy = "xor(i + 1 for i in range(64) if (m >> i) & 1 == 1)"
assume = "popcount(m) % 2 == 0"
'''


def test_sampling_stops_by_the_engines_positions_and_says_so(write_spec, monkeypatch):
    # Turning Turtles as a bitmask, with an assumption: the certificate labels the options where the assumption is
    # false by the engine, whose positions are counted; with a budget of 300 positions per claim the search ends
    # by that count (not by the clock), and the verdict says why
    import checkers.sample.method as method
    monkeypatch.setattr(method, "SEARCH_ENGINE_POSITIONS", 300)
    monkeypatch.setitem(method._COUNTS, "positions", ("positions explored by the engine", 300))
    spec = load_spec(write_spec(TURTLES))
    v = method.sample_claim(spec.claim("turtles-even"), RunOptions())
    assert v.verdict == "inconclusive"
    assert any(n.startswith("the engine explored its 300 positions for the certificates") for n in v.notes), v.notes


def test_sampling_gives_up_early_when_even_the_cheapest_evaluation_leaves_too_few(write_spec, monkeypatch):
    # a holds claim whose every evaluation costs about the same number of steps: with a claim budget of steps that
    # fits a few of them, the search projects from the cheapest one that held and gives up, saying why
    import checkers.sample.method as method
    monkeypatch.setattr(method, "SEARCH_STEPS", 4_000)
    monkeypatch.setitem(method._COUNTS, "steps", ("steps", 4_000))
    spec = load_spec(write_spec(SUMS))
    v = method.sample_claim(spec.claim("sum-of-range"), RunOptions())
    assert v.verdict == "inconclusive"
    assert any(n.startswith("each evaluation that held cost at least") and n.endswith("the search gave up early")
               for n in v.notes), v.notes


SUMS = """
[source]
id = "budgets"

[[claim]]
id = "sum-of-range"
text = "the sum of 0..199 shifted by n"
for_all = "n >= 0"
window = "n <= 10"
holds = "sum(i + n for i in range(200)) == 19900 + 200 * n"
"""
