"""Route D of the prover: 2^n, v2, the odd part and ilog2 with a symbolic exponent as unknowns with their facts
(checkers/z3/powers.py), case splits and lemma chains through prove.using. The true statements are proved
for every value; the false variants (a case split that misses a case, a lemma proved on a smaller class used
beyond it, a false fact about powers of two) are refuted or left unproved, never proved."""
from __future__ import annotations

import pathlib

import pytest

from checkers.prove import prove_claim
from checkers.run import RunOptions
from nimjos.spec.loader import load_spec

ROOT = pathlib.Path(__file__).resolve().parents[3]

SPEC = """
[source]
id = "powers"

[define]
"level(h, j)" = "h + 1 + ilog2(j - h)"
"inside(i, h, j)" = "0 <= h <= i - 1 and 2**(i - h - 1) + h <= j <= 2**(i - h) + h - 1"

# -------------------------------------------------------------- a witness named by a lemma (ilog2)
[[claim]]
id = "level"
for_all = "0 <= s and 0 <= h <= s - 2 and h + 1 <= j <= 2**(s - h - 1) + h - 1"
window = "s <= 8"
holds = "h + 1 <= level(h, j) <= s - 1 and inside(level(h, j), h, j)"

[[claim]]
id = "some-level"
for_all = "0 <= s and 0 <= h <= s - 2 and h + 1 <= j <= 2**(s - h - 1) + h - 1"
window = "s <= 8"
holds = "any(inside(i, h, j) for i in range(h + 1, s))"
prove = { using = ["level"] }

# -------------------------------------------------------------- the odd part (v2)
[[claim]]
id = "oddpart"
for_all = "1 <= z"
window = "z <= 256"
holds = "z // 2**v2(z) <= z"

[[claim]]
id = "odd-level"
for_all = "0 <= h and 0 <= x <= h"
window = "h <= 20"
holds = "any((2*h + 1 - x) // 2**v2(2*h + 1 - x) == 2*i + 1 for i in range(0, h + 1))"
prove = { using = ["oddpart"] }

# -------------------------------------------------------------- false variants
# a case split that misses a case: the lemma covers c = 1, 2; the claim also states c = 3, where it fails
[[claim]]
id = "two-cases"
for_all = "1 <= n and 1 <= c <= 2"
window = "n <= 8"
holds = "(2**n - 1 if c == 1 else 2**n - 2) < 2**n"

[[claim]]
id = "three-cases"
for_all = "1 <= n and 1 <= c <= 3"
window = "n <= 8"
holds = "(2**n - 1 if c == 1 else (2**n - 2 if c == 2 else 2**n)) < 2**n"
prove = { using = ["two-cases"] }

# a lemma proved on a smaller class (z <= 1000) used beyond it: the odd part is not at most 1000 for every z
[[claim]]
id = "small-oddpart"
for_all = "1 <= z"
window = "z <= 64"
holds = "z // 2**v2(z) <= 1000"
prove = { for_all = "1 <= z <= 1000" }

[[claim]]
id = "beyond-small"
for_all = "1 <= z"
window = "z <= 64"
holds = "z // 2**v2(z) <= 1000"
prove = { using = ["small-oddpart"] }

# false facts about powers of two
[[claim]]
id = "oddpart-strict"
for_all = "1 <= z"
window = "z <= 64"
holds = "z // 2**v2(z) < z"

[[claim]]
id = "ilog2-exact"
for_all = "1 <= z"
window = "z <= 64"
holds = "2**ilog2(z) == z"

[[claim]]
id = "square-below"
for_all = "0 <= n"
window = "n <= 6"
holds = "n * n <= 2**n"

[[claim]]
id = "level-off-by-one"
for_all = "0 <= s and 0 <= h <= s - 2 and h + 1 <= j <= 2**(s - h - 1) + h - 1"
window = "s <= 8"
holds = "any(inside(i, h, j) for i in range(h + 1, s - 1))"
prove = { using = ["level"] }
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("powers") / "powers.toml"
    path.write_text(SPEC)
    return load_spec(path)


def prove(spec, cid, timeout=10.0):
    """The Z3 prover alone (Walnut, tried first by prove_claim, has its own tests)."""
    return prove_claim(spec.claim(cid), RunOptions(timeout=timeout, walnut=False))


def test_a_level_named_by_a_lemma_proves_the_union(spec):
    v = prove(spec, "some-level")
    assert v.verdict == "proved", v.scope
    assert "ilog2 as an unknown" in v.scope and "from level (proved" in v.scope


def test_the_odd_part_proves_the_level_of_a_position(spec):
    v = prove(spec, "oddpart")
    assert v.verdict == "proved" and "v2 and the odd part as unknowns" in v.scope, v.scope
    v = prove(spec, "odd-level")
    assert v.verdict == "proved" and "from oddpart (proved" in v.scope, v.scope


def test_a_case_split_that_misses_a_case_is_refuted(spec):
    assert prove(spec, "two-cases").verdict == "proved"
    v = prove(spec, "three-cases")
    assert v.verdict == "refuted", v.scope
    assert v.counterexamples[0].bindings["c"] == 3


def test_a_lemma_on_a_smaller_class_does_not_prove_beyond_it(spec):
    lemma = prove(spec, "small-oddpart")
    assert lemma.verdict == "proved-bounded", lemma.scope
    v = prove(spec, "beyond-small")
    assert v.verdict in ("refuted", "inconclusive"), v.scope
    if v.verdict == "refuted":
        assert v.counterexamples[0].bindings["z"] > 1000


@pytest.mark.parametrize("cid", ["oddpart-strict", "ilog2-exact", "square-below", "level-off-by-one"])
def test_a_false_fact_about_powers_of_two_is_never_proved(spec, cid):
    v = prove(spec, cid, timeout=5.0)
    assert v.verdict in ("refuted", "inconclusive"), v.scope
    if v.verdict == "refuted":   # a counterexample is the statement evaluated exactly, never the abstraction's
        cx = v.counterexamples[0]
        assert cx.bindings and all(type(x) is int for x in cx.bindings.values())
