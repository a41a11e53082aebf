"""The misère periodicity certificate (nimjos.games.heaps.quotient_period) and the misère proof method
(checkers.heaps.misere_proof): proved for every heap only when the theorem's hypotheses are verified, and refused
otherwise."""
from __future__ import annotations

import dataclasses
import pathlib

import pytest

from checkers.heaps.misere_proof import misere_prove
from checkers.options import RunOptions
from nimjos.games.heaps.quotient import misere_quotient
from nimjos.games.heaps.quotient_period import NotCertified, certified_quotient, certify
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, octal_rules
from nimjos.games.heaps.quotient import QuotientBuilder
from nimjos.spec.loader import load_spec

KAYLES = octal_rules("0.77")
ROOT = pathlib.Path(__file__).resolve().parents[4]


@pytest.fixture(scope="module")
def kayles_167():
    return misere_quotient(KAYLES.moves, 167)


def test_kayles_is_certified_with_the_published_period(kayles_167):
    cert = certify(kayles_167, KAYLES, 71, 12)
    assert (cert.needed, cert.reach, cert.quotient.order) == (167, 2, 40)
    assert [n for n in range(2000) if cert.outcome((n,)) == "P"] == [1, 4, 9, 12, 20]


def test_the_periodic_extension_agrees_with_a_quotient_verified_further(kayles_167):
    """Beyond the certified range, the extension's outcomes are those of a quotient verified up to heap 240."""
    cert = certify(kayles_167, KAYLES, 71, 12)
    far = misere_quotient(KAYLES.moves, 240)
    for a in range(0, 241, 7):
        for b in range(a, 241, 5):
            assert cert.outcome((a, b)) == far.outcome((a, b)), (a, b)
        assert cert.outcome((a,)) == far.outcome((a,))


def test_every_single_flipped_status_is_refused(kayles_167):
    for x in range(kayles_167.order):
        flipped = dataclasses.replace(kayles_167, p_portion=kayles_167.p_portion ^ {x})
        with pytest.raises(NotCertified, match="verification fails"):
            certify(flipped, KAYLES, 71, 12)


def test_a_heap_given_another_element_is_refused(kayles_167):
    images = list(kayles_167.images)
    images[40] = images[41]
    with pytest.raises(NotCertified):
        certify(dataclasses.replace(kayles_167, images=tuple(images)), KAYLES, 71, 12)


def test_periodic_on_a_short_range_only_is_refused(kayles_167):
    # a pretending function that repeats from 71 through heap 150 and breaks at 160, inside the needed range
    images = list(kayles_167.images)
    images[160] = images[161]
    with pytest.raises(NotCertified, match="not periodic across the range"):
        certify(dataclasses.replace(kayles_167, images=tuple(images)), KAYLES, 71, 12)
    # a preperiod one too early
    with pytest.raises(NotCertified, match="not periodic across the range"):
        certify(kayles_167, KAYLES, 70, 12)
    # the right period, but the quotient not grown to the range the theorem needs
    with pytest.raises(NotCertified, match="needs heaps up to .* = 167"):
        certify(misere_quotient(KAYLES.moves, 150), KAYLES, 71, 12)


def test_a_search_stopped_short_does_not_certify():
    with pytest.raises(NotCertified, match="search stops at heap 60"):
        certified_quotient(KAYLES, QuotientBuilder(KAYLES.moves), 60)


def test_rules_outside_the_theorem_are_refused(kayles_167):
    for rules in (GRUNDYS_GAME, LASKERS_NIM, octal_rules("0.f")):
        with pytest.raises(NotCertified):
            certify(kayles_167, rules, 71, 12)


def test_a_misere_subtraction_game_is_certified():
    rules = octal_rules("0.303")   # subtract 1 or 3
    cert = certified_quotient(rules, QuotientBuilder(rules.moves), 200)
    reference = misere_quotient(rules.moves, 60)
    assert all(cert.outcome((a, b)) == reference.outcome((a, b)) for a in range(61) for b in range(a, 61))


@pytest.fixture(scope="module")
def kayles_spec():
    return load_spec(ROOT / "examples" / "misere" / "kayles.toml")


