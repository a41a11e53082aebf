"""Report pages that read like the paper (issue 28): each claim kind in its own words, the failing comparison
of a periodic claim, proved pages styled as proved with counts that mean what they say, the definitions a
statement uses, stale pages marked, no seconds in the committed files."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from nimjos.report import render
from nimjos.report.model import build_report
from nimjos.results.store import ResultsStore
from nimjos.verdict import Counterexample, Verdict
from tests.nimjos.test_report_data import DEMO, claim, make_store

KAYLES = dict(file="examples/heaps.toml", spec_hash="12" * 32, source_id="heaps", source_title="Heap games")

#: a periodic claim refuted at n = 70: G(82) = 2, G(70) = 6 (the window check's record as it is stored)
PERIODIC = (claim(KAYLES, "kayles-70", 0, kind="periodic", game='octal("0.77")', expect="refuted",
                  formula="{'period': 12, 'preperiod': 70}", for_all="0 <= n"),
            Verdict("kayles-70", "refuted", "exhaustive", "0 <= n <= 400; game octal(\"0.77\")", instances=401,
                    assumption_held=401, failures=1, seconds=0.02,
                    counterexamples=[Counterexample({"n": 70}, 2, 6,
                                                    detail={"statement": "G(70 + 12) = G(70) + 0"})],
                    evidence={"options": {"position": "70", "mex": 6, "claimed": "6", "more": 6,
                                          "options": [{"position": f"({i}, {68 - i})", "grundy": i % 5}
                                                      for i in range(1, 65)]},
                              "sequence": {"x0": 0, "grundy": [n % 7 for n in range(100)], "claimed": None,
                                           "label": "", "game": 'octal("0.77")', "coords": ["n"], "fixed": {}}}))

#: a claim Walnut proved for every x, y >= 1 (a page of its own: the Walnut statement)
WALNUT = {"version": "Walnut 6.2", "states": 7, "seconds": 0.61,
          "runs": [{"params": {}, "commands": 'eval t "Ax,y (x>=1 & y>=1) => x+y>=2";', "states": {"t": 1},
                    "answers": {"t": True}}]}
PROVED = (claim(KAYLES, "sum-two", 1, kind="holds", expect="proved", formula="x + y >= 2",
                for_all="1 <= x and 1 <= y"),
          Verdict("sum-two", "proved", "prove", "all x, y >= 1 (Walnut, msd_2)", instances=1, seconds=0.61,
                  evidence={"walnut": WALNUT}))

#: a statement built from [define] names
DEFINED = (claim(KAYLES, "in-g", 2, kind="holds", expect="refuted", formula="in_G(s, x, y)",
                 for_all="0 <= x and 0 <= y and s in {1}",
                 definitions=[["in_G(s, x, y)", "G(x, y) == s and odd(x)"], ["odd(x)", "x % 2 == 1"]]),
           Verdict("in-g", "refuted", "exhaustive", "0 <= x <= 3, 0 <= y <= 3, s in {1}", instances=16, failures=9,
                   counterexamples=[Counterexample({"s": 1, "x": 0, "y": 1}, False, True)],
                   evidence={"repairs": [{"field": "holds", "text": "in_G(s, x, y + 1)", "edits": ["y -> y + 1"],
                                          "verdict": "checked", "scope": "0 <= x <= 3, 0 <= y <= 3", "instances": 16,
                                          "rechecked_at": 2}]}))


def store_of(path: Path, records, seconds: float = 0.0) -> Path:
    with ResultsStore(path) as store:
        run = store.begin_run(["check"], "default")
        for meta, verdict in records:
            verdict.seconds = verdict.seconds + seconds
            store.record(run, meta, verdict)
        store.finish_run(run, "ok")
    return path


def pages(tmp_path: Path, records=(PERIODIC, PROVED, DEFINED)) -> Path:
    out = tmp_path / "out"
    render(store_of(tmp_path / "r.sqlite", list(records)), out)
    return out


def text_of(html: str) -> str:
    """The text a reader sees (tags dropped, white space folded)."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).replace("&gt;", ">").replace("&lt;", "<")


