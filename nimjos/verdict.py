"""The verdict model: the words, their order, what one method established (:class:`Verdict`), the final
verdict a claim earned from its methods (:func:`final_verdict`) and whether it agrees with the spec's
``expect`` (:func:`agreement`). This module is the one owner of those rules: the CLI, the pytest plugin,
the results store, the reports and the README findings all call it.

A :class:`Verdict` says what one method established about one claim, and how far:
its scope (which variables over which bounds), how many instances were evaluated, how many
satisfied the claim's assumption, and the smallest counterexamples.

>>> v = Verdict(claim_id="c", verdict="checked", method="exhaustive", phrases=phrases(("window", "0 <= x <= 3")),
...             instances=4, assumption_held=4)
>>> v.agrees_with("holds")
True
>>> v.to_json()["verdict"], v.scope
('checked', '0 <= x <= 3')
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

from nimjos.lang.errors import ResourceError
from nimjos.lang.values import format_value, json_value, sortable_key
# the closed vocabularies (nimjos.words): every verdict word strongest first, the holding ones, the words `expect`
# may say, the methods in the order their records are considered
from nimjos.words import (EXPECT_WORDS, HOLDING, METHOD_ORDER, VERDICTS, Method, Note, NoteKind,  # noqa: F401
                          PhraseKind, Undefined, Word)

#: the words a spec may write in `expect` (the spec format's own list: nimjos.words.EXPECT_WORDS)
EXPECTABLE = EXPECT_WORDS

#: ordering used to pick the strongest verdict among several methods (each word's :attr:`Word.strength`)
STRENGTH: dict[str, int] = {w: w.strength for w in Word}


class HasId(Protocol):
    """A claim as far as a verdict about it needs: its id (the loaded claim, or a stub in an example)."""

    @property
    def id(self) -> str: ...


#: where a closed statement (no variables) fails: the statement itself, at no instance
CLOSED = "the closed statement (no variables)"


@dataclass
class Counterexample:
    """One instance where the claim fails (or cannot be evaluated).

    `bindings` maps each bound variable, in declared order, to its value; `lhs` and `rhs` are the
    two sides' values (for a predicate that is not a comparison: its value and `True`).
    `reason` is set for ill-defined instances (what could not be evaluated), and `undefined` says why, as data
    (:class:`nimjos.words.Undefined`: the claim's language, or a limit of the machine); code decides by that kind,
    never by the reason's words. :meth:`undefined_at` makes one from the error, with its kind.
    """

    bindings: dict[str, Any]
    lhs: Any = None
    rhs: Any = None
    reason: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    #: why the instance could not be evaluated (None: it could, a failure)
    undefined: Undefined | None = None
    #: False for a failure no engine re-evaluated from the game's moves (a local certificate's, at a position too
    #: large for the engine): a refutation by it ranks after one that was (:func:`final_verdict`)
    confirmed: bool = True

    def __post_init__(self) -> None:
        if self.undefined is not None:
            self.undefined = Undefined(self.undefined)

    @classmethod
    def undefined_at(cls, bindings: dict[str, Any], exc: Exception, lhs: Any = None, rhs: Any = None,
                     reason: str | None = None) -> Counterexample:
        """An instance where the claim cannot be evaluated, from the error that said so: its reason the error's
        words (or `reason`), its kind from the error's type, where the reason is made (a ResourceError is a limit
        of the machine or the budget, :attr:`Undefined.RESOURCE`; any other error is the claim's language,
        :attr:`Undefined.LANGUAGE`).

        >>> from nimjos.lang.errors import EvalError, StepLimitError
        >>> cx = Counterexample.undefined_at({"x": 0}, EvalError("v2(0) is infinite (undefined)"))
        >>> cx.reason, cx.undefined, cx.over_limit
        ('v2(0) is infinite (undefined)', 'language', False)
        >>> Counterexample.undefined_at({"x": 9}, StepLimitError("too many steps")).over_limit
        True
        """
        kind = Undefined.RESOURCE if isinstance(exc, ResourceError) else Undefined.LANGUAGE
        return cls(bindings, lhs, rhs, reason=str(exc) if reason is None else reason, undefined=kind)

    @property
    def over_limit(self) -> bool:
        """Was this instance left unevaluated only by a limit of the machine or the budget (not by the claim's
        language)?

        >>> Counterexample({"x": 1}, reason="too big", undefined="resource").over_limit
        True
        """
        return self.undefined is Undefined.RESOURCE

    def key(self) -> tuple:
        """Smallest-first order: least sum of the bound integer values, then lexicographic.

        >>> Counterexample({"x": 0, "y": 2}).key() < Counterexample({"x": 2, "y": 1}).key()
        True
        """
        ints = [v for v in self.bindings.values() if isinstance(v, int) and not isinstance(v, bool)]
        return (sum(ints), tuple(sortable_key(v) for v in self.bindings.values()))

    def position_text(self) -> str:
        """The bindings as a tuple, in declared order, e.g. ``(0, 2)``.

        >>> Counterexample({"x": 0, "y": 2}).position_text()
        '(0, 2)'
        """
        vals = list(self.bindings.values())
        return format_value(vals[0]) if len(vals) == 1 else format_value(tuple(vals))

    def at_text(self) -> str:
        """Where the claim fails, as the CLI prints it: the bindings as ``x=0, y=2``; for a closed statement (no
        variables, no bindings) the words saying so, never an empty place.

        >>> Counterexample({"x": 0, "y": 2}).at_text(), Counterexample({}).at_text()
        ('x=0, y=2', 'the closed statement (no variables)')
        """
        if not self.bindings:
            return CLOSED
        return ", ".join(f"{k}={format_value(v)}" for k, v in self.bindings.items())

    def to_json(self) -> dict[str, Any]:
        out = {
            "bindings": {k: json_value(v) for k, v in self.bindings.items()},
            "lhs": json_value(self.lhs),
            "rhs": json_value(self.rhs),
        }
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = {k: json_value(v) if not isinstance(v, (list, dict)) else v for k, v in self.detail.items()}
        if not self.confirmed:
            out["confirmed"] = False
        return out


#: the first words of the scope of a method that does not apply to a claim (the reason follows)
NOT_APPLICABLE = "not applicable"


def not_applicable_scope(reason: str) -> str:
    """The printed scope of a method that does not apply, built from its reason.

    >>> not_applicable_scope("a printed table")
    'not applicable: a printed table'
    """
    return f"{NOT_APPLICABLE}: {reason}"


@dataclass(frozen=True)
class Phrase:
    """One phrase of a verdict's scope: its kind (data, :class:`nimjos.words.PhraseKind`), its words, and the words
    that join it to the phrase before it (``"; "``, unless the sentence runs on). A method builds its scope as a
    tuple of phrases, adding to another verdict's phrases where it builds on them; :func:`render_scope` turns them
    into the text the CLI, the JSON output and the report print.

    >>> p = Phrase(PhraseKind.CLASS, "all x >= 0")
    >>> p.kind, p.to_json(), Phrase.from_json(p.to_json()) == p
    ('class', ['class', 'all x >= 0'], True)
    """

    kind: PhraseKind
    text: str
    join: str = "; "

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PhraseKind(self.kind))

    def to_json(self) -> list[str]:
        """The phrase as the store keeps it: ``[kind, text]``, with its join when it is not ``"; "``.

        >>> Phrase("reason", "not decided", ": ").to_json()
        ['reason', 'not decided', ': ']
        """
        return [str(self.kind), self.text] + ([self.join] if self.join != "; " else [])

    @classmethod
    def from_json(cls, data: list[str]) -> Phrase:
        """The phrase :meth:`to_json` wrote (an unknown kind, a newer store's, reads as plain text).

        >>> Phrase.from_json(["future-kind", "words"]).kind
        'text'
        """
        kind = data[0] if data[0] in tuple(PhraseKind) else PhraseKind.TEXT
        return cls(PhraseKind(kind), str(data[1]), str(data[2]) if len(data) > 2 else "; ")


#: a verdict's scope as its method built it: phrases in the order they are read
Phrases = tuple[Phrase, ...]


def phrases(*items: tuple[PhraseKind | str, str] | Phrase | Phrases) -> Phrases:
    """A scope from its parts, in order: ``(kind, text)`` pairs, phrases, or the phrases of another scope (a scope
    built on another verdict's). A part with no words is left out.

    >>> ps = phrases(("class", "all x >= 0"), (PhraseKind.LEMMA, ""), (Phrase("reason", "why", ": "),))
    >>> [p.kind for p in ps], render_scope(ps)
    (['class', 'reason'], 'all x >= 0: why')
    """
    out: list[Phrase] = []
    for item in items:
        if isinstance(item, Phrase):
            out.append(item)
        elif item and isinstance(item[0], Phrase):
            out.extend(p for p in item if isinstance(p, Phrase))
        elif item and isinstance(item[1], str):
            kind, text = item
            out.append(Phrase(PhraseKind(kind), text))
    return tuple(p for p in out if p.text)


def render_scope(scope: Phrases) -> str:
    """The scope in words, as the CLI, the JSON output and the report print it: each phrase's words, joined to the
    one before by its join. The one renderer of a scope.

    >>> render_scope((Phrase("class", "all n >= 1"), Phrase("engine", "Walnut 7, 12 states")))
    'all n >= 1; Walnut 7, 12 states'
    >>> render_scope(())
    ''
    """
    return "".join((p.join if i else "") + p.text for i, p in enumerate(scope))


def clipped(scope: Phrases, limit: int) -> Phrases:
    """A scope cut to its first `limit` characters of words (a long scope built on another's), its phrases kept with
    their kinds: the phrase the cut falls in is cut there, the ones after it left out.

    >>> ps = clipped((Phrase("class", "all n >= 1"), Phrase("lemma", "from l (proved: all x)")), 20)
    >>> render_scope(ps), [p.kind for p in ps]
    ('all n >= 1; from l (', ['class', 'lemma'])
    """
    out: list[Phrase] = []
    left = limit
    for p in scope:
        join = p.join if out else ""
        if left <= 0:
            break
        if len(join) >= left:       # the cut falls in the join: the join's first characters, no words
            out.append(replace(p, join=join[:left], text=""))
            break
        out.append(p if len(join) + len(p.text) <= left else replace(p, text=p.text[:left - len(join)]))
        left -= len(join) + len(p.text)
    return tuple(out)


def first_phrase(scope: Phrases, kind: PhraseKind | None = None) -> str:
    """The words of a scope's first phrase (of `kind`, when given), "" when there is none: how a scope that builds
    on another verdict's names that verdict's class.

    >>> first_phrase((Phrase("class", "all x >= 0"), Phrase("engine", "Z3"))), first_phrase((), "class")
    ('all x >= 0', '')
    """
    return next((p.text for p in scope if kind is None or p.kind is kind), "")


@dataclass(frozen=True)
class ProvedClass:
    """The class a ``proved-bounded`` proof covers, as data (the scope says it in words): the values it proved for
    each enumerated name, the bit width of its numbers, or, for the heap reduction, the one-heap lemma and the
    heap sizes of its domain. The audit probes a proof only inside it; a proof from a lemma assumes the lemma only
    where it is proved.

    >>> c = ProvedClass(enumerated={"k": (2, 3)})
    >>> c.narrows(), ProvedClass(heaps="h >= 1", lemma="one-heap").narrows()
    (True, False)
    >>> c.to_json()
    {'enumerated': {'k': [2, 3]}, 'width': None}
    """

    #: each enumerated name -> the values proved, in order (a value that is not an int: its repr)
    enumerated: dict[str, tuple] = field(default_factory=dict)
    #: the numbers' bit width (a proof with bit-vectors), None: unbounded integers
    width: int | None = None
    #: the heap reduction: the heap sizes of the lemma's domain, in words, and the lemma's id
    heaps: str | None = None
    lemma: str | None = None

    def narrows(self) -> bool:
        """Does the data narrow the domain to a set a point can be tested against (enumerated values or a width,
        and nothing recorded only in words)?

        >>> ProvedClass(width=32).narrows(), ProvedClass().narrows()
        (True, False)
        """
        return self.heaps is None and self.lemma is None and bool(self.enumerated or self.width)

    def to_json(self) -> dict[str, Any]:
        """The class as the results store keeps it (in the evidence column, key ``proved_class``).

        >>> ProvedClass(heaps="h >= 1", lemma="one-heap").to_json()
        {'heaps': 'h >= 1', 'lemma': 'one-heap', 'width': None}
        """
        out: dict[str, Any] = {}
        if self.heaps is not None or self.lemma is not None:
            out.update(heaps=self.heaps, lemma=self.lemma)
        else:
            out["enumerated"] = {n: list(v) for n, v in self.enumerated.items()}
        out["width"] = self.width
        return out


@dataclass(frozen=True)
class Scope:
    """A verdict's scope as data: how far its method went, in fields code may read (the verdict's `scope` text
    says it in words, for people; no code decides anything by reading that text). The results store keeps it
    (column ``scope_json``); discover reads the automaton states from it.

    >>> s = Scope(window=("0 <= x <= 3",), instances=4, engines=("table",))
    >>> s.to_json()
    {'window': ['0 <= x <= 3'], 'instances': 4, 'engines': ['table']}
    >>> Scope.from_json(s.to_json()) == s
    True
    """

    #: the window's range of each bound name, as written (``0 <= x <= 3``); () when the method has no window
    window: tuple[str, ...] = ()
    #: instances evaluated, and how many of them beyond the window (None: the method does not draw)
    instances: int = 0
    beyond: int | None = None
    #: what the answer rests on (Verdict.engines)
    engines: tuple[str, ...] = ()
    #: the class a proved-bounded proof covers (Verdict.proved_class), as its JSON
    proved_class: dict[str, Any] | None = None
    #: the largest automaton Walnut built for the answer (None: Walnut did not answer)
    automaton_states: int | None = None
    #: the proved claims a proof used (their ids)
    lemmas: tuple[str, ...] = ()
    #: False when the method does not apply, with `reason`
    applicable: bool = True
    reason: str = ""
    #: the scope's phrases, each with its kind (:class:`Phrase`); :func:`render_scope` gives the words
    phrases: Phrases = ()

    def to_json(self) -> dict[str, Any]:
        """The fields that say something (an empty window, no engines... are left out).

        >>> Scope(applicable=False, reason="a printed table").to_json()
        {'instances': 0, 'applicable': False, 'reason': 'a printed table'}
        """
        out: dict[str, Any] = {}
        if self.window:
            out["window"] = list(self.window)
        out["instances"] = self.instances
        for name in ("beyond", "proved_class", "automaton_states"):
            if getattr(self, name) is not None:
                out[name] = getattr(self, name)
        for name in ("engines", "lemmas"):
            if getattr(self, name):
                out[name] = list(getattr(self, name))
        if not self.applicable:
            out.update(applicable=False, reason=self.reason)
        if self.phrases:
            out["phrases"] = [p.to_json() for p in self.phrases]
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Scope:
        """The record :meth:`to_json` wrote (unknown keys are ignored: a newer store's).

        >>> Scope.from_json({"automaton_states": 152, "future": 1}).automaton_states
        152
        """
        return cls(window=tuple(data.get("window") or ()), instances=int(data.get("instances") or 0),
                   beyond=data.get("beyond"), engines=tuple(data.get("engines") or ()),
                   proved_class=data.get("proved_class"), automaton_states=data.get("automaton_states"),
                   lemmas=tuple(data.get("lemmas") or ()), applicable=bool(data.get("applicable", True)),
                   reason=str(data.get("reason") or ""),
                   phrases=tuple(Phrase.from_json(p) for p in data.get("phrases") or () if isinstance(p, list) and p))

    def text(self, stored: str = "") -> str:
        """The scope in words (:func:`render_scope`); for a record stored before the store kept the phrases, the
        words it stored (`stored`).

        >>> Scope(phrases=(Phrase("class", "all x >= 0"),)).text(), Scope().text("0 <= x <= 3")
        ('all x >= 0', '0 <= x <= 3')
        """
        return render_scope(self.phrases) if self.phrases else stored


@dataclass
class Verdict:
    """What one method established about one claim.

    The fields control flow reads are data: whether the method applied (`applicable`, and `reason` when it did
    not: :meth:`not_applicable` builds such a verdict, its scope derived from the reason), the engines or
    backends the answer rests on (`engines`), the class a bounded proof covers (`proved_class`). The scope is
    a tuple of typed phrases (`phrases`, :class:`Phrase`); its words (`scope`, :func:`render_scope`) are for people:
    no code decides anything by reading them. A scope given as one text (an example, a test) is one phrase of
    kind ``text``.

    >>> v = Verdict.not_applicable("c", "prove", "a printed table")
    >>> v.verdict, v.applicable, v.reason, v.scope, v.phrases[0].kind
    ('inconclusive', False, 'a printed table', 'not applicable: a printed table', 'reason')
    """

    claim_id: str
    #: the word and the method (given as a Word and a Method, or as their words: made the Enums at construction)
    verdict: Word | str
    method: Method | str
    #: the scope, as its method built it (:class:`Phrase`)
    phrases: Phrases
    instances: int = 0
    assumption_held: int | None = None
    counterexamples: list[Counterexample] = field(default_factory=list)
    failures: int = 0  # how many instances failed in total (counterexamples keeps only the smallest)
    undefined: list[Counterexample] = field(default_factory=list)
    seconds: float = 0.0
    #: instances evaluated beyond the window (the sampler's far draws; None when the method does not draw)
    beyond: int | None = None
    #: the largest absolute value a bound integer reached among the instances evaluated (None: not recorded)
    largest: int | None = None
    notes: list[str] = field(default_factory=list)
    evidence: dict[str, Any] = field(default_factory=dict)  # small data for reports (plots, option tables)
    #: False when the method does not apply to the claim (the verdict is then inconclusive), with `reason`
    applicable: bool = True
    reason: str = ""
    #: what the answer rests on: the window's ground-truth engines; a proof's backends, in the order they
    #: contributed ("Walnut", "Z3", "induction", "periodicity", "Sprague-Grundy")
    engines: tuple[str, ...] = ()
    #: the class a proved-bounded proof covers, as data (None: the whole domain, or not known as data)
    proved_class: ProvedClass | None = None
    #: the window's range of each bound name, as written (the window method's; () for the other methods)
    window: tuple[str, ...] = ()
    #: the largest automaton Walnut built for the answer (None: Walnut did not answer)
    automaton_states: int | None = None

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")
        if self.method not in tuple(Method):
            raise ValueError(f"unknown method {self.method!r}")
        self.verdict, self.method = Word(self.verdict), Method(self.method)
        given: Any = self.phrases
        if isinstance(given, str):   # one text: a phrase of no finer kind
            self.phrases = phrases((PhraseKind.TEXT, given))
        else:
            self.phrases = tuple(given)
        if not self.applicable and (self.verdict != "inconclusive" or not self.reason):
            raise ValueError("a method that does not apply answers inconclusive, with its reason")

    @classmethod
    def not_applicable(cls, claim_id: str, method: str, reason: str, seconds: float = 0.0) -> Verdict:
        """The verdict of a method that does not apply to a claim: inconclusive, the reason as data, the scope
        built from it.

        >>> Verdict.not_applicable("c", "sample", "a closed statement").scope
        'not applicable: a closed statement'
        """
        return cls(claim_id, "inconclusive", method, phrases((PhraseKind.REASON, not_applicable_scope(reason))),
                   seconds=seconds, applicable=False, reason=reason)

    @property
    def scope(self) -> str:
        """The scope in words (:func:`render_scope` of its phrases), as the CLI, the JSON output and the report
        print it.

        >>> Verdict("c", "checked", "exhaustive", phrases(("window", "0 <= x <= 3"))).scope
        '0 <= x <= 3'
        """
        return render_scope(self.phrases)

    def holds(self) -> bool:
        return self.verdict in HOLDING

    @property
    def scope_record(self) -> Scope:
        """The scope as data (:class:`Scope`), from the verdict's fields.

        >>> Verdict("c", "proved", "prove", "all x >= 0", instances=1, engines=("Walnut",), automaton_states=12,
        ...         evidence={"lemmas": ["l"]}).scope_record.to_json()
        {'instances': 1, 'automaton_states': 12, 'engines': ['Walnut'], 'lemmas': ['l'], 'phrases': [['text', 'all x >= 0']]}
        """
        return Scope(window=self.window, instances=self.instances, beyond=self.beyond, engines=self.engines,
                     proved_class=self.proved_class.to_json() if self.proved_class is not None else None,
                     automaton_states=self.automaton_states, lemmas=tuple(self.evidence.get("lemmas") or ()),
                     applicable=self.applicable, reason=self.reason, phrases=self.phrases)

    def agrees_with(self, expect: str | None) -> bool:
        """Does this verdict satisfy a spec's `expect` (None: must not be refuted or ill-defined)? See :func:`agreement`.

        >>> Verdict("c", "refuted", "exhaustive", "").agrees_with(None)
        False
        """
        return agreement(self, expect)[0]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "method": self.method,
            "scope": self.scope,
            "instances": self.instances,
            "assumption_held": self.assumption_held,
            "failures": self.failures,
            "counterexamples": [c.to_json() for c in self.counterexamples],
            "seconds": round(self.seconds, 4),
            "beyond": self.beyond,
            "largest": self.largest,
        }
        if self.undefined:
            out["undefined"] = [c.to_json() for c in self.undefined]
        if self.notes:
            out["notes"] = list(self.notes)
        if self.evidence.get("walnut"):
            out["walnut"] = self.evidence["walnut"]     # the Walnut statement and automata, to re-run the proof
        if not self.applicable:
            out["applicable"], out["reason"] = False, self.reason
        if self.engines:
            out["engines"] = list(self.engines)
        if self.proved_class is not None:
            out["proved_class"] = self.proved_class.to_json()
        return out

    def stored_evidence(self) -> dict[str, Any]:
        """The evidence the results store keeps: the reports' data, with the proved class as it was always stored
        (key ``proved_class``), so stored rows keep one shape.

        >>> Verdict("c", "proved-bounded", "prove", "", proved_class=ProvedClass(width=32)).stored_evidence()
        {'proved_class': {'enumerated': {}, 'width': 32}}
        """
        out = dict(self.evidence)
        if self.proved_class is not None:
            out["proved_class"] = self.proved_class.to_json()
        return out


@dataclass(frozen=True)
class LeftOut:
    """A method's answer that it has nothing to say about a claim it was asked about, with the reason as data
    (never None): the runner lists no verdict for it (checkers.run's one rule for what is left out), and keeps the
    reason with the claim's result.

    >>> LeftOut("periodicity", "no theorem decides the period of this game")
    LeftOut(method='periodicity', reason='no theorem decides the period of this game')
    """

    method: Method | str
    reason: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "method", Method(self.method))


def window_word(failed: bool, undefined: bool, instances: int, held: int, left_out: int = 0) -> Word:
    """The word the window (exhaustive) earned: refuted at a failing instance, else ill-defined where the statement
    cannot be evaluated, else inconclusive when instances were left out undecided (a loopy game's positions whose
    graph was not explored to its end) and none held, else vacuous when no instance satisfied the assumption, else
    checked. The one rule, for the window run whole and in shards.

    >>> window_word(False, False, 10, 10), window_word(False, False, 10, 0), window_word(True, True, 10, 3)
    ('checked', 'vacuous', 'refuted')
    >>> window_word(False, False, 10, 0, left_out=10)
    'inconclusive'
    """
    if failed:
        return Word.REFUTED
    if undefined:
        return Word.ILL_DEFINED
    if left_out and held == 0:
        return Word.INCONCLUSIVE
    return Word.VACUOUS if instances == 0 or held == 0 else Word.CHECKED


class Record(Protocol):
    """What :func:`final_verdict` reads of a method's record: its word, its method and its counterexamples, smallest
    first. A :class:`Verdict` is one, and so is a stored record (nimjos.report.records.StoredVerdict).
    """

    @property
    def verdict(self) -> str: ...

    @property
    def method(self) -> str: ...

    @property
    def counterexamples(self) -> list[Counterexample]: ...


#: a record type final_verdict picks among (and returns)
R = TypeVar("R", bound=Record)


def _method_rank(record: Record) -> tuple:
    m = str(record.method)
    return (Method(m).rank if m in tuple(Method) else len(METHOD_ORDER), m)


def _witness_rank(record: Record) -> tuple:
    """How a refutation's first counterexample ranks: one re-evaluated from the game's moves (or not a certificate
    failure at all) before one the engine could not re-evaluate (:attr:`Counterexample.confirmed`), then smallest
    first.

    >>> far = Counterexample({"x": 10 ** 14}, confirmed=False)
    >>> near = Verdict("c", "refuted", "prove", "", counterexamples=[Counterexample({"x": 60})])
    >>> _witness_rank(Verdict("c", "refuted", "sample", "", counterexamples=[far])) > _witness_rank(near)
    True
    """
    if not record.counterexamples:
        return (1, 1, ())
    first = record.counterexamples[0]
    return (int(not first.confirmed), 0, first.key())


def final_verdict(records: list[R]) -> R:
    """The record of the verdict a claim earned from its methods' records (:class:`Verdict` objects, or stored
    records: anything with a word, a method and counterexamples, :class:`Record`), never stronger than a method
    justifies: a refutation, then ill-definedness, by any method wins (a confirmed instance first, then the
    smallest, then the window's); `proved`, then `proved-bounded`, beats the window; `sampled` counts only when the
    window also held (`checked`); otherwise the window's own verdict stands (an `inconclusive` answer of another
    method never overrides it); without a window record, the strongest word.

    >>> final_verdict([Verdict("c", "checked", "exhaustive", ""), Verdict("c", "sampled", "sample", "")]).method
    'sample'
    >>> final_verdict([Verdict("c", "vacuous", "exhaustive", ""), Verdict("c", "sampled", "sample", "")]).verdict
    'vacuous'
    """
    records = sorted(records, key=_method_rank)  # the same answer whatever order the records come in
    by_word: dict[str, list[R]] = {}
    for r in records:
        by_word.setdefault(str(r.verdict), []).append(r)
    for w in (Word.REFUTED, Word.ILL_DEFINED):
        if w in by_word:
            return min(by_word[w], key=_witness_rank)   # a confirmed instance first, then the smallest
    for w in (Word.PROVED, Word.PROVED_BOUNDED):
        if w in by_word:
            return by_word[w][0]
    window = next((r for r in records if r.method == Method.EXHAUSTIVE), None)
    if window is not None and window.verdict == Word.CHECKED and Word.SAMPLED in by_word:
        return by_word[Word.SAMPLED][0]
    if window is not None:
        return window
    return max(records, key=lambda r: Word(r.verdict).strength)


def _literal_tuple(text: str) -> tuple | None:
    """A counterexample written in a spec, as a tuple of values ('2', '(2,)' and '(2)' are alike).

    >>> _literal_tuple("(0, 2)"), _literal_tuple("2"), _literal_tuple("(2,)"), _literal_tuple("x")
    ((0, 2), (2,), (2,), None)
    """
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError):
        return None
    if isinstance(value, list):
        value = tuple(value)
    return value if isinstance(value, tuple) else (value,)


def _comparable(v: Any) -> Any:
    """Literal values made comparable with the language's: sets are frozensets, lists tuples, {} empty.

    >>> _comparable(({}, [1, {2}]))
    (frozenset(), (1, frozenset({2})))
    """
    if isinstance(v, dict) and not v:
        return frozenset()
    if isinstance(v, (set, frozenset)):
        return frozenset(_comparable(x) for x in v)
    if isinstance(v, (list, tuple)):
        return tuple(_comparable(x) for x in v)
    return v


def agreement(verdict: Verdict, expect: str | None, expect_counterexample: str | None = None,
              position: tuple[str, ...] = ()) -> tuple[bool, str]:
    """Does a claim's final verdict agree with its spec's `expect` (and `expect_counterexample`)? With the reason
    when it does not. `expect` None: anything but refuted or ill-defined; "holds" and "checked": any holding
    verdict; "sampled": sampled or a proof (proved, proved-bounded); any other word: exactly that word.

    >>> agreement(Verdict("c", "sampled", "sample", ""), "holds")
    (True, '')
    >>> agreement(Verdict("c", "checked", "exhaustive", ""), "sampled")
    (False, 'expected sampled')
    >>> v = Verdict("c", "refuted", "exhaustive", "", counterexamples=[Counterexample({"x": 0, "y": 2})])
    >>> agreement(v, "refuted", "(0, 2)"), agreement(v, "refuted", "(1, 1)")
    ((True, ''), (False, 'expected smallest counterexample (1, 1), got (x, y) = (0, 2)'))

    `expect_counterexample` lists the bound values in the order `for_all` binds them, or, for a claim on a game,
    in the order of the game's `position` (its coordinates first, then the other bound names as bound):

    >>> v = Verdict("c", "refuted", "exhaustive", "", counterexamples=[Counterexample({"y": 2, "x": 0})])
    >>> agreement(v, "refuted", "(0, 2)", ("x", "y")), agreement(v, "refuted", "(2, 0)", ("x", "y"))
    ((True, ''), (True, ''))
    >>> agreement(v, "refuted", "(1, 1)", ("x", "y"))[1]
    'expected smallest counterexample (1, 1), got (y, x) = (2, 0), in the position order (x, y) = (0, 2)'
    """
    word = verdict.verdict
    if expect is None:
        ok = word not in ("refuted", "ill-defined")
    elif expect in ("holds", "checked"):
        ok = word in HOLDING
    elif expect == "sampled":
        ok = word in ("sampled", "proved", "proved-bounded")
    else:
        ok = word == expect
    if not ok:
        return False, f"expected {expect or 'not refuted'}"
    if expect_counterexample and word == "refuted":
        cx = verdict.counterexamples[0]
        orders = [tuple(cx.bindings)]
        if position and all(c in cx.bindings for c in position):
            in_position = tuple(position) + tuple(n for n in cx.bindings if n not in position)
            if in_position != orders[0]:
                orders.append(in_position)
        if not any(_same_values(cx.bindings, names, expect_counterexample) for names in orders):
            got = ", in the position order ".join(f"{_names_text(names)} = {_values_text(cx.bindings, names)}"
                                                   for names in orders)
            return False, f"expected smallest counterexample {expect_counterexample}, got {got}"
    return True, ""


def _values_text(bindings: dict[str, Any], names: tuple[str, ...]) -> str:
    """The values of `names` in `bindings`, as a position is written: ``2`` alone, ``(0, 2)`` for several."""
    values = [bindings[n] for n in names]
    return format_value(values[0]) if len(values) == 1 else format_value(tuple(values))   # () when closed


def _names_text(names: tuple[str, ...]) -> str:
    """The bound names in the order their values are written: ``x``, ``(x, y)``."""
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _same_values(bindings: dict[str, Any], names: tuple[str, ...], written: str) -> bool:
    """Is `written` (an ``expect_counterexample``) the values of `names` in `bindings`, as text or as values?"""
    if _values_text(bindings, names).replace(" ", "") == written.replace(" ", ""):
        return True
    want = _literal_tuple(written)
    return want is not None and _comparable(want) == _comparable(tuple(bindings[n] for n in names))
