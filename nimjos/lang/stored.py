"""Stored automata: a deterministic finite automaton in Walnut's file format that a spec declares
(``[automaton.NAME]``) and its expressions call as a boolean function ``NAME(x, y)``.

The automaton reads its k arguments' digits together, most significant first, in its numeration: base 2 (Walnut's
msd_2, the default), or the Ostrowski numerations Walnut builds with its ``ost`` command, Fibonacci (Zeckendorf,
``msd_fib``: places 1, 2, 3, 5, 8, ..., digits 0 and 1, no two 1s in a row) and Pell (``msd_pell``: places 1, 2, 5,
12, 29, ..., digits 0 to 2, a 2 always followed by a 0). One letter per digit position, the first argument's digit
the letter's most significant one (letter = sum of d_i * base^(k - 1 - i)), all arguments padded with leading zeros
to the same length; a number is read in its greedy representation, which is the numeration's own. This module holds the automaton (:class:`DigitAutomaton`, also what ``nimjos discover``
learns), the reader of Walnut's format that validates a stored one (:func:`read_walnut`), and the callable a
spec's namespace holds (:class:`StoredAutomaton`: the scalar form, the reference; its array form, for the
vectorised evaluator). A negative argument, or a boolean one, is an evaluation error, never read as a number.

>>> text = "msd_2 msd_2\\n\\n0 1\\n0 0 -> 0\\n0 1 -> 0\\n1 0 -> 0\\n"
>>> disjoint = StoredAutomaton("disjoint", read_walnut(text), "disjoint.txt")
>>> disjoint(5, 2), disjoint(5, 4), disjoint.note
(True, False, 'incomplete: completed with a rejecting sink state')
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nimjos.lang.errors import EvalError
from nimjos.lang.lazy import import_on_use

if TYPE_CHECKING:   # numpy is imported when an automaton runs on arrays, not to read a spec
    import numpy as np

#: the numeration a stored automaton reads unless its spec names another
NUMERATION = "msd_2"
#: the numerations a stored automaton may read: name -> (the digits' base, the first two places, and the recurrence
#: of the later ones: place[i] = a * place[i - 1] + b * place[i - 2])
NUMERATIONS = {"msd_2": (2, (1, 2), 2, 0), "msd_fib": (2, (1, 2), 1, 1), "msd_pell": (3, (1, 2), 2, 1)}


def places(numeration: str, value: int) -> list[int]:
    """The digit places of a numeration up to the first one above ``value``, least significant first.

    >>> places("msd_fib", 20), places("msd_pell", 12), places("msd_2", 0)
    ([1, 2, 3, 5, 8, 13, 21], [1, 2, 5, 12, 29], [1])
    """
    _, first, a, b = NUMERATIONS[numeration]
    out = list(first[:1])
    while out[-1] <= value:
        out.append(first[1] if len(out) == 1 else a * out[-1] + b * out[-2])
    return out


def representation(numeration: str, value: int) -> list[int]:
    """The digits of a natural number in a numeration, most significant first (no leading zero): the greedy
    representation.

    >>> representation("msd_fib", 12), representation("msd_pell", 4), representation("msd_2", 6), representation("msd_2", 0)
    ([1, 0, 1, 0, 1], [2, 0], [1, 1, 0], [])
    """
    out = []
    for place in reversed(places(numeration, value)[:-1]):
        out.append(value // place)
        value -= out[-1] * place
    return out
#: the most arguments (tracks) of a stored automaton: its alphabet has 2**k letters
MAX_TRACKS = 6
#: the most states a stored automaton may have
MAX_STATES = 100_000


@dataclass(frozen=True)
class DigitAutomaton:
    """A complete deterministic automaton over the letters 0 .. 2^d - 1 (a letter: one digit of each of the d
    coordinates, the first coordinate's the highest bit): its transitions by state and letter, which states
    accept, state 0 the initial state.

    >>> DigitAutomaton(1, ((0, 1), (1, 1)), (True, False)).run([0]), DigitAutomaton(1, ((0, 1), (1, 1)), (True, False)).run([1])
    (True, False)
    """

    dim: int
    transitions: tuple[tuple[int, ...], ...]
    accepting: tuple[bool, ...]
    #: the numeration its tracks read (:data:`NUMERATIONS`)
    numeration: str = NUMERATION

    @property
    def base(self) -> int:
        """The number of digits of its numeration (a letter is one digit per track: base ** dim letters).

        >>> DigitAutomaton(1, ((0, 0, 0),), (True,), "msd_pell").base
        3
        """
        return NUMERATIONS[self.numeration][0]

    def letter_digits(self, letter: int) -> list[int]:
        """The digits (one per track, the first track's first) of a letter.

        >>> DigitAutomaton(2, ((0,) * 9,), (True,), "msd_pell").letter_digits(5)
        [1, 2]
        """
        return [(letter // self.base ** (self.dim - 1 - i)) % self.base for i in range(self.dim)]

    @property
    def states(self) -> int:
        """The number of states.

        >>> DigitAutomaton(1, ((0, 1), (1, 1)), (True, False)).states
        2
        """
        return len(self.accepting)

    def run(self, values: list[int]) -> bool:
        """Whether the automaton accepts the natural numbers `values` (one per track), read msd-first, padded with
        leading zeros to the same length.

        >>> DigitAutomaton(2, ((0, 0, 0, 1), (1, 1, 1, 1)), (True, False)).run([6, 1])
        True
        """
        digits = [representation(self.numeration, v) for v in values]
        width = max(len(d) for d in digits)
        state = 0
        for i in range(width):
            letter = 0
            for d in digits:
                j = i - (width - len(d))
                letter = letter * self.base + (d[j] if j >= 0 else 0)
            state = self.transitions[state][letter]
        return self.accepting[state]

    def accepts(self, columns: list[np.ndarray]) -> np.ndarray:
        """Whether the automaton accepts each position (one array of naturals per coordinate, all of one shape).

        >>> DigitAutomaton(1, ((0, 1), (1, 1)), (True, False)).accepts([[0, 1, 2, 3]]).tolist()
        [True, False, False, False]
        """
        np = import_on_use("numpy")
        rest = [np.array(c, dtype=np.int64) for c in columns]
        top = max(int(c.max()) for c in rest) if rest[0].size else 0
        table = np.array(self.transitions, dtype=np.int64)
        state = np.zeros(rest[0].shape, dtype=np.int64)
        for place in reversed(places(self.numeration, top)[:-1]):   # greedy, most significant place first
            letter = np.zeros_like(state)
            for c in rest:
                digit = c // place
                c -= digit * place
                letter = letter * self.base + digit
            state = table[state, letter]
        return np.array(self.accepting)[state]

    def walnut(self) -> str:
        """The automaton in Walnut's file format (msd_2 on every input; a transition line per letter).

        >>> print(DigitAutomaton(1, ((0, 1), (1, 1)), (True, False)).walnut())
        msd_2
        <BLANKLINE>
        0 1
        0 -> 0
        1 -> 1
        <BLANKLINE>
        1 0
        0 -> 1
        1 -> 1
        """
        lines = [" ".join([self.numeration] * self.dim)]
        for s, (row, accept) in enumerate(zip(self.transitions, self.accepting)):
            lines += ["", f"{s} {int(accept)}"]
            for letter, target in enumerate(row):
                lines.append(f"{' '.join(map(str, self.letter_digits(letter)))} -> {target}")
        return "\n".join(lines)

    def minimal(self) -> "DigitAutomaton":
        """The least automaton accepting the same words: unreachable states dropped, equivalent states merged
        (Moore's partition refinement), numbered in order of first appearance (the initial state is 0).

        >>> DigitAutomaton(1, ((1, 2), (1, 2), (2, 2)), (True, True, False)).minimal().states
        2
        """
        reach, todo = {0}, [0]
        while todo:
            for t in self.transitions[todo.pop()]:
                if t not in reach:
                    reach.add(t)
                    todo.append(t)
        live = sorted(reach)
        block = {s: int(self.accepting[s]) for s in live}
        while True:
            signature = {s: (block[s],) + tuple(block[t] for t in self.transitions[s]) for s in live}
            names: dict[tuple, int] = {}
            for s in live:
                names.setdefault(signature[s], len(names))
            refined = {s: names[signature[s]] for s in live}
            stable = len(names) == len(set(block.values()))
            block = refined
            if stable:
                break
        count = len(set(block.values()))
        transitions: list[tuple[int, ...]] = [()] * count
        accepting = [False] * count
        for s in live:
            transitions[block[s]] = tuple(block[t] for t in self.transitions[s])
            accepting[block[s]] = self.accepting[s]
        return DigitAutomaton(self.dim, tuple(transitions), tuple(accepting), self.numeration)


class AutomatonFormatError(ValueError):
    """A stored automaton's file is not a valid automaton of this module; `line` is the file's line (1-based) at
    fault, None when the fault is the whole file's."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.message = message
        self.line = line


@dataclass(frozen=True)
class ReadAutomaton:
    """What :func:`read_walnut` read: the minimal automaton and how it was made complete (``note``, empty when the
    file was already complete)."""

    automaton: DigitAutomaton
    note: str = ""


def read_walnut(text: str, numeration: str = NUMERATION) -> ReadAutomaton:
    """Read and validate an automaton in Walnut's file format over ``numeration`` (msd_2 unless the spec names
    another) on every input: its alphabet must be the numeration's digits ({0, 1}; {0, 1, 2} for msd_pell) on each
    of its k tracks, its transitions deterministic (one target per state and letter), every named state
    declared; missing transitions go to a new rejecting sink (said in the note). The automaton is minimised, and
    must accept a word iff it accepts it with leading zeros (its initial state stable under the letter of all
    zeros), or it is refused: it would not read numbers.

    >>> read_walnut("msd_2\\n\\n0 1\\n0 -> 0\\n1 -> 1\\n\\n1 0\\n0 -> 1\\n1 -> 1\\n").automaton.states
    2
    >>> read_walnut("msd_2\\n\\n0 0\\n0 -> 1\\n1 -> 1\\n\\n1 1\\n0 -> 1\\n1 -> 1\\n")
    Traceback (most recent call last):
    ...
    nimjos.lang.stored.AutomatonFormatError: it accepts 0 but not the empty word: it reads words, not numbers (its initial state must be unchanged by a leading 0 on every track)
    """
    lines = text.splitlines()
    numbered = [(i + 1, re.sub(r"//.*", "", raw).strip()) for i, raw in enumerate(lines)]
    numbered = [(n, t) for n, t in numbered if t]
    if not numbered:
        raise AutomatonFormatError("the file is empty")
    head_line, head = numbered[0]
    tracks = head.split()
    wrong = [t for t in tracks if t != numeration]
    if wrong or not tracks:
        raise AutomatonFormatError(f"the alphabet {head!r} is not {numeration} on every input: the spec's numeration "
                                   f"is {numeration} (one '{numeration}' per argument)", head_line)
    base = NUMERATIONS[numeration][0]
    alphabet = "{" + ", ".join(map(str, range(base))) + "}"
    k = len(tracks)
    if k > MAX_TRACKS:
        raise AutomatonFormatError(f"{k} inputs (at most {MAX_TRACKS})", head_line)
    declared: dict[int, bool] = {}
    edges: dict[int, dict[int, tuple[int, int]]] = {}
    current: int | None = None
    for n, t in numbered[1:]:
        if "->" not in t:
            m = re.fullmatch(r"(\d+)\s+([01])", t)
            if not m:
                raise AutomatonFormatError(f"expected a state line 'STATE 0|1' or a transition "
                                           f"'{' '.join(['d'] * k)} -> STATE', got {t!r}"[:200], n)
            current = int(m.group(1))
            if current in declared:
                raise AutomatonFormatError(f"state {current} is declared twice", n)
            if len(declared) >= MAX_STATES:
                raise AutomatonFormatError(f"more than {MAX_STATES:,} states", n)
            declared[current] = m.group(2) == "1"
            edges[current] = {}
            continue
        if current is None:
            raise AutomatonFormatError("a transition before any state line", n)
        left, right = (p.split() for p in t.split("->", 1))
        if len(left) != k or any(d not in [str(i) for i in range(base)] for d in left):
            raise AutomatonFormatError(f"the letter {' '.join(left)!r} is not {k} {'binary ' if base == 2 else ''}"
                                       f"digit(s): the alphabet of {numeration} is {alphabet} on each of the {k} "
                                       "input(s)", n)
        if len(right) != 1 or not right[0].isdigit():
            raise AutomatonFormatError(f"state {current} has {len(right)} targets on the letter {' '.join(left)}: the "
                                       "automaton is not deterministic" if len(right) > 1 else
                                       f"bad target {' '.join(right)!r}", n)
        letter = int("".join(left), base)
        target = int(right[0])
        if letter in edges[current] and edges[current][letter][0] != target:
            raise AutomatonFormatError(f"state {current} has two targets on the letter {' '.join(left)} (here and on "
                                       f"line {edges[current][letter][1]}): the automaton is not deterministic", n)
        edges[current][letter] = (target, n)
    if 0 not in declared:
        raise AutomatonFormatError("no state 0 (Walnut's initial state)")
    for s, row in edges.items():
        for letter, (target, n) in row.items():
            if target not in declared:
                raise AutomatonFormatError(f"state {s} goes to the undeclared state {target}", n)
    order = sorted(declared)
    index = {s: i for i, s in enumerate(order)}
    index_of_initial = index[0]
    order.insert(0, order.pop(index_of_initial))   # the initial state first
    index = {s: i for i, s in enumerate(order)}
    sink = len(order)
    incomplete = any(len(edges[s]) < base ** k for s in order)
    transitions = [tuple(index[edges[s][a][0]] if a in edges[s] else sink for a in range(base ** k)) for s in order]
    accepting = [declared[s] for s in order]
    if incomplete:
        transitions.append(tuple([sink] * base ** k))
        accepting.append(False)
    automaton = DigitAutomaton(k, tuple(transitions), tuple(accepting), numeration).minimal()
    if automaton.transitions[0][0] != 0:
        word = _distinguishing_word(automaton)
        one = ",".join(["0"] * (k - 1) + ["1"])
        raise AutomatonFormatError(
            f"it accepts {word[1]} but not {word[0]}: it reads words, not numbers (its initial state must be unchanged "
            "by a leading 0 on every track)" if word else
            f"it reads words, not numbers (its initial state must be unchanged by a leading 0 on every track; {one})")
    return ReadAutomaton(automaton, "incomplete: completed with a rejecting sink state" if incomplete else "")


def _distinguishing_word(a: DigitAutomaton) -> tuple[str, str] | None:
    """A shortest word w (as the first track's digits when there is one track, else letters) with exactly one of
    0w and w accepted: (0w, w), ordered so that the second is the accepted one."""
    seen = {(0, a.transitions[0][0])}
    todo: list[tuple[int, int, list[int]]] = [(0, a.transitions[0][0], [])]
    while todo:
        p, q, word = todo.pop(0)
        if a.accepting[p] != a.accepting[q]:
            show = _show_word(word, a)
            zero = _show_word([0] + word, a)
            return (zero, show) if a.accepting[p] else (show, zero)
        for letter in range(a.base ** a.dim):
            nxt = (a.transitions[p][letter], a.transitions[q][letter])
            if nxt not in seen:
                seen.add(nxt)
                todo.append((*nxt, word + [letter]))
    return None


def _show_word(word: list[int], a: DigitAutomaton) -> str:
    if a.dim == 1:
        return "".join(map(str, word)) or "the empty word"
    return " ".join("[" + ",".join(map(str, a.letter_digits(c))) + "]" for c in word) or "the empty word"


class StoredAutomaton:
    """A stored automaton as a function of a spec: called with k natural numbers, whether the automaton accepts
    them (the scalar form, the reference). `source` is the file it was read from (for messages); `note` how it
    was completed; `walnut_name` the name it is installed under in Walnut's automata library, derived from its
    content (two specs' automata never share a name unless they are the same automaton).

    >>> odd = StoredAutomaton("odd", read_walnut("msd_2\\n\\n0 0\\n0 -> 0\\n1 -> 1\\n\\n1 1\\n0 -> 0\\n1 -> 1\\n"), "odd.txt")
    >>> odd(7), odd(0), odd.walnut_name.startswith("nimjos_sa_")
    (True, False, True)
    >>> odd(-1)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: odd(-1): the automaton reads natural numbers, not -1
    """

    def __init__(self, name: str, read: ReadAutomaton, source: str):
        self.name = name
        self.automaton = read.automaton
        self.note = read.note
        self.source = source
        digest = hashlib.sha256(self.automaton.walnut().encode()).hexdigest()[:16]
        self.walnut_name = f"nimjos_sa_{digest}"

    @property
    def arity(self) -> int:
        """The number of arguments (the automaton's tracks).

        >>> StoredAutomaton("t", read_walnut("msd_2 msd_2\\n\\n0 1\\n0 0 -> 0\\n"), "t.txt").arity
        2
        """
        return self.automaton.dim

    def check_arguments(self, args: tuple) -> None:
        """Refuse a call of the wrong arity, a boolean, a non-integer or a negative argument (an evaluation error).

        >>> StoredAutomaton("t", read_walnut("msd_2\\n\\n0 1\\n0 -> 0\\n"), "t.txt").check_arguments((True,))
        Traceback (most recent call last):
        ...
        nimjos.lang.errors.EvalError: t(True): the automaton reads natural numbers, not the boolean True
        """
        shown = f"{self.name}({', '.join(map(str, args))})"
        if len(args) != self.arity:
            raise EvalError(f"{shown}: {self.name} takes {self.arity} argument(s) (its automaton has {self.arity} "
                            "input(s))")
        for v in args:
            if type(v) is bool:
                raise EvalError(f"{shown}: the automaton reads natural numbers, not the boolean {v}")
            if type(v) is not int or v < 0:
                raise EvalError(f"{shown}: the automaton reads natural numbers, not {v}")

    def __call__(self, *args: Any) -> bool:
        self.check_arguments(args)
        return self.automaton.run(list(args))

    def __repr__(self) -> str:
        return f"<stored automaton {self.name} ({self.arity} inputs, {self.automaton.states} states, {self.source})>"
