"""Loading spec files: TOML (tomllib) -> checked tables -> compiled games, definitions and claims: a
:class:`Spec` of typed :class:`Claim` objects, each compiled once per profile.

The typed claim (:class:`Claim`, its :class:`SampleOptions` and :class:`ProveOptions`, :func:`compile_claim`,
:func:`revise_claim`, :func:`editable_fields`) is defined here, with the reader that makes it: they are what a
spec file becomes, and the methods import them from here. The schema (fields, types, lines) is
:mod:`nimjos.spec.schema`; the ``[define]`` table is read by :mod:`nimjos.spec.definitions`.

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

from nimjos.games.declared import GameDecl
from nimjos.lang.compiler import Namespace
from nimjos.lang.errors import SpecError, each_error, raise_all
from nimjos.lang.syntax import suggest
from nimjos.words import Kind
from nimjos.spec.automata import declare_automata
from nimjos.spec.definitions import compile_definitions, declare_definitions
from nimjos.spec.names import spec_namespace
from nimjos.spec.plan import KIND_PLANS, ClaimPlan, GrundyPlan, HoldsPlan, PPositionsPlan, ValuesPlan, plan_claim
from nimjos.spec.schema import (CLAIM_FIELDS, EXPECT_WORDS, GAME_FIELDS, KIND_FIELDS, MOVE_FIELDS, PROFILE_FIELDS,
                                PROVE_FIELDS, SAMPLE_FIELDS, SOURCE_FIELDS, TOP_LEVEL, SpecLines, check_fields,
                                check_method_options)


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
    #: where the sampler draws instead of the window widened: one condition, or alternatives drawn in turn
    for_all: str | tuple[str, ...] | None = None
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
    numeration: str | None = None       # the Walnut backend's numeration (msd_2, fib, pell); None: by the terms


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
    kind: Kind
    raw: dict
    line: int | None
    ref: str = ""
    text: str = ""
    expect: str | None = None
    expect_counterexample: str | None = None
    corrects: str | None = None
    relaxes: str | None = None
    note: str = ""
    #: the reading the encoder chose where the printed text is garbled or ambiguous (``reading = "..."``):
    #: shown beside the verdict in the report and the README, and counted
    reading: str = ""
    field_lines: dict[str, int] = field(default_factory=dict)
    #: the game expression (``game = "..."``), the domain (``for_all``, as printed) and the assumption, as written
    #: (the window, ``window``, may differ by profile: :meth:`get`)
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
    plans: dict[str, ClaimPlan] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.kind = Kind(self.kind)

    @classmethod
    def from_table(cls, spec: "Spec", index: int, cid: str, kind: Kind, raw: dict, line: int | None,
                   field_lines: dict[str, int]) -> "Claim":
        """The typed claim of a checked ``[[claim]]`` table (not compiled yet: see :func:`compile_claim`)."""
        return cls(spec, index, cid, kind, raw, line, ref=raw.get("ref", ""), text=raw.get("text", ""),
                   expect=raw.get("expect"), expect_counterexample=raw.get("expect_counterexample"),
                   corrects=raw.get("corrects"), relaxes=raw.get("relaxes"), note=raw.get("note", ""),
                   reading=raw.get("reading", ""), field_lines=field_lines, game_text=raw.get("game"), for_all_text=raw.get("for_all"),
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

    @property
    def plan_type(self) -> type[ClaimPlan]:
        """The type of this claim's plan: its kind (:data:`nimjos.spec.plan.KIND_PLANS`), known before it is compiled.

        >>> import pathlib
        >>> load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].plan_type.__name__
        'GrundyPlan'
        """
        return KIND_PLANS[self.kind]

    def plan(self, profile: str = "default") -> ClaimPlan:
        """The claim compiled for `profile` (``default`` or ``deep``): the loader compiles every claim it loads;
        a claim built from a table by other means (a mutant), or compiled for some profiles only
        (:func:`compile_claim`), is compiled for `profile` here on first use."""
        if profile not in self.plans:
            # a claim with no deep table has one plan for both profiles
            own = profile == "default" or "deep" in self.raw
            self.plans[profile] = plan_claim(self, profile) if own else self.plan("default")
        return self.plans[profile]

    @property
    def coords(self) -> tuple[str, ...]:
        """The coordinates of the claim's position in the game's order (``position``, or the declared game's);
        empty for a claim on no game.

        >>> import pathlib
        >>> load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0].coords
        ('x',)
        """
        return self.plan().coords

    def error(self, message: str, field_name: str | None = None, hint: str | None = None) -> SpecError:
        """A SpecError located at this claim (and field)."""
        return SpecError(message, file=str(self.spec.path), item=self.label, field=field_name,
                         line=self.field_lines.get((field_name or "").split("[")[0], self.line), hint=hint)

    def get(self, name: str, profile: str = "default") -> Any:
        """A field's value under a profile (the `deep` table overrides window / levels / values)."""
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
        if isinstance(v, list):   # a union of families (p_positions, level_set)
            return " | ".join(f"{{{f.get('point')}: {f.get('where', 'True')}}}" for f in v if isinstance(f, dict))
        if issubclass(self.plan_type, ValuesPlan) and isinstance(v, dict):
            return str(v.get("of") or "G") + " table from " + str(v.get("from"))
        return str(v)


