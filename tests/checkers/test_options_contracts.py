"""Typed contracts between the methods (issue 25, item 4): the options of a run are named, typed fields (no
``extra`` dict); a method that does not apply says why as data, and its printed scope is built from it; the
window's verdict reaches the prover as a parameter, not through the options; the engines and the proved class
are data that control flow reads instead of a scope's words."""
from __future__ import annotations

import dataclasses
import pathlib

import pytest

import checkers.prove.method as prove_method
import checkers.run as run_module
from checkers.prove.soundness import backend, in_class
from checkers.options import RunOptions, SamplingLimits, Sharding
from checkers.heaps.periodicity import periodic_prove
from checkers.prove.method import prove_claim
from checkers.run import Earlier, run_claim
from checkers.window.shard import ShardResult, merge
from nimjos.spec.loader import load_spec
from nimjos.verdict import NOT_APPLICABLE, Counterexample, ProvedClass, Verdict

ROOT = pathlib.Path(__file__).resolve().parents[2]
LEMMAS = load_spec(ROOT / "tests" / "data" / "lemmas.toml")
TINY = load_spec(ROOT / "tests" / "data" / "tiny.toml")

FALSE_CLAIM = '''[source]
id = "contracts"
[[claim]]
id = "wrong"
for_all = "0 <= x <= 30"
holds = "(2*x + 1) // 2 == x + (x == 17)"
expect = "refuted"
[[claim]]
id = "skipped"
for_all = "0 <= x <= 30"
holds = "x + 0 == x"
prove = { skip = "the paper proves it by hand" }
'''


# ----------------------------------------------------------------------------- (a) the options are typed


def test_run_options_have_no_extra_dict_and_reject_unknown_keywords():
    opts = RunOptions()
    assert not hasattr(opts, "extra")
    assert "extra" not in {f.name for f in dataclasses.fields(RunOptions)}
    for key in ("extra", "verdicts", "using_path", "sample_examples", "workers"):
        with pytest.raises(TypeError, match="unexpected keyword"):
            RunOptions(**{key: 1})
    with pytest.raises(TypeError, match="unexpected keyword"):
        Sharding(shard_count=2)
    with pytest.raises(TypeError, match="unexpected keyword"):
        SamplingLimits(count=2)


