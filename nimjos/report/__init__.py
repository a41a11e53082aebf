"""Reports: Markdown and HTML pages, with plots, rendered from the results store (never by re-running).

``nimjos report [--format md,html] [--out reports/] [--store FILE]`` writes ``index.html`` /
``index.md`` (a summary line and a table per source document) and, for every refuted or ill-defined
claim, a page in ``claims/`` with the printed and the corrected statement as mathematics, the
smallest counterexamples, the options and mex at one of them, plots and the command that re-runs
that instance.

The modules, one job each: :mod:`~nimjos.report.model` (what to show), :mod:`~nimjos.report.formula`
and :mod:`~nimjos.report.mathprint` (formulas as LaTeX and MathML), :mod:`~nimjos.report.plots`
(matplotlib pictures), :mod:`~nimjos.report.markdown` (escaping for Markdown) and
:mod:`~nimjos.report.pages` (templates and files).

The command line's arguments are :func:`nimjos.app.arguments.add_report_arguments`.

>>> FORMATS
('md', 'html')
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

from nimjos.report.model import build_report
from nimjos.report.pages import write_report
from nimjos.results.store import ResultsStore
from nimjos.report.measured import read_measured

#: the formats a report can be written in
FORMATS = ("md", "html")


def parse_formats(text: str | tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The formats of ``--format`` ("md,html"), checked, without repeats, in the order given.

    >>> parse_formats("html, md,html")
    ('html', 'md')
    >>> parse_formats("pdf")
    Traceback (most recent call last):
    ...
    ValueError: unknown report format 'pdf' (known: md, html)
    """
    items = text.split(",") if isinstance(text, str) else list(text)
    out: list[str] = []
    for item in (i.strip().lower() for i in items):
        if not item:
            continue
        if item not in FORMATS:
            raise ValueError(f"unknown report format {item!r} (known: {', '.join(FORMATS)})")
        if item not in out:
            out.append(item)
    if not out:
        raise ValueError("no report format given")
    return tuple(out)


def render(store_path, out_dir="reports", formats=("md", "html"), measured_dir="bench/results") -> list[Path]:
    """Write the report of the store at `store_path` into `out_dir`; return the files written, sorted.
    Measured performance claims are read from the benchmark results in `measured_dir`, when it exists.

    Raises FileNotFoundError when there is no store (a report never creates one).

    >>> import tempfile, os
    >>> from nimjos.verdict import Verdict, Counterexample
    >>> from nimjos.results.store import ResultsStore
    >>> tmp = tempfile.mkdtemp()
    >>> with ResultsStore(os.path.join(tmp, "r.sqlite")) as store:
    ...     run = store.begin_run(["check"], "default")
    ...     store.record(run, {"file": "specs/a.toml", "claim_id": "c", "ref": "Lemma 1", "kind": "grundy",
    ...                        "formula": "x // 2", "agrees": True},
    ...                  Verdict("c", "refuted", "exhaustive", "0 <= x <= 9", instances=10, failures=1,
    ...                          counterexamples=[Counterexample({"x": 1}, 1, 0)]))
    >>> [p.name for p in render(os.path.join(tmp, "r.sqlite"), os.path.join(tmp, "out"), ("md",))]
    ['a--c.md', 'index.md']
    """

    store_path = Path(store_path)
    if not store_path.is_file():
        raise FileNotFoundError(f"no results store at {store_path}; run `nimjos check` first")
    with ResultsStore(store_path) as store:
        rows = store.latest()
    report = build_report(rows, read_measured(measured_dir), spec_hashes({str(r["file"]) for r in rows}))
    return write_report(report, Path(out_dir), parse_formats(formats))


def spec_hashes(files: set[str]) -> dict[str, str | None]:
    """The SHA-256 of each spec file as it is now (paths as recorded, relative to the current directory), None for
    a file not found: a page whose spec changed since its run says so.

    >>> import tempfile, os, hashlib
    >>> path = os.path.join(tempfile.mkdtemp(), "s.toml")
    >>> _ = open(path, "w").write("x")
    >>> spec_hashes({path, "no/such.toml"}) == {path: hashlib.sha256(b"x").hexdigest(), "no/such.toml": None}
    True
    """
    out: dict[str, str | None] = {}
    for name in files:
        path = Path(name)
        out[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None
    return out


def run_report_command(args) -> int:
    """What ``nimjos report`` does: render, print where the index is; 0 on success, 2 on bad input.

    >>> import argparse, tempfile, os
    >>> run_report_command(argparse.Namespace(format="md", out="x", store=os.path.join(tempfile.mkdtemp(), "none")))
    2
    """
    try:
        formats = parse_formats(args.format)
        written = render(args.store, args.out, formats, getattr(args, "measured", "bench/results"))
    except (ValueError, FileNotFoundError) as exc:
        print(f"nimjos: {exc}", file=sys.stderr)
        return 2
    pages = sum(1 for p in written if p.parent.name == "claims" and p.suffix != ".png")
    plots = sum(1 for p in written if p.suffix == ".png")
    index = ", ".join(str(Path(args.out) / f"index.{fmt}") for fmt in formats)
    print(f"wrote {index}: {pages} claim pages, {plots} plots")
    return 0


__all__ = ["render", "spec_hashes", "run_report_command", "parse_formats", "FORMATS"]
