"""What a report shows, computed from the store's latest records: no files, no HTML, no plots.

:func:`build_report` groups the records (one per claim and method) into claims, picks each claim's
final verdict (nimjos.verdict.final_verdict), counts the summary line, groups claims by source document, and says which claims
get a page of their own (refuted or ill-defined, or decided by Walnut: the page shows the Walnut statement)
and what that page shows.

>>> rows = [{"file": "specs/a.toml", "claim_id": "c", "method": "exhaustive", "verdict": "refuted",
...          "id": 1, "source_id": "a", "counterexamples": [{"bindings": {"x": 2}, "lhs": 1, "rhs": 0}]}]
>>> report = build_report(rows)
>>> report.summary.counts["refuted"], [c.claim_id for c in report.pages]
(1, ['c'])
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from nimjos.report.records import StoredClaim, final_row, scope_words
from nimjos.verdict import CLOSED, HOLDING, STRENGTH, VERDICTS
from nimjos.words import Kind

#: verdicts whose claims get a page of their own
PAGE_VERDICTS = ("refuted", "ill-defined")

#: the words of the summary line, in order
SUMMARY_WORDS = ("held", "refuted", "ill-defined", "vacuous", "proved", "proved-bounded", "sampled", "checked",
                 "inconclusive")

#: what a counterexample's two values are, by claim kind (lhs: from the game; rhs: what the claim says)
SIDES: dict[str, tuple[str, str]] = {
    Kind.GRUNDY: ("Grundy value (from the moves)", "claimed value"),
    Kind.P_POSITIONS: ("outcome (from the moves)", "claimed outcome"),
    Kind.LEVEL_SET: ("Grundy value (from the moves)", "claimed"),
    Kind.VALUES: ("value (computed)", "printed value"),
    Kind.HOLDS: ("left side", "right side"),
    Kind.DRAWS: ("outcome (from the moves)", "claimed outcome"),
}

#: column titles of a counterexample's detail values, by key (other keys are shown as they are)
DETAIL_TITLES = {"grundy": "Grundy value"}

#: how a claim's formula is introduced, by kind
KIND_LABELS: dict[str, str] = {
    Kind.GRUNDY: "the Grundy value of the position is",
    Kind.P_POSITIONS: "the position is a P-position exactly when",
    Kind.HOLDS: "it holds that",
    Kind.LEVEL_SET: "the position has Grundy value s exactly when",
    Kind.DRAWS: "the position is a draw exactly when",
    Kind.VALUES: "the printed values",
}


def _integer(text: str) -> bool:
    """Is a pattern field an integer as written (not an expression)?

    >>> _integer("12"), _integer("-3"), _integer("k + 1")
    (True, True, False)
    """
    return text.lstrip("-").isdigit()


def _term(text: str) -> str:
    """A pattern value as a summand: an integer or a name as it is, anything else in parentheses.

    >>> _term("12"), _term("k"), _term("k + 1")
    ('12', 'k', '(k + 1)')
    """
    return text if re.fullmatch(r"-?\d+|[A-Za-z_]\w*", text) else f"({text})"


def kind_statement(kind: str, fields: dict[str, str], coord: str = "n") -> str | None:
    """A periodic or stair claim in the words a paper uses, from its pattern's fields as the store keeps them
    (:class:`nimjos.report.records.StoredClaim`); None for the kinds written as a formula.

    >>> kind_statement("periodic", {"period": "12", "preperiod": "70"}, "n")
    'G(n + 12) = G(n) for every n >= 70'
    >>> kind_statement("stair", {"h": "2"}, "n")
    'G(2q + r) = G(2q) + r for 0 <= r < 2, and 2 divides G(2q), for every q >= 0'
    >>> kind_statement("grundy", {}) is None
    True
    """
    if kind == Kind.PERIODIC and "period" in fields:
        saltus = fields.get("saltus", "0")
        plus = "" if saltus == "0" else f" + {_term(saltus)}"
        return (f"G({coord} + {_term(fields['period'])}) = G({coord}){plus} "
                f"for every {coord} >= {fields.get('preperiod', '0')}")
    if kind == Kind.STAIR and "h" in fields:
        h = _term(fields["h"])
        return f"G({h}q + r) = G({h}q) + r for 0 <= r < {fields['h']}, and {fields['h']} divides G({h}q), for every q >= 0"
    return None


def domain_words(for_all: str, names: list[str]) -> str:
    """A claim's domain as a sentence's opening: "for every x, y with 1 <= x and 1 <= y" (the names are the
    bound variables, as the counterexamples name them; without them the condition alone).

    >>> domain_words("1 <= x and 1 <= y", ["x", "y"])
    'for every x, y with 1 <= x and 1 <= y'
    >>> domain_words("0 <= n", [])
    'for every instance of 0 <= n'
    """
    if not names:
        return f"for every instance of {for_all}"
    return f"for every {', '.join(names)} with {for_all}"


def side_names(kind: str) -> tuple[str, str]:
    """What a counterexample's two values are for a claim of `kind`, spelled out (never "lhs"/"rhs").

    >>> side_names("p_positions"), side_names("holds")
    (('outcome (from the moves)', 'claimed outcome'), ('left side', 'right side'))
    """
    return SIDES.get(kind, ("left side", "right side"))


def count_words(count: int, noun: str) -> str:
    """A count with its noun, singular for one.

    >>> count_words(1, "instance"), count_words(3, "instance")
    ('1 instance', '3 instances')
    """
    return f"{count} {noun}" + ("" if count == 1 else "s")


def slug(text: str) -> str:
    """A file-name-safe form of an id.

    >>> slug("Theorem 3.5 (14)"), slug("specs/004_x.toml")
    ('Theorem-3.5-14', 'specs-004_x.toml')
    """
    return re.sub(r"[^A-Za-z0-9._-]+", "-", str(text)).strip("-") or "x"


@dataclass
class Claim:
    """One claim with every method's latest record; `best` is the record of its final verdict (nimjos.verdict)."""

    file: str
    claim_id: str
    records: list[dict]
    best: dict
    stale: bool = False                     # recorded against an older version of its spec file
    changed: bool = False                   # its spec file has changed since (its hash differs from the recorded one)
    corrections: list["Claim"] = field(default_factory=list)   # claims whose `corrects` names this one
    page: str | None = None                 # the claim page's file stem, when it has one

    def get(self, name: str, default: Any = None) -> Any:
        """A claim field (as recorded with the best record).

        >>> Claim("f", "c", [], {"ref": "Lemma 1"}).get("ref")
        'Lemma 1'
        """
        value = self.best.get(name)
        return default if value in (None, "") else value

    @property
    def verdict(self) -> str:
        return self.best["verdict"]

    @property
    def holds(self) -> bool:
        """Is the final verdict one of the words of a statement that held (proved ... checked)?"""
        return self.verdict in HOLDING

    @property
    def names(self) -> list[str]:
        """The claim's bound variables as its records name them (counterexamples, plotted coordinates, the
        domain's own names), in their first order; empty when no record says.

        >>> Claim("f", "c", [], {"for_all": "1 <= x and 1 <= y", "claim": {"names": ["x", "y"]}}).names
        ['x', 'y']
        >>> Claim("f", "c", [], {"for_all": "0 <= n", "counterexamples": [{"bindings": {"k": 2, "n": 5}}]}).names
        ['k', 'n']
        """
        out: list[str] = []
        for record in self.records or [self.best]:
            for key in ("counterexamples", "undefined"):
                for cx in record.get(key) or []:
                    out += [n for n in (cx.get("bindings") or {}) if n not in out]
        for block in (self.plotted.get("sequence"), self.plotted.get("grid")):
            if isinstance(block, dict):
                out += [str(n) for n in block.get("coords") or [] if n not in out]
        return out or list(self.structure.names)

    @property
    def structure(self) -> StoredClaim:
        """The claim's structure as the store keeps it: kind, pattern fields, bound names, coordinates.

        >>> Claim("f", "c", [], {"claim": {"kind": "periodic", "pattern": {"period": 3}}}).structure.pattern
        {'period': '3'}
        """
        return StoredClaim.from_row(self.best)

    @property
    def coord(self) -> str:
        """The position's coordinate of a one-heap claim (periodic, stair): the first name its records give.

        >>> Claim("f", "c", [], {}).coord
        'n'
        """
        return next(iter(self.names), "n")

    @property
    def game_words(self) -> str:
        """The claim's game as the page names it, with its play convention when it is misère play (which a
        record's evidence says); "" for a claim without a game.

        >>> Claim("f", "c", [{"evidence": {"play": "misere"}}], {"game": "nim2"}).game_words
        'nim2, misère play'
        >>> Claim("f", "c", [], {"game": "nim2"}).game_words
        'nim2'
        """
        game = self.get("game", "")
        if not game:
            return ""
        misere = any((r.get("evidence") or {}).get("play") == "misere" for r in self.records or [self.best])
        return f"{game}, misère play" if misere else game

    @property
    def statement_words(self) -> str | None:
        """The claim in the words of its kind (periodic, stair), or None when its formula is the statement.

        >>> Claim("f", "c", [], {"kind": "periodic", "claim": {"pattern": {"period": 3}}}).statement_words
        'G(n + 3) = G(n) for every n >= 0'
        """
        return kind_statement(self.get("kind", ""), self.structure.pattern, self.coord)

    @property
    def domain(self) -> str:
        """The claim's domain as the opening of its statement ('' without one).

        >>> Claim("f", "c", [], {"for_all": "1 <= x and 1 <= y", "claim": {"names": ["x", "y"]}}).domain
        'For every x, y with 1 <= x and 1 <= y'
        """
        given = self.get("for_all", "")
        return f"{self.domain_lead} {given}" if self.domain_lead else ""

    @property
    def domain_lead(self) -> str:
        """The words before the domain's condition: "For every x, y with" ('' without a domain).

        >>> Claim("f", "c", [], {"for_all": "0 <= n", "claim": {"names": ["n"]}}).domain_lead, Claim("f", "c", [], {}).domain_lead
        ('For every n with', '')
        """
        given = self.get("for_all", "")
        if not given or given == "True":
            return ""
        words = domain_words(given, self.names)[:-len(given)].rstrip()
        return words[0].upper() + words[1:]

    @property
    def extent(self) -> str:
        """What the final method covered, in words whose counts mean what they say: a proof's domain (not its one
        "instance"), a proof for a class (its scope), or the instances checked, in the singular when there is one.

        >>> Claim("f", "c", [], {"verdict": "proved", "for_all": "1 <= x", "instances": 1, "claim": {"names": ["x"]}}).extent
        'for every x with 1 <= x'
        >>> Claim("f", "c", [], {"verdict": "refuted", "instances": 401, "assumption_held": 401, "failures": 1}).extent
        '401 instances, assumption held in 401, 1 failing'
        """
        b = self.best
        if b.get("verdict") == "proved":
            given = self.get("for_all", "")
            return domain_words(given, self.names) if given and given != "True" else "for the whole domain"
        if b.get("verdict") == "proved-bounded":
            return "for the class of its scope"
        out = count_words(b.get("instances") or 0, "instance")
        if b.get("assumption_held") is not None:
            out += f", assumption held in {b['assumption_held']}"
        if b.get("failures"):
            out += f", {b['failures']} failing"
        return out

    @property
    def count(self) -> str:
        """The index's count of the final method: its instances, or the words of a proof (whose one
        "instance" is the whole domain or class).

        >>> Claim("f", "c", [], {"verdict": "proved", "instances": 1}).count
        'whole domain'
        >>> Claim("f", "c", [], {"verdict": "checked", "instances": 12}).count
        '12'
        """
        return {"proved": "whole domain", "proved-bounded": "stated class"}.get(
            self.verdict, str(self.best.get("instances") or 0))

    @property
    def definitions(self) -> list[tuple[str, str]]:
        """The ``[define]`` definitions the statement uses, as recorded: (head, body) pairs.

        >>> Claim("f", "c", [], {"definitions": [["odd(x)", "x % 2 == 1"]]}).definitions
        [('odd(x)', 'x % 2 == 1')]
        """
        return [(str(p[0]), str(p[1])) for p in self.best.get("definitions") or []
                if isinstance(p, (list, tuple)) and len(p) == 2]

    @property
    def comparison(self) -> str | None:
        """Why a periodic or stair claim fails at its smallest counterexample: the two Grundy values it says are
        equal, each at its own position, from the moves; None for the other kinds, and for a period or saltus
        that is an expression (its value at the counterexample is not stored).

        >>> Claim("f", "c", [], {"kind": "periodic", "claim": {"pattern": {"period": 12, "preperiod": 70}},
        ...       "counterexamples": [{"bindings": {"n": 70}, "lhs": 2, "rhs": 6}]}).comparison
        'G(82) = 2, but G(70) = 6: the claim says G(70 + 12) = G(70), and both values come from the moves.'
        """
        kind = self.get("kind", "")
        found = self.best.get("counterexamples") or []
        if kind not in (Kind.PERIODIC, Kind.STAIR) or not found:
            return None
        cx = found[0]
        if kind == Kind.PERIODIC:
            pattern = self.structure.pattern
            n = (cx.get("bindings") or {}).get((self.structure.coords or (self.coord,))[0])
            p, s = pattern.get("period", ""), pattern.get("saltus", "0")
            if not isinstance(n, int) or not _integer(p) or not _integer(s):
                return None
            period, saltus = int(p), int(s)
            plus = f" + {saltus}" if saltus else ""
            return (f"G({n + period}) = {_cell(cx.get('lhs'))}, but G({n}){plus} = {_cell(cx.get('rhs'))}: the claim "
                    f"says G({n} + {period}) = G({n}){plus}, and both values come from the moves.")
        at = (cx.get("bindings") or {}).get(self.coord)
        return (f"G({at}) = {cx.get('lhs')}, but the stair says {cx.get('rhs')} "
                f"(the value at the start of its block plus the offset); both from the moves."
                if at is not None else None)

    @property
    def seconds(self) -> float:
        """Seconds over every method."""
        return sum(float(r.get("seconds") or 0.0) for r in self.records)

    @property
    def agrees(self) -> bool | None:
        return self.best.get("agrees")

    @property
    def display_text(self) -> str:
        """The printed statement, or failing that the formula, or the reference."""
        return self.get("text") or self.get("formula") or self.get("ref") or self.claim_id

    @property
    def other_records(self) -> list[dict]:
        """The records of the methods other than the best one."""
        return [r for r in self.records if r is not self.best]

    @property
    def sides(self) -> tuple[str, str]:
        """Column titles for a counterexample's two values (a periodic claim's: the two Grundy values it compares).

        >>> Claim("f", "c", [], {"kind": "periodic", "claim": {"pattern": {"period": 12, "preperiod": 70}}}).sides
        ('G(n + 12), from the moves', 'G(n), from the moves')
        """
        given = (self.best.get("evidence") or {}).get("sides")
        if isinstance(given, (list, tuple)) and len(given) == 2:
            return str(given[0]), str(given[1])
        fields = self.structure.pattern
        if self.get("kind") == Kind.PERIODIC and "period" in fields:
            saltus = fields.get("saltus", "0")
            plus = "" if saltus == "0" else f" + {_term(saltus)}"
            return (f"G({self.coord} + {_term(fields['period'])}), from the moves",
                    f"G({self.coord}){plus}, from the moves")
        return side_names(self.get("kind", ""))

    @property
    def kind_label(self) -> str:
        return KIND_LABELS.get(self.get("kind", ""), self.get("kind", "claim"))

    @property
    def where(self) -> str:
        """The smallest counterexample, or else the first ill-defined instance, as ``x = 0, y = 2``.

        >>> Claim("f", "c", [], {"counterexamples": [{"bindings": {"x": 0, "y": 2}}]}).where
        'x = 0, y = 2'
        >>> Claim("f", "c", [], {"counterexamples": [{"bindings": {}, "lhs": 31, "rhs": 30}]}).where
        'the closed statement (no variables)'
        """
        for key in ("counterexamples", "undefined"):
            found = self.best.get(key) or []
            if found:
                bindings = found[0].get("bindings") or {}
                return ", ".join(f"{k} = {v}" for k, v in bindings.items()) if bindings else CLOSED
        return ""

    @property
    def why(self) -> str:
        """The claim's note, or else the note of the first claim correcting it.

        >>> fixed = Claim("f", "d", [], {"note": "off by one"})
        >>> Claim("f", "c", [], {}, corrections=[fixed]).why
        'off by one'
        """
        return self.get("note") or next((c.get("note") for c in self.corrections if c.get("note")), "")

    @property
    def expected(self) -> str:
        """What the spec expects, in words.

        >>> Claim("f", "c", [], {}).expected, Claim("f", "c", [], {"expect": "refuted"}).expected
        ('not refuted', 'refuted')
        """
        return self.get("expect") or "not refuted"

    @property
    def disagreement(self) -> str:
        """Why the verdict is not what the spec expects, as the check said it (nimjos.verdict.agreement, recorded
        with the verdict): another verdict word, or the same word with another smallest counterexample; for a
        record without it, the expected word.

        >>> Claim("f", "c", [], {"verdict": "refuted", "expect": "refuted", "agrees": False,
        ...       "disagreement": "expected smallest counterexample (1, 2, 3), got (a, b, c) = (1, 2, 2)"}).disagreement
        'expected smallest counterexample (1, 2, 3), got (a, b, c) = (1, 2, 2)'
        >>> Claim("f", "c", [], {"verdict": "refuted", "agrees": False}).disagreement
        'expected not refuted'
        """
        return self.get("disagreement") or f"expected {self.expected}"

    @property
    def reading(self) -> str:
        """The reading the encoder chose where the printed text is garbled ('' when the text was read as printed).

        >>> Claim("f", "c", [], {"reading": "2^n - 1 read as (2^n) - 1"}).reading
        '2^n - 1 read as (2^n) - 1'
        """
        return str(self.get("reading", ""))

    @property
    def plotted(self) -> dict:
        """The evidence the plots are drawn from: the final record's, or the window check's when the final verdict
        came from another method (a claim sampled beyond its window keeps the plot of its window).

        >>> window = {"method": "exhaustive", "evidence": {"grid": {"grundy": [[0, 1], [1, 0]]}}}
        >>> Claim("f", "c", [window], {"method": "sample", "evidence": {}}).plotted["grid"]["grundy"]
        [[0, 1], [1, 0]]
        """
        for record in [self.best] + [r for r in self.records if r is not self.best]:
            evidence = record.get("evidence") or {}
            if evidence.get("grid") or evidence.get("sequence"):
                return evidence
        return self.best.get("evidence") or {}

    @property
    def walnut(self) -> dict | None:
        """The Walnut statement and automata of the claim's records (the final record's first), or None.

        >>> w = {"version": "Walnut 6.2", "runs": [{"params": {}, "commands": 'eval t "Ax x=x";'}]}
        >>> Claim("f", "c", [{"evidence": {"walnut": w}}], {}).walnut["version"]
        'Walnut 6.2'
        """
        for record in [self.best] + [r for r in self.records if r is not self.best]:
            found = (record.get("evidence") or {}).get("walnut")
            if isinstance(found, dict) and found.get("runs"):
                return found
        return None

    @property
    def fails(self) -> bool:
        """Is the final verdict one that a page of failures lists (refuted, ill-defined)?"""
        return self.verdict in PAGE_VERDICTS

    @property
    def rerun(self) -> str:
        """The command that re-runs the smallest counterexample (or the whole claim)."""
        given = (self.best.get("evidence") or {}).get("rerun")
        return given or f"nimjos check {self.file} --claim {self.claim_id}"


