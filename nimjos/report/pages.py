"""Writing the report's files: the index and one page per refuted or ill-defined claim, with plots, and one
per claim Walnut decided, with the Walnut statement a reader can re-run.

The pages come from jinja2 templates (``templates/``) with autoescaping on for every template, HTML
and Markdown alike: spec text is untrusted. Formulas reach a page only as MathML checked by
:func:`nimjos.report.formula.check_mathml` (HTML) or as LaTeX in a ``$$`` block (Markdown). Plots are
PNG files next to the pages, linked by relative names, so the report reads offline.

Everything written depends only on the store's records: no clock, no absolute paths, sorted
throughout, so a regenerated report differs from the committed one only where results differ.

>>> environment().autoescape
True
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

import nimjos.report.markdown as markdown
import nimjos.report.plots as plots
from nimjos.report.formula import Formula, FormulaLine, formula_lines, render_formula
from nimjos.report.model import Claim, Report, count_words, counterexample_rows, marks, slug

TEMPLATES = Path(__file__).resolve().parent / "templates"

#: the file kinds a report writes into claims/ (anything else there is left alone)
CLAIM_FILE_SUFFIXES = (".html", ".md", ".png")


def seconds(value: Any) -> str:
    """Seconds as table text.

    >>> seconds(0.01234), seconds(12.5), seconds(None)
    ('0.01', '12.50', '')
    """
    return "" if value is None else f"{float(value):.2f}"


def environment() -> jinja2.Environment:
    """The template environment: autoescaping everywhere, undefined names are errors."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                             keep_trailing_newline=True)
    env.filters.update(md_text=markdown.md_text, md_code=markdown.md_code, md_math=markdown.md_math,
                       md_block=markdown.md_block,
                       md_link=markdown.md_link, seconds=seconds, slug=slug, count_words=count_words)
    return env


@dataclass
class Plot:
    """One picture of a claim page: its file name (next to the page), caption and alternative text."""

    file: str
    caption: str
    alt: str


@dataclass
class Statement:
    """One statement column of a claim page: a claim, its formula and its assumption rendered."""

    claim: Claim
    formula: Formula | None
    assume: Formula | None = None

    @property
    def words(self) -> str | None:
        """The statement in the words of its kind (a periodic claim), shown instead of a formula."""
        return self.claim.statement_words

    @property
    def definitions(self) -> list[tuple[str, str]]:
        """The definitions the statement uses, shown beside it."""
        return self.claim.definitions

    @property
    def mathml(self) -> Markup:
        """The formula's checked MathML, for HTML pages."""
        return Markup(self.formula.mathml) if self.formula else Markup("")

    @property
    def lines(self) -> list[dict]:
        """The formula as lines that fit a page (a long and/or one operand per line), for HTML pages."""
        return html_lines(formula_lines(self.formula.text)) if self.formula else []

    @property
    def assume_mathml(self) -> Markup:
        """The assumption's checked MathML, for HTML pages."""
        return Markup(self.assume.mathml) if self.assume else Markup("")


def html_lines(lines: list[FormulaLine]) -> list[dict]:
    """The lines of a split formula as the templates show them: depth, operator, parentheses, checked MathML.

    >>> from nimjos.report.formula import formula_lines
    >>> [(l["depth"], l["sign"], l["open"], l["close"]) for l in html_lines(formula_lines("a == 1 or b == 2", 5))]
    [(0, '', '', ''), (0, '∨', '', '')]
    """
    return [{"depth": line.depth, "sign": line.sign, "open": "(" * line.opens, "close": ")" * line.closes,
             "mathml": Markup(line.formula.mathml)} for line in lines]


def statement(claim: Claim) -> Statement:
    """A claim with its formula and assumption rendered (None for what it does not have).

    >>> s = statement(Claim("f", "c", [], {"formula": "x + 1", "assume": "x > 0"}))
    >>> s.formula.latex, s.assume.latex
    ('x + 1', 'x > 0')
    """
    text, assume = claim.get("formula"), claim.get("assume")
    if claim.statement_words:
        text = None      # a periodic claim's table is no formula: its words are the statement
    return Statement(claim, render_formula(text) if text else None, render_formula(assume) if assume else None)


def draw_plots(claim: Claim, folder: Path) -> list[Plot]:
    """Draw every plot the claim's evidence allows into `folder`; return them in page order."""
    evidence = claim.plotted
    title = f"{claim.get('ref', claim.claim_id)} ({claim.claim_id})"
    out: list[Plot] = []
    grid = evidence.get("grid")
    if isinstance(grid, dict) and grid.get("grundy"):
        name = f"{claim.page}.grid.png"
        names = tuple(grid.get("coords") or ("x", "y"))
        plots.plot_grid(grid, marks(claim, 2), folder / name, title, names=names)
        game = f" of {grid['game']}" if grid.get("game") else ""
        label = grid.get("label") or "claim"
        beyond = "; grey cells: not checked (outside the window)" if plots.not_checked(grid) else ""
        out.append(Plot(name, f"Grundy values{game} over the checked window, computed from the moves; "
                              f"{label} drawn over them; red squares: where the claim and the game disagree; "
                              f"crosses: the smallest counterexamples{beyond}.",
                        f"Grundy heatmap{game} with the {label} and the counterexamples"))
    seq = evidence.get("sequence")
    if isinstance(seq, dict) and seq.get("grundy"):
        name = f"{claim.page}.sequence.png"
        coords = seq.get("coords") or ["x"]
        plots.plot_sequence(seq, [m[0] for m in marks(claim, 1)], folder / name, title, name=coords[0])
        game = f" of {seq['game']}" if seq.get("game") else ""
        out.append(Plot(name, f"The Grundy sequence{game} (black, from the moves) and the claimed values "
                              f"(blue circles); red squares: disagreements; crosses: the smallest counterexamples.",
                        f"Grundy sequence{game} with the claimed values and the counterexamples"))
    jos = evidence.get("josephus")
    if isinstance(jos, dict) and isinstance(jos.get("n"), int) and isinstance(jos.get("k"), int):
        n, k = jos["n"], jos["k"]
        name = f"{claim.page}.josephus.png"
        plots.plot_josephus(n, k, folder / name, f"The numbers 1..{n} in a circle, every {k}-th removed")
        out.append(Plot(name, f"The Josephus elimination for n = {n}, k = {k}: #i marks the i-th number "
                              f"removed, panel by panel as the rounds go around the circle.",
                        f"Josephus circle for n = {n}, k = {k}, numbered in the order of removal"))
    return out


