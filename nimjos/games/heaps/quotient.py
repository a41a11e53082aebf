"""The misère quotient of a heap game (Plambeck and Siegel): a finite commutative monoid that decides the misère
outcome of every sum of heaps up to a bound, computed from the moves and verified for every such sum.

Two positions G, H of a set A of heap positions (closed under moves and sums) are indistinguishable when
o(G + X) = o(H + X) for every X in A (o: the misère outcome). The classes form a commutative monoid, the misère
quotient Q(A); a position's class is the product of its heaps' classes, and its outcome is P exactly when its
class is in the P-portion. Plambeck and Siegel, "Misère quotients for impartial games", J. Combin. Theory
Ser. A 115 (2008) 593-622.

How it is computed here, heap by heap (A_n: the sums of heaps of at most n tokens):

* a candidate is a commutative automaton over heaps: a state per monoid element, one transition per heap
  (adding that heap to the position); the state of the empty position is 0. Its P-portion is MARKED from the
  moves: each element's status is the outcome of its least representative position (least in the multiset
  order, under which every option of a position is smaller), from the statuses of the representatives'
  options' elements;
* it is VERIFIED for every position of A_n at once: the pair (element, the set of elements of its options),
  sigma(G), of a sum G + H (H one heap) follows from sigma(G) and H alone (the options of G + H are the
  options of G plus H, and G plus the options of H), so the pairs of all of A_n are the states reachable from
  sigma(empty) = (0, {}) under the heaps' transitions: a finite search. By induction on positions, if every
  reachable pair (x, T) has x in P exactly when T is not empty and holds no element of P, the element of
  every position of A_n gives its misère outcome (a terminal position is an N-position);
* heap n gets an element of the quotient of A_{n-1} when one passes the verification (the pairs already met
  are kept, so only those a heap of a new kind adds are visited). Else heap n becomes a new generator of period
  2 (g^4 = g^2: every element of a misère quotient has g^(i+2) = g^i for some i) beside the quotient of the
  other heaps, and while the verification fails, the least failing position (least in the multiset order, so
  that every smaller position passed and its true outcome is the one its options give) is kept with that
  outcome, and the fewest of its heaps are freed as generators of their own, with an index at least their count
  in any failing position met, until a candidate gets every failing position met right (after the subsets, the
  refinement of the candidate by its pairs sigma). Each candidate is reduced by indistinguishability (the least
  automaton with the same P-language); the verified one is the misère quotient of A_n.

Every step that could err (the candidate, its P-portion, its recalibration) is followed by the verification,
which is exact, and a verified candidate is also checked to commute at every reachable state, so a returned
quotient is correct for every position of A_n. The budgets are counts (states of one search, products of all
the searches), never times: past them the computation stops and says at which heap.

>>> from nimjos.games.heaps.rules import NIM, octal_rules
>>> q = misere_quotient(NIM.moves, 1); q.order, q.outcome((1, 1, 1)), q.outcome((1, 1))
(2, 'P', 'N')
>>> q = misere_quotient(octal_rules("0.77").moves, 20); q.outcome((1,)), q.outcome((2, 2)), q.outcome((1, 1))
('P', 'P', 'N')
"""
from __future__ import annotations

import heapq
from itertools import combinations
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from nimjos.lang.errors import EvalError

#: one move from a heap of n tokens: the heaps it leaves (a tuple, each part smaller than n)
Moves = Callable[[int], Iterable[tuple[int, ...]]]

#: the most states a candidate or a verification may hold before the computation gives up (a count, not a time)
STATE_BUDGET = 400_000


class QuotientBudget(EvalError):
    """The quotient was not found within the budget of states: the heap where it stopped is in the message."""


