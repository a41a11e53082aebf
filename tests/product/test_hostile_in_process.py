"""The hostile corpus's bad-input cases, in this process: the fast twin of tests/product/test_hostile.py.

tests/product/test_hostile.py runs every case of tests/hostile/cases/ in a forked child with a memory limit (slow: it
starts a process per case). Here each case whose expected exit is 2 (a spec error, found before any method runs)
runs through ``nimjos.app.cli.main`` in this process, stdout and stderr captured, and must give what
tests/hostile/expected.toml says: exit 2, no traceback, one line on stderr per fault, each naming the file, and
among them the fault the corpus names (line, item, field, message fragments where the corpus gives them), within
the corpus's CPU limit. The cases whose expected
verdict is ill-defined (exit 1) evaluate the mathematics and stay in the forked, memory-limited run only.
"""
from __future__ import annotations

import time

import pytest

from tests.product.test_hostile import CASES, CPU_LIMIT, EXPECTED, LINE, argv_for

BAD_INPUT = sorted(name for name, exp in EXPECTED.items() if exp["exit"] == 2)


def test_most_of_the_corpus_is_bad_input():
    """The in-process run covers the corpus's spec errors: at least 100 of them (a corpus that lost its
    exit-2 cases would make the parametrised test below vacuous)."""
    assert len(BAD_INPUT) >= 100


@pytest.mark.parametrize("name", BAD_INPUT)
def test_hostile_case_in_process(name, cli):
    path = CASES / f"{name}.toml"
    exp = EXPECTED[name]
    start = time.process_time()
    got = cli(*argv_for(name, path))
    cpu = time.process_time() - start
    context = f"case {name}: exit {got.returncode}\nstderr: {got.stderr}\nstdout: {got.stdout[-2000:]}"
    assert "Traceback" not in got.stderr and "Traceback" not in got.stdout, context
    assert got.returncode == 2, context
    assert cpu < CPU_LIMIT, f"case {name} took {cpu:.1f} s of CPU"
    lines = got.stderr.strip().splitlines()
    assert lines, context
    assert len(set(lines)) == len(lines), f"a fault reported twice; {context}"
    found = [LINE.match(line) for line in lines]
    assert all(found), f"every line is 'nimjos: FILE[:LINE]: ...'; {context}"
    assert {m.group("file") for m in found} == {str(path)}, context
    # the fault the corpus names is one of the lines (a case with several faults gets one line per fault)
    assert any(_is_expected(exp, m) for m in found), context


def _is_expected(exp: dict, m) -> bool:
    """Does the message line `m` point where the corpus's expectation `exp` says, with its fragments?"""
    rest = m.group("rest")
    return (("line" not in exp or m.group("line") == str(exp["line"]))
            and ("item" not in exp or exp["item"] in rest)
            and ("field" not in exp or f"field '{exp['field']}'" in rest)
            and all(fragment in rest for fragment in exp.get("says", [])))
