"""The claim kind `grundy_at_most` (G is bounded by a constant, or by an expression of the params): a plan class of
its own and one handler per method that applies (the window), the others saying why they do not apply."""
from __future__ import annotations

import pytest

from checkers.exhaustive import check_exhaustive
from checkers.run import RunOptions, run_claim
from nimjos.lang.errors import SpecError
from nimjos.spec.loader import load_spec
from nimjos.spec.plan import GrundyBoundPlan

SPEC = """
[source]
id = "bound"

[game.sub12]
position = ["n"]
moves = [ { to = "n - t", where = "1 <= t <= min(2, n)" } ]

[game.subk]
params = ["k"]
position = ["n"]
moves = [ { to = "n - t", where = "1 <= t <= min(k, n)" } ]

[[claim]]
id = "at-most-2"
game = "sub12"
for_all = "n >= 0"
window = "n <= 60"
grundy_at_most = 2

[[claim]]
id = "at-most-1"
game = "sub12"
for_all = "n >= 0"
window = "n <= 60"
grundy_at_most = 1

[[claim]]
id = "at-most-k"
game = "subk(k)"
for_all = "1 <= k <= 4 and n >= 0"
window = "n <= 30"
grundy_at_most = "k"

[[claim]]
id = "at-most-k-minus-1"
game = "subk(k)"
for_all = "1 <= k <= 4 and n >= 0"
window = "n <= 30"
grundy_at_most = "k - 1"
"""


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    path = tmp_path_factory.mktemp("bound") / "bound.toml"
    path.write_text(SPEC)
    return load_spec(path)


def test_the_kind_is_its_plan_type(spec):
    plan = spec.claim("at-most-k").plan()
    assert isinstance(plan, GrundyBoundPlan) and plan.bound.text == "k"
    assert plan.bound({"k": 3, "n": 0}) == 3


def test_a_true_bound_is_checked_on_the_window(spec):
    # subtraction {1, 2}: G(n) = n mod 3 <= 2, from the moves
    v = check_exhaustive(spec.claim("at-most-2"))
    assert (v.verdict, v.instances, v.failures) == ("checked", 61, 0)
    assert check_exhaustive(spec.claim("at-most-k")).verdict == "checked"


def test_a_false_bound_is_refuted_at_the_smallest_position(spec):
    v = check_exhaustive(spec.claim("at-most-1"))
    assert v.verdict == "refuted"
    first = v.counterexamples[0]
    assert first.bindings == {"n": 2} and first.lhs == 2 and first.rhs == "at most 1"
    # every n = 2 mod 3 of the window fails (G = 2 there)
    assert v.failures == len(range(2, 61, 3))


def test_a_bound_of_the_params_is_refuted_at_the_smallest_instance(spec):
    v = check_exhaustive(spec.claim("at-most-k-minus-1"))
    assert v.verdict == "refuted"
    # G(n) = n mod (k + 1): the first n with G(n) = k is n = k, and k = 1 comes first
    assert v.counterexamples[0].bindings == {"k": 1, "n": 1} and v.counterexamples[0].lhs == 1


def test_proving_and_sampling_say_why_they_do_not_apply(spec):
    result = run_claim(spec.claim("at-most-2"), RunOptions(methods=("exhaustive", "prove", "sample", "periodicity")))
    by_method = {v.method: v for v in result.verdicts}
    assert by_method["exhaustive"].verdict == "checked"
    for name in ("prove", "sample"):
        assert not by_method[name].applicable and by_method[name].verdict == "inconclusive"
        assert "local certificate" in by_method[name].reason
    assert "periodicity" not in by_method
    assert result.final.verdict == "checked"


def test_a_boolean_bound_is_refused(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text(SPEC.split("[[claim]]")[0] + '[[claim]]\nid = "b"\ngame = "sub12"\nfor_all = "0 <= n <= 5"\n'
                    'grundy_at_most = true\n')
    with pytest.raises(SpecError, match="grundy_at_most"):
        load_spec(path)
