"""What the terminal shows of a result (issue 28): the two values of a counterexample named, never "lhs"/"rhs";
a spec error met while a claim runs under pytest shown as its message, without an internal traceback."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from nimjos.app.cli import main

ROOT = Path(__file__).resolve().parents[2]

P_POSITIONS = '''[source]
id = "t"
[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]
[[claim]]
id = "p-from-1"
game = "sub12"
for_all = "0 <= n"
window = "n <= 30"
p_positions = [ { point = "3 * j", where = "j >= 1" } ]
expect = "refuted"
'''


def test_the_terminal_names_both_sides_of_a_counterexample(write_spec, capsys):
    path = write_spec(P_POSITIONS)
    main(["check", str(path), "--no-store", "--no-repair", "--method", "exhaustive"])
    out = capsys.readouterr().out
    line = next(line for line in out.splitlines() if "smallest counterexample" in line)
    assert "lhs" not in line and "rhs" not in line
    assert "n=0: outcome (from the moves) P, claimed outcome N" in line


HUGE = '''[source]
id = "huge"
[game.sub12]
position = ["n"]
moves = [ { to = "n - s", where = "s in {1, 2} and s <= n" } ]
[[claim]]
id = "c"
game = "sub12"
for_all = "0 <= n"
window = "n <= 10**9"
grundy = "n % 3"
'''


def test_a_spec_error_under_pytest_is_its_message_without_a_traceback(tmp_path, starts_processes):
    spec = tmp_path / "huge.toml"
    spec.write_text(HUGE)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-m", "pytest", str(spec), "-q", "-p", "no:cacheprovider"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 1, proc.stdout[-3000:]
    assert "over the limit" in proc.stdout
    assert "CallInfo" not in proc.stdout and "runner.py" not in proc.stdout and "def " not in proc.stdout
