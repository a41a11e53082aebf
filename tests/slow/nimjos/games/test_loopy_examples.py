"""examples/loopy/: every method on each file, as `nimjos check` runs it by default (the sampler draws larger boards
and heaps, each judged by its finite game graph): every verdict is the one the spec expects."""
from __future__ import annotations

import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[4]
FILES = sorted((ROOT / "examples" / "loopy").glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_every_verdict_is_the_expected_one(path, tmp_path, cli_process):
    r = cli_process("check", str(path), "--json", "--no-store", "--no-repair", timeout=900, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    claims = json.loads(r.stdout)["claims"]
    holding = [c for c in claims if c["expect"] == "holds"]
    assert holding and all(c["verdict"] == "sampled" for c in holding), [(c["id"], c["verdict"]) for c in holding]
