"""Sampling beyond the window: verdicts, shrinking, pins, the database and the reasons for not sampling."""
from __future__ import annotations

import pytest

from checkers.run import RunOptions, SamplingLimits
from checkers.sample import sample_claim
from checkers.sample.driver import in_ci, pin_line
from nimjos.spec.loader import load_spec

SPEC = """
[source]
id = "s"

[game.delete_nim]
position = ["x", "y"]
moves = [
  { to = "(a, x - 1 - a)", where = "0 <= a <= x - 1" },
  { to = "(a, y - 1 - a)", where = "0 <= a <= y - 1" },
]

[[claim]]
id = "floor-identity"
for_all = "2 <= k <= 9 and 0 <= x"
window = "x <= 50"
assume = "x % k != 0"
holds = "x - floor(x / k) - 1 == floor((k - 1) * x / k)"

[[claim]]
id = "true-in-window-only"
for_all = "0 <= n"
window = "n <= 100"
holds = "n * n < 1000000"

[[claim]]
id = "dn"
game = "delete_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
grundy = "v2((x | y) + 1)"

[[claim]]
id = "dn-beyond"
game = "delete_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 20 and y <= 20"
grundy = "v2((x | y) + 1) if x < 1000 else 0"

[[claim]]
id = "closed"
for_all = "True"
holds = "1 + 1 == 2"

[[claim]]
id = "table"
game = "delete_nim"
values = { from = [0, 0], grundy = [[0, 1], [1, 1]] }

[[claim]]
id = "window-constant"
for_all = "P in {50} and 1 <= n"
window = "n <= 100"
holds = "any(2 ** p >= n for p in range(0, P))"

[[claim]]
id = "pinned"
for_all = "0 <= n"
window = "n <= 100"
holds = "n != 123456789"
sample = { pins = ["n=123456789"] }
"""


@pytest.fixture
def spec(write_spec, tmp_path, monkeypatch):
    monkeypatch.setenv("NIMJOS_DATA", str(tmp_path / "data"))
    return load_spec(write_spec(SPEC))


def run(spec, cid, store=None):
    return sample_claim(spec.claim(cid), RunOptions(sampling=SamplingLimits(examples=60, seconds=120), store=store))


def test_true_statements_are_sampled_far_beyond_the_window(spec):
    v = run(spec, "floor-identity")
    assert v.verdict == "sampled" and v.method == "sample"
    assert "beyond the window" in v.scope and "10^18" in v.scope
    assert v.assumption_held > 0 and v.beyond >= 20 and v.largest > 10 ** 12


def test_a_failure_beyond_the_window_shrinks_and_prints_a_pin(spec, tmp_path):
    v = run(spec, "true-in-window-only", store=str(tmp_path / "data" / "results.sqlite"))
    assert v.verdict == "refuted"
    assert v.counterexamples[0].bindings == {"n": 1000}          # the smallest n with n * n >= 10^6
    assert v.evidence["pin"] == 'sample = { pins = ["n=1000"] }'
    if not in_ci():
        assert any((tmp_path / "data" / "hypothesis").rglob("*"))  # stored in the example database beside the store


def test_pins_are_checked_first(spec):
    v = run(spec, "pinned")
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 123456789}


def test_game_claims_use_the_local_certificate_at_huge_positions(spec):
    v = run(spec, "dn")
    assert v.verdict == "sampled" and "local certificate" in v.scope


def test_game_claim_failures_are_re_evaluated_by_the_engine(spec):
    v = run(spec, "dn-beyond")
    assert v.verdict == "refuted"
    cx = v.counterexamples[0]
    assert cx.bindings["x"] >= 1000 or cx.detail.get("engine")
    assert "certificate" in cx.detail


@pytest.mark.parametrize("cid, reason", [
    ("closed", "closed statement"),
    ("table", "printed table"),
    ("window-constant", "P in {50}"),
])
def test_reasons_for_not_sampling(spec, cid, reason):
    v = run(spec, cid)
    assert v.verdict == "inconclusive" and v.scope.startswith("not applicable") and reason in v.scope


def test_derandomized_in_ci(spec, monkeypatch):
    monkeypatch.setenv("CI", "true")
    a = run(spec, "floor-identity")
    b = run(spec, "floor-identity")
    assert a.verdict == b.verdict == "sampled"
    assert a.assumption_held == b.assumption_held


def test_pin_line_quotes_values():
    assert pin_line({"x": 3, "S": frozenset({1, 2})}) == 'sample = { pins = ["x=3, S={1, 2}"] }'
