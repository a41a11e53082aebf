"""The P-positions of a game of fixed coordinates as a finite automaton reading the coordinates' digits together,
most significant first, learned from a table by RPNI (aalpy): base-2 digits (Walnut's msd_2), or the digits of the
Fibonacci (Zeckendorf, msd_fib) or Pell (msd_pell) numeration, as Walnut reads them once its ``ost`` command has
built them.

The sample is every word of length at most k that is a representation in the numeration (a word of length L names
the positions whose coordinates are all below the place L: 2^L in base 2, the Fibonacci number F(L + 2) in msd_fib;
leading zeros name the same position, so an automaton consistent with every length reads numbers, not words),
labelled by the table. An automaton learned on the box below the place k is *stable* when it agrees with the table
on the box below the place k + 1, which it was not learned from. Agreement on a window is ``checked``, never
``proved``. An automaton learned in msd_fib or msd_pell rejects every word that is not a representation (two 1s in
a row; a 2 not followed by a 0, or last).

>>> import numpy as np
>>> x, y = np.meshgrid(np.arange(16), np.arange(16), indexing="ij")
>>> learned = learn(x & y == 0, 3)
>>> learned.states, bool(np.array_equal(learned.accepts([x, y]), x & y == 0))
(2, True)
"""
from __future__ import annotations

import itertools

import numpy as np
from aalpy.learning_algs import run_RPNI

from nimjos.lang.stored import NUMERATION, NUMERATIONS, DigitAutomaton, places, representation


#: the automaton discovery learns: the language's own (a stored automaton of a spec reads the same digits)
Automaton = DigitAutomaton


def limit(numeration: str, k: int) -> int:
    """The place k of a numeration: the words of length at most k name exactly the numbers below it.

    >>> limit("msd_2", 6), limit("msd_fib", 6), limit("msd_pell", 4)
    (64, 21, 29)
    """
    out = places(numeration, 0)
    while len(out) <= k:
        out = places(numeration, out[-1])
    return out[k]


def samples(inside: np.ndarray, k: int, numeration: str = NUMERATION) -> list[tuple[tuple[int, ...], bool]]:
    """Every word of length at most ``k`` that is a representation in ``numeration``, with its label: whether the
    position it names is in ``inside`` (a boolean array of d dimensions covering the box below the place k).

    >>> samples(np.array([True, False, True, False]), 2)[:3]
    [((), True), ((0,), True), ((1,), False)]
    >>> [w for w, _ in samples(np.array([True, False, True]), 2, "msd_fib")]
    [(), (0,), (1,), (0, 0), (0, 1), (1, 0)]
    """
    dim = inside.ndim
    out: list[tuple[tuple[int, ...], bool]] = []
    if numeration == NUMERATION:   # every binary word
        for length in range(k + 1):
            for word in itertools.product(range(2 ** dim), repeat=length):
                coords = [0] * dim
                for letter in word:
                    coords = [2 * c + ((letter >> (dim - 1 - i)) & 1) for i, c in enumerate(coords)]
                out.append((word, bool(inside[tuple(coords)])))
        return out
    base = NUMERATIONS[numeration][0]
    for length in range(k + 1):
        reps = [[0] * (length - len(r)) + r for r in (representation(numeration, v)
                                                      for v in range(limit(numeration, length)))]
        for point in itertools.product(range(len(reps)), repeat=dim):
            word = tuple(sum(reps[c][i] * base ** (dim - 1 - t) for t, c in enumerate(point)) for i in range(length))
            out.append((word, bool(inside[point])))
    return out


def learn(inside: np.ndarray, k: int, numeration: str = NUMERATION) -> Automaton:
    """An automaton consistent with ``inside`` on the box below the place k of ``numeration``, learned by RPNI
    (aalpy), rejecting every word that is not a representation, with its states merged to the least number
    (Moore's partition refinement).

    >>> learn(np.arange(8) % 2 == 0, 3).accepts([np.arange(16)]).tolist() == (np.arange(16) % 2 == 0).tolist()
    True
    >>> n = np.arange(40)
    >>> odd_end = np.array([representation("msd_fib", int(v))[-1:] == [1] for v in n])
    >>> bool(np.array_equal(learn(odd_end, 6, "msd_fib").accepts([n]), odd_end))
    True
    """
    top = limit(numeration, k)
    box = inside[tuple(slice(0, top) for _ in range(inside.ndim))]
    model = run_RPNI(samples(box, k, numeration), "dfa", input_completeness="sink_state", print_info=False)
    if model is None:
        raise ValueError("RPNI found the sample inconsistent")
    base = NUMERATIONS[numeration][0]
    letters = range(base ** inside.ndim)
    order = [model.initial_state] + [s for s in model.states if s is not model.initial_state]
    index = {id(s): i for i, s in enumerate(order)}
    transitions = [tuple(index[id(s.transitions[a])] if a in s.transitions else len(order) for a in letters)
                   for s in order]
    accepting = [bool(s.is_accepting) for s in order]
    if any(len(s.transitions) < len(letters) for s in order):   # letters RPNI never saw: a rejecting sink
        transitions.append(tuple(len(order) for _ in letters))
        accepting.append(False)
    learned = Automaton(inside.ndim, tuple(transitions), tuple(accepting), numeration)
    return minimal(learned if numeration == NUMERATION else representations_only(learned))


def representations_only(automaton: Automaton) -> Automaton:
    """The automaton restricted to the words that are representations in its numeration: a digit after the
    largest digit (1 in msd_fib, 2 in msd_pell) must be 0, and in msd_pell a word never ends with a 2 (the
    least significant place 1 is followed by the place 2).

    >>> a = representations_only(Automaton(1, ((0, 0),), (True,), "msd_fib"))
    >>> a.run([4]), a.states
    (True, 3)
    """
    base, top = automaton.base, automaton.base - 1
    dim = automaton.dim
    # a state: (the automaton's state, the tracks whose last digit was the largest), or the dead state
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    todo = [(0, 0)]
    rows: list[list[int]] = []
    dead = -1
    while todo:
        state, flags = todo.pop(0)
        row = []
        for letter in range(base ** dim):
            digits = automaton.letter_digits(letter)
            if any(flags >> i & 1 and d for i, d in enumerate(digits)):
                row.append(dead)
                continue
            nxt = (automaton.transitions[state][letter], sum(1 << i for i, d in enumerate(digits) if d == top))
            if nxt not in states:
                states[nxt] = len(states)
                todo.append(nxt)
            row.append(states[nxt])
        rows.append(row)
    sink = len(states)
    transitions = tuple(tuple(sink if t == dead else t for t in row) for row in rows) + ((sink,) * base ** dim,)
    ends_ok = {key: base == 2 or key[1] == 0 for key in states}   # msd_pell: no word ends with a 2
    by_index = sorted(states, key=states.__getitem__)
    accepting = tuple(automaton.accepting[key[0]] and ends_ok[key] for key in by_index) + (False,)
    return Automaton(dim, transitions, accepting, automaton.numeration)


def minimal(automaton: Automaton) -> Automaton:
    """The least automaton accepting the same words (:meth:`nimjos.lang.stored.DigitAutomaton.minimal`).

    >>> minimal(Automaton(1, ((1, 2), (1, 2), (2, 2)), (True, True, False))).states
    2
    """
    return automaton.minimal()
