"""Generalized Sprague-Grundy values of a loopy impartial game, by the labelling algorithm of Smith and Fraenkel.

A game whose moves may return to a position (``loopy = true``) has no Grundy function, but it has the generalized
Sprague-Grundy function gamma of C. A. B. Smith ("Graphs and composite games", J. Combin. Theory 1 (1966)) and
A. S. Fraenkel and Y. Yesha ("The generalized Sprague-Grundy function and its invariance under certain mappings",
J. Combin. Theory Ser. A 43 (1986)): a position's value is a finite nim-value, or infinity with the set K of the
finite values of its options, written ∞(K). Its outcome follows: P when gamma = 0; N when gamma is finite and
positive, or ∞(K) with 0 in K; a draw (neither player can force a win) when gamma is ∞(K) with 0 not in K.

The values are computed over a finite game graph that is closed under moves: every option of a position of the
graph is in the graph. Exploring from the positions asked stops at a count of positions; the positions that can
reach one whose options were not listed (the frontier) have values the explored graph cannot decide, and are
reported as undecided, never guessed: a value depends only on the positions reachable from it.

>>> adj = {0: [], 1: [0, 2], 2: [1], 3: [3]}
>>> vals = label(adj)
>>> [describe(vals[p]) for p in range(4)], [outcome(vals[p]) for p in range(4)]
(['0', '1', '0', '∞()'], ['P', 'N', 'P', 'D'])
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence, Union

#: the most positions one exploration may list (a count; the frontier beyond it is left undecided)
MAX_POSITIONS = 2_000_000


@dataclass(frozen=True)
class Infinite:
    """The value ∞(K) of a position from which no finite value can be forced: `options` is K, the finite values
    of its options.

    >>> str(Infinite(frozenset({2, 0}))), Infinite(frozenset({1})).draw, Infinite(frozenset({0, 1})).draw
    ('∞(0,2)', True, False)
    """

    options: frozenset[int]

    @property
    def draw(self) -> bool:
        """Is the position a draw (no option has value 0: the mover cannot move to a P-position)?"""
        return 0 not in self.options

    def __str__(self) -> str:
        return "∞(" + ",".join(str(k) for k in sorted(self.options)) + ")"


#: a generalized Sprague-Grundy value: a finite nim-value or ∞(K)
Value = Union[int, Infinite]


def describe(value: Value) -> str:
    """A value as the literature writes it: ``3`` or ``∞(0,2)``.

    >>> describe(3), describe(Infinite(frozenset()))
    ('3', '∞()')
    """
    return str(value)


def outcome(value: Value) -> str:
    """The outcome of a position of this value: "P" (the previous player wins), "N" (the next player wins) or "D"
    (a draw).

    >>> outcome(0), outcome(2), outcome(Infinite(frozenset({0}))), outcome(Infinite(frozenset({1, 2})))
    ('P', 'N', 'N', 'D')
    """
    if isinstance(value, Infinite):
        return "D" if value.draw else "N"
    return "P" if value == 0 else "N"


def as_claimed(value: Any) -> Value:
    """A value written in a claim: an integer >= 0 is a finite value, a finite set K of integers is ∞(K).
    Anything else is a ValueError naming it.

    >>> as_claimed(2), str(as_claimed(frozenset({0, 1})))
    (2, '∞(0,1)')
    >>> as_claimed(-1)
    Traceback (most recent call last):
    ...
    ValueError: -1 is not a generalized Sprague-Grundy value (an integer >= 0, or a set K of them for ∞(K))
    """
    if type(value) is int and value >= 0:
        return value
    if isinstance(value, (frozenset, set)) and all(type(k) is int and k >= 0 for k in value):
        return Infinite(frozenset(value))
    raise ValueError(f"{value!r} is not a generalized Sprague-Grundy value (an integer >= 0, or a set K of them "
                     "for ∞(K))")


def label(adj: Mapping[Hashable, Sequence[Hashable]]) -> dict[Hashable, Value]:
    """The generalized Sprague-Grundy value of every position of a finite game graph closed under moves (`adj`:
    each position's options, every option a key), by the labelling algorithm (Fraenkel and Yesha 1986, after
    Smith 1966). Stage i = 0, 1, ...: while some unlabelled position u has no option labelled i, and every option
    of u that is unlabelled or labelled ∞ has an option labelled i, label u with i; then label ∞ every unlabelled
    position with no option labelled i. Each stage is one pass over the edges (counters, a queue), and there are
    at most (largest out-degree + 1) stages. An ∞ position's K is the set of its options' finite labels.

    >>> vals = label({"a": ["b"], "b": ["a"], "c": ["a", "d"], "d": []})
    >>> {p: describe(v) for p, v in sorted(vals.items())}
    {'a': '∞()', 'b': '∞()', 'c': '∞(0)', 'd': '0'}
    >>> label({"a": ["z"]})
    Traceback (most recent call last):
    ...
    ValueError: the graph is not closed under moves: the option 'z' of 'a' is not in it
    """
    index: dict[Hashable, int] = {}
    for p in adj:
        index[p] = len(index)
    n = len(index)
    succ: list[list[int]] = []
    for p, opts in adj.items():
        row = []
        for q in opts:
            j = index.get(q)
            if j is None:
                raise ValueError(f"the graph is not closed under moves: the option {q!r} of {p!r} is not in it")
            row.append(j)
        succ.append(sorted(set(row)))
    pred: list[list[int]] = [[] for _ in range(n)]
    for u, row in enumerate(succ):
        for v in row:
            pred[v].append(u)
    FREE, INF = -1, -2
    lab = [FREE] * n
    unlabelled = n
    i = 0
    while unlabelled:
        blocked = [False] * n    # u has an option labelled i
        # need[u]: options of u that are unlabelled or ∞ and have no option labelled i yet
        need = [sum(1 for v in succ[u] if lab[v] < 0) for u in range(n)]
        queue = [u for u in range(n) if lab[u] == FREE and need[u] == 0]
        while queue:
            u = queue.pop()
            if lab[u] != FREE or blocked[u] or need[u]:
                continue
            lab[u] = i
            unlabelled -= 1
            for p in pred[u]:
                if blocked[p]:
                    continue
                blocked[p] = True          # p has an option labelled i now
                if lab[p] >= 0:
                    continue
                for x in pred[p]:          # p (unlabelled or ∞) no longer holds its predecessors back
                    need[x] -= 1
                    if need[x] == 0 and lab[x] == FREE and not blocked[x]:
                        queue.append(x)
        for u in range(n):
            if lab[u] == FREE and not blocked[u]:
                lab[u] = INF
                unlabelled -= 1
        i += 1
    keys = list(index)
    out: dict[Hashable, Value] = {}
    for u, p in enumerate(keys):
        if lab[u] >= 0:
            out[p] = lab[u]
        else:
            out[p] = Infinite(frozenset(lab[v] for v in succ[u] if lab[v] >= 0))
    return out


def explore(options: Callable[[Any], Iterable[Any]], positions: Iterable[Any], limit: int = MAX_POSITIONS
            ) -> tuple[dict[Any, list], set]:
    """The game graph reachable from `positions` (each position's options), listing at most `limit` positions'
    options; the frontier is the set of positions reached whose options were not listed (empty when the whole
    reachable graph was explored).

    >>> adj, frontier = explore(lambda n: [n + 1], [0], limit=3)
    >>> sorted(adj), frontier
    ([0, 1, 2], {3})
    """
    adj: dict[Any, list] = {}
    frontier: set = set()
    stack = list(positions)
    while stack:
        p = stack.pop()
        if p in adj or p in frontier:
            continue
        if len(adj) >= limit:
            frontier.add(p)
            continue
        opts = list(options(p))
        adj[p] = opts
        stack.extend(opts)
    return adj, frontier


def decided(adj: Mapping[Any, Sequence[Any]], frontier: set) -> set:
    """The positions of an explored graph that cannot reach its frontier: their values depend only on the graph
    (the rest are undecided).

    >>> sorted(decided({0: [1], 1: [0, 9], 2: [2]}, {9}))
    [2]
    """
    if not frontier:
        return set(adj)
    pred: dict[Any, list] = {}
    for p, opts in adj.items():
        for q in opts:
            pred.setdefault(q, []).append(p)
    bad = set(frontier)
    stack = list(frontier)
    while stack:
        q = stack.pop()
        for p in pred.get(q, ()):
            if p not in bad:
                bad.add(p)
                stack.append(p)
    return {p for p in adj if p not in bad}


@dataclass
class Solution:
    """The values a window's graph decides: `values` (a position's generalized value), `undecided` (positions
    that can reach a position whose options were not explored), `explored` (positions whose options were listed)."""

    values: dict[Any, Value]
    undecided: set
    explored: int


def solve(options: Callable[[Any], Iterable[Any]], positions: Iterable[Any], limit: int = MAX_POSITIONS) -> Solution:
    """Generalized Sprague-Grundy values of the positions reachable from `positions`, over the graph explored up to
    `limit` positions: every position that cannot reach the unexplored frontier gets its value, the others are
    undecided.

    >>> s = solve(lambda n: [n - 1, n + 1] if n > 0 else [], [3], limit=10)
    >>> sorted(s.values), len(s.undecided)
    ([], 10)
    >>> s = solve(lambda n: [n - s for s in (1, 2) if s <= n], [5])
    >>> [s.values[n] for n in range(6)], s.undecided
    ([0, 1, 2, 0, 1, 2], set())
    """
    adj, frontier = explore(options, positions, limit)
    keep = decided(adj, frontier)
    closed = {p: adj[p] for p in keep}
    return Solution(label(closed), set(adj) - keep, len(adj))
