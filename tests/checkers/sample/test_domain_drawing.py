"""``sample.for_all``: where the sampler draws when the assumption selects few instances (issue #15, item 8).

A claim whose assumption is a thin set (a hypothesis met by one p for each n, the positions of G_s) gets almost
no held instance from uniform draws: every draw where the assumption is false is rejected. ``sample.for_all``
states where to draw instead, as bounds written out (one condition, or alternatives drawn in turn), possibly
through helper names; each drawn binding is cut to the claim's names and checked against the claim's domain and
assumption like any other, so a wrong hint costs draws, never a wrong verdict.
"""
from __future__ import annotations

import pathlib
import subprocess
import sys

from checkers.run import RunOptions, SamplingLimits
from checkers.sample import sample_claim
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]

SPEC = """
[source]
id = "d"

[[claim]]
id = "thin"
for_all = "x >= 0"
window = "0 <= x <= 3000"
assume = "x % 1000 == 7"
holds = "x % 10 == 7"

[[claim]]
id = "thin-drawn"
for_all = "x >= 0"
window = "0 <= x <= 3000"
assume = "x % 1000 == 7"
holds = "x % 10 == 7"
sample = { for_all = "0 <= j and x in {1000 * j + 7}" }

[[claim]]
id = "thin-false-far"
for_all = "x >= 0"
window = "0 <= x <= 3000"
assume = "x % 1000 == 7"
holds = "x < 5000"
sample = { for_all = "0 <= j and x in {1000 * j + 7}" }

[[claim]]
id = "hint-off-the-set"
for_all = "x >= 0"
window = "0 <= x <= 3000"
assume = "x % 1000 == 7"
holds = "x % 10 == 7"
sample = { for_all = "0 <= j and x in {1000 * j + 8}" }

[[claim]]
id = "alternatives"
for_all = "x >= 0 and y >= 0"
window = "0 <= x <= 100 and 0 <= y <= 100"
assume = "x == 2 * y or x == 3 * y + 1"
holds = "x % 2 == 0 or x % 3 == 1"
sample = { for_all = ["0 <= y and x in {2 * y}", "0 <= y and x in {3 * y + 1}"] }

[[claim]]
id = "outside-the-domain"
for_all = "x >= 1"
window = "1 <= x <= 3000"
assume = "x % 1000 == 7 or x == 0"
holds = "x != 0"
sample = { for_all = "0 <= j and x in {1000 * j + 7, 0}" }
"""


def run(claim):
    return sample_claim(claim, RunOptions(sampling=SamplingLimits(examples=100, seconds=120)))


def test_a_thin_assumption_draws_nothing_beyond_without_a_hint(write_spec):
    v = run(load_spec(write_spec(SPEC)).claim("thin"))
    assert v.verdict == "inconclusive" and v.beyond < 20


def test_the_hint_draws_where_the_assumption_holds(write_spec):
    v = run(load_spec(write_spec(SPEC)).claim("thin-drawn"))
    assert v.verdict == "sampled" and v.beyond >= 20
    assert "drawn from sample.for_all" in v.scope


def test_a_counterexample_found_through_the_hint_names_only_the_claims_names(write_spec):
    v = run(load_spec(write_spec(SPEC)).claim("thin-false-far"))
    assert v.verdict == "refuted"
    cx = v.counterexamples[0].bindings
    assert set(cx) == {"x"} and cx["x"] % 1000 == 7 and cx["x"] >= 5000


def test_a_hint_off_the_assumption_earns_nothing(write_spec):
    # every drawn instance is checked against the assumption: a wrong hint is no evidence
    v = run(load_spec(write_spec(SPEC)).claim("hint-off-the-set"))
    assert v.verdict == "inconclusive" and v.beyond == 0


def test_alternatives_are_drawn_in_turn(write_spec):
    v = run(load_spec(write_spec(SPEC)).claim("alternatives"))
    assert v.verdict == "sampled" and "2 alternatives" in v.scope


def test_the_hint_never_leaves_the_domain(write_spec):
    # x = 0 satisfies the assumption and breaks the statement, but lies outside the domain x >= 1
    v = run(load_spec(write_spec(SPEC)).claim("outside-the-domain"))
    assert v.verdict == "sampled"


def test_a_bad_hint_is_a_spec_error_naming_the_field(write_spec, starts_processes):
    bad = SPEC.replace('sample = { for_all = "0 <= j and x in {1000 * j + 8}" }', "sample = { for_all = [] }")
    path = write_spec(bad)
    out = subprocess.run([sys.executable, "-m", "nimjos.app.cli", "check", str(path), "--no-store"],
                         capture_output=True, text=True)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "sample.for_all" in out.stderr and "spec.toml" in out.stderr


# ------------------------------------------------------------------ P-position claims judged by an engine's table

SPEC_003 = (ROOT / "specs" / "003_turn_nim_and_weighted_nim.toml").read_text()


def _weighted(tmp_path, p_positions: str):
    text = SPEC_003 + f'''
[[claim]]
id = "probe"
game = "weighted_nim"
for_all = "0 <= x and 0 <= y"
window = "x <= 999 and y <= 999"
p_positions = "{p_positions}"
'''
    path = tmp_path / "w.toml"
    path.write_text(text)
    return load_spec(path).claim("probe")


def test_weighted_nim_beyond_its_window_is_judged_by_the_p_positions_table(tmp_path):
    # beyond x, y <= 999 a position has hundreds of options: the table of the engine of P-positions judges them
    v = run(_weighted(tmp_path, "in_P0(x, y)"))
    assert v.verdict == "sampled" and v.beyond >= 20
    assert "P-positions engine's table" in v.scope


def test_a_p_set_wrong_only_beyond_the_window_is_refuted_by_the_table(tmp_path):
    v = run(_weighted(tmp_path, "in_P0(x, y) and x <= 999 and y <= 999"))
    assert v.verdict == "refuted"
    cx = v.counterexamples[0]
    assert max(cx.bindings["x"], cx.bindings["y"]) > 999 and (cx.lhs, cx.rhs) == ("P", "N")


def test_strategies_built_once_draw_what_new_ones_draw(monkeypatch):
    # draw_int builds each strategy once per set of arguments (checkers.sample.domain.int_strategy): the draws of a
    # seeded search must be those of strategies built anew at every draw, for every shape of range (structured
    # values, a window's edge below the top, both, neither, ranges that depend on the draw before)
    from hypothesis import given, seed, settings, strategies as st

    from checkers.sample import domain

    def run() -> list:
        drawn: list = []

        @seed(20261129)
        @settings(max_examples=60, database=None, derandomize=False)
        @given(st.data())
        def body(data):
            x = domain.draw_int(data, 0, 10 ** 18, "x", list(domain.special_values(0, 10 ** 18, (3, 5), 100)), 100)
            y = domain.draw_int(data, -5, max(-5, x % 1000), "y", None, 10)
            z = domain.draw_int(data, 1, 40, "z", [1, 2, 32], None)
            drawn.append((x, y, z, domain.draw_int(data, 7, 7 + x % 50, "w")))
        body()
        return drawn

    cached = run()
    assert domain.int_strategy.cache_info().hits > 0
    monkeypatch.setattr(domain, "int_strategy", domain.int_strategy.__wrapped__)   # a new strategy at every draw
    fresh = run()
    assert cached == fresh and len(set(cached)) > 30
