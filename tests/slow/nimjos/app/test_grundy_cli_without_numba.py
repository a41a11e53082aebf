"""``nimjos grundy`` on a heap game whose table is small work (4,096 heaps computed, the rest by a proved period)
runs without numba (issue 37: Dawson's Kayles to 3 * 10^5 within 1.5x of the C plain mex as a whole process,
where numba's start-up alone costs about 0.55 s of CPU); a table that needs the compiled kernels loads numba."""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np

from nimjos.games.heaps.fast import sequence
from nimjos.games.heaps.rules import GRUNDYS_GAME, octal_rules

ROOT = pathlib.Path(__file__).resolve().parents[4]
PROBE = """
import contextlib, io, json, sys
from nimjos.app.cli import main
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue(), "numba": "numba" in sys.modules}))
"""


def grundy(*argv: str) -> dict:
    run = subprocess.run([sys.executable, "-c", PROBE, "grundy", *argv], capture_output=True, text=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])


def test_dawsons_kayles_to_300000_runs_without_numba(tmp_path, starts_processes):
    out = tmp_path / "dawson.npy"
    result = grundy('octal("0.07")', "--window", "0 <= n <= 300000", "--out", str(out))
    assert result["code"] == 0 and not result["numba"], result
    assert "period 34" in result["out"] and "computed to 4,096" in result["out"]
    values = np.load(out)
    assert values.shape == (300_001,) and np.array_equal(values[:20_001], sequence(octal_rules("0.07"), 20_000))
    assert np.array_equal(values[53:-34], values[87:])


def test_grundys_game_loads_the_compiled_kernels(tmp_path, starts_processes):
    """The probe is not vacuous: Grundy's game to 10^5 (no period theorem, 10^5 heaps computed) runs them."""
    out = tmp_path / "grundy.npy"
    result = grundy("grundys_game()", "--window", "0 <= n <= 100000", "--out", str(out))
    assert result["code"] == 0 and result["numba"], result
    assert np.array_equal(np.load(out), sequence(GRUNDYS_GAME, 100_000))