@dataclass
class _Automaton:
    """A candidate: states 0..k-1 (0 the empty position), one transition row per letter, each heap's letter
    (-1: a heap with no move, which is the empty position), and the P-portion."""

    rows: list[list[int]]
    letter_of: list[int]
    p: list[bool]
    budget: int = STATE_BUDGET  # the most states any search from this candidate may hold

    @property
    def size(self) -> int:
        return len(self.p)

    def apply(self, x: int, heaps: Iterable[int]) -> int:
        """The state of the position of state `x` plus `heaps`."""
        for h in heaps:
            letter = self.letter_of[h]
            if letter >= 0:
                x = self.rows[letter][x]
        return x

    def least_heaps(self) -> dict[int, int]:
        """Each letter's smallest heap."""
        out: dict[int, int] = {}
        for h, letter in enumerate(self.letter_of):
            if letter >= 0:
                out.setdefault(letter, h)
        return out


def _options(moves: Moves, n: int) -> list[tuple[int, ...]]:
    """The distinct options of a heap of n (sorted tuples of non-empty heaps), each checked to leave smaller heaps."""
    found = set()
    for parts in moves(n):
        parts = tuple(sorted(p for p in parts if p))
        if any(p >= n for p in parts):
            raise EvalError(f"a move from a heap of {n} must leave smaller heaps, got {parts}")
        found.add(parts)
    return sorted(found)


def _key_plus(key: tuple[int, ...], h: int) -> tuple[int, ...]:
    """A position's key (its heaps in decreasing order: the multiset order is the order of keys) plus heap h."""
    i = 0
    while i < len(key) and key[i] >= h:
        i += 1
    return key[:i] + (h,) + key[i:]


def _words(auto: _Automaton) -> list[tuple[int, ...]]:
    """The least position (in the multiset order, under which every option is smaller) of each reachable state,
    as a sorted tuple of heaps; () for the unreachable ones. Dijkstra's search on keys."""
    smallest = sorted(auto.least_heaps().items(), key=lambda item: item[1])
    words: dict[int, tuple[int, ...]] = {}
    queue: list[tuple[tuple[int, ...], int]] = [((), 0)]
    while queue:
        key, x = heapq.heappop(queue)
        if x in words:
            continue
        words[x] = key[::-1]
        if len(words) > auto.budget:
            raise QuotientBudget(f"more than {auto.budget} elements in a candidate")
        for letter, h in smallest:
            y = auto.rows[letter][x]
            if y not in words:
                heapq.heappush(queue, (_key_plus(key, h), y))
    return [words.get(x, ()) for x in range(auto.size)]


def _by_size(words: list[tuple[int, ...]]) -> list[int]:
    """The reachable states in the order of their least positions."""
    return sorted((x for x in range(len(words)) if words[x] or x == 0), key=lambda x: words[x][::-1])


def _mark(auto: _Automaton, heap_opts: list[list[tuple[int, ...]]]) -> None:
    """Set the P-portion from the moves: each element's status is the outcome of its least position, whose
    options are smaller positions, so their elements are marked before it."""
    words = _words(auto)
    p = [False] * auto.size
    for x in _by_size(words):
        word = words[x]
        targets = set()
        for i, h in enumerate(word):
            if i and word[i - 1] == h:
                continue
            rest = auto.apply(0, word[:i] + word[i + 1:])
            for parts in heap_opts[h]:
                targets.add(auto.apply(rest, parts))
        p[x] = bool(targets) and not any(p[t] for t in targets)
    auto.p = p


