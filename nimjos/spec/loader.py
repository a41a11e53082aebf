"""Loading spec files: TOML (tomllib) -> checked tables -> compiled games, definitions and claims.

Every fault is a :class:`~nimjos.lang.errors.SpecError` naming the file, the claim or game, the field and the
line; unknown fields get a "did you mean" hint. Nothing in a spec is ever evaluated by eval().

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
>>> _ = p.write_text('[source]\\nid = "s"\\n[[claim]]\\nid = "c"\\nfor_all = "0 <= n <= 3"\\nholds = "n * n >= n"\\n')
>>> spec = load_spec(p)
>>> [c.id for c in spec.claims], spec.claims[0].kind
(['c'], 'holds')
"""
from __future__ import annotations

import ast
import copy
import hashlib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from nimjos.lang.errors import SpecError
from nimjos.lang.runtime import Definition
from nimjos.lang.compiler import Namespace, compile_tree
from nimjos.lang.syntax import free_names, parse, suggest
from nimjos.games.declared import GameDecl
from nimjos.spec.names import spec_namespace
from nimjos.spec.plan import plan_claim

SOURCE_FIELDS = {"id": str, "title": str, "cite": str, "authors": (str, list), "document": str, "url": str,
                 "note": str, "year": int}
GAME_FIELDS = {"title": str, "params": list, "position": list, "moves": list, "note": str}
MOVE_FIELDS = {"to": str, "where": str}
KIND_FIELDS = ("grundy", "p_positions", "holds", "values", "level_set", "periodic", "stair")
CLAIM_FIELDS: dict[str, Any] = {
    "id": str, "ref": str, "text": str, "game": str, "for_all": str, "assume": str, "expect": str,
    "expect_counterexample": str, "corrects": str, "relaxes": str, "note": str, "deep": dict,
    "grundy": str, "p_positions": (str, list), "holds": str, "values": dict, "level_set": (str, list),
    "levels": str, "position": list, "periodic": dict, "stair": dict, "strategy": (str, dict), "sample": dict, "prove": dict,
}
#: options of the sampling method (checkers/sample.py reads them)
SAMPLE_FIELDS = {"count": int, "seconds": (int, float), "for_all": str, "pins": list, "scale": int, "skip": str,
                 "widen": bool}
#: options of the proving method (checkers/prove.py reads them)
PROVE_FIELDS = {"for_all": str, "width": int, "bits": int, "timeout": (int, float), "each": list, "skip": str,
                "using": list, "induction": str, "invariant": str}
PROFILE_FIELDS = {"for_all": str, "levels": str, "values": dict}
FAMILY_FIELDS = {"point": str, "where": str}
VALUES_FIELDS = {"from": (int, list), "grundy": list, "of": str, "var": str, "equal": list}
EXPECT_WORDS = ("holds", "refuted", "ill-defined", "vacuous", "proved", "sampled", "checked", "inconclusive")
TOP_LEVEL = {"source", "game", "define", "claim"}


@dataclass
class Source:
    id: str
    title: str = ""
    cite: str = ""
    authors: str = ""
    document: str = ""
    note: str = ""


@dataclass
class Family:
    """One family of points: ``point`` over the bindings of ``where`` (as printed in a union)."""

    point_text: str
    where_text: str
    point_tree: ast.expr
    where_tree: ast.expr


@dataclass(frozen=True)
class SampleOptions:
    """A claim's ``sample`` table (fields and types checked at load): how the sampler draws beyond the window."""

    count: int | None = None
    seconds: float | None = None
    for_all: str | None = None
    pins: tuple[str, ...] = ()
    scale: int | None = None
    skip: str | None = None
    widen: bool = False


@dataclass(frozen=True)
class ProveOptions:
    """A claim's ``prove`` table (fields and types checked at load): the proof's domain, arithmetic world and
    helpers. `each` is None when the spec does not say which parameters to enumerate."""

    for_all: str | None = None
    width: int | None = None
    bits: int | None = None
    timeout: float | None = None
    each: tuple[str, ...] | None = None
    skip: str | None = None
    using: tuple[str, ...] = ()
    induction: str | None = None
    invariant: str | None = None


