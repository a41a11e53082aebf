"""What a claim's verdict depends on in its spec file, as one digest: the claim's table as written (not its place
in the file), and every ``[define]`` definition, ``[game.NAME]`` and ``[automaton.NAME]`` (the automaton's file
too) it reaches, directly or through another, and every claim its proof uses (``prove.using``), with what those
reach. A change anywhere else in the file (another claim, a definition nobody here uses, a comment) leaves the
digest alone; the results store reuses a verdict only while its digest is unchanged (nimjos.results.key).

Names are found without evaluating anything: every identifier in the claim's fields (those that are not prose,
such as ``text`` or ``note``) that names a definition, game or automaton of the file is followed, and so on
through their own tables. An identifier that is not one (a bound variable, a built-in) is ignored; a built-in is
part of nimjos, whose source the key covers.

>>> import pathlib, tempfile
>>> from nimjos.spec.loader import load_spec
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> head = '[source]\\nid = "s"\\n[define]\\n"sq(x)" = "x * x"\\n"cube(x)" = "x * sq(x)"\\n"half(x)" = "x // 2"\\n'
>>> claims = ('[[claim]]\\nid = "a"\\nfor_all = "0 <= x <= 3"\\nholds = "cube(x) >= x"\\n'
...           '[[claim]]\\nid = "b"\\nfor_all = "0 <= x <= 3"\\nholds = "half(x) <= x"\\n')
>>> _ = (folder / "s.toml").write_text(head + claims)
>>> spec = load_spec(folder / "s.toml")
>>> reached(spec.claim("a"))
['define:cube', 'define:sq']
>>> before = {c.id: claim_fingerprint(c) for c in spec.claims}
>>> _ = (folder / "s.toml").write_text(head.replace("x * x", "x ** 2") + claims)
>>> after = {c.id: claim_fingerprint(c) for c in load_spec(folder / "s.toml").claims}
>>> before["a"] == after["a"], before["b"] == after["b"]
(False, True)
"""
from __future__ import annotations

import hashlib
import json
import re
import tomllib
from pathlib import Path
from typing import Any, Iterator

#: the fields of a claim that are prose or bookkeeping: kept in its digest (its table is), never searched for names
PROSE_FIELDS = frozenset({"id", "ref", "text", "note", "reading", "expect", "expect_counterexample", "corrects",
                          "relaxes"})

#: an identifier, as the expression language writes names
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def texts_in(value: Any) -> Iterator[str]:
    """Every string inside a spec value, tables and arrays walked, keys included.

    >>> list(texts_in({"point": "3 * j", "where": ["j >= 1", 2]}))
    ['point', '3 * j', 'where', 'j >= 1']
    """
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from texts_in(key)
            yield from texts_in(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from texts_in(item)


def names_in(value: Any) -> list[str]:
    """The identifiers written in a spec value (each once, first seen first): a superset of the names its
    expressions use, so that nothing a claim reaches is missed.

    >>> names_in({"to": "(y, x - t)", "where": "1 <= t <= sq(x)"})
    ['to', 'y', 'x', 't', 'where', 'sq']
    """
    seen: dict[str, None] = {}
    for text in texts_in(value):
        for name in _NAME.findall(text):
            seen.setdefault(name, None)
    return list(seen)


def _tables(spec: Any) -> dict[str, Any]:
    """The spec file's tables as written (its text parsed again by tomllib, kept on the spec object)."""
    cached = getattr(spec, "_fingerprint_tables", None)
    if cached is None:
        cached = tomllib.loads(spec.text)
        try:
            spec._fingerprint_tables = cached
        except AttributeError:     # pragma: no cover - a spec object that takes no attributes
            pass
    return cached


def _definitions(tables: dict[str, Any]) -> dict[str, tuple[str, Any]]:
    """The ``[define]`` table by name: name -> (head as written, body).

    >>> _definitions({"define": {"sq(x)": "x * x", "k": "3"}})
    {'sq': ('sq(x)', 'x * x'), 'k': ('k', '3')}
    """
    out = {}
    for head, body in (tables.get("define") or {}).items():
        out[head.split("(", 1)[0].strip()] = (head, body)
    return out


def reached(claim: Any) -> list[str]:
    """What `claim` reaches in its file, sorted: ``define:NAME``, ``game:NAME``, ``automaton:NAME`` and
    ``claim:ID`` (a claim of ``prove.using``, and what it reaches in turn); see the module docstring."""
    return sorted(_reach(claim)[0])


def _reach(claim: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(what `claim` reaches -> its table as written, the spec's tables); automata with their file's SHA-256."""
    spec = claim.spec
    tables = _tables(spec)
    definitions = _definitions(tables)
    games = tables.get("game") or {}
    automata = tables.get("automaton") or {}
    claims = {c.id: c for c in spec.claims}
    found: dict[str, Any] = {}
    pending: list[str] = []

    def follow_claim(c: Any) -> None:
        pending.extend(names_in({k: v for k, v in c.raw.items() if k not in PROSE_FIELDS}))
        for uid in (c.raw.get("prove") or {}).get("using") or ():
            key = f"claim:{uid}"
            if key not in found and uid in claims:
                found[key] = claims[uid].raw
                follow_claim(claims[uid])

    follow_claim(claim)
    while pending:
        name = pending.pop()
        if name in definitions and f"define:{name}" not in found:
            found[f"define:{name}"] = list(definitions[name])
            pending.extend(names_in(definitions[name][1]))
        if name in games and f"game:{name}" not in found:
            found[f"game:{name}"] = games[name]
            pending.extend(names_in(games[name]))
        if name in automata and f"automaton:{name}" not in found:
            table = automata[name]
            found[f"automaton:{name}"] = {"table": table, "sha256": _file_digest(spec.path, table.get("file"))}
    return found, tables


def _file_digest(spec_path: Any, name: Any) -> str:
    """The SHA-256 of a file named relative to the spec's folder ("" when it cannot be read: the loader has
    refused such a spec already)."""
    if not isinstance(name, str):
        return ""
    try:
        return hashlib.sha256((Path(spec_path).resolve().parent / name).read_bytes()).hexdigest()
    except OSError:
        return ""


def claim_fingerprint(claim: Any) -> str:
    """The SHA-256 of what `claim`'s verdict depends on in its spec (see the module docstring): the spec file's
    path as given (re-run commands and the sampler's seed name it), the claim's table as written, and the tables
    of everything it reaches."""
    found, _ = _reach(claim)
    payload = {"file": str(claim.spec.path), "claim": claim.raw, "reached": dict(sorted(found.items()))}
    text = json.dumps(payload, ensure_ascii=False, default=repr)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
