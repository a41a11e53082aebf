"""The schema of a spec file: its tables and their fields with the types each may have, the words ``expect`` may
say, the checks that refuse an unknown field (with a "did you mean" hint) or a value of the wrong type, and the
lines of the TOML text where a table or field is written (for the location of a fault).

>>> check_fields({"id": "s", "titel": "x"}, SOURCE_FIELDS, {"file": "s.toml", "item": "[source]"}, "[source]")
Traceback (most recent call last):
...
nimjos.lang.errors.SpecError: s.toml: [source], field 'titel': unknown field 'titel' (did you mean 'title' or 'cite'?)
"""
from __future__ import annotations

import re
from typing import Any

from nimjos.lang.errors import SpecError
from nimjos.lang.syntax import parse, suggest
from nimjos.words import EXPECT_WORDS, Kind  # noqa: F401  (the words ``expect`` may say: the closed vocabulary's)

SOURCE_FIELDS = {"id": str, "title": str, "cite": str, "authors": (str, list), "document": str, "url": str,
                 "note": str, "year": int}
GAME_FIELDS = {"title": str, "params": list, "position": list, "moves": list, "note": str,
               "measure": (str, list),  # a termination measure: one expression, or a list (lexicographic)
               "play": str,  # the play convention: "normal" (default) or "misere"
               "domain": str,  # the positions the game is played on (a condition), which nimjos discover fits on
               "loopy": bool}  # the moves may cycle: generalized Sprague-Grundy values (nimjos/games/loopy.py)
MOVE_FIELDS = {"to": str, "where": str}
#: the fields that state a claim, one per kind (nimjos.words.Kind), in the order an error message lists them
KIND_FIELDS: tuple[Kind, ...] = tuple(Kind)
CLAIM_FIELDS: dict[str, Any] = {
    "id": str, "ref": str, "text": str, "game": str, "for_all": str, "window": str, "assume": str, "expect": str,
    "expect_counterexample": str, "corrects": str, "relaxes": str, "note": str, "reading": str, "deep": dict,
    "grundy": str, "p_positions": (str, list), "holds": str, "values": dict, "level_set": (str, list),
    "levels": str, "position": list, "periodic": dict, "stair": dict, "grundy_at_most": (int, str), "draws": str, "strategy": (str, dict), "sample": dict, "prove": dict,
}
#: options of the sampling method (checkers/sample reads them)
SAMPLE_FIELDS = {"count": int, "seconds": (int, float), "for_all": (str, list), "pins": list, "scale": int, "skip": str,
                 "widen": bool}
#: options of the proving method (checkers/prove reads them)
PROVE_FIELDS = {"for_all": str, "width": int, "bits": int, "timeout": (int, float), "each": list, "skip": str,
                "using": list, "induction": str, "invariant": str, "numeration": str}
PROFILE_FIELDS = {"window": str, "levels": str, "values": dict}
FAMILY_FIELDS = {"point": str, "where": str}
VALUES_FIELDS = {"from": (int, list), "grundy": list, "of": str, "var": str, "equal": list}
TOP_LEVEL = {"source", "game", "define", "claim", "automaton"}
#: the fields of a stored automaton's table, ``[automaton.NAME]`` (nimjos/spec/automata.py)
AUTOMATON_FIELDS = {"file": str, "numeration": str, "note": str}


class SpecLines:
    """Finds the line of a table header or a field in the TOML text (best effort).

    >>> lines = SpecLines('[source]\\nid = "s"\\n[[claim]]\\nid = "c"\\nholds = "True"\\n')
    >>> lines.header("source"), lines.claim_starts, lines.field_in_block(3, "holds")
    (1, [3], 5)
    """

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.claim_starts = [i + 1 for i, l in enumerate(self.lines) if re.match(r"\s*\[\[\s*claim\s*\]\]", l)]

    def header(self, pattern: str) -> int | None:
        for i, l in enumerate(self.lines):
            if re.match(r"\s*\[\s*" + pattern + r"\s*\]", l):
                return i + 1
        return None

    def field_in_block(self, start: int | None, name: str) -> int | None:
        if start is None:
            return None
        for i in range(start, len(self.lines)):
            l = self.lines[i]
            if i + 1 > start and re.match(r"\s*\[", l):
                return None
            if re.match(r"\s*" + re.escape(name) + r"\s*=", l) or re.match(r'\s*"' + re.escape(name) + r'"\s*=', l):
                return i + 1
        return None


def check_fields(table: Any, allowed: dict[str, Any], where: dict, what: str,
                  find: Any = None) -> None:
    """Refuse unknown fields and values of the wrong type; `find(key)` gives the line of a key, if known."""
    if not isinstance(table, dict):
        raise SpecError(f"{what} must be a table, got {type(table).__name__}", **where)
    for key, value in table.items():
        if key not in allowed:
            raise SpecError(f"unknown field {key!r}", hint=suggest(key, list(allowed)) or
                            f"known fields: {', '.join(sorted(allowed))}",
                            **{**where, "field": where.get("field") or key, "line": (find and find(key)) or where.get("line")})
        want = allowed[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
            names = names.replace("str", "a string").replace("list", "a list").replace("dict", "a table").replace("int", "an integer")
            raise SpecError(f"must be {names}, got {type(value).__name__} {value!r}"[:200],
                            **{**where, "field": key, "line": (find and find(key)) or where.get("line")})


def check_method_options(table: dict, allowed: dict, where: dict, what: str) -> None:
    """A `sample` or `prove` table: known fields of the right types, a `for_all` that parses, `pins` and
    `each` lists of strings.

    >>> check_method_options({"scale": 40}, SAMPLE_FIELDS, {"file": "s.toml", "field": "sample"}, "sample")
    >>> check_method_options({"sacle": 40}, SAMPLE_FIELDS, {"file": "s.toml", "field": "sample"}, "sample")
    Traceback (most recent call last):
    nimjos.lang.errors.SpecError: s.toml: field 'sample': unknown field 'sacle' (did you mean 'scale'?)
    """
    check_fields(table, allowed, where, what)
    for key in ("pins", "each", "using"):
        if key in table and not all(isinstance(v, str) for v in table[key]):
            raise SpecError(f"{what}.{key} must be a list of strings, got {table[key]!r}"[:200], **where)
    for key in ("for_all", "invariant"):
        if key in table:
            texts = table[key] if isinstance(table[key], list) else [table[key]]
            if not texts or not all(isinstance(t, str) for t in texts):
                raise SpecError(f"{what}.{key} must be a condition or a non-empty list of conditions, "
                                f"got {table[key]!r}"[:200], **where)
            for text in texts:
                try:
                    parse(text)  # a syntax error or a refused construct is reported at load time
                except SpecError as exc:
                    raise exc.located(**where) from None
    if "induction" in table and not table["induction"].isidentifier():
        raise SpecError(f"{what}.induction must name one bound name, got {table['induction']!r}"[:200], **where)