@dataclass
class Source:
    """One source document (one spec file) and its claims in the file's order."""

    key: str
    title: str
    cite: str
    document: str
    file: str
    claims: list[Claim]
    #: measured performance claims on this document (nimjos.report.measured), as the benchmarks recorded them
    measured: list = field(default_factory=list)


@dataclass
class Summary:
    """The counts of the summary line: claims by their strongest verdict, and disagreements with `expect`."""

    claims: int
    counts: dict[str, int]
    unexpected: int
    readings: int = 0                       # claims whose verdict rests on a reading of a garbled text

    def line(self) -> str:
        """The summary line as text; the claims resting on a reading are counted when there are any.

        >>> Summary(3, {"held": 2, "refuted": 1}, 0).line()
        '3 claims: 2 held, 1 refuted, 0 ill-defined, 0 vacuous, 0 proved, 0 proved-bounded, 0 sampled, 0 checked, 0 inconclusive; every verdict as expected'
        >>> Summary(3, {"held": 3}, 0, readings=1).line().split("; ")[-1]
        '1 verdict rests on a reading'
        """
        parts = ", ".join(f"{self.counts.get(w, 0)} {w}" for w in SUMMARY_WORDS)
        tail = "every verdict as expected" if not self.unexpected else f"{self.unexpected} not as expected"
        return f"{self.claims} claims: {parts}; {tail}" + (f"; {self.reading_line()}" if self.readings else "")

    def reading_line(self) -> str:
        """How many verdicts rest on a reading.

        >>> Summary(2, {}, 0, readings=2).reading_line()
        '2 verdicts rest on a reading'
        """
        return f"{self.readings} verdict{' rests' if self.readings == 1 else 's rest'} on a reading"


