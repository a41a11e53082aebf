"""The closed vocabularies (nimjos.words) and the kinds of notes: code decides by a note's kind, never its words."""
from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

from checkers.options import RunOptions, Sharding
from checkers.sample.edge import _real
from checkers.sample.evaluate import Outcome, _undefined, too_large
from nimjos.lang.errors import EvalError, ResourceError, StepLimitError
from nimjos.lang.runtime import active_budget, step_limit
from nimjos.verdict import STRENGTH, Counterexample, Verdict
from nimjos.words import (EXPECT_WORDS, HOLDING, VERDICTS, Executor, Method, Note, NoteKind, Profile, Undefined, Word,
                          joined, note_kind)

ROOT = Path(__file__).resolve().parents[2]


def test_words_keep_their_text_in_json_and_comparisons():
    v = Verdict("c", "proved-bounded", "prove", "k = 2..4")
    assert v.verdict is Word.PROVED_BOUNDED and v.method is Method.PROVE
    assert v.verdict == "proved-bounded" and f"{v.verdict}" == "proved-bounded"
    assert json.loads(json.dumps(v.to_json()))["verdict"] == "proved-bounded"
    assert pickle.loads(pickle.dumps(v)).verdict is Word.PROVED_BOUNDED


def test_strength_orders_the_words_as_the_design_says():
    assert [w for w in sorted(Word, key=lambda w: -w.strength)] == list(VERDICTS)
    assert STRENGTH == {w: w.strength for w in Word}
    assert set(HOLDING) == {w for w in Word if w.holds}
    assert set(EXPECT_WORDS) == {"holds", *Word}


@pytest.mark.parametrize("bad", [dict(verdict="maybe"), dict(method="guess")])
def test_a_word_outside_the_vocabulary_is_refused(bad):
    fields = {"verdict": "checked", "method": "exhaustive", **bad}
    with pytest.raises(ValueError, match="unknown"):
        Verdict("c", fields["verdict"], fields["method"], "")


def test_options_take_the_enums():
    assert RunOptions(profile="deep").profile is Profile.DEEP
    assert Sharding(executor="dask").executor is Executor.DASK
    with pytest.raises(ValueError, match="unknown profile"):
        RunOptions(profile="quick")


def test_a_note_keeps_its_kind_through_pickling_and_joining():
    n = Note(NoteKind.SAFETY_NET, "the search stopped")
    assert pickle.loads(pickle.dumps(n)).kind is NoteKind.SAFETY_NET
    assert json.dumps([n]) == '["the search stopped"]'
    assert note_kind(joined(NoteKind.SAFETY_NET, "a table", n)) is NoteKind.SAFETY_NET
    # the words alone never make a kind: a remark that mentions a safety net is a remark
    assert note_kind(joined(NoteKind.SAFETY_NET, "a table", "the safety net stopped")) is NoteKind.REMARK


def test_the_step_limit_is_a_kind_of_error_and_of_note():
    with step_limit(3), pytest.raises(StepLimitError) as caught:
        for _ in range(10):
            active_budget().spend()
    assert note_kind(too_large(caught.value)) is NoteKind.STEP_LIMIT
    # another resource limit whose words mention steps is not a step limit
    other = ResourceError("a table of 10 steps is too large")
    assert note_kind(too_large(other)) is NoteKind.REMARK


def test_an_undefined_instance_has_its_kind_from_the_error_not_from_its_words():
    # the claim's language, though its words mention a size: still undefined (the old test by words skipped it)
    said = EvalError("octal code 'too large': write d0.d1d2... (one digit before the point, e.g. '0.77')")
    lang = Counterexample.undefined_at({"x": 1}, said)
    assert lang.undefined is Undefined.LANGUAGE and not lang.over_limit
    assert _undefined({"x": 1}, said).kind == Outcome.UNDEF
    # a limit of the machine, whatever its words say: skipped by the sampler, left out by the extra windows
    limit = Counterexample.undefined_at({"x": 2}, StepLimitError("an evaluation took more than 3 steps"))
    assert limit.undefined is Undefined.RESOURCE and limit.over_limit
    assert _undefined({"x": 2}, StepLimitError("an evaluation took more than 3 steps")).kind == Outcome.SKIP
    assert _real([lang, limit]) == [lang]
    # the kind survives a shard log (pickled) and the default is no kind (a failure, not an undefined instance)
    assert pickle.loads(pickle.dumps(limit)).undefined is Undefined.RESOURCE
    assert Counterexample({"x": 3}, 1, 2).undefined is None


def test_the_window_gives_an_undefined_instance_the_language_kind(tmp_path):
    from nimjos.spec.loader import load_spec
    from checkers.window.exhaustive import check_exhaustive
    spec = tmp_path / "u.toml"
    spec.write_text('[source]\nid = "u"\n[[claim]]\nid = "c"\nfor_all = "0 <= x <= 3"\nholds = "v2(x) >= 0"\n')
    v = check_exhaustive(load_spec(spec).claims[0], "default", 5)
    assert v.verdict == "ill-defined" and [cx.undefined for cx in v.undefined] == [Undefined.LANGUAGE]


#: a substring test on a note, a scope or an undefined instance's reason: `"..." in ...note`, `"..." in ...scope`,
#: `scope.startswith(...)`, `w in (cx.reason or "")`
TEXT_TEST = re.compile(r"""["'][^"']*["']\s+(not\s+)?in\s+[\w.\[\]]*(note|scope|reason)s?\b|"""
                       r"""\b(note|scope|reason)s?\.(startswith|endswith)\(|"""
                       r"""\b(?<!for )\w+\s+in\s+\(?[\w.\[\]]*\.reason\b""")


def test_the_text_test_finds_what_it_looks_for():
    assert TEXT_TEST.search('if any(w in (cx.reason or "") for w in WORDS):')
    assert TEXT_TEST.search('if "safety net" in out.note:') and TEXT_TEST.search("v.scope.startswith('the')")
    assert not TEXT_TEST.search("for cx in v.undefined if not cx.over_limit")


def test_no_substring_test_on_a_note_or_scope_decides_anything():
    found = []
    for path in [*ROOT.joinpath("checkers").rglob("*.py"), *ROOT.joinpath("nimjos").rglob("*.py")]:
        for no, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("#")[0]
            if TEXT_TEST.search(code) and ">>>" not in line:
                found.append(f"{path.relative_to(ROOT)}:{no}: {line.strip()}")
    assert not found, "\n".join(found)