def claim_of(plan: ClaimPlan) -> Claim:
    """The loaded claim a plan was compiled from (the plan carries it: a method takes the plan alone).

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> claim_of(spec.claims[0].plan()) is spec.claims[0]
    True
    """
    claim = plan.claim
    assert isinstance(claim, Claim), "a plan compiled from a loaded claim"
    return claim


def _refuse_retired(raw: Any, where: dict, lines: SpecLines, cline: int | None) -> None:
    """Refuse the fields of specs written before ``window``: ``domain`` (for_all is the domain now) and a profile's
    ``for_all`` (a profile widens the window, never the statement), with the rewrite as the hint.

    >>> _refuse_retired({"domain": "x >= 1", "for_all": "1 <= x <= 9"}, {"file": "s.toml"}, SpecLines(""), None)
    Traceback (most recent call last):
    nimjos.lang.errors.SpecError: s.toml: field 'domain': the field 'domain' is retired: for_all is the domain, as printed, and window says how much of it the window check enumerates (write for_all = "x >= 1" and window = "1 <= x <= 9"; scripts/migrate_domains.py rewrites a spec file)
    """
    if not isinstance(raw, dict):
        return
    if "domain" in raw:
        raise SpecError("the field 'domain' is retired: for_all is the domain, as printed, and window says how much of it "
                        "the window check enumerates",
                        hint=f"write for_all = \"{raw['domain']}\" and window = \"{raw.get('for_all', '...')}\"; "
                             "scripts/migrate_domains.py rewrites a spec file",
                        **{**where, "field": "domain", "line": lines.field_in_block(cline, "domain") or cline})
    deep = raw.get("deep")
    if isinstance(deep, dict) and "for_all" in deep:
        raise SpecError("a profile widens the window, not the statement: deep.for_all is retired",
                        hint=f"write deep = {{ window = \"{deep['for_all']}\" }}; scripts/migrate_domains.py rewrites a spec file",
                        **{**where, "field": "deep", "line": lines.field_in_block(cline, "deep") or cline})


PROFILES = ("default", "deep")


def compile_claim(claim: Claim, profiles: tuple[str, ...] = PROFILES) -> Claim:
    """Compile `claim` for each of `profiles` (default: every profile; the methods read :meth:`Claim.plan`, which
    compiles a profile left out here on first use). Returns the claim. A claim with no `deep` table has one plan
    for both profiles.

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> sorted(compile_claim(spec.claims[0]).plans)
    ['deep', 'default']
    """
    claim.plans = {}
    for profile in profiles:
        claim.plan(profile)
    return claim


