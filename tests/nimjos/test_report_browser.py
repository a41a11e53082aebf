"""A real browser opens the report: headless Chromium shows the summary table, a formula and a plot.

The pages are opened from file:// with the network off. Three looks:

* ``--dump-dom`` of index.html and of a claim page: the rendered DOM has the summary, the tables,
  the MathML formulas and the plot image;
* a small harness page (outside the report) loads both pages in frames and measures, after layout,
  that the summary table, a formula and the plot are on screen with a size (the plot decoded);
* ``--screenshot`` of both pages: not blank, and the claim page shows the heatmap's colours.

Without Chromium the test is skipped, except in CI (CI=true), where it must run:
``.ci/install-browser.sh`` installs the Debian package ``chromium`` when it is missing.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

from nimjos.report import render
from tests.nimjos.test_report_data import make_store

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]

CLAIM_PAGE = "claims/demo--nim-parity.html"


def find_chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def chromium(starts_processes) -> str:
    """The browser (each test starts it: slow, by the fixture ``starts_processes``)."""
    path = find_chromium()
    if path is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("Chromium is missing in CI: .ci/install-browser.sh should have installed it")
        pytest.skip("Chromium is not installed (Debian package `chromium`; .ci/install-browser.sh installs it)")
    return path


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("site")
    render(make_store(root / "results.sqlite"), root / "reports", ("html",))
    return root


def run_chromium(chromium: str, profile: Path, *args: str, timeout: float = 90) -> str:
    proc = subprocess.run([chromium, *FLAGS, f"--user-data-dir={profile}", *args], capture_output=True,
                          text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


def test_rendered_dom_has_the_summary_formulas_and_plot(chromium, site, tmp_path):
    index = run_chromium(chromium, tmp_path / "p1", "--dump-dom", (site / "reports/index.html").as_uri())
    assert re.search(r'id="summary"[^>]*>.*?9 claims', index, re.S)
    assert index.count('<table class="claims">') == 2
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in index and "<script>alert" not in index
    page = run_chromium(chromium, tmp_path / "p2", "--dump-dom", (site / "reports" / CLAIM_PAGE).as_uri())
    statements = page.split('id="statements"', 1)[1].split("</section>", 1)[0]
    assert statements.count("<math") == 2                    # the printed and the corrected statement
    assert page.count("<math") == 3                          # ... and the candidate correction found by repair
    assert '<img src="demo--nim-parity.grid.png"' in page


HARNESS = """<!doctype html>
<html><body>
<pre id="out">pending</pre>
<iframe id="index" src="reports/index.html" width="1200" height="1400"></iframe>
<iframe id="claim" src="reports/%s" width="1200" height="2600"></iframe>
<script>
function shown(el) {
  if (!el) return null;
  const r = el.getBoundingClientRect(), s = el.ownerDocument.defaultView.getComputedStyle(el);
  return {width: r.width, height: r.height, top: r.top,
          visible: s.display !== "none" && s.visibility !== "hidden" && parseFloat(s.opacity) > 0};
}
function look() {                        // the window's load waits for both frames and their images
  const index = document.getElementById("index").contentDocument;
  const claim = document.getElementById("claim").contentDocument;
  const img = claim.querySelector("#plots img");
  document.getElementById("out").textContent = JSON.stringify({
    summary: shown(index.getElementById("summary")),
    summaryText: index.getElementById("summary").textContent.replace(/\\s+/g, " ").trim(),
    table: shown(index.querySelector("table.claims")),
    rows: index.querySelectorAll("table.claims tbody tr").length,
    formula: shown(claim.querySelector(".statement.printed math")),
    corrected: shown(claim.querySelector(".statement.corrected math")),
    plot: shown(img), plotLoaded: img.complete, plotWidth: img.naturalWidth, plotHeight: img.naturalHeight,
  });
}
window.addEventListener("load", look);
</script>
</body></html>
"""


def test_summary_table_formula_and_plot_are_laid_out_and_visible(chromium, site, tmp_path):
    harness = site / "harness.html"
    harness.write_text(HARNESS % CLAIM_PAGE, encoding="utf-8")
    dom = run_chromium(chromium, tmp_path / "p3", "--allow-file-access-from-files", "--virtual-time-budget=10000",
                       "--window-size=1300,4200", "--dump-dom", harness.as_uri())
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1)
    assert found != "pending", "the harness never measured the pages"
    seen = json.loads(found.replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["summaryText"].startswith("9 claims")
    assert seen["rows"] == 9
    for part in ("summary", "table", "formula", "corrected", "plot"):
        box = seen[part]
        assert box and box["visible"] and box["width"] > 20 and box["height"] > 10, (part, box)
    assert seen["plotLoaded"] and seen["plotWidth"] > 300 and seen["plotHeight"] > 300


def screenshot(chromium: str, profile: Path, url: str, out: Path, height: int) -> np.ndarray:
    run_chromium(chromium, profile, f"--window-size=1200,{height}", f"--screenshot={out}", url)
    return imread(out)[..., :3]


def test_screenshots_are_not_blank_and_show_the_plot(chromium, site, tmp_path):
    index = screenshot(chromium, tmp_path / "p4", (site / "reports/index.html").as_uri(), tmp_path / "i.png", 1400)
    assert float(np.std(index)) > 0.05
    claim = screenshot(chromium, tmp_path / "p5", (site / "reports" / CLAIM_PAGE).as_uri(), tmp_path / "c.png", 3000)
    assert float(np.std(claim)) > 0.05
    r, g, b = claim[..., 0], claim[..., 1], claim[..., 2]
    heatmap_blue = (b > r + 0.25) & (b > 0.3)                # the heatmap's blues; the page itself has few
    assert int(heatmap_blue.sum()) > 20000


# ---- layout at 1280 px (issue 28): formulas wrap, tables scroll, no column one letter wide, sentences apart

LONG_FORMULA = ("m % k == 0 and 1 <= m // k <= (n - 1) // k or m == n or "
                "any((m == s * k + i for s in range(0, n // k + 1) for i in range(1, k)))")
LONG_SCOPE = "max(2, 2) <= k <= 8, max(k + 1, k + 1) <= n <= 100, max(1, 1) <= m <= min(n, n)"


def long_records():
    from nimjos.verdict import Counterexample, Verdict
    from tests.nimjos.test_report_data import DEMO, claim
    repairs = [{"field": "holds", "text": LONG_FORMULA.replace("1 <= m", "0 <= m"), "edits": ["constant 1 -> 0"],
                "verdict": "checked", "scope": LONG_SCOPE, "instances": 35231, "rechecked_at": 3}] * 2
    return [(claim(DEMO, "proof-cases", 0, ref="Proof of Theorem 3.4, the cases of m", expect="refuted",
                   formula=LONG_FORMULA, for_all="2 <= k and k + 1 <= n and 1 <= m <= n", assume="n % k == 1",
                   reading="(15) read with 1 <= i <= k - 1"),
             Verdict("proof-cases", "refuted", "exhaustive", LONG_SCOPE, instances=35231, failures=2595,
                     counterexamples=[Counterexample({"k": 2, "n": 3, "m": 1}, False, True)],
                     evidence={"repairs": repairs}))]


@pytest.fixture(scope="module")
def long_site(tmp_path_factory) -> Path:
    from nimjos.results.store import ResultsStore
    root = tmp_path_factory.mktemp("long")
    with ResultsStore(root / "results.sqlite") as store:
        run = store.begin_run(["check"], "default")
        for meta, verdict in long_records():
            store.record(run, meta, verdict)
    render(root / "results.sqlite", root / "reports", ("html",))
    return root


LAYOUT = """<!doctype html>
<html><body style="margin: 0">
<pre id="out">pending</pre>
<iframe id="index" src="reports/index.html" width="1280" height="1200" style="border: 0"></iframe>
<iframe id="claim" src="reports/claims/demo--proof-cases.html" width="1280" height="2400" style="border: 0"></iframe>
<script>
function look() {
  const index = document.getElementById("index").contentDocument;
  const claim = document.getElementById("claim").contentDocument;
  const overflow = d => d.documentElement.scrollWidth - d.documentElement.clientWidth;
  const clipped = [...claim.querySelectorAll(".statement .formula, td.edited .formula")]
    .filter(f => f.scrollWidth > f.clientWidth + 1).length;
  const unscrolled = [...claim.querySelectorAll("table"), ...index.querySelectorAll("table")]
    .filter(t => !(t.parentElement.classList.contains("scroll")
                   && getComputedStyle(t.parentElement).overflowX === "auto")).length;
  const scopes = [...claim.querySelectorAll("td.scope")].map(td => td.getBoundingClientRect().width);
  const right = Math.max(...[...claim.querySelectorAll("table")].map(t => t.parentElement.getBoundingClientRect().right));
  document.getElementById("out").textContent = JSON.stringify({
    indexOverflow: overflow(index), claimOverflow: overflow(claim), clipped: clipped,
    formulas: claim.querySelectorAll(".statement .formula").length, unscrolled: unscrolled,
    narrowestScope: Math.min(...scopes), scopes: scopes.length, tableRight: right, width: claim.documentElement.clientWidth,
    summary: index.getElementById("summary").textContent.replace(/\\s+/g, " ").trim(),
  });
}
window.addEventListener("load", look);
</script>
</body></html>
"""


def test_layout_fits_1280_px_formulas_wrap_tables_scroll(chromium, long_site, tmp_path):
    harness = long_site / "layout.html"
    harness.write_text(LAYOUT, encoding="utf-8")
    dom = run_chromium(chromium, tmp_path / "p6", "--allow-file-access-from-files", "--virtual-time-budget=10000",
                       "--window-size=1300,3800", "--dump-dom", harness.as_uri())
    found = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S).group(1)
    assert found != "pending", "the harness never measured the pages"
    seen = json.loads(found.replace("&quot;", '"').replace("&amp;", "&"))
    assert seen["indexOverflow"] <= 0 and seen["claimOverflow"] <= 0, seen       # nothing runs off the page
    assert seen["formulas"] >= 2 and seen["clipped"] == 0, seen                     # long formulas wrap, not cut
    assert seen["unscrolled"] == 0, seen                                            # every table can scroll
    assert seen["tableRight"] <= seen["width"], seen
    assert seen["scopes"] >= 3 and seen["narrowestScope"] >= 150, seen              # no scope one letter wide
    assert re.search(r"as the specs expect[;.] 1 verdict rests on a reading", seen["summary"]), seen["summary"]
