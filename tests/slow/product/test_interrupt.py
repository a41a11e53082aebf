"""Interrupt and resume: a real SIGINT (Ctrl-C) or SIGKILL to a real `nimjos check` loses no finished claim,
`nimjos check --resume` checks only what is missing, and the store then holds what one uninterrupted run
records (same verdicts, instances, counterexamples).
"""
from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nimjos.results.store import ResultsStore

#: claims of about half a second of CPU each, one refuted and one ill-defined among them: a recursive definition
#: evaluated at each of 600 instances (plain arithmetic over a range is now quick, and a check of such claims ended
#: before it could be interrupted on a loaded machine). When the second claim is recorded, four claims of that size
#: have not started: about a second of work is left on two cores, against a poll of 20 ms. (With 1,500 instances,
#: 2 s each, the three checks of a run of this file took a minute of CPU: it was among the suite's largest.)
SLOW_SPEC = """[source]
id = "slow"
title = "Claims slow enough to interrupt"

[define]
"r(d, a)" = "a if d == 0 else r(d - 1, a)"
""" + "".join(f"""
[[claim]]
id = "sum-of-squares-{i}"
for_all = "1 <= n <= {600 + 10 * i}"
holds = "6 * sum(j * j for j in range(r(150, n))) == (n - 1) * n * (2 * n - 1)"
""" for i in range(6)) + """
[[claim]]
id = "wrong-sum"
for_all = "1 <= n"
window = "n <= 600"
holds = "2 * sum(j for j in range(r(150, n))) == n * n"
expect = "refuted"

[[claim]]
id = "undefined-quotient"
for_all = "0 <= n"
window = "n <= 600"
holds = "sum(j for j in range(r(150, n))) / (n - 7) != 1 / 3"
expect = "ill-defined"
"""
CLAIMS = 8
ARGS = ("--method", "exhaustive", "--no-repair")


def nimjos(*args: str) -> list[str]:
    return [sys.executable, "-m", "nimjos.app.cli", *args]


def recorded(store: Path) -> list[tuple]:
    """(run_id, claim_id) of every record in the store, oldest first (read while a writer may be busy)."""
    if not store.exists():
        return []
    try:
        with sqlite3.connect(store, timeout=30) as conn:
            return conn.execute("SELECT run_id, claim_id FROM results ORDER BY id").fetchall()
    except sqlite3.OperationalError:  # the schema is not there yet
        return []


def outcome(store: Path) -> dict:
    """What the store says about each claim, without what differs between runs (times, run ids)."""
    with ResultsStore(store) as s:
        return {r["claim_id"]: (r["verdict"], r["method"], r["instances"], r["assumption_held"], r["failures"],
                                r["counterexamples"], r["undefined"], r["scope"]) for r in s.latest()}


@pytest.fixture(scope="module")
def slow_spec(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("slow") / "slow.toml"
    path.write_text(SLOW_SPEC)
    return path


@pytest.fixture(scope="module")
def reference(slow_spec, tmp_path_factory) -> dict:
    store = tmp_path_factory.mktemp("ref") / "ref.sqlite"
    r = subprocess.run(nimjos("check", str(slow_spec), "--store", str(store), *ARGS), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    result = outcome(store)
    assert len(result) == CLAIMS
    assert result["wrong-sum"][0] == "refuted" and result["undefined-quotient"][0] == "ill-defined"
    return result


def _sigint_default() -> None:
    """In the child before it starts: Ctrl-C's default action. A shell starts a background job with SIGINT ignored,
    and a process started that way (pytest run in the background, and the checks it starts) never sees it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt(spec: Path, store: Path, sig: int, after: int) -> subprocess.CompletedProcess:
    """Start a check, wait until `after` claims are recorded, send `sig`; return how the process ended."""
    proc = subprocess.Popen(nimjos("check", str(spec), "--store", str(store), *ARGS), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_sigint_default)
    deadline = time.monotonic() + 300
    while len(recorded(store)) < after:
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            out, err = proc.communicate()
            pytest.fail(f"the check ended (or stalled) before {after} claims were recorded:\n{out}\n{err}")
        time.sleep(0.02)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_interrupted_check_resumes_to_the_same_results(sig, slow_spec, reference, tmp_path):
    store = tmp_path / "results.sqlite"
    ended = interrupt(slow_spec, store, sig, after=2)
    if sig == signal.SIGINT:
        assert ended.returncode == 130, ended.stderr
        assert "--resume" in ended.stderr and "Traceback" not in ended.stderr
    else:
        assert ended.returncode == -signal.SIGKILL
    before = recorded(store)
    finished = {claim for _, claim in before}
    assert 2 <= len(finished) < CLAIMS, "the signal came too late to test anything"
    assert len(before) == len(finished), "a claim was recorded twice"

    r = subprocess.run(nimjos("check", str(slow_spec), "--store", str(store), "--resume", *ARGS),
                       capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    after = recorded(store)
    assert after[:len(before)] == before, "a finished claim was lost or rewritten"
    resumed = [claim for _, claim in after[len(before):]]
    assert sorted(resumed) == sorted(set(reference) - finished), "resume must check exactly what was missing"
    assert outcome(store) == reference