def revise_claim(claim: Claim, field_label: str, text: str, new_id: str, expect: str | None = "holds",
                 profiles: tuple[str, ...] = PROFILES) -> Claim:
    """A copy of `claim` whose expression at `field_label` (one of :func:`editable_fields`) reads `text`: a
    candidate correction, or a mutant; compiled for `profiles` (another profile is compiled on first use).

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
    return _recompiled(claim, raw, profiles)


def restate_claim(claim: Claim, statement: str) -> Claim:
    """A copy of `claim` whose statement (its kind's field) is `statement` and which has no assumption, compiled
    from them: plans of its own, never the original's (a prover's rewritten statement, read by a backend through
    :meth:`Claim.plan`).

    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = restate_claim(spec.claims[0], "x % 2"); c.plan().formula.text, spec.claims[0].plan().formula.text
    ('x % 2', 'x')
    """
    raw = {k: v for k, v in claim.raw.items() if k != "assume"}
    raw[claim.kind] = statement
    return _recompiled(claim, raw)


def _recompiled(claim: Claim, raw: dict, profiles: tuple[str, ...] = PROFILES) -> Claim:
    """The claim of the table `raw` in `claim`'s place (its spec, index, lines), compiled for `profiles`."""
    return compile_claim(Claim.from_table(claim.spec, claim.index, str(raw.get("id", claim.id)), claim.kind, raw,
                                          claim.line, claim.field_lines), profiles)


def editable_fields(claim: Claim) -> list[tuple[str, str]]:
    """The expression texts of a claim that a correction may edit: (field label, text).

    >>> import pathlib
    >>> editable_fields(load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml").claims[0])
    [('grundy', 'x')]
    """
    out: list[tuple[str, str]] = []
    v = claim.statement
    if isinstance(v, str):
        out.append((str(claim.kind), v))
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
    game_lines: dict[str, int | None] = field(default_factory=dict)

    def claim(self, cid: str) -> Claim:
        for c in self.claims:
            if c.id == cid:
                return c
        raise SpecError(f"no claim with id {cid!r}", file=str(self.path),
                        hint=suggest(cid, [c.id for c in self.claims]))


# ----------------------------------------------------------------------------- loading