def _options(cls: type, table: dict | None) -> Any:
    """The typed options of a checked ``sample`` / ``prove`` table (lists become tuples)."""
    table = table or {}
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in table.items()})


@dataclass
class Claim:
    """A claim as written in a spec, compiled once at load: its fields as typed attributes, and for each profile
    the compiled :class:`~nimjos.spec.plan.ClaimPlan` (window, game, sides, families...) that the methods read
    through :meth:`plan`. `raw` is the table as written; only the spec layer reads it."""

    spec: "Spec"
    index: int
    id: str
    kind: str
    raw: dict
    line: int | None
    ref: str = ""
    text: str = ""
    expect: str | None = None
    expect_counterexample: str | None = None
    corrects: str | None = None
    relaxes: str | None = None
    note: str = ""
    field_lines: dict[str, int] = field(default_factory=dict)
    #: the game expression (``game = "..."``), the window and the assumption, as written
    game_text: str | None = None
    for_all_text: str | None = None
    assume_text: str | None = None
    #: the claim's statement: the value of its kind's field (a string, a list of families, or a table)
    statement: Any = None
    #: coordinate names given by the claim (``position = [...]``), for a game expression without declared ones
    position: tuple[str, ...] | None = None
    #: the winning move a proof may use (``strategy``), as written
    strategy: Any = None
    sample: SampleOptions = field(default_factory=SampleOptions)
    prove: ProveOptions = field(default_factory=ProveOptions)
    #: profile -> compiled plan, filled at load
    plans: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def from_table(cls, spec: "Spec", index: int, cid: str, kind: str, raw: dict, line: int | None,
                   field_lines: dict[str, int]) -> "Claim":
        """The typed claim of a checked ``[[claim]]`` table (not compiled yet: see :func:`compile_claim`)."""
        return cls(spec, index, cid, kind, raw, line, ref=raw.get("ref", ""), text=raw.get("text", ""),
                   expect=raw.get("expect"), expect_counterexample=raw.get("expect_counterexample"),
                   corrects=raw.get("corrects"), relaxes=raw.get("relaxes"), note=raw.get("note", ""),
                   field_lines=field_lines, game_text=raw.get("game"), for_all_text=raw.get("for_all"),
                   assume_text=raw.get("assume"), statement=raw.get(kind),
                   position=tuple(raw["position"]) if raw.get("position") else None, strategy=raw.get("strategy"),
                   sample=_options(SampleOptions, raw.get("sample")), prove=_options(ProveOptions, raw.get("prove")))

    @property
    def label(self) -> str:
        return f"claim '{self.id}'"

    @property
    def statement_text(self) -> str:
        """The statement when it is one expression (grundy, holds, a predicate), else the empty string."""
        return self.statement if isinstance(self.statement, str) else ""

    def plan(self, profile: str = "default") -> Any:
        """The claim compiled for `profile` (``default`` or ``deep``): the loader compiles every claim it loads;
        a claim built from a table by other means (a mutant) is compiled here on first use."""
        if profile not in self.plans:
            compile_claim(self)
        return self.plans[profile]

    def error(self, message: str, field_name: str | None = None, hint: str | None = None) -> SpecError:
        """A SpecError located at this claim (and field)."""
        return SpecError(message, file=str(self.spec.path), item=self.label, field=field_name,
                         line=self.field_lines.get((field_name or "").split("[")[0], self.line), hint=hint)

    def get(self, name: str, profile: str = "default") -> Any:
        """A field's value under a profile (the `deep` table overrides for_all / levels / values)."""
        if profile != "default":
            override = self.raw.get(profile)
            if isinstance(override, dict) and name in override:
                return override[name]
        return self.raw.get(name)

    def formula_text(self) -> str:
        """The claim's main expression as text (for reports)."""
        v = self.statement
        if isinstance(v, str):
            return v
        if self.kind in ("p_positions", "level_set") and isinstance(v, list):
            return " | ".join(f"{{{f.get('point')}: {f.get('where', 'True')}}}" for f in v if isinstance(f, dict))
        if self.kind == "values" and isinstance(v, dict):
            return str(v.get("of") or "G") + " table from " + str(v.get("from"))
        return str(v)


