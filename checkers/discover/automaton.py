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
from dataclasses import dataclass

import numpy as np
from aalpy.learning_algs import run_RPNI


@dataclass(frozen=True)
class Automaton:
    """A complete deterministic automaton over the letters 0 .. 2^d - 1 (a letter: one digit of each of the d
    coordinates, the first coordinate's the highest bit): its transitions by state and letter, which states
    accept, state 0 the initial state."""

    dim: int
    transitions: tuple[tuple[int, ...], ...]
    accepting: tuple[bool, ...]

    @property
    def states(self) -> int:
        """The number of states.

        >>> Automaton(1, ((0, 1), (1, 1)), (True, False)).states
        2
        """
        return len(self.accepting)

    def accepts(self, columns: list[np.ndarray]) -> np.ndarray:
        """Whether the automaton accepts each position (one integer array per coordinate, all of the same shape).

        >>> Automaton(1, ((0, 1), (1, 1)), (True, False)).accepts([np.arange(4)]).tolist()
        [True, False, False, False]
        """
        columns = [np.asarray(c, dtype=np.int64) for c in columns]
        width = max(int(c.max()).bit_length() for c in columns) if columns[0].size else 0
        table = np.array(self.transitions, dtype=np.int64)
        state = np.zeros(columns[0].shape, dtype=np.int64)
        for bit in range(width - 1, -1, -1):
            letter = np.zeros_like(state)
            for c in columns:
                letter = letter * 2 + ((c >> bit) & 1)
            state = table[state, letter]
        return np.array(self.accepting)[state]

    def walnut(self) -> str:
        """The automaton in Walnut's file format (msd_2 on every input; a transition line per letter).

        >>> print(Automaton(1, ((0, 1), (1, 1)), (True, False)).walnut())
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
        lines = [" ".join(["msd_2"] * self.dim)]
        for s, (row, accept) in enumerate(zip(self.transitions, self.accepting)):
            lines += ["", f"{s} {int(accept)}"]
            for letter, target in enumerate(row):
                digits = [(letter >> (self.dim - 1 - i)) & 1 for i in range(self.dim)]
                lines.append(f"{' '.join(map(str, digits))} -> {target}")
        return "\n".join(lines)


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
    """The least automaton accepting the same words: unreachable states dropped, equivalent states merged.

    >>> minimal(Automaton(1, ((1, 2), (1, 2), (2, 2)), (True, True, False))).states
    2
    """
    reach, todo = {0}, [0]
    while todo:
        for t in automaton.transitions[todo.pop()]:
            if t not in reach:
                reach.add(t)
                todo.append(t)
    live = sorted(reach)
    block = {s: int(automaton.accepting[s]) for s in live}
    while True:
        signature = {s: (block[s],) + tuple(block[t] for t in automaton.transitions[s]) for s in live}
        names: dict[tuple, int] = {}
        for s in live:   # numbered in order of first appearance from the initial state: the initial state is 0
            names.setdefault(signature[s], len(names))
        refined = {s: names[signature[s]] for s in live}
        if len(names) == len(set(block.values())):
            block = refined
            break
        block = refined
    count = len(set(block.values()))
    transitions: list[tuple[int, ...]] = [()] * count
    accepting = [False] * count
    for s in live:
        transitions[block[s]] = tuple(block[t] for t in automaton.transitions[s])
        accepting[block[s]] = automaton.accepting[s]
    return Automaton(automaton.dim, tuple(transitions), tuple(accepting))
