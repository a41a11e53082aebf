"""docs/spec-format.md cannot drift from the code: every TOML example loads and gets its `expect`, and
every built-in example evaluates to True."""
from __future__ import annotations

import pathlib
import re

import pytest

from checkers.run import RunOptions, run_claim
from nimjos.spec.names import spec_namespace
from nimjos.spec.names import SPEC_BUILTINS as BUILTINS
from nimjos.verdict import agreement
from nimjos.lang.expr import compile_expression
from nimjos.spec.loader import load_spec
from nimjos.spec.schema import (CLAIM_FIELDS, EXPECT_WORDS, FAMILY_FIELDS, GAME_FIELDS, KIND_FIELDS, MOVE_FIELDS,
                                 PROFILE_FIELDS, PROVE_FIELDS, SAMPLE_FIELDS, SOURCE_FIELDS, VALUES_FIELDS)

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "spec-format.md"
TEXT = DOC.read_text()
TOML_BLOCKS = re.findall(r"```toml\n(.*?)```", TEXT, re.S)
BUILTIN_ROWS = [(m.group(1), m.group(2)) for m in re.finditer(r"^\| (`[^|]+`) \| [^|]+ \| `([^`]+)` \|$", TEXT, re.M)]


@pytest.mark.parametrize("index", range(len(TOML_BLOCKS)))
def test_toml_examples(index, tmp_path):
    path = tmp_path / f"example{index}.toml"
    path.write_text(TOML_BLOCKS[index])
    spec = load_spec(path)
    assert spec.claims
    for claim in spec.claims:
        result = run_claim(claim, RunOptions(methods=("exhaustive",), repair=False))
        agrees, why = agreement(result.final, claim.expect, claim.expect_counterexample)
        assert agrees, f"{claim.id}: {result.final.verdict} ({why})"


@pytest.mark.parametrize("names,example", BUILTIN_ROWS)
def test_builtin_examples(names, example):
    assert compile_expression(example, spec_namespace())({}) is True


def test_every_builtin_is_documented():
    documented = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)[(`]", "\n".join(n for n, _ in BUILTIN_ROWS)))
    assert set(BUILTINS) <= documented, set(BUILTINS) - documented
    assert len(TOML_BLOCKS) >= 4


def _backquoted() -> set[str]:
    """Every word written inside a code span of the document (`grundy`, `{ of = ... }`, `proved-bounded`)."""
    spans = re.findall(r"`([^`\n]+)`", TEXT)
    return {w for span in spans for w in re.findall(r"[A-Za-z_][A-Za-z0-9_-]*", span)}


@pytest.mark.parametrize("table,fields", [
    ("[source]", SOURCE_FIELDS), ("[game.NAME]", GAME_FIELDS), ("a move family", MOVE_FIELDS),
    ("[[claim]]", CLAIM_FIELDS), ("sample", SAMPLE_FIELDS), ("prove", PROVE_FIELDS), ("deep", PROFILE_FIELDS),
    ("a family of points", FAMILY_FIELDS), ("values", VALUES_FIELDS), ("expect", dict.fromkeys(EXPECT_WORDS)),
])
def test_every_field_of_the_schema_is_documented(table, fields):
    # a field the loader accepts is one the format's document explains (written `name` in it)
    missing = sorted(set(fields) - _backquoted())
    assert not missing, f"{table}: {missing} not in docs/spec-format.md"


def test_every_kind_and_every_builtin_name_appears_and_what_is_fast_is_said():
    assert set(KIND_FIELDS) <= _backquoted()
    assert set(BUILTINS) <= _backquoted(), set(BUILTINS) - _backquoted()
    fast = TEXT.split("## What is fast", 1)[1].split("\n## ", 1)[0]
    for form in ("grundy", "holds", "G", "recursive definitions", "reference engine"):
        assert form in fast, form
