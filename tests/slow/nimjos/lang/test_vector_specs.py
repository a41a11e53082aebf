"""The specs/ claims on the vectorised window, slow by its folder: the main theorems checked on their large windows,
and every claim of two spec documents alike on the scalar and the vectorised paths (from
tests/nimjos/lang/test_vector.py)."""
from __future__ import annotations

import pathlib

import pytest

import checkers.window.exhaustive as exhaustive
from nimjos.spec.loader import load_spec
from vector_paths import scalar_and_vector, window_size

SPECS = pathlib.Path(__file__).resolve().parents[4] / "specs"

MAIN_VECTORISED = [
    ("002_josephus_nim", "thm-1.1", "refuted"), ("002_josephus_nim", "thm-1.1-corrected", "checked"),
    ("002_josephus_nim", "thm-2.1", "checked"), ("002_josephus_nim", "thm-2.2", "checked"),
    ("002_josephus_nim", "lemma-1.2", "checked"), ("004_cyclic_nimhoff_delete_nim", "thm-1.16-wythoff", "checked"),
    ("001_maxnim_josephus_algorithm", "thm-3.6", "checked"),
    ("003_turn_nim_and_weighted_nim", "thm-3.1-corrected", "checked"),
    ("003_turn_nim_and_weighted_nim", "lemma-3.2-corrected", "checked"),
    ("003_turn_nim_and_weighted_nim", "thm-2.1", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-1.17-cyclic-nimhoff-2", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-1.17-cyclic-nimhoff-3", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-2.4-two-heaps", "checked"),
    ("004_cyclic_nimhoff_delete_nim", "thm-2.4-three-heaps", "checked"), ("004_cyclic_nimhoff_delete_nim", "thm-2.9", "checked"),
]


@pytest.mark.parametrize("stem,cid,verdict", MAIN_VECTORISED)
def test_main_theorem_window_is_large_and_vectorised(stem, cid, verdict):
    claim = load_spec(SPECS / f"{stem}.toml").claim(cid)
    assert window_size(claim) >= 10 ** 6
    v = exhaustive.check_exhaustive(claim)
    assert v.instances >= 10 ** 6
    assert v.verdict == verdict
    assert any("evaluated vectorised" in n for n in v.notes)


@pytest.mark.parametrize("stem", ["002_josephus_nim", "004_cyclic_nimhoff_delete_nim"])
def test_spec_claims_alike_on_both_paths(stem):
    """Every claim of the spec with a window of at most 20,000 instances that the vectorised path takes: the same
    verdict, counts, counterexamples, undefined instances, evidence and scope as the scalar path."""
    taken = 0
    for claim in load_spec(SPECS / f"{stem}.toml").claims:
        if claim.kind not in ("holds", "grundy", "p_positions", "level_set"):
            continue
        plan = claim.plan("default")
        arrays = plan.window.arrays({}) if plan.window is not None else None
        if not arrays or len(next(iter(arrays.values()))) > 20_000:
            continue
        scalar, vector = scalar_and_vector(claim)
        if not any("vectorised" in n for n in vector.notes):
            continue
        taken += 1
        assert (scalar.verdict, scalar.instances, scalar.assumption_held, scalar.failures, scalar.scope) == \
            (vector.verdict, vector.instances, vector.assumption_held, vector.failures, vector.scope), claim.id
        assert [c.to_json() for c in scalar.counterexamples] == [c.to_json() for c in vector.counterexamples]
        assert [c.to_json() for c in scalar.undefined] == [c.to_json() for c in vector.undefined]
        assert scalar.evidence == vector.evidence, claim.id
        g_note = "one position at a time"  # true of the scalar path only where the vectorised one takes G as a table
        assert [n for n in scalar.notes if g_note not in n] == \
            [n for n in vector.notes if "vectorised" not in n and g_note not in n], claim.id
    assert taken >= 10