class _Pairs:
    """The pairs sigma(G) = (element of G, elements of G's options) of a candidate, and their steps by a heap.

    A heap acts on the pairs through its kind: (its element, the elements of its options); heaps of one kind act
    alike. ``seen`` holds the pairs found by the last search that passed, so that a heap of a new kind can be
    checked from them alone (:meth:`extend`)."""

    def __init__(self, auto: _Automaton, heap_opts: list[list[tuple[int, ...]]]):
        self.auto = auto
        self.words = _words(auto)
        self._times: dict[tuple[int, int], int] = {}
        self.kind_heap: dict[tuple[int, frozenset], int] = {}
        for h, letter in enumerate(auto.letter_of):
            if letter >= 0:
                self.kind_heap.setdefault(self.kind(h, heap_opts), h)
        self.seen: set[tuple[int, frozenset]] = set()
        self.ops = 0

    def kind(self, h: int, heap_opts: list[list[tuple[int, ...]]]) -> tuple[int, frozenset]:
        """A heap's kind: (its element, the elements of its options)."""
        return self.auto.apply(0, (h,)), frozenset(self.auto.apply(0, parts) for parts in heap_opts[h])

    def times(self, x: int, y: int) -> int:
        """The product x * y (the state of a position of x plus the least position of y)."""
        key = (x, y)
        found = self._times.get(key)
        if found is None:
            found = self._times[key] = self.auto.apply(x, self.words[y])
        return found

    def step(self, state: tuple[int, frozenset], kind: tuple[int, frozenset]) -> tuple[int, frozenset]:
        """sigma(G + H) from sigma(G), for a heap H of `kind`: the options of G + H are G's options plus H, and
        G plus H's options. Counts its products in ``ops`` (the measure of work)."""
        x, targets = state
        g, option_elements = kind
        self.ops += 1 + len(targets) + len(option_elements)
        return self.times(x, g), frozenset([self.times(t, g) for t in targets]
                                           + [self.times(x, o) for o in option_elements])

    def says_p(self, state: tuple[int, frozenset]) -> bool:
        """The outcome the options give: P when there is an option and every option is an N-position."""
        return bool(state[1]) and not any(self.auto.p[t] for t in state[1])

    def search(self) -> tuple[int, tuple[int, ...] | None]:
        """Visit every reachable pair in the order of its least position; stop at the first pair whose element's
        status is not the outcome its options give. Returns (products taken, that least position or None).

        All positions smaller than the one returned have pairs visited before it, which passed; so its options'
        statuses are right and its true outcome is what its options give."""
        ops0 = self.ops
        seen: set[tuple[int, frozenset]] = set()
        queue: list[tuple[tuple[int, ...], int, tuple[int, frozenset]]] = [((), 0, (0, frozenset()))]
        tie = 0
        while queue:
            key, _, state = heapq.heappop(queue)
            if state in seen:
                continue
            seen.add(state)
            if len(seen) > self.auto.budget:
                raise QuotientBudget(f"more than {self.auto.budget} pairs (element, option elements)")
            if self.says_p(state) != self.auto.p[state[0]]:
                return self.ops - ops0, key[::-1]
            for kind, h in self.kind_heap.items():
                nxt = self.step(state, kind)
                if nxt not in seen:
                    tie += 1
                    heapq.heappush(queue, (_key_plus(key, h), tie, nxt))
        self.seen = seen
        return self.ops - ops0, None

    def extend(self, kind: tuple[int, frozenset], heap: int) -> tuple[int, bool]:
        """Add a heap of `kind` to a passed search: visit the pairs it makes reachable, from the pairs already
        seen. Returns (products taken, whether all passed); on a pass the kind and the pairs are kept."""
        if kind in self.kind_heap:
            return 0, True
        kinds = list(self.kind_heap) + [kind]
        new: set[tuple[int, frozenset]] = set()
        ops0 = self.ops
        for start in list(self.seen):
            stack = [self.step(start, kind)]
            while stack:
                state = stack.pop()
                if state in self.seen or state in new:
                    continue
                new.add(state)
                if len(new) + len(self.seen) > self.auto.budget:
                    raise QuotientBudget(f"more than {self.auto.budget} pairs (element, option elements)")
                if self.says_p(state) != self.auto.p[state[0]]:
                    return self.ops - ops0, False
                stack.extend(self.step(state, k) for k in kinds)
        self.seen |= new
        self.kind_heap[kind] = heap
        return self.ops - ops0, True


