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

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "spec-format.md"
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
