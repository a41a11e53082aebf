"""Reports rendered from a results store: files, content, escaping, determinism, the command."""
from __future__ import annotations

import argparse
import hashlib
import re
from pathlib import Path

import pytest

from nimjos.verdict import Verdict
from nimjos.app.arguments import add_report_arguments
from nimjos.report import parse_formats, render, run_report_command
from nimjos.report.model import build_report
from nimjos.results.store import ResultsStore
from tests.nimjos.test_report_data import DEMO, SCRIPT, claim, make_store


@pytest.fixture(scope="module")
def store_path(tmp_path_factory) -> Path:
    return make_store(tmp_path_factory.mktemp("store") / "results.sqlite")


@pytest.fixture(scope="module")
def out(store_path, tmp_path_factory) -> Path:
    out_dir = tmp_path_factory.mktemp("reports")
    render(store_path, out_dir)
    return out_dir


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


PAGES = ["demo--nim-parity", "demo--v2-zero", "demo--sub23-period", "demo--josephus-last", "other--never-relaxed"]


def test_index_and_a_page_per_refuted_or_ill_defined_claim(out):
    assert (out / "index.html").is_file() and (out / "index.md").is_file()
    names = sorted(p.name for p in (out / "claims").iterdir())
    expected = sorted([f"{p}.{fmt}" for p in PAGES for fmt in ("html", "md")]
                      + ["demo--nim-parity.grid.png", "demo--sub23-period.sequence.png",
                         "demo--josephus-last.josephus.png"])
    assert names == expected


def test_summary_line_counts_each_claim_once_by_its_final_verdict(out):
    md = read(out / "index.md")
    assert ("9 claims: 3 held, 4 refuted, 1 ill-defined, 1 vacuous, 1 proved, 0 proved-bounded, 0 sampled, 2 checked, "
            "0 inconclusive; 2 not as expected") in md
    html = read(out / "index.html")
    summary = re.search(r'<p class="summary" id="summary">(.*?)</p>', html, re.S).group(1)
    for text in ("9 claims", "3 held", "4 refuted", "1 ill-defined", "1 vacuous", "1 proved", "0 sampled"):
        assert text in summary


def test_a_table_per_source_document_in_the_files_order(out):
    html = read(out / "index.html")
    assert html.index("A demo paper") < html.index("Another paper")
    demo = html[html.index("<h2>A demo paper</h2>"):html.index("<h2>Another paper</h2>")]
    refs = re.findall(r'<div class="id">([^<]+)</div>', demo)
    assert refs == ["nim-parity", "nim-xor", "v2-zero", "sub23-period", "josephus-last", "plain", "proved-one"]
    for header in ("ref", "printed text", "verdict", "method", "scope", "instances"):
        assert f"<th>{header}</th>" in demo or f'<th class="num">{header}</th>' in demo
    row = demo[demo.index("proved-one"):]
    assert "prove" in row and "exhaustive: checked" in row and "every x &gt;= 0" in row
    assert 'href="claims/demo--nim-parity.html"' in demo


def test_claim_text_is_untrusted_and_appears_as_text(out):
    for name in ["index.html", "claims/demo--nim-parity.html"]:
        html = read(out / name)
        assert "<script" not in html
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    md = read(out / "index.md")
    assert f"`Harmless text {SCRIPT}`" in md                 # inside a code span: shown literally
    assert "Parity is not the nim-sum. &lt;script&gt;alert(1)&lt;/script&gt;" in md
    page_md = read(out / "claims/demo--nim-parity.md")
    assert "> Parity is not the nim-sum. &lt;script&gt;" in page_md