def _minimise(auto: _Automaton, letters: set[int] | None = None) -> _Automaton:
    """The least automaton with the same P-language over `letters` (all by default): the states reachable by
    them, merged while no sum tells them apart. Heaps of other letters get letter -2 (to be replaced)."""
    used = sorted({l for l in auto.letter_of if l >= 0} if letters is None else letters)
    reach = [0]
    seen = {0}
    for x in reach:
        for l in used:
            y = auto.rows[l][x]
            if y not in seen:
                seen.add(y)
                reach.append(y)
    block = {x: int(auto.p[x]) for x in reach}
    count = len(set(block.values()))
    while True:
        ids: dict[tuple, int] = {}
        block = {x: ids.setdefault((block[x],) + tuple(block[auto.rows[l][x]] for l in used), len(ids))
                 for x in reach}
        if len(ids) == count:
            break
        count = len(ids)
    number: dict[int, int] = {}
    for x in reach:
        number.setdefault(block[x], len(number))
    rows = [[0] * len(number) for _ in used]
    p = [False] * len(number)
    for x in reach:
        b = number[block[x]]
        p[b] = auto.p[x]
        for i, l in enumerate(used):
            rows[i][b] = number[block[auto.rows[l][x]]]
    renumber = {l: i for i, l in enumerate(used)}
    letter_of = [renumber.get(l, -2) if l >= 0 else -1 for l in auto.letter_of]
    return _Automaton(rows=rows, letter_of=letter_of, p=p, budget=auto.budget)


def _check_commutative(auto: _Automaton) -> None:
    """Refuse a candidate whose heaps do not commute at some reachable state: its element of a position would
    depend on the order of the heaps, and the verification's induction would not hold (never expected: every
    candidate is built as a commutative monoid; this makes sure)."""
    rows = list({tuple(row) for row in auto.rows})
    words = _words(auto)
    for x in _by_size(words):
        for i, a in enumerate(rows):
            for b in rows[i + 1:]:
                if a[b[x]] != b[a[x]]:
                    raise RuntimeError(f"a misère-quotient candidate is not commutative at {words[x]}: refused")


def _number(index: dict, states: list, state: Any, budget: int) -> int:
    """The number of `state` in a search that numbers states as it meets them (a new one is appended to
    `states`); past `budget` states, the search stops."""
    found = index.get(state)
    if found is None:
        found = index[state] = len(states)
        states.append(state)
        if len(states) > budget:
            raise QuotientBudget(f"more than {budget} elements in a candidate")
    return found


def _free(auto: _Automaton, heaps: dict[int, int], heap_opts) -> _Automaton:
    """A candidate in which each heap of `heaps` is a free generator of its own, g^(i+2) = g^i with the index i
    given, beside the quotient the other heaps generate; P-portion marked from the moves, then reduced."""
    kept = {auto.letter_of[h] for h in range(len(auto.letter_of)) if h not in heaps and auto.letter_of[h] >= 0}
    base = _minimise(auto, kept)
    base_rows = {auto.letter_of[h]: base.letter_of[h] for h in range(len(auto.letter_of))
                 if h not in heaps and auto.letter_of[h] >= 0}
    freed = sorted(heaps)
    start = (0,) + (0,) * len(freed)
    index = {start: 0}
    states = [start]
    # each letter: (the base row it applies, -1) or (None, the position of its freed generator)
    moves_of: list[tuple[list[int] | None, int]] = [(base.rows[base_rows[l]], -1) for l in sorted(base_rows)]
    moves_of += [(None, j) for j in range(len(freed))]
    edges: list[list[int]] = [[] for _ in moves_of]
    i = 0
    while i < len(states):
        state = states[i]
        for e, (row, j) in enumerate(moves_of):
            if row is not None:
                nxt = (row[state[0]],) + state[1:]
            else:
                c = state[1 + j] + 1
                top = heaps[freed[j]]
                if c == top + 2:
                    c = top
                nxt = state[:1 + j] + (c,) + state[2 + j:]
            edges[e].append(_number(index, states, nxt, auto.budget))
        i += 1
    letter_index = {l: e for e, l in enumerate(sorted(base_rows))}
    letter_of = []
    for h, l in enumerate(auto.letter_of):
        if h in heaps:
            letter_of.append(len(base_rows) + freed.index(h))
        elif l >= 0:
            letter_of.append(letter_index[l])
        else:
            letter_of.append(-1)
    cand = _Automaton(rows=edges, letter_of=letter_of, p=[False] * len(states), budget=auto.budget)
    _mark(cand, heap_opts)
    return _minimise(cand)