@dataclass
class Report:
    """Everything the pages show."""

    summary: Summary
    sources: list[Source]
    pages: list[Claim]
    records: int
    latest_time: str
    versions: list[dict]
    #: claims whose spec file has changed since their results were recorded
    changed: int = 0

    @property
    def failing(self) -> list[Claim]:
        """Pages of statements that fail (not of claims that drop a hypothesis to test it)."""
        return [c for c in self.pages if c.fails and not c.get("relaxes")]

    @property
    def needed(self) -> list[Claim]:
        """Pages of claims that drop a hypothesis of another and fail: that hypothesis is needed."""
        return [c for c in self.pages if c.fails and c.get("relaxes")]

    @property
    def walnut(self) -> list[Claim]:
        """Claims with a Walnut statement on their page, in the order of the sources."""
        return [c for c in self.pages if c.walnut is not None]


def _strength(record: dict) -> tuple:
    """Sort key of the records listed under the final one: the strongest word first, then the method name."""
    return (-STRENGTH.get(str(record.get("verdict")), -1), str(record.get("method")))


def _order_key(claim: Claim) -> tuple:
    order = claim.best.get("claim_order")
    return (order is None, order if order is not None else 0, claim.claim_id)


def group_claims(rows: list[dict]) -> list[Claim]:
    """One Claim per (file, claim_id), records sorted strongest first, stale ones flagged.

    A claim is stale when its records were written for another version of its spec file than
    the newest record of that file was.

    >>> rows = [{"file": "f", "claim_id": "c", "method": "prove", "verdict": "inconclusive", "id": 2},
    ...         {"file": "f", "claim_id": "c", "method": "exhaustive", "verdict": "checked", "id": 1}]
    >>> [(c.claim_id, c.verdict, c.best["method"]) for c in group_claims(rows)]
    [('c', 'checked', 'exhaustive')]
    """
    by_key: dict[tuple[str, str], list[dict]] = {}
    newest_hash: dict[str, tuple[int, Any]] = {}
    for row in rows:
        row["scope"] = scope_words(row)    # the scope's words, rendered from its record
        by_key.setdefault((row["file"], row["claim_id"]), []).append(row)
        mark = (int(row.get("id") or 0), row.get("spec_hash"))
        newest_hash[row["file"]] = max(newest_hash.get(row["file"], mark), mark, key=lambda m: m[0])
    claims = []
    for (file, claim_id), records in by_key.items():
        best = final_row(records)
        records = [best] + sorted((r for r in records if r is not best), key=_strength)
        current = newest_hash[file][1]
        stale = current is not None and all(r.get("spec_hash") != current for r in records)
        claims.append(Claim(file, claim_id, records, best, stale=stale))
    return sorted(claims, key=lambda c: (c.file, *_order_key(c)))


