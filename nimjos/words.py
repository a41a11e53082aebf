"""The closed vocabularies of nimjos, as Enums: the verdict words (:class:`Word`, with their strength), the
methods (:class:`Method`), the kinds of a claim (:class:`Kind`), the profiles (:class:`Profile`), the play
conventions (:class:`Play`), the executors
of a sharded window (:class:`Executor`), the words a spec's ``expect`` may say (:data:`EXPECT_WORDS`), the
kinds of a verdict's notes (:class:`NoteKind`, :class:`Note`), the kinds of the phrases of its scope
(:class:`PhraseKind`), and why an instance could not be evaluated
(:class:`Undefined`).

Each is a :class:`enum.StrEnum`: a member is equal to its word, prints as it, and is stored and written to JSON as
it, so stored results and the JSON output keep their text. This module is the bottom layer: it imports nothing of
nimjos.

>>> Word("proved") is Word.PROVED, Word.PROVED == "proved", f"{Word.PROVED_BOUNDED:<16}|"
(True, True, 'proved-bounded  |')
>>> Word.REFUTED.strength > Word.PROVED.strength > Word.SAMPLED.strength > Word.INCONCLUSIVE.strength
True
>>> import json; json.dumps({"verdict": Word.CHECKED, "method": Method.EXHAUSTIVE})
'{"verdict": "checked", "method": "exhaustive"}'
"""
from __future__ import annotations

from enum import StrEnum


class Vocabulary(StrEnum):
    """A closed vocabulary: a StrEnum whose members show as their word in a repr too (``'proved'``), as the bare
    strings they replace did, so messages, tables and examples that show a word keep their text.

    >>> Word.PROVED, [Method.PROVE]
    ('proved', ['prove'])
    """

    def __repr__(self) -> str:
        return repr(self.value)


class Word(Vocabulary):
    """A verdict word (DESIGN.md, "Verdicts"), strongest evidence first: `proved` is for the whole stated domain,
    `proved-bounded` for a stated class smaller than it.

    >>> [str(w) for w in Word][:3]
    ['refuted', 'ill-defined', 'proved']
    >>> Word.SAMPLED.holds, Word.VACUOUS.holds
    (True, False)
    """

    REFUTED = "refuted"
    ILL_DEFINED = "ill-defined"
    PROVED = "proved"
    PROVED_BOUNDED = "proved-bounded"
    SAMPLED = "sampled"
    CHECKED = "checked"
    VACUOUS = "vacuous"
    INCONCLUSIVE = "inconclusive"

    @property
    def strength(self) -> int:
        """The order used to pick the strongest verdict among several methods (refuted 7 ... inconclusive 0).

        >>> Word.REFUTED.strength, Word.CHECKED.strength, Word.INCONCLUSIVE.strength
        (7, 2, 0)
        """
        return _STRENGTH[self]

    @property
    def holds(self) -> bool:
        """Does this word mean "the claim held under this method" (proved, proved-bounded, sampled, checked)?

        >>> Word.PROVED_BOUNDED.holds, Word.REFUTED.holds
        (True, False)
        """
        return self in HOLDING


_STRENGTH = {Word.REFUTED: 7, Word.ILL_DEFINED: 6, Word.PROVED: 5, Word.PROVED_BOUNDED: 4, Word.SAMPLED: 3,
             Word.CHECKED: 2, Word.VACUOUS: 1, Word.INCONCLUSIVE: 0}

#: every verdict word, strongest evidence first
VERDICTS: tuple[Word, ...] = tuple(Word)

#: the words that mean "the claim held under this method"
HOLDING: tuple[Word, ...] = (Word.PROVED, Word.PROVED_BOUNDED, Word.SAMPLED, Word.CHECKED)

#: the word a spec's ``expect`` may say besides the verdict words: any holding verdict
HOLDS = "holds"

