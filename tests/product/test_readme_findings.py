"""The README findings section (scripts/readme_findings.py): every printed statement found wrong is listed, whether
or not a correction exists, with the reading it rests on; relaxation probes are counted apart, never listed; the
table counts the verdicts that rest on a reading."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from nimjos.app import cli
from nimjos.results.store import ResultsStore
from nimjos.spec.loader import load_spec

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import readme_findings  # noqa: E402

SPEC = '''
[source]
id = "t"
title = "a test document"

[[claim]]
id = "printed-on-a-reading"
ref = "(17)"
text = "n < 3 for n = 0..3"
reading = '"n < 8" read as "n < 3"'
for_all = "0 <= n <= 3"
holds = "n < 3"
expect = "refuted"

[[claim]]
id = "printed-uncorrected"
ref = "Example 1"
for_all = "0 <= n <= 3"
holds = "n != 2"
expect = "refuted"

[[claim]]
id = "its-correction"
corrects = "printed-on-a-reading"
note = "n <= 3 holds."
for_all = "0 <= n <= 3"
holds = "n <= 3"
expect = "holds"

[[claim]]
id = "a-probe"
relaxes = "its-correction"
note = "Is n <= 3 needed? Yes."
for_all = "0 <= n <= 5"
holds = "n <= 3"
expect = "refuted"

[[claim]]
id = "held-on-a-reading"
reading = '"m" read as n'
for_all = "0 <= n <= 3"
holds = "n >= 0"
expect = "holds"
'''


@pytest.fixture(scope="module")
def section(tmp_path_factory):
    root = tmp_path_factory.mktemp("findings")
    (root / "specs").mkdir()
    spec = root / "specs" / "t.toml"
    spec.write_text(SPEC)
    store = root / "results.sqlite"
    rc = cli.main(["check", str(spec), "--method", "exhaustive", "--no-repair", "--jobs", "1", "--store", str(store)])
    assert rc == cli.EXIT_OK
    with ResultsStore(store) as s:
        return readme_findings.findings(s.latest())


def test_every_printed_statement_found_wrong_is_listed_with_its_reading(section):
    wrong = [line for line in section.splitlines() if line.startswith("- **")]
    assert len(wrong) == 2, wrong
    assert '(`printed-on-a-reading`, refuted, as read: "n < 8" read as "n < 3")' in wrong[0]
    assert wrong[0].endswith(": n=3: left side 3, right side 3, so `<` fails; corrected by `its-correction` [t.toml]"), wrong[0]
    assert "(`printed-uncorrected`, refuted): n=2:" in wrong[1] and "corrected by" not in wrong[1]


def test_relaxation_probes_are_counted_apart_not_listed(section):
    assert "a-probe" not in section
    assert "Not listed: 1 relaxation probes" in section and "1 of them fail" in section


def test_the_table_counts_the_verdicts_on_a_reading(section):
    header = next(line for line in section.splitlines() if line.startswith("| document"))
    row = next(line for line in section.splitlines() if line.startswith("| [t.toml]"))
    assert header.rstrip(" |").endswith("on a reading")
    assert row.rstrip(" |").endswith("| 2"), row


@pytest.mark.parametrize("name,cid", [("000_maxnim_josephus.toml", "ex-3.3-rounds-from-1"),
                                      ("001_maxnim_josephus_algorithm.toml", "abstract-g-misprint"),
                                      ("002_josephus_nim.toml", "closing-remark-all-positions"),
                                      ("003_turn_nim_and_weighted_nim.toml", "abstract-turn-nim")])
def test_printed_statements_once_filed_as_relaxations_are_findings(name, cid):
    claim = load_spec(ROOT / "specs" / name).claim(cid)
    record = {"verdict": claim.expect, "relaxes": claim.relaxes, "reading": claim.reading}
    assert readme_findings.is_printed_failure(record), cid