@pytest.mark.parametrize("cid, verdict, counterexample", [
    ("kayles-rows-every-n", "proved", None),
    ("kayles-rows-every-n-missing-20", "refuted", {"n": 20}),
    ("kayles-two-equal-rows-every-n", "proved", None),
    ("kayles-two-rows-every-pair", "proved", None),
    ("kayles-two-rows-every-pair-one-exception-short", "refuted", {"h": (20, 25)}),
])
def test_kayles_claims_for_every_heap(kayles_spec, cid, verdict, counterexample):
    v = misere_prove(kayles_spec.claim(cid), RunOptions())
    assert v.verdict == verdict, v.scope
    assert "periodicity theorem for misère quotients" in v.scope
    if counterexample is not None:
        assert v.counterexamples[0].bindings == counterexample


def test_a_statement_outside_the_fragment_is_not_decided(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('[source]\nid = "s"\n[[claim]]\nid = "c"\ngame = \'misere(octal("0.77"))\'\nposition = ["n"]\n'
                    'for_all = "0 <= n"\nwindow = "n <= 20"\np_positions = "n * n in {1, 16, 81, 144, 400}"\n')
    v = misere_prove(load_spec(spec).claim("c"), RunOptions())
    assert not v.applicable and "outside the fragment" in v.scope


def test_the_quotient_command_prints_the_order_at_each_heap_and_the_published_figure(cli):
    """A count budget stops 0.07 early: the order at each verified heap is printed, and the published order for
    heaps up to 30 is named and not compared (the quotient stops before heap 30)."""
    run = cli("quotient", 'octal("0.07")', "--heaps", "30", "--states", "3000")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    orders = next(line for line in lines if line.startswith("order at each heap"))
    assert "4:6" in orders and "14:24" in orders and "24:24" in orders and "25:" not in orders
    published = next(line for line in lines if line.startswith("published:"))
    assert "360 elements for heaps 0..30" in published and "not compared" in published
    assert "stopped at heap 25" in run.stdout
    assert cli("quotient", 'octal("0.07")', "--heaps", "30", "--products", "0").returncode == 2


def test_the_examples_of_misere_quotients(cli):
    run = cli("check", ROOT / "examples" / "misere" / "quotients.toml", "--no-store", "--method", "prove")
    assert "5 claims" in run.stdout or "claims in" in run.stdout
    for cid, word in [("subtract-1-2-rows", "proved"), ("subtract-1-2-two-heaps", "proved"),
                      ("octal-075-rows", "proved"), ("octal-075-rows-wrong", "refuted")]:
        assert any(cid in line and word in line for line in run.stdout.splitlines()), (cid, run.stdout[-2000:])


def _claim(tmp_path, position: str, for_all: str, window: str, p_positions: str, extra: str = ""):
    spec = tmp_path / "s.toml"
    spec.write_text('[source]\nid = "s"\n[[claim]]\nid = "c"\ngame = \'misere(octal("0.77"))\'\n'
                    f'position = ["{position}"]\nfor_all = "{for_all}"\nwindow = "{window}"\n'
                    f"p_positions = '{p_positions}'\n{extra}")
    return load_spec(spec).claim("c")


def test_a_wrong_claim_is_refuted_far_beyond_the_window_and_the_certified_range(tmp_path):
    """The least counterexample, heap 1001, lies beyond the window and beyond the heaps the quotient verified
    (167): the finite check reaches it through the theorem's periodic extension."""
    claim = _claim(tmp_path, "n", "0 <= n", "n <= 30", "n in {1, 4, 9, 12, 20} or n > 1000")
    v = misere_prove(claim, RunOptions())
    assert v.verdict == "refuted" and v.counterexamples[0].bindings == {"n": 1001}


def test_a_domain_that_leaves_small_heaps_unbounded_below_is_not_decided(tmp_path):
    claim = _claim(tmp_path, "h", "len(h) == 2 and h[1] >= 3", "h in multisets(2, 0, 10)", "h[0] == h[1]")
    v = misere_prove(claim, RunOptions())
    assert not v.applicable and "lower bound" in v.scope


def test_a_claim_with_an_assumption_is_not_decided(tmp_path):
    claim = _claim(tmp_path, "n", "0 <= n", "n <= 30", "n in {1, 4, 9, 12, 20}", 'assume = "n % 2 == 0"\n')
    v = misere_prove(claim, RunOptions())
    assert not v.applicable