#: the words a spec may write in ``expect``, in the order an error message lists them
EXPECT_WORDS: tuple[str, ...] = (HOLDS, Word.REFUTED, Word.ILL_DEFINED, Word.VACUOUS, Word.PROVED,
                                 Word.PROVED_BOUNDED, Word.SAMPLED, Word.CHECKED, Word.INCONCLUSIVE)


class Method(Vocabulary):
    """A method whose verdict a claim's result lists: the window (``exhaustive``), proving, sampling, the
    periodicity theorems, and the audit of a proof.

    >>> Method("prove") is Method.PROVE, Method.EXHAUSTIVE.rank < Method.SAMPLE.rank < Method.PROVE.rank
    (True, True)
    """

    EXHAUSTIVE = "exhaustive"
    PROVE = "prove"
    SAMPLE = "sample"
    PERIODICITY = "periodicity"
    AUDIT = "audit"

    @property
    def rank(self) -> int:
        """Where this method's record is considered when several earn the same word: the window first, then
        sampling, then proving, then the rest.

        >>> [m.rank for m in Method]
        [0, 2, 1, 3, 3]
        """
        return METHOD_ORDER.index(self) if self in METHOD_ORDER else len(METHOD_ORDER)


#: the methods in the order their records are considered when several earn the same word (the window first)
METHOD_ORDER: tuple[Method, ...] = (Method.EXHAUSTIVE, Method.SAMPLE, Method.PROVE)


class Kind(Vocabulary):
    """A claim's kind: the field of a ``[[claim]]`` table that states it (docs/spec-format.md), one per claim. The
    loader validates a claim's kind into this vocabulary; its word is the field's name, as stored and printed.

    >>> Kind("p_positions") is Kind.P_POSITIONS, Kind.HOLDS == "holds", [str(k) for k in Kind][:3]
    (True, True, ['grundy', 'p_positions', 'holds'])
    """

    GRUNDY = "grundy"
    P_POSITIONS = "p_positions"
    HOLDS = "holds"
    VALUES = "values"
    LEVEL_SET = "level_set"
    PERIODIC = "periodic"
    STAIR = "stair"
    GRUNDY_AT_MOST = "grundy_at_most"
    DRAWS = "draws"


class Profile(Vocabulary):
    """A check's profile: the default run, or a deep one (wider windows, more time for the prover).

    >>> Profile("deep") is Profile.DEEP, [str(p) for p in Profile]
    (True, ['default', 'deep'])
    """

    DEFAULT = "default"
    DEEP = "deep"


class Play(Vocabulary):
    """A game's play convention: normal (the last player to move wins) or misère (``play = "misere"``).

    >>> Play("misere") is Play.MISERE, Play.NORMAL == "normal"
    (True, True)
    """

    NORMAL = "normal"
    MISERE = "misere"


class Executor(Vocabulary):
    """Where the shards of a sharded window run: a local process pool, or a Dask cluster.

    >>> [str(e) for e in Executor]
    ['local', 'dask']
    """

    LOCAL = "local"
    DASK = "dask"


class NoteKind(Vocabulary):
    """What a note on a verdict says, as data: code that decides something reads the kind, never the text.

    >>> NoteKind("safety net") is NoteKind.SAFETY_NET
    True
    """

    #: a plain remark for the reader (no code reads it)
    REMARK = "remark"
    #: the sampler's safety net stopped the search (seconds or evaluations ran out)
    SAFETY_NET = "safety net"
    #: an instance was skipped because its evaluation exceeded its step limit
    STEP_LIMIT = "step limit"
    #: a proof used a proved lemma
    LEMMA = "lemma"