def test_run_options_are_frozen_and_settings_are_named_fields():
    opts = RunOptions(sharding=Sharding(workers=3), sampling=SamplingLimits(examples=40), store="r.sqlite",
                      walnut=False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.walnut = True
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.sharding.workers = 1
    assert (opts.sharding.workers, opts.sharding.shards_for_workers(), opts.sampling.examples, opts.store) == \
        (3, 3, 40, "r.sqlite")
    assert RunOptions().sharding.wanted() is False and Sharding(executor="dask").wanted() is True
    with pytest.raises(ValueError, match="executor"):
        Sharding(executor="threads")


# ----------------------------------------------------------------------------- (b) applicability is data


def test_a_method_that_does_not_apply_says_why_as_data():
    v = periodic_prove(load_spec(ROOT / "examples" / "heap_games.toml").claim("kayles-period-12"), RunOptions())
    assert v.verdict == "inconclusive" and v.applicable is False
    assert v.reason.startswith("a periodic claim is proved by the periodicity method")
    assert v.scope == f"{NOT_APPLICABLE}: {v.reason}"          # the printed scope is built from the reason
    assert v.to_json()["applicable"] is False and v.to_json()["reason"] == v.reason


def test_the_prover_skips_with_the_reason_as_data(write_spec):
    spec = load_spec(write_spec(FALSE_CLAIM))
    v = prove_claim(spec.claim("skipped"), RunOptions(walnut=False))
    assert (v.verdict, v.applicable, v.reason) == ("inconclusive", False, "the paper proves it by hand")
    assert v.scope == "not applicable: the paper proves it by hand"


def test_applicability_is_read_from_the_data_never_from_the_scope():
    # a scope that happens to begin with the words is still an applicable method's answer
    assert Verdict("c", "inconclusive", "prove", "not applicable: (only words)").applicable is True
    # and a method that does not apply cannot claim a holding word, nor omit its reason
    with pytest.raises(ValueError):
        Verdict("c", "checked", "prove", "x", applicable=False, reason="r")
    with pytest.raises(ValueError):
        Verdict("c", "inconclusive", "prove", "x", applicable=False)


def test_the_failed_audit_names_the_backend_from_the_engines_not_the_scope():
    proof = Verdict("c", "proved", "prove", "all x >= 0; the Walnut paper's lemma", engines=("Z3",))
    assert backend(proof) == "Z3"
    assert backend(Verdict("c", "proved", "prove", "", engines=("Sprague-Grundy", "Walnut"))) == "Walnut"
    bounded = Verdict("c", "proved-bounded", "prove", "for k = 2, 3 only", proved_class=ProvedClass({"k": (2, 3)}))
    assert in_class(bounded, {"k": 4}) is False and in_class(bounded, {"k": 2}) is True
    assert in_class(Verdict("c", "proved-bounded", "prove", "for k = 2, 3 only"), {"k": 4}) is None


def test_the_window_names_its_engines_as_data_and_shards_keep_them():
    claim = TINY.claim("nim1-grundy")
    window = run_claim(claim, RunOptions(methods=("exhaustive",), repair=False)).verdicts[0]
    assert window.engines and window.scope.endswith("ground truth: " + ", ".join(window.engines))

    def part(head):
        return ShardResult(0, (0, 20), {"verdict": "checked", "instances": 21, "held": 21, "failures": 0,
                                        "undefined_count": 0, "evidence": {}, "notes": [], **head}, [], [], 0.1, 1)
    merged = merge(claim, [part({"scope": "ignored", "engines": ["x-engine"]})], 10, "local", 1, 0.1)
    assert merged.engines == ("x-engine",) and "ground truth: x-engine;" in merged.scope
    # a shard recorded before the engines were data (a resumed run) still merges as it did
    legacy = merge(claim, [part({"scope": "0 <= x <= 20; game nim1; ground truth: old-engine"})], 10, "local", 1, 0.1)
    assert legacy.engines == ("old-engine",) and "ground truth: old-engine;" in legacy.scope


# ----------------------------------------------------------------------------- (c) earlier verdicts are parameters


def test_the_prover_reads_the_window_verdict_it_is_given(monkeypatch):
    claim = LEMMAS.claim("half")
    refuted = Verdict("half", "refuted", "exhaustive", "", counterexamples=[Counterexample({"x": 3}, 0, 3)])
    # the prover proves; the dispatcher holds the proof to the window (tests/checkers/prove/test_soundness.py)
    assert prove_claim(claim, RunOptions(walnut=False), window=refuted).verdict == "proved"

    def no_window_check(*args, **kwargs):
        raise AssertionError("the prover re-checked the window it was given")
    monkeypatch.setattr(prove_method, "finite_proof", lambda c, o, w: no_window_check() if w is None else None)
    checked = Verdict("half", "checked", "exhaustive", "")
    v = prove_claim(claim, RunOptions(walnut=False), window=checked)
    assert v.verdict == "proved" and v.engines == ("Z3",)


def test_the_runner_passes_the_window_to_the_prover(monkeypatch):
    claim = LEMMAS.claim("half")
    refuted = Verdict("half", "refuted", "exhaustive", "", counterexamples=[Counterexample({"x": 3}, 0, 3)])
    monkeypatch.setattr(run_module, "check_exhaustive", lambda *a, **k: refuted)
    # a method asked for by name runs after a window refutation: its proof is held to that window, a prover bug
    result = run_claim(claim, RunOptions(methods=("exhaustive", "prove"), walnut=False, repair=False))
    proof = next(v for v in result.verdicts if v.method == "prove")
    assert proof.verdict == "inconclusive" and "PROVER BUG" in proof.evidence["prover_bug"]


def test_a_claim_refuted_on_its_window_is_not_proved(write_spec):
    claim = load_spec(write_spec(FALSE_CLAIM)).claim("wrong")
    result = run_claim(claim, RunOptions(walnut=False, repair=False))
    assert [v.method for v in result.verdicts] == ["exhaustive"]
    assert result.final.verdict == "refuted" and result.final.counterexamples[0].bindings == {"x": 17}
    assert "prove not run: the window refutes the claim" in result.final.notes
    assert "sample not run: the window refutes the claim" in result.final.notes


def test_earlier_verdicts_are_a_typed_record():
    w, p = Verdict("c", "checked", "exhaustive", ""), Verdict("c", "proved", "prove", "")
    e = Earlier().after("exhaustive", w).after("prove", p).after("sample", Verdict("c", "sampled", "sample", ""))
    assert (e.window, e.proof) == (w, p)
    with pytest.raises(dataclasses.FrozenInstanceError):
        e.window = None