def test_claim_page_shows_both_statements_counterexamples_options_plot_and_rerun(out):
    html = read(out / "claims/demo--nim-parity.html")
    printed = html[html.index('class="statement printed"'):html.index('class="statement corrected"')]
    corrected = html[html.index('class="statement corrected"'):html.index('id="counterexamples"')]
    assert "<math" in printed and "<mo>mod</mo>" in printed
    assert "<math" in corrected and "&#8853;" in corrected and "nim-xor" in corrected
    cx = html[html.index('id="counterexamples"'):html.index('id="why"')]
    assert re.search(r"<td>0</td><td>2</td><td>N</td><td>P</td><td>2</td>", cx)
    assert "outcome (from the moves)" in cx and "claimed outcome" in cx
    why = html[html.index('id="why"'):html.index('id="repairs"')]
    assert "Why, at (0, 2)" in why and "<strong>2</strong>" in why and "<code>(0, 1)</code>" in why
    assert '<img src="demo--nim-parity.grid.png"' in html
    assert "nimjos check specs/demo.toml --claim nim-parity --at &#39;x=0,y=2&#39;" in html
    md = read(out / "claims/demo--nim-parity.md")
    assert "$$\n\\left(x + y\\right) \\bmod 2 = 0\n$$" in md
    assert "x \\oplus y = 0" in md
    assert "![Grundy heatmap of nim2" in md and "(demo--nim-parity.grid.png)" in md
    assert "```\nnimjos check specs/demo.toml --claim nim-parity --at 'x=0,y=2'\n```" in md


def test_failures_and_needed_hypotheses_are_listed_apart(out):
    html = read(out / "index.html")
    failing = html[html.index('id="failures"'):html.index('id="needed"')]
    needed = html[html.index('id="needed"'):html.index('class="source"')]
    assert re.findall(r'<div class="id">([^<]+)</div>', failing) == [
        "nim-parity", "v2-zero", "sub23-period", "josephus-last"]
    assert re.findall(r'<div class="id">([^<]+)</div>', needed) == ["never-relaxed"]
    assert "<code>never</code>" in needed and "Is x &lt; 0 needed? Yes." in needed
    md = read(out / "index.md")
    assert md.index("## Statements that fail") < md.index("## Hypotheses shown to be needed") < md.index("## A demo")


def test_a_statement_reads_in_full_with_its_window_and_assumption(out):
    html = read(out / "claims/demo--josephus-last.html")
    printed = html[html.index('class="statement printed"'):html.index('class="statement corrected"')]
    assert "For every n, k with <code>1 &lt;= n &lt;= 20 and k in {3}</code>," in printed
    assert printed.count("<math") == 2 and "whenever" in printed
    md = read(out / "claims/demo--josephus-last.md")
    assert "whenever\n\n$$\nn \\bmod 2 = 0\n$$" in md


def test_candidate_corrections_are_shown_as_suggestions(out):
    html = read(out / "claims/demo--nim-parity.html")
    repairs = html[html.index('id="repairs"'):html.index('id="plots"')]
    assert "none of them is a proof" in repairs and "<math" in repairs
    assert "<code>xor(x, y) == 0</code>" in repairs and "(x + y) % 2 -&gt; xor(x, y)" in repairs
    md = read(out / "claims/demo--nim-parity.md")
    assert "| `xor(x, y) == 0` | (x + y) % 2 -&gt; xor(x, y) | **checked** |" in md


def test_ill_defined_page_gives_the_reason(out):
    html = read(out / "claims/demo--v2-zero.html")
    assert "Where it cannot be evaluated" in html and "v2(0) is undefined" in html
    assert "not as expected" in html


def test_pages_need_nothing_from_the_network(out):
    for path in out.rglob("*.html"):
        html = read(path)
        assert "<script" not in html and "<link" not in html and "@import" not in html
        for url in re.findall(r'(?:src|href)="([^"]+)"', html):
            assert not re.match(r"[a-z]+:", url) and not url.startswith("/"), url
            assert (path.parent / url).exists(), url
        assert set(re.findall(r"https?://[^\"' <]+", html)) <= {"http://www.w3.org/1998/Math/MathML"}


def test_output_is_deterministic(store_path, tmp_path):
    first, second = tmp_path / "a", tmp_path / "b"
    render(store_path, first)
    render(store_path, second)

    def digest(root: Path) -> dict[str, str]:
        return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file()}

    assert digest(first) == digest(second)
    generated = [line for line in read(first / "index.html").splitlines() if "Generated" in line]
    assert len(generated) == 1


