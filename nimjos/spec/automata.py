"""The ``[automaton.NAME]`` tables of a spec: each stored automaton's file (Walnut's format, beside the spec) read
and validated once (:func:`nimjos.lang.stored.read_walnut`), then bound to NAME in the spec's namespace as a
boolean function of its inputs (:class:`nimjos.lang.stored.StoredAutomaton`), in this spec only. A fault names the
spec, the table's line and field, and the automaton file's line.

>>> import pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "odd.txt").write_text("msd_2\\n\\n0 0\\n0 -> 0\\n1 -> 1\\n\\n1 1\\n0 -> 0\\n1 -> 1\\n")
>>> from nimjos.spec.names import spec_namespace
>>> ns = spec_namespace()
>>> declare_automata({"odd": {"file": "odd.txt"}}, ns, folder / "s.toml", SpecLines('[automaton.odd]\\nfile = "odd.txt"\\n'))
>>> ns.builtins["odd"](7)
True
>>> declare_automata({"far": {"file": "../odd.txt"}}, ns, folder / "s.toml", SpecLines('[automaton.far]\\nfile = "../odd.txt"\\n'))
Traceback (most recent call last):
...
nimjos.lang.errors.SpecError: ...s.toml:2: [automaton.far], field 'file': '../odd.txt' leaves the spec's folder (a stored automaton lives in the spec's folder or below it)
"""
from __future__ import annotations

import re
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any

from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError, raise_all
from nimjos.lang.stored import NUMERATION, NUMERATIONS, AutomatonFormatError, StoredAutomaton, read_walnut
from nimjos.spec.schema import AUTOMATON_FIELDS, SpecLines, check_fields

#: the largest automaton file read (bytes)
MAX_FILE_BYTES = 20_000_000


def declare_automata(tables: Any, ns: Namespace, spec_path: Path, lines: SpecLines,
                     failed: set[str] | None = None, files: dict[str, str] | None = None) -> None:
    """Read and validate each ``[automaton.NAME]`` table of the spec at `spec_path` and bind NAME in `ns` to its
    automaton (see the module docstring); a fault is a :class:`SpecError`. Each table is read on its own: the
    faults of all are raised together, and the names of those that failed are added to `failed`. `files` (file
    name -> text), when given, holds the automata's files of a spec built in memory, never read from disk."""
    fname = str(spec_path)
    if not isinstance(tables, dict) or not all(isinstance(t, dict) for t in tables.values()):
        raise SpecError("[automaton] must contain tables [automaton.NAME]", file=fname, line=lines.header("automaton"))
    failed = set() if failed is None else failed
    errors: list[SpecError] = []
    for name, table in tables.items():
        try:
            _declare_one(name, table, ns, spec_path, lines, files)
        except SpecError as exc:
            errors.append(exc)
            if name not in ns.builtins:
                failed.add(name)
    raise_all(errors)


def _declare_one(name: str, table: dict, ns: Namespace, spec_path: Path, lines: SpecLines,
                 files: dict[str, str] | None = None) -> None:
    """Read one ``[automaton.NAME]`` table and bind NAME in `ns`."""
    fname = str(spec_path)
    line = lines.header(r"automaton\s*\.\s*" + re.escape(name))
    where: dict[str, Any] = {"file": fname, "item": f"[automaton.{name}]", "line": line}
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or name in ("True", "False"):
        raise SpecError("an automaton's name must be letters, digits and '_', starting with a letter", **where)
    if ns.kind(name) is not None:
        raise SpecError(f"{name!r} is already {ns.kind(name)} and cannot name an automaton",
                        hint="choose another name", **where)
    check_fields(table, AUTOMATON_FIELDS, where, f"[automaton.{name}]", lambda key: lines.field_in_block(line, key))

    def at(field: str) -> dict[str, Any]:
        return {**where, "field": field, "line": lines.field_in_block(line, field) or line}
    if "file" not in table:
        raise SpecError("missing field 'file' (the automaton in Walnut's format, beside the spec)",
                        **{**where, "field": "file"})
    numeration = table.get("numeration", NUMERATION)
    if numeration not in NUMERATIONS:
        raise SpecError(f"numeration {numeration!r} is not accepted: only {', '.join(map(repr, NUMERATIONS))} (base 2, "
                        "Fibonacci and Pell, most significant digit first) are", **at("numeration"))
    path = _inside(table["file"], spec_path, at("file"))
    try:
        data = (files[table["file"]].encode("utf-8") if files is not None and table["file"] in files
                else path.read_bytes())[:MAX_FILE_BYTES + 1]
    except OSError as exc:
        raise SpecError(f"cannot read {table['file']!r}: {exc.strerror}", **at("file")) from None
    if len(data) > MAX_FILE_BYTES:
        raise SpecError(f"{table['file']!r} is larger than {MAX_FILE_BYTES:,} bytes", **at("file"))
    try:
        read = read_walnut(data.decode("utf-8"), numeration)
    except UnicodeDecodeError:
        raise SpecError(f"{table['file']!r} is not UTF-8 text", **at("file")) from None
    except AutomatonFormatError as exc:
        spot = f"{table['file']}:{exc.line}" if exc.line else table["file"]
        raise SpecError(f"{spot}: {exc.message}", **at("file")) from None
    ns.builtins[name] = StoredAutomaton(name, read, str(path))


def _inside(text: str, spec_path: Path, where: dict) -> Path:
    """The file `text` names, relative to the spec's folder, refused when absolute or outside that folder (after
    following '..' and symbolic links)."""
    if not text.strip():
        raise SpecError("an empty file name", **where)
    if PurePosixPath(text).is_absolute() or PureWindowsPath(text).is_absolute() or PureWindowsPath(text).drive:
        raise SpecError(f"{text!r} is an absolute path: name the file relative to the spec's folder", **where)
    folder = spec_path.resolve().parent
    path = (folder / text).resolve()
    if not path.is_relative_to(folder) or ".." in PurePosixPath(text).parts:
        raise SpecError(f"{text!r} leaves the spec's folder (a stored automaton lives in the spec's folder or below "
                        "it)", **where)
    return path