def load_spec(path: str | Path, text: str | None = None, files: dict[str, str] | None = None) -> Spec:
    """Read, check and compile one spec file; or, given ``text``, the spec of that text as if it were the file
    ``path`` (never read), its stored automata's files in ``files`` (name -> text) instead of beside it: a spec a
    program builds in memory.

    Every independent fault is found in one reading and raised together (:class:`~nimjos.lang.errors.SpecErrors`,
    one line each): a file that cannot be read as TOML stops at that fault, but the ``[source]`` table, each
    automaton, definition, game and claim is checked on its own. A definition, game or claim that names a
    definition, game or automaton that failed fails with it, with no fault of its own (the first fault says it
    all); so does a claim whose ``corrects``, ``relaxes`` or ``prove.using`` names a claim that failed.

    >>> load_spec("no/such.toml")
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.SpecError: no/such.toml: cannot read spec: No such file or directory
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
    >>> _ = p.write_text('[source]\\nid = "s"\\n[[claim]]\\nid = "a"\\nholds = "1 >= 0"\\nexpect = "true"\\n'
    ...                  '[[claim]]\\nid = "b"\\nfor_all = "0 <= n <= 3"\\nholds = "n >= m"\\n')
    >>> try:
    ...     load_spec(p)
    ... except SpecError as exc:
    ...     print("\\n".join(f"{e.line}: {e.item}, {e.field}: {e.message}" for e in each_error(exc)))
    6: claim 'a', expect: expect = 'true' is not a verdict
    10: claim 'b', holds: unknown name 'm'
    """
    path = Path(path)
    fname = str(path)
    if text is None:
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
    lines = SpecLines(text)
    errors: list[SpecError] = []
    #: names of the automata, definitions and games that failed, and ids of the claims that failed
    failed: set[str] = set()

    def attempt(check: Any, *args: Any, **kwargs: Any) -> bool:
        """Run one check; its faults are kept, and False returned, when it fails."""
        try:
            check(*args, **kwargs)
            return True
        except SpecError as exc:
            errors.extend(each_error(exc))
            return False

    for key in data:
        if key not in TOP_LEVEL:
            errors.append(SpecError(f"unknown table {key!r}", file=fname, line=lines.header(re.escape(key)),
                                    hint=suggest(key, TOP_LEVEL) or f"known tables: {', '.join(sorted(TOP_LEVEL))}"))
    source = Source(id="")
    attempt(_read_source, data, fname, lines, source)
    ns = spec_namespace()
    # [automaton.NAME]: stored automata, bound before the definitions so that no definition can take their names
    attempt(declare_automata, data.get("automaton", {}), ns, path, lines, failed, files)
    # [define]
    defines = data.get("define", {})
    if not isinstance(defines, dict):
        errors.append(SpecError("[define] must be a table", file=fname))
        defines = {}
    attempt(declare_definitions, defines, ns, fname, lines, failed)
    # [game.NAME]
    games_raw = data.get("game", {})
    if not isinstance(games_raw, dict):
        errors.append(SpecError("[game] must contain tables [game.NAME]", file=fname))
        games_raw = {}
    games: dict[str, GameDecl] = {}
    for gname, table in games_raw.items():
        if not attempt(_check_game, gname, table, games_raw, ns, fname, lines):
            failed.add(gname)
        ns.games[gname] = None  # reserve the name while compiling moves
    game_lines: dict[str, int | None] = {}
    for gname, table in games_raw.items():
        gline = lines.header(r"game\." + re.escape(gname))
        game_lines[gname] = lines.field_in_block(gline, "moves") or gline
        if gname in failed:
            continue
        try:
            games[gname] = GameDecl.declare(gname, table, ns)
        except SpecError as exc:
            failed.add(gname)
            if not _names_a_failed(table, failed - {gname}):
                key = (exc.field or "moves").split("[")[0]
                errors.append(exc.located(file=fname, item=f"game '{gname}'",
                                          line=lines.field_in_block(gline, key) or gline))
            continue
        ns.games[gname] = games[gname]
    for gname in failed & set(games_raw):
        del ns.games[gname]
    attempt(compile_definitions, ns, fname, lines, failed)
    # [[claim]]
    claims_raw = data.get("claim", [])
    if not isinstance(claims_raw, list):
        errors.append(SpecError("claims are written as [[claim]] tables", file=fname))
        claims_raw = []
    spec = Spec(path, source, ns, games, [], hashlib.sha256(text.encode("utf-8")).hexdigest(), text, game_lines)
    seen: dict[str, int] = {}
    for i, raw in enumerate(claims_raw):
        try:
            spec.claims.append(_read_claim(spec, i, raw, lines, seen))
        except SpecError as exc:   # a fault of the table itself: never derived from another
            if isinstance(raw, dict) and isinstance(raw.get("id"), str):
                failed.add(raw["id"])
            errors.extend(each_error(exc))
    ids = {c.id for c in spec.claims} | {raw["id"] for raw in claims_raw if isinstance(raw, dict)
                                         and isinstance(raw.get("id"), str)}
    for c in spec.claims:
        try:
            if not _check_references(c, spec.claims, ids, failed):
                failed.add(c.id)   # it uses a claim that failed: that claim's fault is reported
        except SpecError as exc:
            failed.add(c.id)
            errors.extend(each_error(exc))
    # compile every claim now, so that a bad expression stops the run before anything is checked
    for c in spec.claims:
        if c.id in failed:
            continue
        try:
            compile_claim(c)
        except SpecError as exc:
            failed.add(c.id)
            if not _names_a_failed(c.raw, failed - {c.id}):
                errors.extend(each_error(exc))
    errors.sort(key=lambda e: e.line or 0)   # as they stand in the file
    raise_all(errors)
    return spec