def section(html: str, ident: str) -> str:
    start = html.index(f'id="{ident}"')
    return html[start:html.index("</section>", start)]


def test_a_periodic_claim_reads_in_its_own_words(tmp_path):
    out = pages(tmp_path)
    html = (out / "claims/heaps--kayles-70.html").read_text()
    statements = text_of(section(html, "statements"))
    assert "G(n + 12) = G(n) for every n >= 70" in statements
    assert "'period'" not in html and "&#39;period&#39;" not in html
    md = text_of((out / "claims/heaps--kayles-70.md").read_text())
    assert "G(n + 12) = G(n) for every n >= 70" in md and "'period'" not in md


def test_kind_statement_spells_out_saltus_and_stairs():
    from nimjos.report.model import kind_statement
    assert kind_statement("periodic", {"period": "4", "preperiod": "1", "saltus": "4"}, "n") == \
        "G(n + 4) = G(n) + 4 for every n >= 1"
    assert kind_statement("periodic", {"period": "k + 1"}, "x") == "G(x + (k + 1)) = G(x) for every x >= 0"
    assert kind_statement("stair", {"h": "3"}, "n").startswith("G(3q + r) = G(3q) + r")
    assert kind_statement("holds", {}, "x") is None


def test_the_why_of_a_periodic_claim_is_the_failing_comparison(tmp_path):
    out = pages(tmp_path)
    html = (out / "claims/heaps--kayles-70.html").read_text()
    why = text_of(section(html, "why"))
    assert "G(82) = 2" in why and "G(70) = 6" in why
    assert "The claim says: 6" not in why
    assert 'class="options"' not in html                   # no 64-row table of the options of 70
    md = (out / "claims/heaps--kayles-70.md").read_text()
    assert "G(82) = 2" in md and "| `(1, 67)` |" not in md
    cx = text_of(section(html, "counterexamples"))
    assert "G(n + 12)" in cx and "left side" not in cx


def test_a_proved_page_is_styled_as_proved_with_counts_that_mean_what_they_say(tmp_path):
    out = pages(tmp_path)
    html = (out / "claims/heaps--sum-two.html").read_text()
    assert 'class="statement printed" data-state="held"' in html and 'printed" data-state="fails"' not in html
    verdict = text_of(html[html.index('id="verdict"'):html.index("</p>", html.index('id="verdict"'))])
    assert "1 instances" not in verdict and "instances" not in verdict
    assert "for every x, y with 1 <= x and 1 <= y" in verdict
    statements = text_of(section(html, "statements"))
    assert "For every instance of" not in statements and "For every x, y with 1 <= x and 1 <= y" in statements
    refuted = (out / "claims/heaps--kayles-70.html").read_text()
    assert 'class="statement printed" data-state="fails"' in refuted
    assert "1 failed instances" not in text_of(refuted) and "1 failing instance in all" in text_of(refuted)
    md = text_of((out / "claims/heaps--sum-two.md").read_text())
    assert "1 instances" not in md and "for every x, y with 1 <= x and 1 <= y" in md
    css = html[html.index("<style>"):html.index("</style>")]
    assert '.statement.printed[data-state="held"]' in css and '.statement.printed[data-state="fails"]' in css


def test_definitions_a_statement_uses_are_shown_beside_it(tmp_path):
    out = pages(tmp_path)
    html = (out / "claims/heaps--in-g.html").read_text()
    statements = text_of(section(html, "statements"))
    assert "in_G(s, x, y) = G(x, y) == s and odd(x)" in statements
    assert "odd(x) = x % 2 == 1" in statements
    md = (out / "claims/heaps--in-g.md").read_text()
    assert "`in_G(s, x, y)` = `G(x, y) == s and odd(x)`" in md