def summarize(claims: list[Claim]) -> Summary:
    """Count claims by their final verdict; `held` counts proved, proved-bounded, sampled and checked together.

    >>> cs = group_claims([{"file": "f", "claim_id": "a", "method": "m", "verdict": "proved", "agrees": True},
    ...                    {"file": "f", "claim_id": "b", "method": "m", "verdict": "refuted", "agrees": False}])
    >>> s = summarize(cs); (s.claims, s.counts["held"], s.counts["proved"], s.unexpected)
    (2, 1, 1, 1)
    """
    counts = Counter(c.verdict for c in claims)
    counts["held"] = sum(counts[v] for v in HOLDING)
    full = {w: counts.get(w, 0) for w in SUMMARY_WORDS}
    for v in VERDICTS:
        full.setdefault(v, counts.get(v, 0))
    return Summary(len(claims), full, sum(1 for c in claims if c.agrees is False),
                   readings=sum(1 for c in claims if c.reading))


def build_report(rows: list[dict], measured: list | None = None,
                 spec_hashes: dict[str, str | None] | None = None) -> Report:
    """The report model of the store's latest records (see the module docstring); `measured` claims from
    the benchmark results are attached to the document whose spec file they name. `spec_hashes` gives the
    SHA-256 of each spec file as it is now (None: not found); a claim recorded under another hash is marked
    `changed`.

    >>> rows = [{"file": "f", "claim_id": "c", "method": "m", "verdict": "checked", "spec_hash": "aa"}]
    >>> [c.changed for c in build_report(rows, spec_hashes={"f": "bb"}).sources[0].claims]
    [True]
    >>> build_report(rows, spec_hashes={"f": "aa"}).changed, build_report(rows, spec_hashes={"f": None}).changed
    (0, 0)
    """
    claims = group_claims(rows)
    for claim in claims:
        now = (spec_hashes or {}).get(claim.file)
        claim.changed = now is not None and claim.best.get("spec_hash") not in (None, now)
    by_file: dict[str, list[Claim]] = {}
    for claim in claims:
        by_file.setdefault(claim.file, []).append(claim)
    stems: Counter = Counter()
    for file, file_claims in by_file.items():
        ids = {c.claim_id: c for c in file_claims}
        for claim in file_claims:
            target = ids.get(claim.get("corrects") or "")
            if target is not None:
                target.corrections.append(claim)
            if claim.fails or claim.walnut is not None:
                stem = f"{slug(PurePosixPath(file).stem)}--{slug(claim.claim_id)}"
                stems[stem] += 1
                claim.page = stem if stems[stem] == 1 else f"{stem}-{stems[stem]}"
    sources = []
    for file, file_claims in sorted(by_file.items()):
        first = file_claims[0]
        sources.append(Source(key=first.get("source_id", file), title=first.get("source_title", ""),
                              cite=first.get("cite", ""), document=first.get("document", ""), file=file,
                              claims=file_claims,
                              measured=[m for m in measured or [] if PurePosixPath(m.spec).name ==
                                        PurePosixPath(file.replace("\\", "/")).name]))
    versions = sorted({(r.get("nimjos_version") or "", r.get("z3_version") or "", r.get("python_version") or "")
                       for r in rows})
    return Report(
        summary=summarize(claims),
        sources=sources,
        pages=[c for c in claims if c.page],
        records=len(rows),
        latest_time=max((str(r.get("recorded") or "") for r in rows), default=""),
        versions=[{"nimjos": n, "z3": z, "python": p} for n, z, p in versions],
        changed=sum(1 for c in claims if c.changed),
    )


