"""Mutation testing, CI-sized: mutants of contract claims that hold must be refuted by the exhaustive checker,
and the classification of survivors (window too small, equivalent, a different true statement) must be right.
The full run is scripts/mutate.py.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import mutate  # noqa: E402

from nimjos.spec.loader import load_spec  # noqa: E402

#: cheap contract claims that hold, and how many of their mutants to run
SAMPLE = {"delete-nim-grundy": 4, "wythoff-p-positions": 4, "maxnim-josephus": 3, "subtraction-23-table": 3}
TIMEOUT = 20.0


def test_contract_mutants_are_refuted(contract_path):
    spec = load_spec(contract_path)
    score = mutate.Score()
    for claim_id, n in SAMPLE.items():
        mutants = mutate.claim_mutants(spec.claim(claim_id), n)
        assert len(mutants) == n
        for m in mutants:
            score.add(mutate.run(m, TIMEOUT))
    assert not score.stillborn, [(m.label, m.reason) for m in score.stillborn]
    assert score.ratio >= 0.95, [(m.label, m.reason) for m in score.survived]
    assert score.killed >= 0.9 * sum(SAMPLE.values())


def test_every_operator_family_makes_mutants():
    got = " ".join(d for d, _ in mutate.mutations("all(floor(a / 2) + min(a, b) <= b and a in {1, 2} for j in range(a))",
                                                   ("a", "b")))
    for fragment in ("'floor' -> 'ceil'", "'min' -> 'max'", "'all' -> 'any'", "'+' -> '-'", "'<=' -> '<'",
                     "'and' -> 'or'", "'in' -> 'not in'", "2 -> 3", "2 -> 1", "bound b + 1", "swap a, b",
                     "variable a -> b"):
        assert fragment in got, fragment


SMALL = '''[source]
id = "m"
[[claim]]
id = "equiv"
for_all = "0 <= n"
window = "n <= 9"
holds = "floor(n / 1) == n"
[[claim]]
id = "edge"
for_all = "0 <= n"
window = "n <= 10"
holds = "n <= 10"
[[claim]]
id = "weaker"
for_all = "0 <= n"
window = "n <= 10"
assume = "n >= 3"
holds = "n >= 2"
[[claim]]
id = "table"
values = { of = "2 * n", var = "n", from = 0, equal = [0, 2, 4, 6] }
'''


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("mut") / "small.toml"
    path.write_text(SMALL)
    return load_spec(path)


def _one(spec, claim_id, description):
    mutants = [m for m in mutate.claim_mutants(spec.claim(claim_id)) if m.description.startswith(description)]
    assert mutants, [m.description for m in mutate.claim_mutants(spec.claim(claim_id))]
    return mutate.run(mutants[0], TIMEOUT)


def test_equivalent_on_the_window(small):
    m = _one(small, "equiv", "'floor' -> 'ceil'")
    assert m.verdict == "equivalent" and "equivalent on the window" in m.reason


def test_window_too_small_is_a_survivor(small):
    m = _one(small, "edge", "10 -> 11")
    assert m.verdict == "survived" and m.reason.startswith("window too small: refuted")
    assert _one(small, "edge", "10 -> 9").verdict == "refuted"


def test_a_weaker_assumption_is_a_different_true_statement(small):
    m = _one(small, "weaker", "3 -> 2")
    assert m.verdict == "equivalent" and "different true statement" in m.reason


def test_printed_table_entries(small):
    mutants = [m for m in mutate.claim_mutants(small.claim("table")) if m.field == "values.equal"]
    assert len(mutants) == 6
    assert all(mutate.run(m, TIMEOUT).verdict == "refuted" for m in mutants)
