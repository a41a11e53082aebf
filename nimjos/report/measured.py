"""Measured performance claims: sections of the benchmark results (bench/results/*.md) shown in the report.

A paper's claim about speed ("the algorithm based on Theorem 3.6 is faster") is not decided by a checker
but measured by a benchmark script, which writes a results file with the machine and the date. A results
file names the spec it belongs to on a line ``- spec: `specs/....toml` `` and holds one or more sections
headed ``## Measured claim ...``; the report shows each section under that spec's document, with the
machine lines of the file, as recorded (nothing is re-run).

>>> import tempfile, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "j.md").write_text("# J\\n\\n- cpu: X\\n- date: D\\n- spec: `specs/001.toml`\\n\\n| t |\\n\\n"
...                             "## Measured claim (001, Ex. 3.7)\\n\\nIt **holds**.\\n")
>>> [(m.spec, m.title, m.machine, m.text) for m in read_measured(d)]
[('specs/001.toml', 'Measured claim (001, Ex. 3.7)', ['cpu: X', 'date: D'], 'It **holds**.')]
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt

_SPEC_LINE = re.compile(r"^- spec: `?([^`\s]+)`?\s*$")
_MACHINE_LINE = re.compile(r"^- (cpu|cores|memory|os|python|numpy|numba|date|command): (.*)$")


@dataclass
class Measured:
    """One measured claim: the spec it belongs to, its heading, the machine and date lines, the text."""

    file: str
    spec: str
    title: str
    machine: list[str]
    text: str

    def html(self) -> str:
        """The section's Markdown as HTML (raw HTML in the file is escaped, not passed through).

        >>> Measured("f", "s", "t", [], "a <b> **c**").html()
        '<p>a &lt;b&gt; <strong>c</strong></p>\\n'
        """
        return MarkdownIt("commonmark", {"html": False}).render(self.text)


def read_measured(folder: str | Path) -> list[Measured]:
    """Every ``## Measured claim`` section of the results files in `folder` (none when it does not exist)."""
    out: list[Measured] = []
    folder = Path(folder)
    if not folder.is_dir():
        return out
    for path in sorted(folder.glob("*.md")):
        lines = path.read_text(encoding="utf-8").splitlines()
        spec = next((m.group(1) for m in map(_SPEC_LINE.match, lines) if m), None)
        if spec is None:
            continue
        machine = [f"{m.group(1)}: {m.group(2)}" for m in map(_MACHINE_LINE.match, lines) if m]
        title: str | None = None
        body: list[str] = []
        for line in lines + ["## end"]:
            if line.startswith("## "):
                if title is not None:
                    out.append(Measured(path.name, spec, title, machine, "\n".join(body).strip()))
                title = line[3:].strip() if line[3:].startswith("Measured claim") else None
                body = []
            elif title is not None:
                body.append(line)
    return out
