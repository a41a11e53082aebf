"""The results store's rows as typed records: :class:`StoredVerdict` (what one method established, as recorded)
and :class:`StoredClaim` (the claim it was about, with its structure as the store keeps it: kind, the fields of a
periodic or stair pattern, the bound names). The report reads these, never a field parsed back out of stored text.

>>> row = {"file": "f.toml", "claim_id": "c", "method": "exhaustive", "verdict": "refuted", "kind": "periodic",
...        "counterexamples": [{"bindings": {"n": 70}, "lhs": 2, "rhs": 6}],
...        "claim": {"kind": "periodic", "pattern": {"period": 12, "preperiod": 70}, "names": ["n"]}}
>>> v = StoredVerdict.from_row(row)
>>> v.verdict, v.method, v.counterexamples[0].bindings
('refuted', 'exhaustive', {'n': 70})
>>> StoredClaim.from_row(row).pattern
{'period': '12', 'preperiod': '70'}
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nimjos.verdict import Counterexample, Scope, final_verdict
from nimjos.words import Method, Word


def _counterexamples(found: Any) -> list[Counterexample]:
    """Stored counterexamples (JSON objects) as :class:`Counterexample` records, in their stored order.

    >>> _counterexamples([{"bindings": {"x": 1}, "lhs": 0, "rhs": 1, "detail": {"engine": "e"}}])[0].detail
    {'engine': 'e'}
    >>> _counterexamples([{"bindings": {"x": 1}, "confirmed": False}])[0].confirmed
    False
    """
    return [Counterexample(dict(cx.get("bindings") or {}), cx.get("lhs"), cx.get("rhs"), cx.get("reason"),
                           dict(cx.get("detail") or {}), confirmed=cx.get("confirmed") is not False)
            for cx in found or [] if isinstance(cx, dict)]


def scope_words(row: dict[str, Any]) -> str:
    """A stored record's scope in words, as the report prints it: rendered from its phrases (the ``scope_json``
    column, :meth:`nimjos.verdict.Scope.text`); the stored words for a record kept before the store kept them.

    >>> scope_words({"scope": "0 <= x <= 3", "scope_json": {"phrases": [["window", "0 <= x <= 9"]]}})
    '0 <= x <= 9'
    >>> scope_words({"scope": "0 <= x <= 3"}), scope_words({})
    ('0 <= x <= 3', '')
    """
    return Scope.from_json(dict(row.get("scope_json") or {})).text(str(row.get("scope") or ""))


@dataclass(frozen=True)
class StoredVerdict:
    """One stored record of one method's verdict on one claim, typed: what :func:`nimjos.verdict.final_verdict`
    reads (its word, its method, its counterexamples), with the row it was read from (`row`: the pages' data).

    >>> StoredVerdict.from_row({"verdict": "checked", "method": "exhaustive"}).verdict is Word.CHECKED
    True
    """

    verdict: Word
    method: Method | str
    counterexamples: list[Counterexample] = field(default_factory=list)
    #: the structured scope (nimjos.verdict.Scope.to_json), {} for a record stored before the store kept it
    scope: dict[str, Any] = field(default_factory=dict)
    row: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> StoredVerdict:
        """The record of a row as :meth:`nimjos.results.store.ResultsStore.latest` returns it (JSON decoded).

        >>> StoredVerdict.from_row({"verdict": "proved", "method": "prove", "scope_json": {"automaton_states": 9}}).scope
        {'automaton_states': 9}
        """
        method = str(row.get("method"))
        return cls(Word(row["verdict"]), Method(method) if method in tuple(Method) else method,
                   _counterexamples(row.get("counterexamples")), dict(row.get("scope_json") or {}), row)


@dataclass(frozen=True)
class StoredClaim:
    """A claim as the store keeps its structure (the ``claim`` column, :func:`nimjos.results.store.claim_record`):
    its kind, the fields of a periodic or stair pattern (values as text: nothing is evaluated), and its bound names
    in the order the claim binds them.

    >>> StoredClaim.from_row({"claim": {"kind": "stair", "pattern": {"h": "k + 1"}, "names": ["n"]}}).pattern
    {'h': 'k + 1'}
    >>> StoredClaim.from_row({}).names
    ()
    """

    kind: str = ""
    pattern: dict[str, str] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    coords: tuple[str, ...] = ()

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> StoredClaim:
        data = row.get("claim") or {}
        return cls(str(data.get("kind") or row.get("kind") or ""),
                   {str(k): str(v) for k, v in (data.get("pattern") or {}).items()},
                   tuple(str(n) for n in data.get("names") or ()), tuple(str(n) for n in data.get("coords") or ()))


def final_row(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The stored row of a claim's final verdict among its methods' rows (the rule:
    :func:`nimjos.verdict.final_verdict`, over the rows as :class:`StoredVerdict` records).

    >>> final_row([{"verdict": "checked", "method": "exhaustive"}, {"verdict": "sampled", "method": "sample"}])
    {'verdict': 'sampled', 'method': 'sample'}
    >>> final_row([{"verdict": "vacuous", "method": "exhaustive"}, {"verdict": "sampled", "method": "sample"}])
    {'verdict': 'vacuous', 'method': 'exhaustive'}
    """
    return final_verdict([StoredVerdict.from_row(r) for r in rows]).row
