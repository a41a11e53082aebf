"""Fuzzing: generated expressions and whole specs never end in an exception other than nimjos's own.

The strategies live in scripts/fuzz.py (which also runs the long fuzz); this CI-sized run checks 5,000
inputs, derandomized so that it is the same run every time.
"""
from __future__ import annotations

import collections
import functools
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))
import fuzz  # noqa: E402

EXPRESSIONS = 4_600   # drawn ten at a time (one hypothesis example each), which costs a third as much
SPECS = 400
BATCH = 10
COMMON = dict(database=None, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


@functools.cache
def expression_outcomes() -> collections.Counter:
    """Run the derandomized expression fuzz once per session and count what each input did.

    Both expression tests call this, so that each of them holds on its own, run alone or in any order
    (the counts used to be a module-level dict filled by the other test)."""
    seen: collections.Counter = collections.Counter()

    @settings(max_examples=EXPRESSIONS // BATCH, **COMMON)
    @given(st.lists(fuzz.expressions(), min_size=BATCH, max_size=BATCH))
    def run(texts):
        for text in texts:
            seen[fuzz.run_expression(text)] += 1
    run()
    return seen


def test_expressions_compile_and_evaluate_or_fail_cleanly():
    # a foreign exception propagates out of run_expression and fails this test
    assert sum(expression_outcomes().values()) >= EXPRESSIONS


def test_expressions_cover_success_and_each_refusal():
    # the run must have exercised the language, not only its refusals
    seen = expression_outcomes()
    assert sum(seen.values()) >= EXPRESSIONS
    assert seen["ok"] > EXPRESSIONS // 10, seen
    assert seen["SpecError"] > EXPRESSIONS // 10, seen
    assert seen["EvalError"] > 0, seen


def test_specs_load_and_check_or_fail_cleanly(tmp_path):
    @settings(max_examples=SPECS, **COMMON)
    @given(fuzz.specs())
    def run(text):
        fuzz.run_spec(text, tmp_path)
    run()


def test_the_fuzzer_catches_a_foreign_exception(monkeypatch):
    # a planted bug (a TypeError out of the compiler) must surface, not be swallowed as a verdict
    import nimjos.lang.expr

    def broken(*args, **kwargs):
        raise TypeError("planted")
    monkeypatch.setattr(nimjos.lang.expr, "compile_expression", broken)
    try:
        fuzz.run_expression("x + 1")
    except TypeError:
        return
    raise AssertionError("the planted TypeError was swallowed")