def _refine(auto: _Automaton, heap_opts) -> _Automaton:
    """The finer candidate whose elements are the pairs sigma of `auto`'s positions, its P-portion marked anew
    from the moves and reduced."""
    pairs = _Pairs(auto, heap_opts)
    kinds = list(pairs.kind_heap)
    start: tuple[int, frozenset] = (0, frozenset())
    index = {start: 0}
    states = [start]
    rows: list[list[int]] = [[] for _ in kinds]
    i = 0
    while i < len(states):
        for k, kind in enumerate(kinds):
            rows[k].append(_number(index, states, pairs.step(states[i], kind), auto.budget))
        i += 1
    kind_index = {kind: k for k, kind in enumerate(kinds)}
    letter_of = [kind_index[pairs.kind(h, heap_opts)] if auto.letter_of[h] >= 0 else -1
                 for h in range(len(auto.letter_of))]
    cand = _Automaton(rows=rows, letter_of=letter_of, p=[False] * len(states), budget=auto.budget)
    _mark(cand, heap_opts)
    return _minimise(cand)


def _power_index(auto: _Automaton, h: int) -> int:
    """The least i with g^i = g^(i+2) for the element g of a heap of h in `auto` (every element of a misère
    quotient has one; an automaton of a candidate may not, then the count of states is returned)."""
    powers = [0]
    for _ in range(auto.size + 2):
        powers.append(auto.apply(powers[-1], (h,)))
    for i in range(len(powers) - 2):
        if powers[i] == powers[i + 2]:
            return i
    return auto.size


def _recalibrate(auto: _Automaton, known: dict[tuple[int, ...], bool], word: tuple[int, ...], heap_opts) -> _Automaton:
    """A candidate that gets every position of `known` right (each a failure met before, with its true outcome):
    free the fewest heaps, first among those of the latest failure `word`, then with the heaps of all the
    failures; each freed heap's index is at least its count in any known position."""
    def index(h: int) -> int:
        return max([2, _power_index(auto, h)] + [w.count(h) for w in known])

    def right(cand: _Automaton) -> bool:
        return all(cand.p[cand.apply(0, w)] == p for w, p in known.items())

    involved = sorted(set(word))
    for size in range(1, len(involved) + 1):
        for subset in combinations(involved, size):
            cand = _free(auto, {h: index(h) for h in subset}, heap_opts)
            if right(cand):
                return cand
    cand = _refine(auto, heap_opts)
    if right(cand):
        return cand
    every = sorted({h for w in known for h in w})
    cand = _free(auto, {h: index(h) for h in every}, heap_opts)
    if right(cand):
        return cand
    raise QuotientBudget(f"no candidate gets the position {word} right")


@dataclass(frozen=True)
class MisereQuotient:
    """The misère quotient of the positions with heaps of at most `bound` tokens: element 0 is the empty
    position, ``table[x][y]`` the product, ``p_portion`` the elements of the P-positions, ``images[h]`` the
    element of one heap of h, ``words[x]`` the least position of element x (a sorted tuple of heaps).

    Verified for every such position (see the module's docstring): ``outcome(heaps)`` is the misère outcome."""

    bound: int
    table: tuple[tuple[int, ...], ...]
    p_portion: frozenset[int]
    images: tuple[int, ...]
    words: tuple[tuple[int, ...], ...]
    work: int

    @property
    def order(self) -> int:
        """The number of elements of the quotient."""
        return len(self.table)

    def element(self, heaps: Iterable[int]) -> int:
        """The element of a position (heaps of at most `bound` tokens).

        >>> from nimjos.games.heaps.rules import NIM
        >>> q = misere_quotient(NIM.moves, 1); q.element((1, 1)) == q.element(())
        True
        """
        x = 0
        for h in heaps:
            if type(h) is not int or not 0 <= h <= self.bound:
                raise EvalError(f"the misère quotient was computed for heaps of 0..{self.bound} tokens, got {h!r}")
            x = self.table[x][self.images[h]]
        return x

    def outcome(self, heaps: Iterable[int]) -> str:
        """'P' or 'N': the misère outcome of the sum of `heaps`, read from the quotient.

        >>> from nimjos.games.heaps.rules import NIM
        >>> q = misere_quotient(NIM.moves, 3); [q.outcome(h) for h in [(), (1,), (2, 2), (1, 2, 3)]]
        ['N', 'P', 'P', 'P']
        """
        return "P" if self.element(heaps) in self.p_portion else "N"


