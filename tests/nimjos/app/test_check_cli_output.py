"""The text output of ``nimjos check``: under the smallest counterexample of a refuted claim it prints the
command that re-runs that instance (as the README says), and that command reproduces the counterexample."""
from __future__ import annotations

import pathlib
import shlex

from nimjos.app.cli import main

CONTRACT = pathlib.Path(__file__).resolve().parents[3] / "tests" / "data" / "contract.toml"


def check(capsys, *argv: str) -> tuple[int, list[str]]:
    status = main(["check", *argv, "--no-store", "--method", "exhaustive"])
    return status, capsys.readouterr().out.splitlines()


def test_refuted_claim_prints_the_rerun_command_under_the_smallest_counterexample(capsys):
    status, lines = check(capsys, str(CONTRACT), "--claim", "nim-sum-parity")
    assert status == 0    # the claim is expected to be refuted
    smallest = next(i for i, line in enumerate(lines) if "smallest counterexample: x=0, y=2" in line)
    rerun = lines[smallest + 1].strip()
    assert rerun.startswith("re-run: nimjos check "), lines
    assert "--claim nim-sum-parity" in rerun and "x=0,y=2" in rerun

    # the printed command checks that one instance and finds the same counterexample
    argv = shlex.split(rerun.removeprefix("re-run: "))
    assert argv[:2] == ["nimjos", "check"]
    status, lines = check(capsys, *argv[2:])
    assert status == 0
    assert any("refuted" in line and "nim-sum-parity" in line and "1 instance]" in line for line in lines), lines
    assert any("smallest counterexample: x=0, y=2" in line for line in lines), lines


def test_a_claim_that_holds_prints_no_rerun_command(capsys):
    status, lines = check(capsys, str(CONTRACT), "--claim", "delete-nim-grundy")
    assert status == 0
    assert not any("re-run:" in line for line in lines), lines
