"""Heap games as games of the language: a take-and-break rule played on any number of heaps, and Moore's Nim.

A :class:`HeapGame` is a game whose position is a heap (an integer) or a collection of heaps (a tuple, read as
a multiset); by the Sprague-Grundy theorem its value is the nim-sum of the heaps' values, so the game is its
one sequence g(0), g(1), ..., computed by :mod:`nimjos.games.heaps.fast`. Its options are the positions
one move away (sorted tuples of heaps). :class:`HeapPositions` is the same game with the value computed from
the game graph by the reference engine (the differential tests compare the two); :class:`MooreNim` (a move
on up to k heaps at once) is not a sum, and is solved on its game graph. :class:`Copies` plays any one-heap
game (a declared 1-D game, ``subtraction(S)``) on any number of heaps, a move in one heap: its value is the
nim-sum of the heaps' values, each from the engine that answers for the one-heap game.

>>> kayles = heap_game(octal_rules("0.77"))
>>> kayles.grundy(70), kayles.grundy((3, 4, 5)), sorted(kayles.options(3))
(6, 6, [(1,), (1, 1), (2,)])
>>> graph = HeapPositions(kayles.rules); graph.grundy((3, 4, 5))
6
>>> moore_nim(2).grundy((1, 2, 3)), moore_nim(1).grundy((1, 2, 3))
(6, 0)
>>> from nimjos.games.declared import subtraction
>>> sub = copies(subtraction(frozenset({1, 2}))); sub.grundy((4, 5)), sorted(sub.options((1, 5)))
(3, [(0, 5), (1, 3), (1, 4)])
"""
from __future__ import annotations

from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from nimjos.games.declared import GameInstance, as_instance
from nimjos.games.engine import active_engine
from nimjos.games.heaps.rules import HeapRules, octal_rules, plain_sequence
from nimjos.lang.builtins import xor
from nimjos.lang.errors import EvalError
from nimjos.lang.lazy import import_on_use

if TYPE_CHECKING:   # the sequence's kernels and numpy are imported when a heap game is made, not to read a spec
    import numpy as np

    from nimjos.games.heaps.grow import Grown

#: the largest heap whose value one call may ask for (the resource guard of heap games)
MAX_HEAP = 50_000_000


def heaps_of(game: GameInstance, position: Any) -> tuple[int, ...]:
    """A position as a sorted tuple of heaps (an int is one heap); refuses what is not.

    >>> heaps_of(moore_nim(2), (3, 1)), heaps_of(moore_nim(2), 4)
    ((1, 3), (4,))
    """
    heaps = position if isinstance(position, tuple) else (position,)
    for h in heaps:
        if type(h) is not int or h < 0:
            raise EvalError(f"{game.label}: a position is a heap (an integer >= 0) or a tuple of heaps, "
                            f"got {position!r}")
    return tuple(sorted(heaps))


def nimsum(*values: Any) -> int:
    """The nim-sum of integers >= 0, or of one collection or generator of them: the language's ``xor`` under
    the name the literature uses (one function, so that ``nimsum(x for x in h)`` reads as ``xor`` does).

    >>> nimsum(1, 2, 3), nimsum([5, 6]), nimsum()
    (0, 3, 0)
    """
    return xor(*values)


def one_heap_moves(position: Any, moves: Any) -> list:
    """The options of a position of heaps (a sorted tuple, or one heap) when a move replaces one heap h by the
    heaps of one of ``moves(h)`` (tuples of heaps): sorted tuples, each move on equal heaps once.

    >>> one_heap_moves((2, 2, 3), lambda h: [(h - 1,)])
    [(1, 2, 3), (2, 2, 2)]
    """
    heaps = position if isinstance(position, tuple) else (position,)
    out = []
    for i, h in enumerate(heaps):
        if i and heaps[i - 1] == h:
            continue  # the same move on an equal heap
        rest = heaps[:i] + heaps[i + 1:]
        for parts in moves(h):
            out.append(tuple(sorted(rest + parts)))
    return out


