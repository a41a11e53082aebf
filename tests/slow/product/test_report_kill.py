"""Killing ``nimjos check`` halfway loses nothing it finished: the report shows every such claim."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path


from nimjos.report import render
from nimjos.results.store import ResultsStore

ROOT = Path(__file__).resolve().parents[3]
CLAIMS = 6


def slow_spec(path: Path) -> Path:
    """Claims of about a second each: 200,000 instances of a recursive definition, which the window evaluates one
    instance at a time (plain arithmetic is evaluated on arrays, a million instances in a few hundredths of a
    second, and the run would end before it is killed)."""
    parts = ['[source]\nid = "slow"\ntitle = "Claims that take a moment each"\n',
             '\n[define]\n"r(d, a)" = "a if d == 0 else r(d - 1, a)"\n']
    for i in range(1, CLAIMS + 1):
        parts.append(f'\n[[claim]]\nid = "c{i}"\nref = "Claim {i}"\nfor_all = "0 <= a <= {200_000 + i}"\n'
                     f'holds = "r(3, a) * a + {i} > a - 1"\n')
    path.write_text("".join(parts), encoding="utf-8")
    return path


def test_report_after_a_killed_check_shows_every_finished_claim(tmp_path):
    spec = slow_spec(tmp_path / "slow.toml")
    store = tmp_path / "results.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    code = "import sys; from nimjos.app.cli import main; sys.exit(main())"
    proc = subprocess.Popen([sys.executable, "-c", code, "check", str(spec), "--store", str(store),
                             "--method", "exhaustive"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True, env=env, cwd=tmp_path)
    finished = []
    try:
        for line in proc.stdout:
            words = line.split()
            if len(words) >= 3 and words[0] in ("ok", "XX"):
                finished.append(words[2])
                if len(finished) == 2:
                    break
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    assert finished == ["c1", "c2"]
    with ResultsStore(store) as results:
        recorded = {row["claim_id"] for row in results.latest()}
        assert results.runs()[-1]["finished"] is None          # the run was killed, not finished
    assert {"c1", "c2"} <= recorded and len(recorded) < CLAIMS
    render(store, tmp_path / "reports", ("md",))
    index = (tmp_path / "reports" / "index.md").read_text(encoding="utf-8")
    for claim_id in sorted(recorded):
        assert f"`{claim_id}`" in index
    assert f"{len(recorded)} claims: {len(recorded)} held" in index
