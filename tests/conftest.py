"""Shared fixtures: paths to the shared contract and the project's specs."""
from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CONTRACT = SHARED / "spec-examples" / "contract.toml"


@pytest.fixture
def contract_path() -> pathlib.Path:
    if not CONTRACT.exists():
        pytest.skip("shared/spec-examples/contract.toml is not beside this clone")
    return CONTRACT


@pytest.fixture
def write_spec(tmp_path):
    """Write a spec text to a temporary file and return its path."""
    def write(text: str, name: str = "spec.toml") -> pathlib.Path:
        p = tmp_path / name
        p.write_text(text)
        return p
    return write


os.environ.setdefault("NIMJOS_STORE", str(ROOT / ".nimjos" / "test-results.sqlite"))
