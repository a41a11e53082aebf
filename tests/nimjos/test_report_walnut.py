"""The Walnut statement and the reading on the report, end to end: a small spec checked by the prove method
into a store (the evidence goes with the verdict) and into ``--json``, then rendered from the store. (Lemma 1 is
stated for every x, y, z: a finite domain would be proved by enumerating it, with no Walnut statement.)"""
from __future__ import annotations

import json
import re

import pytest

from nimjos.app.cli import main
from nimjos.report import render
from nimjos.results.store import ResultsStore

SPEC = '''[source]
id = "w"
title = "A small paper"

[[claim]]
id = "xor-assoc"
ref = "Lemma 1"
text = "x XOR (y XOR z) = (x XOR y) XOR z"
for_all = "0 <= x and 0 <= y and 0 <= z"
window = "x <= 7 and y <= 7 and z <= 7"
holds = "xor(x, xor(y, z)) == xor(xor(x, y), z)"
expect = "holds"

[[claim]]
id = "or-below-sum"
ref = "Lemma 2"
text = "x OR y < x + y"
reading = "the printed '<' is read as '<' although the scan shows '<='"
for_all = "0 <= x <= 7 and 0 <= y <= 7"
holds = "(x | y) < x + y"
expect = "refuted"

[[claim]]
id = "plain"
ref = "Remark 3"
for_all = "0 <= x <= 7"
holds = "x * x >= x"
'''


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    d = tmp_path_factory.mktemp("walnut_report")
    spec = d / "w.toml"
    spec.write_text(SPEC)
    store = d / "r.sqlite"
    return d, spec, store


def test_json_of_the_prove_method_carries_the_walnut_statement(checked, capsys, walnut):
    d, spec, store = checked
    assert main(["check", str(spec), "--method", "prove", "--json", "--store", str(store)]) == 0
    out = json.loads(capsys.readouterr().out)
    entries = out["claims"] if isinstance(out, dict) else out
    by_id = {e["id"]: e for e in entries}
    w = by_id["xor-assoc"]["walnut"]
    assert by_id["xor-assoc"]["verdict"] == "proved"
    assert 'eval q_holds "' in w["runs"][0]["commands"] and w["runs"][0]["answers"]["holds"] is True
    assert w["version"].startswith("Walnut") and w["seconds"] > 0
    assert by_id["or-below-sum"]["verdict"] == "refuted" and by_id["or-below-sum"]["walnut"]["runs"][0]["answers"] \
        == {"holds": False}
    assert by_id["or-below-sum"]["reading"].startswith("the printed")
    # the store keeps the same evidence with the verdict
    with ResultsStore(store) as s:
        rows = {r["claim_id"]: r for r in s.latest()}
    assert rows["xor-assoc"]["evidence"]["walnut"] == w
    assert rows["or-below-sum"]["reading"] == by_id["or-below-sum"]["reading"]


def test_report_pages_show_the_walnut_statement_and_the_reading(checked, walnut):
    d, spec, store = checked
    out = d / "out"
    render(store, out)
    pages = sorted(p.name for p in (out / "claims").iterdir())
    assert pages == ["w--or-below-sum.html", "w--or-below-sum.md", "w--xor-assoc.html", "w--xor-assoc.md"]
    md = (out / "claims" / "w--xor-assoc.md").read_text()
    assert "## The Walnut statement" in md and "Smallest counterexamples" not in md
    # the commands as Walnut reads them: the library, then the statement, in a code block to paste
    block = re.search(r"```\n(.*?)\n```", md[md.index("## The Walnut statement"):], re.S).group(1)
    assert block.startswith("reg xor msd_2 msd_2 msd_2") and 'eval q_holds "Ax00,x01,x02' in block
    assert "Answers: `holds` TRUE." in md and "largest automaton" in md
    html = (out / "claims" / "w--xor-assoc.html").read_text()
    assert '<section id="walnut">' in html and "eval q_holds &#34;Ax00,x01,x02" in html
    refuted = (out / "claims" / "w--or-below-sum.md").read_text()
    assert "**This verdict rests on a reading:** the printed" in refuted and "## Smallest counterexamples" in refuted
    assert "rests on a reading" in (out / "claims" / "w--or-below-sum.html").read_text()
    index = (out / "index.md").read_text()
    assert "; 1 verdict rests on a reading" in index
    row = next(line for line in index.splitlines() if "`or-below-sum`" in line and "printed" in line)
    assert "(rests on a reading: the printed" in row
    html_index = (out / "index.html").read_text()
    assert '<span class="readings">1 verdict rests on a reading</span>' in html_index
    assert 'href="claims/w--xor-assoc.html"' in html_index and "claims/w--plain" not in html_index