def _read_source(data: dict, fname: str, lines: SpecLines, source: Source) -> None:
    """Check the ``[source]`` table and fill in `source` from it."""
    src = data.get("source")
    if src is None:
        raise SpecError("missing [source] table", file=fname, hint="add [source] with at least id = \"...\"")
    src_line = lines.header("source")
    check_fields(src, SOURCE_FIELDS, {"file": fname, "item": "[source]", "line": src_line}, "[source]",
                 lambda key: lines.field_in_block(src_line, key))
    if "id" not in src:
        raise SpecError("missing field 'id'", file=fname, item="[source]", line=src_line)
    authors = src.get("authors", "")
    source.id, source.title, source.cite = src["id"], src.get("title", ""), src.get("cite", "")
    source.authors = ", ".join(authors) if isinstance(authors, list) else authors
    source.document, source.note = src.get("document", ""), src.get("note", "")


def _check_game(gname: str, table: Any, games_raw: dict, ns: Namespace, fname: str, lines: SpecLines) -> None:
    """Check the fields of one ``[game.NAME]`` table (its moves are compiled by GameDecl.declare)."""
    gline = lines.header(r"game\." + re.escape(gname))
    where: dict[str, Any] = {"file": fname, "item": f"game '{gname}'", "line": gline}

    def at(key: str) -> dict:
        return {**where, "field": key, "line": lines.field_in_block(gline, key.split("[")[0]) or gline}
    if gname in ns.builtins or gname in ns.definitions:
        raise SpecError(f"game name {gname!r} is already {ns.kind(gname)}", hint="choose another name", **where)
    check_fields(table, GAME_FIELDS, where, f"game '{gname}'", lambda key: at(key)["line"])
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
            kind = ns.kind(taken[0]) if taken[0] in ns.builtins else f"the game {taken[0]!r}"
            raise SpecError(f"{taken[0]!r} is already {kind} and cannot name a coordinate or param",
                            hint="choose another name", **at(key))
    for i, mv in enumerate(table["moves"]):
        check_fields(mv, MOVE_FIELDS, at(f"moves[{i}]"), f"move {i + 1}")
        if "to" not in mv:
            raise SpecError(f"move {i + 1} has no 'to'", **at(f"moves[{i}]"))


def _read_claim(spec: Spec, i: int, raw: Any, lines: SpecLines, seen: dict[str, int]) -> Claim:
    """Check the fields of the i-th ``[[claim]]`` table; its typed claim (compiled later)."""
    fname = str(spec.path)
    cline = lines.claim_starts[i] if i < len(lines.claim_starts) else None
    item = f"claim {raw.get('id', '#' + str(i + 1))!r}" if isinstance(raw, dict) else f"claim #{i + 1}"
    item = item.replace('"', "'")
    where: dict[str, Any] = {"file": fname, "item": item, "line": cline}
    _refuse_retired(raw, where, lines, cline)
    check_fields(raw, CLAIM_FIELDS, where, "a claim", lambda key, cline=cline: lines.field_in_block(cline, key))
    found_lines = {k: lines.field_in_block(cline, k) for k in raw}
    field_lines = {k: v for k, v in found_lines.items() if v}
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
    kind = Kind(kinds[0])    # validated into the closed vocabulary (its word is the field's name)
    expect = raw.get("expect")
    if expect is not None and expect not in EXPECT_WORDS:
        raise SpecError(f"expect = {expect!r} is not a verdict", hint=suggest(expect, list(EXPECT_WORDS)) or
                        "one of " + ", ".join(EXPECT_WORDS),
                        **{**where, "field": "expect", "line": field_lines.get("expect", cline)})
    if "deep" in raw:
        check_fields(raw["deep"], PROFILE_FIELDS,
                     {**where, "field": "deep", "line": field_lines.get("deep", cline)}, "deep")
    for name, allowed in (("sample", SAMPLE_FIELDS), ("prove", PROVE_FIELDS)):
        if name in raw:
            check_method_options(raw[name], allowed, {**where, "field": name,
                                                       "line": field_lines.get(name, cline)}, name)
    return Claim.from_table(spec, i, cid, kind, raw, cline, field_lines)