PROFILES = ("default", "deep")


def compile_claim(claim: Claim) -> Claim:
    """Compile `claim` for every profile (once; the methods read :meth:`Claim.plan`). Returns the claim."""
    claim.plans = {"default": plan_claim(claim, "default")}
    claim.plans["deep"] = plan_claim(claim, "deep") if "deep" in claim.raw else claim.plans["default"]
    return claim


def revise_claim(claim: Claim, field_label: str, text: str, new_id: str, expect: str | None = "holds") -> Claim:
    """A compiled copy of `claim` whose expression at `field_label` (one of :func:`editable_fields`) reads `text`:
    a candidate correction, or a mutant.

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; [label for label, _ in editable_fields(c)]
    ['grundy']
    >>> revise_claim(c, "grundy", "x % 2", "c2").statement
    'x % 2'
    """
    raw = copy.deepcopy(claim.raw)
    if "." in field_label:  # p_positions[0].point
        head, key = field_label.split(".")
        name, i = head.split("[")
        raw[name][int(i.rstrip("]"))][key] = text
    else:
        raw[field_label] = text
    raw["id"] = new_id
    if expect is None:
        raw.pop("expect", None)
    else:
        raw["expect"] = expect
    return compile_claim(Claim.from_table(claim.spec, claim.index, new_id, claim.kind, raw, claim.line,
                                          claim.field_lines))


def editable_fields(claim: Claim) -> list[tuple[str, str]]:
    """The expression texts of a claim that a correction may edit: (field label, text)."""
    out = []
    v = claim.statement
    if isinstance(v, str):
        out.append((claim.kind, v))
    elif isinstance(v, list):
        for i, fam in enumerate(v):
            for key in ("point", "where"):
                if isinstance(fam, dict) and isinstance(fam.get(key), str):
                    out.append((f"{claim.kind}[{i}].{key}", fam[key]))
    if isinstance(claim.assume_text, str):
        out.append(("assume", claim.assume_text))
    return out


@dataclass
class Spec:
    path: Path
    source: Source
    namespace: Namespace
    games: dict[str, GameDecl]
    claims: list[Claim]
    sha256: str
    text: str
    #: the line of each game's moves (or header), for faults found in a game while checking
    game_lines: dict[str, int] = field(default_factory=dict)

    def claim(self, cid: str) -> Claim:
        for c in self.claims:
            if c.id == cid:
                return c
        raise SpecError(f"no claim with id {cid!r}", file=str(self.path),
                        hint=suggest(cid, [c.id for c in self.claims]))


# ----------------------------------------------------------------------------- line numbers

class _Lines:
    """Finds the line of a table header or a field in the TOML text (best effort)."""

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