def walnut_context(claim: Claim) -> dict | None:
    """The Walnut statement of a claim page: per run (one per value of the fixed parameters) the commands a
    reader pastes into Walnut, the automata's state counts and Walnut's answers; None without Walnut evidence.

    >>> w = {"version": "Walnut 6.2", "states": 7, "seconds": 0.5, "runs": [{"params": {"h": 3},
    ...      "commands": 'eval q_a "Ax x=x";', "states": {"fG": 7}, "answers": {"a": True}}]}
    >>> c = walnut_context(Claim("f", "c", [{"evidence": {"walnut": w}}], {}))
    >>> c["runs"][0]["params"], c["runs"][0]["states"], c["runs"][0]["answers"]
    ('h = 3', [('fG', 7)], [('a', 'TRUE')])
    """
    found = claim.walnut
    if found is None:
        return None
    runs = []
    for run in found.get("runs") or []:
        if not isinstance(run, dict):
            continue
        params = run.get("params") or {}
        runs.append({"params": ", ".join(f"{k} = {v}" for k, v in params.items()),
                     "commands": str(run.get("commands") or ""),
                     "states": [(str(k), v) for k, v in sorted((run.get("states") or {}).items())],
                     "answers": [(str(k), "TRUE" if v else "FALSE") for k, v in (run.get("answers") or {}).items()]})
    return {"version": str(found.get("version") or "Walnut"), "states": found.get("states"),
            "seconds": found.get("seconds"), "runs": runs}


def claim_context(claim: Claim, plot_list: list[Plot]) -> dict:
    """What a claim page's templates are given."""
    header, rows = counterexample_rows(claim)
    evidence = claim.best.get("evidence") or {}
    options = None
    comparison = claim.comparison       # a periodic claim fails by a comparison of two values, not by a mex
    if isinstance(evidence.get("options"), dict) and comparison is None:
        given = evidence["options"]
        listed = [o for o in given.get("options") or [] if isinstance(o, dict)]
        options = {"position": str(given.get("position", "")), "mex": given.get("mex"),
                   "claimed": given.get("claimed"), "more": int(given.get("more") or 0),
                   "options": [{"position": str(o.get("position", "")), "grundy": o.get("grundy")} for o in listed]}
    repairs = []
    for r in evidence.get("repairs") or []:
        if isinstance(r, dict) and r.get("text"):
            formula = render_formula(str(r["text"]))
            repairs.append({"field": str(r.get("field") or ""), "text": str(r["text"]), "latex": formula.latex,
                            "mathml": Markup(formula.mathml), "lines": html_lines(formula_lines(str(r["text"]))),
                            "edits": [str(e) for e in r.get("edits") or []], "verdict": str(r.get("verdict") or ""),
                            "scope": str(r.get("scope") or ""), "instances": r.get("instances"),
                            "rechecked_at": int(r.get("rechecked_at") or 0)})
    return {
        "repairs": repairs,
        "claim": claim,
        "printed": statement(claim),
        "corrections": [statement(c) for c in claim.corrections],
        "cx_header": header,
        "cx_rows": rows,
        "options": options,
        "comparison": comparison,
        "plots": plot_list,
        "walnut": walnut_context(claim),
    }


def _write(path: Path, text: str, written: list[Path]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    written.append(path)


def write_report(report: Report, out_dir: Path, formats: tuple[str, ...]) -> list[Path]:
    """Write the index and the claim pages in `formats` ("md", "html") under `out_dir`; return the files.

    Files in ``out_dir/claims`` with a suffix the report writes but not written this time (pages of
    claims that no longer fail) are removed, so the folder always matches the index.
    """
    env = environment()
    out_dir = Path(out_dir)
    claims_dir = out_dir / "claims"
    written: list[Path] = []
    common = {"report": report}
    for claim in report.pages:
        plot_list = draw_plots(claim, claims_dir)
        written += [claims_dir / p.file for p in plot_list]
        context = {**common, **claim_context(claim, plot_list)}
        for fmt in formats:
            _write(claims_dir / f"{claim.page}.{fmt}", env.get_template(f"claim.{fmt}.j2").render(context), written)
    for fmt in formats:
        _write(out_dir / f"index.{fmt}", env.get_template(f"index.{fmt}.j2").render(common), written)
    keep = set(written)
    if claims_dir.is_dir():
        for old in sorted(claims_dir.iterdir()):
            if old.is_file() and old.suffix in CLAIM_FILE_SUFFIXES and old not in keep:
                old.unlink()
    return sorted(written)