def _as_quotient(auto: _Automaton, bound: int, work: int) -> MisereQuotient:
    """The reduced automaton as a monoid: products by least positions."""
    words = _words(auto)
    table = tuple(tuple(auto.apply(x, words[y]) for y in range(auto.size)) for x in range(auto.size))
    images = tuple(auto.apply(0, (h,)) for h in range(bound + 1))
    return MisereQuotient(bound=bound, table=table, p_portion=frozenset(x for x in range(auto.size) if auto.p[x]),
                          images=images, words=tuple(words), work=work)


def _candidates(auto: _Automaton, words: list[tuple[int, ...]], n: int) -> list[int]:
    """The elements a new heap of n may take: the latest heaps' elements first, then the others."""
    out: dict[int, None] = {}
    for h in range(n - 1, 0, -1):
        if auto.letter_of[h] >= 0:
            out.setdefault(auto.apply(0, (h,)), None)
    for x in _by_size(words):
        out.setdefault(x, None)
    return list(out)


class QuotientBuilder:
    """The misère quotient of a heap game grown heap by heap: :meth:`grow` to a bound, :meth:`quotient` the
    result so far. Growing again continues from where the last call stopped. `budget` bounds every search (the
    states of a candidate, the pairs of a verification); past it the builder stops (``stuck_at``).

    >>> from nimjos.games.heaps.rules import octal_rules
    >>> builder = QuotientBuilder(octal_rules("0.77").moves)
    >>> builder.grow(10).order, builder.grow(20).order, builder.bound
    (18, 24, 20)
    >>> builder.orders[:11]
    [1, 2, 6, 6, 6, 12, 12, 12, 12, 18, 18]
    """

    def __init__(self, moves: Moves, *, max_recalibrations: int = 200, budget: int = STATE_BUDGET):
        self.moves = moves
        self.max_recalibrations = max_recalibrations
        self.heap_opts: list[list[tuple[int, ...]]] = [[]]
        self.auto = _Automaton(rows=[], letter_of=[-1], p=[False], budget=budget)
        self.pairs: _Pairs | None = None
        self.work = 0
        self.recalibrations = 0
        self.stuck_at: int | None = None  # the heap where no verified quotient was found within the budget
        self.stop_reason = ""  # ... and which budget stopped it there
        self.work_limit = 500 * budget  # the most products all the searches together may take
        self.orders: list[int] = [1]  # the order of the verified quotient of heaps 0..n, for each n reached
        self._result: MisereQuotient | None = None

    @property
    def bound(self) -> int:
        """The largest heap the quotient covers so far."""
        return len(self.heap_opts) - 1

    def grow(self, bound: int) -> MisereQuotient:
        """The quotient of the sums of heaps of at most `bound` tokens (at least the bound reached so far)."""
        if type(bound) is not int or bound < 0:
            raise EvalError(f"the heap bound of a misère quotient is an integer >= 0, got {bound!r}")
        while self.bound < bound:
            if self.stuck_at is not None:
                raise QuotientBudget(f"no verified quotient at heap {self.stuck_at} within the budget")
            self.heap_opts.append(_options(self.moves, self.bound + 1))
            try:
                self._add_heap(self.bound)
            except QuotientBudget as exc:
                self.heap_opts.pop()
                self.stuck_at = self.bound + 1
                self.stop_reason = str(exc)
                raise
            self.orders.append(self.auto.size)
            self._result = None
        return self.quotient()

    def quotient(self) -> MisereQuotient:
        """The verified quotient of the heaps reached so far (heaps of 0..``bound``): what a :meth:`grow` that
        stopped at its budget did verify (a failed heap leaves the verified quotient as it was).

        >>> from nimjos.games.heaps.rules import octal_rules
        >>> builder = QuotientBuilder(octal_rules("0.07").moves, budget=40)
        >>> try:
        ...     builder.grow(30)
        ... except QuotientBudget:
        ...     q = builder.quotient()
        >>> q.bound == builder.bound == builder.stuck_at - 1, q.order > 1, builder.stop_reason
        (True, True, 'more than 40 elements in a candidate')
        """
        if self._result is None or self._result.bound != self.bound:
            self._result = _as_quotient(self.auto, self.bound, self.work)
        return self._result

    def _add_heap(self, n: int) -> None:
        """Extend the verified quotient to heap n, whose options are the last entry of ``heap_opts``."""
        opts = self.heap_opts[n]
        auto = self.auto
        if not opts:
            auto.letter_of.append(-1)
            return
        if self.pairs is not None and self._conservative(n, opts):
            return
        trial = _Automaton(rows=auto.rows, letter_of=auto.letter_of + [-2], p=auto.p, budget=auto.budget)
        trial = _free(trial, {n: 2}, self.heap_opts)
        known: dict[tuple[int, ...], bool] = {}
        for _ in range(self.max_recalibrations):
            pairs = _Pairs(trial, self.heap_opts)
            count, failure = pairs.search()
            self._spend(count)
            if failure is None:
                _check_commutative(trial)
                self.auto, self.pairs = trial, pairs
                return
            known[failure] = not trial.p[trial.apply(0, failure)]
            self.recalibrations += 1
            trial = _recalibrate(trial, known, failure, self.heap_opts)
        raise QuotientBudget(f"no verified quotient at heap {n} within {self.max_recalibrations} recalibrations")

    def _spend(self, count: int) -> None:
        """Count the products a search took; past the work limit, stop."""
        self.work += count
        if self.work > self.work_limit:
            raise QuotientBudget(f"more than {self.work_limit} products in all")

    def _conservative(self, n: int, opts: list[tuple[int, ...]]) -> bool:
        """Give heap n an element of the quotient so far, if one passes the verification (the quotient is then
        unchanged: a reduced automaton stays reduced with one more letter)."""
        auto, pairs = self.auto, self.pairs
        assert pairs is not None
        alone_p = not any(auto.p[auto.apply(0, parts)] for parts in opts)
        option_elements = frozenset(auto.apply(0, parts) for parts in opts)
        candidates = [x for x in _candidates(auto, pairs.words, n) if auto.p[x] == alone_p]
        # a kind met before adds no pair: try those elements first
        candidates.sort(key=lambda x: (x, option_elements) not in pairs.kind_heap)
        for x in candidates:
            count, passed = pairs.extend((x, option_elements), n)
            self._spend(count)
            if passed:
                letter = next((auto.letter_of[h] for h in range(1, n)
                               if auto.letter_of[h] >= 0 and auto.apply(0, (h,)) == x), None)
                if letter is None:
                    letter = len(auto.rows)
                    auto.rows.append([pairs.times(y, x) for y in range(auto.size)])
                auto.letter_of.append(letter)
                return True
        return False


def misere_quotient(moves: Moves, bound: int, *, max_recalibrations: int = 200,
                    budget: int = STATE_BUDGET) -> MisereQuotient:
    """The misère quotient of the sums of heaps of at most `bound` tokens of the heap game whose one-heap moves
    are `moves` (for a take-and-break code, ``octal_rules(CODE).moves``), verified for every such sum.

    >>> from nimjos.games.heaps.rules import octal_rules
    >>> q = misere_quotient(octal_rules("0.07").moves, 12); [n for n in range(13) if q.outcome((n,)) == "P"]
    [2, 3, 7, 8, 12]
    """
    return QuotientBuilder(moves, max_recalibrations=max_recalibrations, budget=budget).grow(bound)
