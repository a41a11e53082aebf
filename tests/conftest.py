"""Shared fixtures: the path to the contract spec (tests/data/contract.toml, an in-repository copy of
shared/spec-examples/contract.toml, so that the suite needs nothing outside the repository) and spec writing."""
from __future__ import annotations

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
CONTRACT = ROOT / "tests" / "data" / "contract.toml"


@pytest.fixture
def contract_path() -> pathlib.Path:
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