class _Values(dict):
    """A heap game's ``table``: any position's value on demand (readers that index the table directly)."""

    def __init__(self, game: GameInstance):
        super().__init__()
        self.game = game

    def __missing__(self, position: Any) -> int:
        return self.game.lookup(position)


class HeapGame(GameInstance):
    """A take-and-break game on any number of heaps; a position is a heap or a tuple of heaps, its value the
    nim-sum of the heaps' values (one sequence, grown on demand)."""

    def __init__(self, rules: HeapRules, label: str):
        super().__init__(rules.name or label, 1, ("n",), {"code": rules.code()}, label)
        self.rules = rules
        np = import_on_use("numpy")
        self.dense = np.zeros(1, dtype=np.int64)  # g(0) = 0
        #: how dense was obtained: computed, or extended by a proved period
        self.grown: Grown = import_on_use("nimjos.games.heaps.grow").Grown(self.dense, 0)
        self.table = _Values(self)
        self.solved_by.add("heap engine (sequence of one heap, nim-sum of heaps)")

    def values(self, n: int) -> np.ndarray:
        """g(0), ..., g(n) (at least), computed by the compiled kernels (the plain mex for three-way splits), the
        rest by the period once the Guy-Smith theorem proves it (then said in `solved_by`, the scope's engines)."""
        if n >= len(self.dense):
            if n > MAX_HEAP:
                raise EvalError(f"{self.label}: heap {n:,} is beyond the guard of {MAX_HEAP:,} tokens")
            top = max(n, 2 * len(self.dense))
            if self.rules.max_parts > 2:
                np = import_on_use("numpy")
                self.dense = np.array(plain_sequence(self.rules, top), dtype=np.int64)
            else:
                grow = import_on_use("nimjos.games.heaps.grow")
                self.grown = grow.grown_sequence(self.rules, top, self.dense, self.grown.computed, self.grown.proof)
                self.dense = self.grown.values
                if self.grown.proof is not None:
                    self.solved_by.add(self.grown.describe())
        return self.dense

    def filled_through(self, corner: Any) -> np.ndarray:
        """g(0), ..., g(corner) at least (``dense``, grown by :meth:`values`): the one-heap table every window reads.

        >>> heap_game(octal_rules("0.77")).filled_through(9)[:10].tolist()
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4]
        """
        return self.values(max(corner) if isinstance(corner, tuple) else corner)

    def normalise(self, position: Any) -> Any:
        heaps = heaps_of(self, position)
        return heaps[0] if len(heaps) == 1 else heaps

    def lookup(self, position: Any) -> int:
        heaps = position if isinstance(position, tuple) else (position,)
        if not heaps:
            return 0
        g = self.values(max(heaps))
        out = 0
        for h in heaps:
            out ^= int(g[h])
        return out

    def has(self, position: Any) -> bool:
        return True

    def grundy(self, position: Any) -> int:
        return self.lookup(self.normalise(position))

    def options(self, position: Any) -> list:
        return one_heap_moves(position, self.rules.moves)


class HeapPositions(GameInstance):
    """The same game as a game graph on sorted tuples of heaps: values by the reference engine's mex (the
    differential tests' ground truth)."""

    def __init__(self, rules: HeapRules):
        super().__init__(rules.name or rules.code(), 0, ("heaps",), {"code": rules.code()},
                         f"positions of {rules.name or rules.code()}")
        self.rules = rules

    def normalise(self, position: Any) -> Any:
        return heaps_of(self, position)

    def options(self, position: Any) -> list:
        return one_heap_moves(position, self.rules.moves)


class MooreNim(GameInstance):
    """Moore's Nim_k: take any number of tokens, at least one in all, from at most k heaps at once. Not a sum
    of one-heap games: a position is a tuple of heaps (sorted), valued on its game graph."""

    def __init__(self, k: int):
        super().__init__("moore_nim", 0, ("heaps",), {"k": k}, f"moore_nim({k})")
        self.k = k

    def normalise(self, position: Any) -> Any:
        return heaps_of(self, position)

    def options(self, position: Any) -> list:
        heaps = position
        out = set()
        movable = [i for i, h in enumerate(heaps) if h]  # a move on an empty heap changes nothing there
        for size in range(1, min(self.k, len(movable)) + 1):
            for chosen in combinations(movable, size):
                for left in product(*(range(heaps[i] + 1) for i in chosen)):
                    if all(left[j] == heaps[i] for j, i in enumerate(chosen)):
                        continue
                    new = list(heaps)
                    for j, i in enumerate(chosen):
                        new[i] = left[j]
                    out.add(tuple(sorted(new)))
        return list(out)