def test_definitions_used_are_found_transitively_in_the_spec(write_spec):
    from nimjos.report.definitions import definitions_used
    from nimjos.spec.loader import load_spec
    spec = load_spec(write_spec('''[source]
id = "d"
[define]
"odd(x)" = "x % 2 == 1"
"twice(x)" = "2 * x"
"unused(x)" = "x"
"both(x)" = "odd(x) and twice(x) > 0"
[[claim]]
id = "c"
for_all = "0 <= x <= 9"
holds = "both(x) or x == 0"
expect = "refuted"
'''))
    assert definitions_used(spec.claim("c")) == [("both(x)", "odd(x) and twice(x) > 0"), ("odd(x)", "x % 2 == 1"),
                                                 ("twice(x)", "2 * x")]


def test_the_index_summary_separates_its_sentences(tmp_path):
    meta, verdict = PROVED
    out = pages(tmp_path, [PERIODIC, (dict(meta, reading="x read as y"), verdict)])
    summary = text_of(section_p(out / "index.html", "summary"))
    assert re.search(r"expect[;.,] +1 verdict rests on a reading", summary), summary


def section_p(path: Path, ident: str) -> str:
    html = path.read_text()
    start = html.index(f'id="{ident}"')
    return html[start:html.index("</p>", start)]


def test_a_page_whose_spec_changed_since_the_run_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    spec = tmp_path / "examples" / "heaps.toml"
    spec.parent.mkdir()
    spec.write_text("[source]\nid = 'heaps'\n")
    digest = hashlib.sha256(spec.read_bytes()).hexdigest()
    records = [(dict(meta, spec_hash=digest), verdict) for meta, verdict in (PERIODIC, PROVED)]
    store = store_of(tmp_path / "r.sqlite", records)
    render(store, tmp_path / "fresh")
    assert "changed since" not in (tmp_path / "fresh/claims/heaps--kayles-70.html").read_text()
    spec.write_text("[source]\nid = 'heaps'\n# edited\n")
    render(store, tmp_path / "old")
    for name in ("claims/heaps--kayles-70.html", "claims/heaps--kayles-70.md", "index.html", "index.md"):
        assert "the spec file has changed since this result was recorded" in \
            (tmp_path / "old" / name).read_text().lower(), name


def test_reports_from_runs_differing_only_in_seconds_are_identical(tmp_path):
    from tests.nimjos.test_report_data import records
    first = store_of(tmp_path / "a.sqlite", records() + [PERIODIC, PROVED, DEFINED], seconds=0.0)
    second = store_of(tmp_path / "b.sqlite", records() + [PERIODIC, PROVED, DEFINED], seconds=17.3)
    with ResultsStore(second) as store:                # recorded at another time, too
        store._conn.execute("UPDATE results SET recorded = '2031-01-02T03:04:05+00:00'")
    render(first, tmp_path / "ra")
    render(second, tmp_path / "rb")

    def files(root: Path) -> dict[str, bytes]:
        return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    a, b = files(tmp_path / "ra"), files(tmp_path / "rb")
    assert sorted(a) == sorted(b)
    assert [name for name in a if a[name] != b[name]] == []


def test_the_report_model_keeps_the_seconds_for_the_terminal(tmp_path):
    with ResultsStore(make_store(tmp_path / "r.sqlite")) as store:
        rows = store.latest()
    report = build_report(rows)
    assert any(c.seconds > 0 for s in report.sources for c in s.claims)
    assert DEMO["file"] in {s.file for s in report.sources}


def test_a_correction_says_where_it_was_rechecked(tmp_path):
    out = pages(tmp_path)
    repairs = text_of(section((out / "claims/heaps--in-g.html").read_text(), "repairs"))
    assert "at every counterexample any method found and on the whole window" in repairs
    assert "0 <= x <= 3, 0 <= y <= 3; and at 2 counterexamples of the printed statement" in repairs
    md = text_of((out / "claims/heaps--in-g.md").read_text())
    assert "and at 2 counterexamples of the printed statement" in md


def test_the_source_line_of_a_markdown_page_is_its_own_paragraph(tmp_path):
    # a line of the page that ends in a template tag must not swallow the blank line after it: Markdown would join
    # the source line and the verdict into one paragraph
    for page in (pages(tmp_path) / "claims").glob("*.md"):
        text = page.read_text()
        assert re.search(r"Spec `[^`]+`\.( Game `[^`]+`, misère play\.)?\n\n\*\*", text), text[:400]