def counterexample_rows(claim: Claim, limit: int = 10) -> tuple[list[str], list[list[str]]]:
    """Column titles and cells of the smallest counterexamples (then ill-defined instances) of a claim.

    >>> c = group_claims([{"file": "f", "claim_id": "c", "method": "m", "verdict": "refuted", "kind": "grundy",
    ...     "counterexamples": [{"bindings": {"x": 0, "y": 2}, "lhs": 2, "rhs": 0}]}])[0]
    >>> counterexample_rows(c)
    (['x', 'y', 'Grundy value (from the moves)', 'claimed value'], [['0', '2', '2', '0']])
    """
    found = list(claim.best.get("counterexamples") or [])[:limit]
    undefined = list(claim.best.get("undefined") or [])[:limit]
    names: list[str] = []
    details: list[str] = []
    for cx in found + undefined:
        names += [n for n in (cx.get("bindings") or {}) if n not in names]
        details += [n for n in (cx.get("detail") or {}) if n not in details]
    left, right = claim.sides
    header = names + [left, right] + [DETAIL_TITLES.get(d, d) for d in details]
    header += ["why it cannot be evaluated"] if undefined else []
    rows = []
    for cx in found + undefined:
        bindings, detail = cx.get("bindings") or {}, cx.get("detail") or {}
        row = [_cell(bindings.get(n)) for n in names] + [_cell(cx.get("lhs")), _cell(cx.get("rhs"))]
        row += [_cell(detail.get(n)) for n in details]
        if undefined:
            row.append(str(cx.get("reason") or ""))
        rows.append(row)
    return header, rows


