"""The hostile corpus: every bad spec under tests/hostile/cases/ fails loudly and correctly.

Each case runs `nimjos check CASE --no-store` in its own process (forked from this one, so that the import
cost is paid once) with an address-space limit and a timeout, and must give what tests/hostile/expected.toml
says: exit 2 with one line on stderr per fault, each naming file, line, claim (or game) and field, or, for a fault in the
mathematics, the verdict ill-defined at the stated instance. Never a traceback; under 5 s of CPU.
A few cases also run through a real `python -m nimjos.app.cli` subprocess.
"""
from __future__ import annotations

import io
import json
import os
import re
import resource
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
CASES = HOSTILE / "cases"
EXPECTED = tomllib.loads((HOSTILE / "expected.toml").read_text())["case"]

#: CPU seconds a hostile case may take (the error contract). The evaluator's budgets are counts of steps; under a
#: line tracer (coverage) each step costs about three times as much, and the limit scales with it
CPU_LIMIT = 5.0 * (3 if sys.gettrace() is not None else 1)
#: wall-clock seconds before a case is killed (generous: the machine is shared)
WALL_LIMIT = 60.0
#: address space a case may add to what the interpreter already maps
EXTRA_MEMORY = 1 << 30

LINE = re.compile(r"^nimjos: (?P<file>[^\n]+?)(?::(?P<line>\d+))?: (?P<rest>.*)$")


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    cpu: float
    wall: float


def _mapped_bytes() -> int:
    """The address space this process maps now (VmSize), in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            return int(line.split()[1]) * 1024
    return 0


def run_forked(argv: list[str], extra_memory: int = EXTRA_MEMORY, timeout: float = WALL_LIMIT) -> Outcome:
    """Run ``nimjos.app.cli.main(argv)`` in a forked child with a memory limit; return what it printed."""
    import nimjos.app.cli as cli
    import nimjos.spec.budget, checkers.run, nimjos.spec.loader  # noqa: F401,E401  (imported once, here)

    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        code = 1
        try:
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            sys.stdout = io.TextIOWrapper(os.fdopen(1, "wb", closefd=False), write_through=True)
            sys.stderr = io.TextIOWrapper(os.fdopen(2, "wb", closefd=False), write_through=True)
            limit = _mapped_bytes() + extra_memory
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            code = cli.main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        except BaseException:  # what the interpreter would print
            traceback.print_exc()
            code = 1
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(code if isinstance(code, int) else 1)
    deadline = start + timeout
    while True:
        done, status, usage = os.wait4(pid, os.WNOHANG)
        if done:
            break
        if time.perf_counter() > deadline:
            os.kill(pid, signal.SIGKILL)
            _, status, usage = os.wait4(pid, 0)
            break
        time.sleep(0.005)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    out.seek(0)
    err.seek(0)
    return Outcome(code, out.read().decode(errors="replace"), err.read().decode(errors="replace"),
                   usage.ru_utime + usage.ru_stime, wall)


def check_outcome(name: str, path: Path, got: Outcome) -> None:
    """Assert that `got` is what expected.toml asks of case `name`."""
    exp = EXPECTED[name]
    context = f"case {name}: exit {got.code}\nstderr: {got.stderr}\nstdout: {got.stdout[-2000:]}"
    assert "Traceback" not in got.stderr and "Traceback" not in got.stdout, context
    assert got.code == exp["exit"], context
    assert got.cpu < CPU_LIMIT, f"case {name} took {got.cpu:.1f} s of CPU"
    if "verdict" in exp:
        data = json.loads(got.stdout)
        assert data["errors"] == [], context
        claim = data["claims"][0]
        assert claim["verdict"] == exp["verdict"], context
        first = (claim.get("undefined") or claim["counterexamples"])[0]
        for k, v in exp.get("at", {}).items():
            assert first["bindings"].get(k) == v, context
        for fragment in exp.get("says", []):
            assert fragment in first.get("reason", ""), context
        return
    if exp["exit"] == 0:
        assert got.stderr == "", context
        return
    # one line per independent fault (issue 37: every error in one run), each naming the file; the fault the
    # case is about is one of them
    lines = got.stderr.strip().splitlines()
    assert lines and len(lines) == len(set(lines)), f"one line per fault expected; {context}"
    matches = [LINE.match(line) for line in lines]
    assert all(matches), context
    assert all(m.group("file") == str(path) for m in matches), context
    assert any(_names_the_fault(m, exp) for m in matches), context


def _names_the_fault(m: re.Match, exp: dict) -> bool:
    """Whether the stderr line `m` is the fault that the case's entry `exp` of expected.toml describes."""
    rest = m.group("rest")
    return (("line" not in exp or m.group("line") == str(exp["line"]))
            and ("item" not in exp or exp["item"] in rest)
            and ("field" not in exp or f"field '{exp['field']}'" in rest)
            and all(fragment in rest for fragment in exp.get("says", [])))


def argv_for(name: str, path: Path) -> list[str]:
    exp = EXPECTED[name]
    argv = ["check", str(path), "--no-store", *exp.get("args", [])]
    if "verdict" in exp:
        argv.append("--json")
    return argv


def test_corpus_is_complete():
    files = {p.stem for p in CASES.glob("*.toml")}
    assert files == set(EXPECTED), files ^ set(EXPECTED)
    assert len(files) >= 60
    assert sum(1 for e in EXPECTED.values() if "verdict" in e) >= 5


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_hostile_case(name, starts_processes):
    path = CASES / f"{name}.toml"
    check_outcome(name, path, run_forked(argv_for(name, path)))


PENDING = sorted(name for name, exp in EXPECTED.items() if "pending" in exp)


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason=EXPECTED[n]["pending"]))
                                  for n in PENDING])
def test_hostile_case_pending_location(name, starts_processes):
    """What the message should also say once the fix named in `pending` is made (then drop `pending`)."""
    path = CASES / f"{name}.toml"
    got = run_forked(argv_for(name, path))
    final = [line for line in got.stderr.splitlines() if line.startswith("nimjos: ")][-1]
    m = LINE.match(final)
    assert m and m.group("line") == str(EXPECTED[name]["pending_line"]), final
    assert m.group("rest").startswith(EXPECTED[name]["pending_item"] + ","), final


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))


@pytest.mark.parametrize("name", ["import_attack", "game_infinite", "division_by_zero"])
def test_hostile_case_real_process(name, starts_processes):
    path = CASES / f"{name}.toml"
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    start = time.perf_counter()
    # this child's own resource use (os.wait4), not RUSAGE_CHILDREN: that is the largest of every child the test
    # session has waited for, other tests' included
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen([sys.executable, "-m", "nimjos.app.cli", *argv_for(name, path)], stdout=out,
                                stderr=err, text=True, preexec_fn=_limit_memory, env=env)
        timer = threading.Timer(WALL_LIMIT, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    check_outcome(name, path, Outcome(proc.returncode, stdout, stderr, 0.0, time.perf_counter() - start))
    assert usage.ru_maxrss < 3 << 20  # kilobytes: under 3 GB resident