class PhraseKind(Vocabulary):
    """What one phrase of a verdict's scope says, as data (:class:`nimjos.verdict.Phrase`): the scope is a list of
    such phrases, turned into words by one renderer (:func:`nimjos.verdict.render_scope`); code that needs to know
    something about a scope reads a phrase's kind or the scope's fields, never its words.

    >>> PhraseKind("class") is PhraseKind.CLASS
    True
    """

    #: words of no finer kind (a scope given as one text: an example, a record read back from words)
    TEXT = "text"
    #: the window: each bound name's range, and the engines that gave the ground truth
    WINDOW = "window"
    #: the game the claim is about, with its play
    GAME = "game"
    #: the instance a window check was pinned to (``only at x=5 (pinned)``)
    PINNED = "pinned"
    #: the class a proof or a search covers: the domain, a bounded class, the points drawn from
    CLASS = "class"
    #: what a sampler drew beyond the window, and how many
    DRAWS = "draws"
    #: what answered: a prover's run, a theorem, a shard pool
    ENGINE = "engine"
    #: the proved claims a proof rests on
    LEMMA = "lemma"
    #: a definition a proof replaced by a stand-in
    STAND_IN = "stand-in"
    #: why the method did not decide, or does not apply
    REASON = "reason"
    #: where a search stopped, and what it had verified
    STOP = "stop"
    #: what the method found (where the claim fails, an assumption that holds nowhere)
    FINDING = "finding"
    #: the automaton a search learned read back as a formula (or why not), and where it was stored
    READ_BACK = "read back"


class Undefined(Vocabulary):
    """Why an instance could not be evaluated, as data: the claim's language leaves a value undefined there (the
    mathematics: a division by zero, v2(0), a function outside its domain), or the evaluation ran over a limit of
    the machine or of the budget (a number too large, a step limit). Only the first makes a claim ill-defined; code
    that decides reads this kind, never the reason's words. The kind is set where the reason is made, from the
    error's type (:meth:`nimjos.verdict.Counterexample.undefined_at`).

    >>> Undefined("resource") is Undefined.RESOURCE, [str(u) for u in Undefined]
    (True, ['language', 'resource'])
    """

    #: the claim's language leaves the value undefined there (an EvalError)
    LANGUAGE = "language"
    #: the evaluation ran over a limit of the machine or the budget (a ResourceError)
    RESOURCE = "resource"


class Note(str):
    """One note on a verdict: its kind (data, for code) and its text (for people). A note is its text as a string
    too, so the notes of a verdict print, join and are stored as they always were.

    >>> n = Note(NoteKind.SAFETY_NET, "the safety net (60 s of CPU time) stopped the search")
    >>> n.kind, n.text, n == "the safety net (60 s of CPU time) stopped the search"
    ('safety net', 'the safety net (60 s of CPU time) stopped the search', True)
    >>> note_kind(n), note_kind("a plain remark")
    ('safety net', 'remark')
    >>> import pickle; pickle.loads(pickle.dumps(n)).kind
    'safety net'
    """

    kind: NoteKind

    def __new__(cls, kind: NoteKind | str, text: str) -> Note:
        self = super().__new__(cls, text)
        self.kind = NoteKind(kind)
        return self

    @property
    def text(self) -> str:
        """The note's words, as a plain string."""
        return str.__str__(self)

    def __getnewargs__(self) -> tuple[str, str]:   # type: ignore[override]  # pickled with its kind
        return (self.kind.value, self.text)


def note_kind(note: str) -> NoteKind:
    """The kind of a note: its own for a :class:`Note`, :attr:`NoteKind.REMARK` for plain text.

    >>> note_kind(Note("step limit", "an evaluation took more than 5 steps"))
    'step limit'
    """
    return note.kind if isinstance(note, Note) else NoteKind.REMARK


def joined(kind: NoteKind, *notes: str) -> str:
    """Several notes as one ("; " between the non-empty ones): a :class:`Note` of `kind` when any of them is of
    that kind, else plain text.

    >>> j = joined(NoteKind.SAFETY_NET, "values from a table", Note(NoteKind.SAFETY_NET, "the safety net stopped"))
    >>> j, note_kind(j)
    ('values from a table; the safety net stopped', 'safety net')
    >>> note_kind(joined(NoteKind.SAFETY_NET, "a", "", "b"))
    'remark'
    """
    text = "; ".join(n for n in notes if n)
    return Note(kind, text) if any(note_kind(n) is kind for n in notes) else text