def _check_references(c: Claim, claims: list[Claim], ids: set[str], failed: set[str]) -> bool:
    """Check that the claims `c` names (``corrects``, ``relaxes``, ``prove.using``) are in its file; False when a
    lemma it uses (``prove.using``) failed (then `c` cannot be compiled, and that claim's fault says why)."""
    for ref_field in ("corrects", "relaxes"):
        target = getattr(c, ref_field)
        if target is not None and target not in ids:
            raise c.error(f"{ref_field} = {target!r} names no claim in this file", ref_field,
                          hint=suggest(target, ids))
    for target in c.prove.using:
        if target in failed and target != c.id:
            return False
        used = next((u for u in claims if u.id == target), None)
        if used is None or not issubclass(used.plan_type, (HoldsPlan, GrundyPlan, PPositionsPlan)) or target == c.id:
            why = ("names no claim in this file" if used is None else
                   "names the claim itself" if target == c.id else
                   "names a claim that is not a `holds`, `grundy` or `p_positions` claim")
            raise c.error(f"prove.using: {target!r} {why}", "prove", hint=suggest(target, ids) if used is None else None)
    return True


#: fields of a claim that are prose, not expressions: a name in them refers to nothing
_PROSE = ("id", "ref", "text", "note", "reading", "expect", "expect_counterexample", "corrects", "relaxes")


def _names_a_failed(raw: Any, failed: set[str]) -> bool:
    """Whether a claim or game table names (in an expression, not in its prose) one of `failed`: then its own
    fault comes from theirs and is not reported again.

    >>> _names_a_failed({"id": "c", "text": "for every g", "holds": "g(n) >= 0"}, {"g"})
    True
    >>> _names_a_failed({"id": "c", "text": "for every g", "holds": "n >= 0"}, {"g"})
    False
    """
    if not failed:
        return False
    pattern = re.compile(r"\b(" + "|".join(re.escape(name) for name in failed) + r")\b")

    def names(value: Any) -> bool:
        if isinstance(value, str):
            return bool(pattern.search(value))
        if isinstance(value, dict):
            return any(names(v) for k, v in value.items() if k not in _PROSE)
        if isinstance(value, list):
            return any(names(v) for v in value)
        return False
    return names(raw)


def load_specs(paths: list[str] | list[Path]) -> tuple[list[Spec], list[SpecError]]:
    """Load every spec file of `paths` (a folder: the spec files inside it): the specs that loaded, and every fault
    of the others and every path that does not exist (one file's faults do not hide another's).

    >>> import pathlib
    >>> specs, errors = load_specs([pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml",
    ...                              pathlib.Path("no/such.toml")])
    >>> [s.source.id for s in specs], [str(e) for e in errors]
    (['tiny'], ['no/such.toml: no such file or directory'])
    """
    specs: list[Spec] = []
    errors: list[SpecError] = []
    for given in paths:
        try:
            files = spec_files([str(given)])
        except SpecError as exc:
            errors.extend(each_error(exc))
            continue
        for path in files:
            try:
                specs.append(load_spec(path))
            except SpecError as exc:
                errors.extend(each_error(exc))
    return specs, errors


def spec_files(paths: list[str]) -> list[Path]:
    """Expand directories to the .toml files inside them (sorted); keep files as given. Every path that does not
    exist is a fault (raised together).

    >>> import pathlib
    >>> data = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
    >>> data / "tiny.toml" in spec_files([str(data)]), spec_files([str(data / "tiny.toml")])[0].name
    (True, 'tiny.toml')
    """
    out: list[Path] = []
    missing: list[SpecError] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            out.extend(sorted(q for q in path.rglob("*.toml")))
        elif path.exists():
            out.append(path)
        else:
            missing.append(SpecError("no such file or directory", file=str(path)))
    raise_all(missing)
    return out