def test_pages_of_claims_that_no_longer_fail_are_removed(tmp_path):
    path = make_store(tmp_path / "r.sqlite")
    out = tmp_path / "out"
    render(path, out, ("md",))
    (out / "claims" / "keep.txt").write_text("not ours")
    with ResultsStore(path) as store:
        run = store.begin_run(["check"], "default")
        store.record(run, claim(DEMO, "sub23-period", 3, kind="grundy", formula="n % 5 // 2"),
                     Verdict("sub23-period", "checked", "exhaustive", "0 <= n <= 15"))
    written = render(path, out, ("md",))
    names = sorted(p.name for p in (out / "claims").iterdir())
    assert "demo--sub23-period.md" not in names and "demo--sub23-period.sequence.png" not in names
    assert "keep.txt" in names and "demo--nim-parity.md" in names
    assert all(p.exists() for p in written)


def test_stale_records_are_flagged(tmp_path):
    path = make_store(tmp_path / "r.sqlite")
    with ResultsStore(path) as store:
        run = store.begin_run(["check"], "default")
        store.record(run, claim(dict(DEMO, spec_hash="ef" * 32), "plain", 5, formula="x"),
                     Verdict("plain", "checked", "exhaustive", "0 <= x <= 9"))
        rows = store.latest()
    report = build_report(rows)
    stale = {c.claim_id for s in report.sources for c in s.claims if c.stale}
    assert stale == {"nim-parity", "nim-xor", "v2-zero", "sub23-period", "josephus-last", "proved-one"}


def test_formats(store_path, tmp_path):
    written = render(store_path, tmp_path / "md", ("md",))
    assert {p.suffix for p in written} == {".md", ".png"}
    assert parse_formats("md,html") == ("md", "html")
    with pytest.raises(ValueError):
        parse_formats("pdf")


def test_report_command(store_path, tmp_path, capsys):
    parser = argparse.ArgumentParser()
    add_report_arguments(parser)
    args = parser.parse_args(["--store", str(store_path), "--out", str(tmp_path / "r"), "--format", "html"])
    assert run_report_command(args) == 0
    assert "5 claim pages, 3 plots" in capsys.readouterr().out
    assert (tmp_path / "r" / "index.html").exists() and not (tmp_path / "r" / "index.md").exists()
    args.format = "pdf"
    assert run_report_command(args) == 2
    args.format, args.store = "md", str(tmp_path / "missing" / "none.sqlite")
    assert run_report_command(args) == 2
    assert "no results store" in capsys.readouterr().err
    assert not (tmp_path / "missing").exists()               # a report never creates a store


def test_defaults():
    parser = argparse.ArgumentParser()
    add_report_arguments(parser)
    args = parser.parse_args([])
    assert args.format == "md,html" and args.out == "reports/" and args.store.endswith("results.sqlite")


def test_measured_claims_appear_under_their_document(tmp_path):
    from nimjos.verdict import Verdict
    from nimjos.report import render
    from nimjos.results.store import ResultsStore
    with ResultsStore(tmp_path / "r.sqlite") as store:
        run = store.begin_run(["check"], "default")
        store.record(run, {"file": "specs/001_x.toml", "claim_id": "c", "ref": "Lemma 1", "kind": "holds",
                           "agrees": True}, Verdict("c", "checked", "exhaustive", "0 <= x <= 9", instances=10))
    results = tmp_path / "results"
    results.mkdir()
    (results / "b.md").write_text("# B\n\n- cpu: Z80\n- date: 2026-11-22\n- spec: `specs/001_x.toml`\n\n"
                                  "## Measured claim (Example 3.8)\n\nThe iteration is **5.0x** faster <script>.\n")
    (results / "other.md").write_text("# O\n\n- spec: `specs/002_y.toml`\n\n## Measured claim (elsewhere)\n\nx\n")
    render(tmp_path / "r.sqlite", tmp_path / "out", ("md", "html"), results)
    md = (tmp_path / "out" / "index.md").read_text()
    assert "### Measured claim (Example 3.8)" in md and "cpu: Z80; date: 2026-11-22" in md
    assert "elsewhere" not in md                       # a document with no claims in the store shows nothing
    html = (tmp_path / "out" / "index.html").read_text()
    assert "<strong>5.0x</strong>" in html and "&lt;script&gt;" in html and "<script>." not in html
