"""The claim kind `grundy_at_most` (G is bounded by a constant, or by an expression of the params): a plan class of
its own and one handler per method that applies (the window), the others saying why they do not apply."""
from __future__ import annotations

import pytest

from checkers.window.exhaustive import check_exhaustive
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


def test_proving_says_why_it_does_not_apply_and_sampling_looks_just_past_the_window(spec):
    result = run_claim(spec.claim("at-most-2"), RunOptions(methods=("exhaustive", "prove", "sample", "periodicity")))
    by_method = {v.method: v for v in result.verdicts}
    assert by_method["exhaustive"].verdict == "checked"
    prove = by_method["prove"]
    assert not prove.applicable and prove.verdict == "inconclusive" and "local certificate" in prove.reason
    # the sampler has no certificate to judge one far position by: it evaluates the window's check just past its
    # edge, and a few instances next to the window are no sample (the verdict stays the window's)
    sample = by_method["sample"]
    assert sample.applicable and sample.verdict == "inconclusive"
    assert sample.scope == "just past the window: 3 instances held (n = 61..63)"
    assert any("local certificate" in note for note in sample.notes)
    assert "periodicity" not in by_method
    assert result.final.verdict == "checked"


def test_a_bound_false_one_step_past_the_window_is_refuted_by_the_sampler(tmp_path):
    # issue 38: G(gp, 9) = 9 > 8 one step past the window n <= 8 was `checked`
    path = tmp_path / "gp.toml"
    path.write_text('[source]\nid = "gp"\n[game.gp]\nposition = ["n"]\nmoves = [ { to = "n - t", where = '
                    '"1 <= t <= n" } ]\n[[claim]]\nid = "gp-8"\ngame = "gp"\nfor_all = "n >= 0"\n'
                    'window = "n <= 8"\ngrundy_at_most = 8\n')
    result = run_claim(load_spec(path).claim("gp-8"))
    assert result.final.verdict == "refuted" and result.final.method == "sample"
    first = result.final.counterexamples[0]
    assert (first.bindings, first.lhs, first.rhs) == ({"n": 9}, 9, "at most 8")
    assert result.final.evidence["rerun"].endswith("--at n=9")


def test_a_bound_of_a_parameter_false_at_its_next_value_is_refuted_and_a_bounded_domain_is_kept(spec):
    # G(subk(k), n) = n mod (k + 1) <= k: true; <= 3 is false at k = 4 (n = 4), past the window k <= 3
    text = spec.path.read_text() + (
        '\n[[claim]]\nid = "at-most-3"\ngame = "subk(k)"\nfor_all = "k >= 1 and n >= 0"\n'
        'window = "k <= 3 and n <= 30"\ngrundy_at_most = 3\n'
        '\n[[claim]]\nid = "at-most-3-bounded"\ngame = "subk(k)"\nfor_all = "1 <= k <= 3 and n >= 0"\n'
        'window = "n <= 30"\ngrundy_at_most = 3\n')
    path = spec.path.parent / "more.toml"
    path.write_text(text)
    more = load_spec(path)
    v = run_claim(more.claim("at-most-3")).final
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"k": 4, "n": 4}
    # the domain stops at k = 3: never judged at k = 4
    bounded = run_claim(more.claim("at-most-3-bounded"))
    assert bounded.final.verdict == "checked"
    sample = next(v for v in bounded.verdicts if v.method == "sample")
    assert "k = " not in sample.scope and sample.scope.endswith("(n = 31..33)")


def test_a_boolean_bound_is_refused(tmp_path):
    path = tmp_path / "b.toml"
    path.write_text(SPEC.split("[[claim]]")[0] + '[[claim]]\nid = "b"\ngame = "sub12"\nfor_all = "0 <= n <= 5"\n'
                    'grundy_at_most = true\n')
    with pytest.raises(SpecError, match="grundy_at_most"):
        load_spec(path)
