"""Sample verdicts that never overstate (issue #15) and a sampler that leaves no folder behind (issue #18).

* ``sampled`` needs at least 20 held instances beyond the window, off the domain's edge;
* draws stay inside the claim's domain (a bounded domain keeps its bound, a domain equal to the window is not
  sampled at all);
* a set claim is drawn from both sides, and from structured values (Moore's Nim_2 below, whose refutation
  and the domain-edge test run in tests/slow/checkers/test_sample_honest_long.py, CPU hogs for the inner loop);
* without a results store, hypothesis writes no ``.hypothesis`` / ``.nimjos/hypothesis`` folder.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from checkers.run import RunOptions, SamplingLimits
from checkers.sample import sample_claim
from checkers.sample.method import MIN_BEYOND
from checkers.sample.sides import structured
from nimjos.spec.loader import load_spec

#: Moore's Nim_2 on four heaps: a move takes any positive number of stones from at most 2 heaps. Its P-positions
#: are those where, at every bit position, the number of heaps with that bit set is divisible by 3; the
#: claim looks at 8 bits only, so it is false from heap size 256 on, e.g. at (0, 0, 0, 256)
MOORE = """
[source]
id = "moore"

[game.moore2]
position = ["x", "y", "z", "w"]
moves = [
  { to = "(x - a, y - b, z, w)", where = "0 <= a <= x and 0 <= b <= y and 1 <= a + b" },
  { to = "(x - a, y, z - b, w)", where = "0 <= a <= x and 0 <= b <= z and 1 <= a + b" },
  { to = "(x - a, y, z, w - b)", where = "0 <= a <= x and 0 <= b <= w and 1 <= a + b" },
  { to = "(x, y - a, z - b, w)", where = "0 <= a <= y and 0 <= b <= z and 1 <= a + b" },
  { to = "(x, y - a, z, w - b)", where = "0 <= a <= y and 0 <= b <= w and 1 <= a + b" },
  { to = "(x, y, z - a, w - b)", where = "0 <= a <= z and 0 <= b <= w and 1 <= a + b" },
]

[[claim]]
id = "moore-8-bits"
game = "moore2"
for_all = "x >= 0 and y >= 0 and z >= 0 and w >= 0"
window = "0 <= x <= 7 and 0 <= y <= 7 and 0 <= z <= 7 and 0 <= w <= 7"
p_positions = "all((x // 2**i % 2 + y // 2**i % 2 + z // 2**i % 2 + w // 2**i % 2) % 3 == 0 for i in range(8))"
"""

SPEC = """
[source]
id = "h"

[[claim]]
id = "below-100"
for_all = "0 <= n < 100"
window = "0 <= n <= 60"
holds = "n < 100"

[[claim]]
id = "domain-is-window"
for_all = "0 <= n <= 99"
window = "0 <= n <= 99"
holds = "n * n < 10 ** 4"

[[claim]]
id = "terminal-only"
# 003 thm-2.1 as it was sampled: the parameter k goes far, but beyond the window the position x is always 0
for_all = "k >= 1 and 0 <= x <= max(0, 8 - k)"
window = "1 <= k <= 7 and 0 <= x <= 8 - k"
holds = "x <= 7"

[[claim]]
id = "spread"
for_all = "k >= 1 and x >= 0"
window = "1 <= k <= 20 and 0 <= x <= 20"
holds = "(x + k) ** 2 == x * x + 2 * x * k + k * k"

[[claim]]
id = "mod-7"
for_all = "0 <= n"
window = "n <= 30"
holds = "n % 7 != 0 or n < 10 ** 6 or n % 2 == 1"
"""


@pytest.fixture
def spec(write_spec):
    return load_spec(write_spec(SPEC))


def run(claim, store=None, examples=100):
    # a generous backstop: these tests are about what is drawn, not about the machine's speed
    return sample_claim(claim, RunOptions(sampling=SamplingLimits(examples=examples, seconds=120), store=store))


def test_sampled_needs_twenty_spread_instances_beyond_the_window(spec):
    v = run(spec.claim("spread"))
    assert v.verdict == "sampled" and v.beyond >= MIN_BEYOND and v.largest > 10 ** 9
    few = run(spec.claim("spread"), examples=10)
    assert few.verdict == "inconclusive" and few.beyond < MIN_BEYOND
    assert "beyond" in few.notes[0] and "largest value" in few.notes[0]


def test_a_bounded_domain_keeps_its_bound(spec):
    v = run(spec.claim("below-100"))
    assert v.verdict in ("sampled", "inconclusive") and v.verdict != "refuted"
    assert v.largest <= 99
    assert "up to the domain's bound" in v.scope


def test_a_domain_equal_to_the_window_is_not_sampled(spec):
    v = run(spec.claim("domain-is-window"))
    assert v.verdict == "inconclusive" and "the domain is the window" in v.scope


def test_structured_values_find_multiples_of_the_moduli(spec):
    v = run(spec.claim("mod-7"))
    assert v.verdict == "refuted"
    n = v.counterexamples[0].bindings["n"]
    assert n % 14 == 0 and n >= 10 ** 6


def test_structured_values():
    vals = structured(0, 2 ** 20, [7], 30)
    assert {2 ** 10 - 1, 2 ** 10, 2 ** 10 + 1, 7 * 2 ** 5 - 1, 7 * 2 ** 5, 7 * 2 ** 5 + 1, 31, 32} <= set(vals)
    assert all(0 <= v <= 2 ** 20 for v in vals)


def test_the_same_verdict_on_every_run(spec):
    a, b = run(spec.claim("spread")), run(spec.claim("spread"))
    assert (a.verdict, a.assumption_held, a.beyond, a.largest, a.scope) == (b.verdict, b.assumption_held, b.beyond, b.largest, b.scope)


def test_no_hypothesis_folder_without_a_store(spec, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NIMJOS_DATA", raising=False)
    run(spec.claim("mod-7"))      # a failure: hypothesis would save it if it had a database
    run(spec.claim("spread"))
    assert not (tmp_path / ".hypothesis").exists() and not (tmp_path / ".nimjos").exists()


def test_no_hypothesis_folder_from_the_cli_with_no_store(write_spec, tmp_path, starts_processes):
    path = write_spec(SPEC)
    cwd = tmp_path / "cwd"
    cwd.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("NIMJOS_DATA", "HYPOTHESIS_STORAGE_DIRECTORY")}
    out = subprocess.run([sys.executable, "-c", "import sys; from nimjos.app.cli import main; sys.exit(main())", "check", str(path), "--claim", "mod-7", "--method",
                          "sample", "--no-store", "--no-repair", "--json"], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=300)
    assert json.loads(out.stdout)["claims"][0]["methods"][0]["verdict"] == "refuted", out.stderr
    assert sorted(p.name for p in cwd.iterdir()) == []