def _cell(value: Any) -> str:
    """A JSON value as table text ('' for nothing, also when a missing value was recorded as the text None).

    >>> _cell(None), _cell("None"), _cell(3), _cell([1, 2])
    ('', '', '3', '[1, 2]')
    """
    return "" if value is None or value == "None" else str(value)


def marks(claim: Claim, count: int) -> list[tuple[int, ...]]:
    """Counterexample positions for a plot with `count` coordinates (1 or 2).

    The coordinates are the names listed in the evidence (``coords``) when given, else the
    bindings when there are exactly `count` integer bindings; otherwise none (nothing is guessed).

    >>> c = Claim("f", "c", [], {"counterexamples": [{"bindings": {"x": 0, "y": 2}}, {"bindings": {"x": 1, "y": 1}}]})
    >>> marks(c, 2), marks(c, 1)
    ([(0, 2), (1, 1)], [])

    When the plot draws one instance of a parameterised claim (``fixed``: the other names' values), only
    that instance's counterexamples are marked:

    >>> c = Claim("f", "c", [], {"evidence": {"sequence": {"coords": ["x"], "fixed": {"k": 2}}},
    ...     "counterexamples": [{"bindings": {"k": 2, "x": 5}}, {"bindings": {"k": 3, "x": 4}}]})
    >>> marks(c, 1)
    [(5,)]
    """
    block = claim.plotted.get("grid" if count == 2 else "sequence") or {}
    coords = block.get("coords")
    fixed = block.get("fixed") or {}
    out = []
    for cx in claim.best.get("counterexamples") or []:
        bindings = cx.get("bindings") or {}
        if any(n in bindings and bindings[n] != v for n, v in fixed.items()):
            continue
        values: list[Any]
        if coords:
            values = [bindings.get(name) for name in coords]
        else:
            values = [v for v in bindings.values() if isinstance(v, int) and not isinstance(v, bool)]
            if len(values) != len(bindings):
                values = []
        if len(values) == count and all(isinstance(v, int) for v in values):
            out.append(tuple(values))
    return out