def _check_fields(table: Any, allowed: dict[str, Any], where: dict, what: str,
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


def _check_method_options(table: dict, allowed: dict, where: dict, what: str) -> None:
    """A `sample` or `prove` table: known fields of the right types, a `for_all` that parses, `pins` and
    `each` lists of strings.

    >>> _check_method_options({"scale": 40}, SAMPLE_FIELDS, {"file": "s.toml", "field": "sample"}, "sample")
    >>> _check_method_options({"sacle": 40}, SAMPLE_FIELDS, {"file": "s.toml", "field": "sample"}, "sample")
    Traceback (most recent call last):
    nimjos.lang.errors.SpecError: s.toml: field 'sample': unknown field 'sacle' (did you mean 'scale'?)
    """
    _check_fields(table, allowed, where, what)
    for key in ("pins", "each", "using"):
        if key in table and not all(isinstance(v, str) for v in table[key]):
            raise SpecError(f"{what}.{key} must be a list of strings, got {table[key]!r}"[:200], **where)
    for key in ("for_all", "invariant"):
        if key in table:
            try:
                parse(table[key])  # a syntax error or a refused construct is reported at load time
            except SpecError as exc:
                raise exc.located(**where) from None
    if "induction" in table and not table["induction"].isidentifier():
        raise SpecError(f"{what}.induction must name one bound name, got {table['induction']!r}"[:200], **where)


# ----------------------------------------------------------------------------- loading

def load_spec(path: str | Path) -> Spec:
    """Read, check and compile one spec file."""
    path = Path(path)
    fname = str(path)
    try:
        data_bytes = path.read_bytes()
    except OSError as exc:
        raise SpecError(f"cannot read spec: {exc.strerror}", file=fname) from None
    try:
        text = data_bytes.decode("utf-8")
    except UnicodeDecodeError:
        raise SpecError("spec is not UTF-8 text", file=fname) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        line = int(m.group(1)) if m else None
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        raise SpecError(f"TOML syntax error: {msg}" + (f" (column {m.group(2)})" if m else ""), file=fname, line=line) from None
    lines = _Lines(text)
    for key in data:
        if key not in TOP_LEVEL:
            raise SpecError(f"unknown table {key!r}", file=fname, line=lines.header(re.escape(key)),
                            hint=suggest(key, TOP_LEVEL) or f"known tables: {', '.join(sorted(TOP_LEVEL))}")
    # [source]
    src = data.get("source")
    if src is None:
        raise SpecError("missing [source] table", file=fname, hint="add [source] with at least id = \"...\"")
    src_line = lines.header("source")
    _check_fields(src, SOURCE_FIELDS, {"file": fname, "item": "[source]", "line": src_line}, "[source]",
                  lambda key: lines.field_in_block(src_line, key))
    if "id" not in src:
        raise SpecError("missing field 'id'", file=fname, item="[source]", line=src_line)
    authors = src.get("authors", "")
    source = Source(id=src["id"], title=src.get("title", ""), cite=src.get("cite", ""),
                    authors=", ".join(authors) if isinstance(authors, list) else authors,
                    document=src.get("document", ""), note=src.get("note", ""))
    ns = spec_namespace()
    # [define]
    defines = data.get("define", {})
    if not isinstance(defines, dict):
        raise SpecError("[define] must be a table", file=fname)
    def_line = lines.header("define")
    for head, body in defines.items():
        dline = lines.field_in_block(def_line, head) or def_line
        where = {"file": fname, "item": f"definition {head!r}", "line": dline}
        m = re.fullmatch(r"\s*([A-Za-z][A-Za-z0-9_]*)\s*(?:\(\s*([^()]*)\))?\s*", head)
        if not m:
            raise SpecError("a definition's name must look like 'name' or 'name(a, b)'", **where)
        name, params_text = m.group(1), m.group(2)
        params = tuple(p.strip() for p in params_text.split(",")) if params_text and params_text.strip() else ()
        if any(not p.isidentifier() or p.startswith("_") for p in params) or len(set(params)) != len(params):
            raise SpecError(f"bad parameter list {params_text!r}", **where)
        hidden = [p for p in params if p in ns.builtins]
        if hidden:
            raise SpecError(f"parameter {hidden[0]!r} would hide the built-in {hidden[0]!r}",
                            hint="choose another name", **where)
        if name in ns.builtins:
            raise SpecError(f"{name!r} is a built-in and cannot be redefined", hint="choose another name", **where)
        if not isinstance(body, str):
            raise SpecError(f"a definition's body must be an expression string, got {type(body).__name__}", **where)
        try:
            tree = parse(body)
        except SpecError as exc:
            raise exc.located(**where) from None
        ns.definitions[name] = Definition(name, params, body, tree)
    # [game.NAME]
    games_raw = data.get("game", {})
    if not isinstance(games_raw, dict):
        raise SpecError("[game] must contain tables [game.NAME]", file=fname)
    games: dict[str, GameDecl] = {}
    for gname, table in games_raw.items():
        gline = lines.header(r"game\." + re.escape(gname))
        where = {"file": fname, "item": f"game '{gname}'", "line": gline}

        def at(key: str, gline: int | None = gline, where: dict = where) -> dict:
            return {**where, "field": key, "line": lines.field_in_block(gline, key.split("[")[0]) or gline}
        if gname in ns.builtins or gname in ns.definitions:
            raise SpecError(f"game name {gname!r} is already a built-in or definition", **where)
        _check_fields(table, GAME_FIELDS, where, f"game '{gname}'", lambda key: at(key)["line"])
        for req in ("position", "moves"):
            if req not in table:
                raise SpecError(f"missing field {req!r}", **{**where, "field": req})
        if not table["position"]:
            raise SpecError("a game needs at least one position coordinate", **at("position"))
        if not table["moves"]:
            raise SpecError("a game needs at least one move family", **at("moves"))
        for key in ("params", "position"):
            taken = [n for n in table.get(key, []) if isinstance(n, str) and (n in ns.builtins or n in games_raw)]
            if taken:
                kind = "built-in" if taken[0] in ns.builtins else "game"
                raise SpecError(f"{taken[0]!r} is a {kind} and cannot name a coordinate or param",
                                hint="choose another name",
                                **at(key))
        for i, mv in enumerate(table["moves"]):
            _check_fields(mv, MOVE_FIELDS, at(f"moves[{i}]"), f"move {i + 1}")
            if "to" not in mv:
                raise SpecError(f"move {i + 1} has no 'to'", **at(f"moves[{i}]"))
        ns.games[gname] = None  # reserve the name while compiling moves
    game_lines: dict[str, int] = {}
    for gname, table in games_raw.items():
        gline = lines.header(r"game\." + re.escape(gname))
        game_lines[gname] = lines.field_in_block(gline, "moves") or gline
        try:
            games[gname] = GameDecl.declare(gname, table, ns)
        except SpecError as exc:
            key = (exc.field or "moves").split("[")[0]
            raise exc.located(file=fname, item=f"game '{gname}'",
                              line=lines.field_in_block(gline, key) or gline) from None
        ns.games[gname] = games[gname]
    _compile_definitions(ns, fname, lines, def_line)
    # [[claim]]
    claims_raw = data.get("claim", [])
    if not isinstance(claims_raw, list):
        raise SpecError("claims are written as [[claim]] tables", file=fname)
    spec = Spec(path, source, ns, games, [], hashlib.sha256(data_bytes).hexdigest(), text, game_lines)
    seen: dict[str, int] = {}
    for i, raw in enumerate(claims_raw):
        cline = lines.claim_starts[i] if i < len(lines.claim_starts) else None
        item = f"claim {raw.get('id', '#' + str(i + 1))!r}" if isinstance(raw, dict) else f"claim #{i + 1}"
        item = item.replace('"', "'")
        where = {"file": fname, "item": item, "line": cline}
        _check_fields(raw, CLAIM_FIELDS, where, "a claim", lambda key, cline=cline: lines.field_in_block(cline, key))
        field_lines = {k: lines.field_in_block(cline, k) for k in raw}
        field_lines = {k: v for k, v in field_lines.items() if v}
        for k in raw:
            if k not in field_lines:
                continue
        if "id" not in raw:
            raise SpecError("missing field 'id'", **where)
        cid = raw["id"]
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.\-]*", cid):
            raise SpecError(f"claim id {cid!r} must be letters, digits, '-', '_' or '.'",
                            **{**where, "field": "id", "line": field_lines.get("id", cline)})
        if cid in seen:
            raise SpecError(f"claim id {cid!r} is used twice (first at claim #{seen[cid] + 1})",
                            **{**where, "field": "id", "line": field_lines.get("id", cline)})
        seen[cid] = i
        kinds = [k for k in KIND_FIELDS if k in raw]
        if len(kinds) != 1:
            raise SpecError("a claim needs exactly one of " + ", ".join(KIND_FIELDS) +
                            (f"; it has {', '.join(kinds)}" if kinds else ""), **where)
        kind = kinds[0]
        expect = raw.get("expect")
        if expect is not None and expect not in EXPECT_WORDS:
            raise SpecError(f"expect = {expect!r} is not a verdict", hint=suggest(expect, EXPECT_WORDS) or
                            "one of " + ", ".join(EXPECT_WORDS),
                            **{**where, "field": "expect", "line": field_lines.get("expect", cline)})
        if "deep" in raw:
            _check_fields(raw["deep"], PROFILE_FIELDS,
                          {**where, "field": "deep", "line": field_lines.get("deep", cline)}, "deep")
        for name, allowed in (("sample", SAMPLE_FIELDS), ("prove", PROVE_FIELDS)):
            if name in raw:
                _check_method_options(raw[name], allowed, {**where, "field": name,
                                                           "line": field_lines.get(name, cline)}, name)
        claim = Claim.from_table(spec, i, cid, kind, raw, cline, field_lines)
        spec.claims.append(claim)
    ids = {c.id for c in spec.claims}
    for c in spec.claims:
        for ref_field in ("corrects", "relaxes"):
            target = getattr(c, ref_field)
            if target is not None and target not in ids:
                raise c.error(f"{ref_field} = {target!r} names no claim in this file", ref_field,
                              hint=suggest(target, ids))
        for target in c.prove.using:
            used = next((u for u in spec.claims if u.id == target), None)
            if used is None or used.kind != "holds" or target == c.id:
                why = ("names no claim in this file" if used is None else
                       "names the claim itself" if target == c.id else "names a claim that is not a `holds` claim")
                raise c.error(f"prove.using: {target!r} {why}", "prove", hint=suggest(target, ids) if used is None else None)
    # compile every claim now, so that a bad expression stops the run before anything is checked
    for c in spec.claims:
        compile_claim(c)
    return spec