class Copies(GameInstance):
    """A one-heap game played on any number of heaps (a disjunctive sum of copies): a move is a move of the
    one-heap game in one heap; a position is a tuple of heaps (sorted: a multiset), its value the nim-sum of
    the heaps' values (the Sprague-Grundy theorem), each from the engine that answers for the one-heap game."""

    def __init__(self, base: GameInstance):
        super().__init__(f"heaps({base.name})", 0, ("heaps",), {"game": base}, f"heaps({base.label})")
        self.base = base
        self.table = _Values(self)
        self.solved_by.add("sum of one-heap games (nim-sum of the heaps' values)")

    def normalise(self, position: Any) -> Any:
        return heaps_of(self, position)

    def has(self, position: Any) -> bool:
        return True

    def lookup(self, position: Any) -> int:
        heaps = position if isinstance(position, tuple) else (position,)
        base = self.base
        missing = [h for h in set(heaps) if not base.has(h)]
        if missing:
            active_engine().solve(base, missing)
        self.solved_by |= base.solved_by
        out = 0
        for h in heaps:
            out ^= base.lookup(h)
        return out

    def grundy(self, position: Any) -> int:
        return self.lookup(self.normalise(position))

    def options(self, position: Any) -> list:
        return one_heap_moves(position, lambda h: ((q,) for q in self.base.options(h)))


#: the shared instance of each heap game, with its table of Grundy values (values from the moves, the same whoever
#: asks first; the engine's limit on positions counts only positions not yet in the table: see checkers/context.py)
SHARED: dict[Any, GameInstance] = {}


def heap_game(rules: HeapRules, label: str | None = None) -> HeapGame:
    """The shared instance of a heap game (one sequence per rule in a process)."""
    inst = SHARED.get(rules)
    if not isinstance(inst, HeapGame):
        inst = SHARED[rules] = HeapGame(rules, label or rules.name or rules.code())
    return inst


def moore_nim(k: Any) -> MooreNim:
    """Moore's Nim_k (shared instance); k >= 1 (k = 1 is Nim).

    >>> moore_nim(0)
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: moore_nim needs an integer k >= 1, got 0
    """
    if type(k) is not int or k < 1:
        raise EvalError(f"moore_nim needs an integer k >= 1, got {k!r}")
    key = ("moore", k)
    inst = SHARED.get(key)
    if not isinstance(inst, MooreNim):
        inst = SHARED[key] = MooreNim(k)
    return inst


def octal_game(code: Any) -> HeapGame:
    """The heap game of an octal or hexadecimal code (see :func:`nimjos.games.heaps.rules.octal_rules`)."""
    rules = octal_rules(code)
    return heap_game(rules, rules.name)


def copies(game: Any) -> GameInstance:
    """A one-heap game on any number of heaps (shared instance per game): a game whose position is one integer
    (a declared 1-D game, ``subtraction(S)``); a heap game (octal codes, Nim) is returned as it is.

    >>> copies(moore_nim(2))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: heaps(game) needs a one-heap game (a position is one integer); moore_nim(2) is not one
    """
    inst = as_instance(game)
    if isinstance(inst, HeapGame):
        return inst
    if inst.play != "normal":
        raise EvalError(f"{inst.label} is played in misère play: its sum is no nim-sum (misere_sum)")
    if inst.dim != 1:
        raise EvalError(f"heaps(game) needs a one-heap game (a position is one integer); {inst.label} is not one")
    key = ("copies", inst)
    if key not in SHARED:
        SHARED[key] = Copies(inst)
    return SHARED[key]
