"""The specs of documents 000 and 001 (specs/000_maxnim_josephus.toml, specs/001_maxnim_josephus_algorithm.toml:
Maximum Nim with floor(x/k) and the Josephus problem).

* they load and every claim plans in both profiles;
* every printed statement found wrong has a corrected sibling with a note and a deep window, or rests on a
  reading (``reading``) whose note says under which reading the text holds;
* the loader keeps a claim's reading and ``nimjos check --json`` shows it;
* on the default windows each wrong statement gets its verdict at its recorded smallest counterexample, and its
  correction holds (one test per claim);
* the encodings that carry most of the weight agree with direct transcriptions of what the documents print:
  the two Rust programs of 001 Examples 3.7 and 3.8, and Definition 3.2 of 000 (which gives the number that
  remains no value).
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from checkers.window.exhaustive import check_exhaustive
from nimjos.app import cli
from nimjos.spec.plan import plan_claim
from nimjos.lang.errors import EvalError
from nimjos.lang.compiler import compile_tree
from nimjos.lang.expr import evaluate
from nimjos.lang.syntax import parse
from nimjos.josephus.algorithms import survivor
from nimjos.spec.loader import load_spec

SPECS = Path(__file__).resolve().parents[3] / "specs"
DOC000 = "000_maxnim_josephus.toml"
DOC001 = "001_maxnim_josephus_algorithm.toml"
WRONG = ("refuted", "ill-defined")


@functools.lru_cache(maxsize=None)
def _spec(name: str):
    return load_spec(SPECS / name)


def _value(name: str, text: str, **env):
    """Evaluate an expression in a spec's namespace (its definitions and games)."""
    fn = compile_tree(parse(text), _spec(name).namespace, set(env))
    return evaluate(fn, env)


def _wrong_and_corrections(name: str) -> list[str]:
    spec = _spec(name)
    wrong = {c.id for c in spec.claims if c.expect in WRONG}
    return [c.id for c in spec.claims if c.id in wrong or c.corrects in wrong]


@pytest.mark.parametrize("name", (DOC000, DOC001))
def test_claims_plan_in_both_profiles(name):
    for claim in _spec(name).claims:
        for profile in ("default", "deep"):
            assert plan_claim(claim, profile) is not None, (claim.id, profile)


@pytest.mark.parametrize("name", (DOC000, DOC001))
def test_wrong_statements_have_noted_corrections_with_deep_windows(name):
    spec = _spec(name)
    fixes = {c.corrects: c for c in spec.claims if c.corrects}
    for claim in spec.claims:
        if claim.expect in WRONG and not claim.relaxes:
            fix = fixes.get(claim.id)
            if fix is None:
                assert claim.reading and claim.note, f"{claim.id} is {claim.expect}: nothing corrects it, no reading"
                continue
            # a correction over an infinite domain has a deeper window; one over a finite domain (a family of rule
            # functions on 0..K) is checked on all of it in every profile
            assert fix.expect == "holds" and fix.note and ("deep" in fix.raw or fix.get("window") is None), fix.id


def test_the_loader_keeps_the_reading_and_the_json_output_shows_it(capsys):
    claim = _spec(DOC000).claim("thm-3.4-eq-17")
    assert claim.reading.startswith('"sk+1" in (17) read as "sk+i"')
    assert _spec(DOC000).claim("thm-3.4-eq-7").reading == ""
    rc = cli.main(["check", str(SPECS / DOC000), "--claim", "thm-3.4-eq-17", "--method", "exhaustive", "--no-repair",
                   "--json", "--no-store"])
    (printed,) = json.loads(capsys.readouterr().out)["claims"]
    assert rc == cli.EXIT_OK and printed["verdict"] == "ill-defined"
    assert printed["reading"] == claim.reading


@pytest.mark.parametrize("name,cid", [(n, c) for n in (DOC000, DOC001) for c in _wrong_and_corrections(n)])
def test_wrong_statement_or_correction_verdict(name, cid):
    claim = _spec(name).claim(cid)
    verdict = check_exhaustive(claim, "default")
    assert verdict.agrees_with(claim.expect), (cid, verdict.verdict)
    smallest = verdict.counterexamples if verdict.verdict == "refuted" else verdict.undefined
    if claim.expect_counterexample and claim.expect in WRONG:
        assert smallest[0].position_text() == claim.expect_counterexample, cid


def _josephus_example_3_7(K: int, n: int) -> int:
    """Example 3.7's Rust function, transcribed line by line."""
    if n == 1:
        return 0
    if K > n:
        return (_josephus_example_3_7(K, n - 1) + K) % n
    cnt = n // K
    res = _josephus_example_3_7(K, n - cnt)
    t = n % K
    if res < t:
        res += n - t
    else:
        res -= t
        res += res // (K - 1)
    return res


def _calc_example_3_8(K: int, x: int) -> int:
    """Example 3.8's Rust function calc, transcribed line by line."""
    r = 0
    limit = (K - 1) * x
    while r < limit:
        r = r + r // (K - 1) + 1
    return r


def test_example_3_7_encoding_is_the_program():
    for K in range(2, 6):
        for n in range(1, 60):
            assert _value(DOC001, "josephus_rs(K, n)", K=K, n=n) == _josephus_example_3_7(K, n), (K, n)


def test_example_3_8_encoding_is_the_program():
    for K in range(2, 6):
        for x in range(1, 60):
            assert _value(DOC001, "calc_rs(K, x)", K=K, x=x) == _calc_example_3_8(K, x), (K, x)
            assert x * K - _calc_example_3_8(K, x) == survivor(x, K)


def test_definition_3_2_of_000_leaves_only_the_survivor_without_a_value():
    for k in range(2, 5):
        for n in range(1, 25):
            for m in range(1, n + 1):
                if m == survivor(n, k):
                    with pytest.raises(EvalError):
                        _value(DOC000, "JJ000(k, n, m)", k=k, n=n, m=m)
                else:
                    assert _value(DOC000, "JJ000(k, n, m)", k=k, n=n, m=m) == _value(DOC000, "JJ(k, n, m)", k=k, n=n, m=m)