def _compile_definitions(ns: Namespace, fname: str, lines: _Lines, def_line: int | None) -> None:
    # no recursion: the definitions' call graph must be acyclic
    graph = {name: [n for n in free_names(d.tree) if n in ns.definitions] for name, d in ns.definitions.items()}
    state: dict[str, int] = {}

    def visit(n: str, path: list[str]) -> None:
        if state.get(n) == 2:
            return
        if state.get(n) == 1:
            cyc = path[path.index(n):] + [n]
            raise SpecError("definitions may not be recursive: " + " -> ".join(cyc), file=fname,
                            item=f"definition {n!r}", line=lines.field_in_block(def_line, n) or def_line)
        state[n] = 1
        for m in graph[n]:
            visit(m, path + [n])
        state[n] = 2

    for n in graph:
        visit(n, [])
    for name, d in ns.definitions.items():
        unknown = [n for n in free_names(d.tree) if n not in d.params and n not in ns.known()]
        where = {"file": fname, "item": f"definition '{name}'", "line": None}
        if unknown:
            raise SpecError(f"unknown name {unknown[0]!r} in the body of {name}",
                            hint=suggest(unknown[0], ns.known() | set(d.params)), **where)
        try:
            d.body = compile_tree(d.tree, ns, set(d.params))
        except SpecError as exc:
            raise exc.located(**where) from None


def spec_files(paths: list[str]) -> list[Path]:
    """Expand directories to the .toml files inside them (sorted); keep files as given."""
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*.toml")))
        elif path.exists():
            out.append(path)
        else:
            raise SpecError("no such file or directory", file=str(path))
    return out
