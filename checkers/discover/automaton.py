"""The P-positions of a game of fixed coordinates as a finite automaton reading the coordinates' base-2 digits
together, most significant first (as Walnut reads them, msd_2), learned from a table by RPNI (aalpy).

The sample is every word of length at most k (a word of length L names the positions whose coordinates are all
below 2^L; leading zeros name the same position, so an automaton consistent with every length reads numbers, not
words), labelled by the table. An automaton learned on the box below 2^k is *stable* when it agrees with the table
on the box below 2^(k+1), which it was not learned from. Agreement on a window is ``checked``, never ``proved``.

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

from nimjos.lang.stored import DigitAutomaton


#: the automaton discovery learns: the language's own (a stored automaton of a spec reads the same digits)
Automaton = DigitAutomaton


def samples(inside: np.ndarray, k: int) -> list[tuple[tuple[int, ...], bool]]:
    """Every word of length at most ``k`` with its label: whether the position it names is in ``inside`` (a boolean
    array of d dimensions covering the box below 2^k).

    >>> samples(np.array([True, False, True, False]), 2)[:3]
    [((), True), ((0,), True), ((1,), False)]
    """
    dim = inside.ndim
    out: list[tuple[tuple[int, ...], bool]] = []
    for length in range(k + 1):
        for word in itertools.product(range(2 ** dim), repeat=length):
            coords = [0] * dim
            for letter in word:
                coords = [2 * c + ((letter >> (dim - 1 - i)) & 1) for i, c in enumerate(coords)]
            out.append((word, bool(inside[tuple(coords)])))
    return out


def learn(inside: np.ndarray, k: int) -> Automaton:
    """An automaton consistent with ``inside`` on the box below 2^k, learned by RPNI (aalpy), with its states
    merged to the least number (Moore's partition refinement).

    >>> learn(np.arange(8) % 2 == 0, 3).accepts([np.arange(16)]).tolist() == (np.arange(16) % 2 == 0).tolist()
    True
    """
    box = inside[tuple(slice(0, 2 ** k) for _ in range(inside.ndim))]
    model = run_RPNI(samples(box, k), "dfa", input_completeness="sink_state", print_info=False)
    if model is None:
        raise ValueError("RPNI found the sample inconsistent")
    letters = range(2 ** inside.ndim)
    order = [model.initial_state] + [s for s in model.states if s is not model.initial_state]
    index = {id(s): i for i, s in enumerate(order)}
    transitions = [tuple(index[id(s.transitions[a])] for a in letters) for s in order]
    return minimal(Automaton(inside.ndim, tuple(transitions), tuple(bool(s.is_accepting) for s in order)))


def minimal(automaton: Automaton) -> Automaton:
    """The least automaton accepting the same words (:meth:`nimjos.lang.stored.DigitAutomaton.minimal`).

    >>> minimal(Automaton(1, ((1, 2), (1, 2), (2, 2)), (True, True, False))).states
    2
    """
    return automaton.minimal()
