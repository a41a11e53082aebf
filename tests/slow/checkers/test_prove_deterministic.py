"""The same spec gives the same prove verdicts on a quiet and on a loaded machine (DESIGN.md, principle 7): Z3's
limits are resource counts (rlimit), not seconds. The claims below were flaky with wall-clock timeouts
(000 thm-3.4-eq-15-corrected was proved at 9.9 s of a 10 s budget in one run, inconclusive in another).

Nor on what the process did before: Z3 reuses the ids of freed terms, so a collection of Python's cyclic garbage
at a moment set by the process's past changed the units a query spent (checkers.context.frees_in_order). The
second run starts after other allocations and with Z3 memory left to the collector (Z3's bit-blasting gives up
past 100 MB of the process's Z3 memory), and compares the units of every query, not only the verdicts."""
from __future__ import annotations

import pathlib
import re
import subprocess
import sys

import z3

from checkers.options import RunOptions
from checkers.prove import prove_claim
from checkers.prove.rule_function import general_lemma
from checkers.z3.budget import Budget
from nimjos.spec.loader import load_spec
from nimjos.verdict import Verdict

ROOT = pathlib.Path(__file__).resolve().parents[3]
FLAKY = [("000_maxnim_josephus.toml", "thm-3.4-eq-15-corrected"), ("000_maxnim_josephus.toml", "thm-3.4-eq-15-all-i"),
         ("002_josephus_nim.toml", "lemma-1.1-1")]

SPENT = Budget.spent   # the budget's own charge, which the runs spy on


def _run(monkeypatch) -> tuple[dict, list[int]]:
    units: list[int] = []

    def spy(self, solver):
        n = SPENT(self, solver)
        units.append(n)
        return n
    monkeypatch.setattr(Budget, "spent", spy)
    general_lemma.cache_clear()   # proved again, so that both runs make the same queries
    out = {}
    window = Verdict("w", "checked", "exhaustive", "")   # the soundness check's window verdict, not recomputed
    for name, cid in FLAKY:
        claim = load_spec(ROOT / "specs" / name).claim(cid)
        v = prove_claim(claim, RunOptions(walnut=False), window=window)
        # what was decided, without timings (a scope may print seconds)
        out[cid] = (v.verdict, re.sub(r"[\d.]+ s\b", "", v.scope),
                    [n for n in v.notes if not n.startswith("stopped by the backstop")])
    return out, units


def _z3_garbage() -> None:
    """About 80 MB of Z3 memory in a cycle only the collector frees (what another claim could leave behind)."""
    ctx = z3.Context()
    cycle: list = [ctx, [z3.Int(f"t{i}", ctx) + i for i in range(20_000)]]
    cycle.append(cycle)


def _hogs(n: int = 2) -> list:
    return [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]


def test_the_flaky_claims_get_the_same_verdicts_on_a_loaded_machine_after_another_past(monkeypatch):
    quiet, quiet_units = _run(monkeypatch)
    past = [[i] for i in range(54_321)]   # allocations that move the collector's counters (another history)
    _z3_garbage()
    hogs = _hogs()
    try:
        loaded, loaded_units = _run(monkeypatch)
    finally:
        for p in hogs:
            p.kill()
            p.wait()
    del past
    assert quiet == loaded
    assert quiet_units == loaded_units
