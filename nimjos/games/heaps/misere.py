"""Misère play of a built-in game: ``misere(GAME)``, the same moves with the other winning convention.

In misère play the player who cannot move WINS: a terminal position is an N-position. A :class:`MisereGame` has
the moves of the game it wraps and is valued by the reference engine with the misère rule (a terminal position
has the misère Grundy value 1, any other the mex of its options' values; Conway, On Numbers and Games, ch. 12),
so its P-positions are the zeros of its values, all from the moves. A heap game (an octal code, Nim, a one-heap
game on any number of heaps, Moore's Nim) is played on whole positions: a position is a sorted tuple of heaps
(a multiset) and is valued on its own game graph, because a misère sum is NOT the nim-sum of its parts (no
Sprague-Grundy reduction): ``misere(nim())`` at (1, 1) is an N-position although each heap of 1 is a P-position.

>>> from nimjos.games.heaps.game import heap_game
>>> from nimjos.games.heaps.rules import NIM, octal_rules
>>> m = misere(heap_game(NIM)); [m.grundy(h) for h in [(), (1,), (1, 1), (1, 1, 1), (2, 2), (2, 3)]]
[1, 0, 1, 0, 0, 1]
>>> kayles = misere(heap_game(octal_rules("0.77"))); [n for n in range(12) if kayles.grundy(n) == 0]
[1, 4, 9]
"""
from __future__ import annotations

from typing import Any

from nimjos.games.declared import MISERE, GameInstance, as_instance
from nimjos.lang.errors import EvalError
from nimjos.games.heaps.game import SHARED, Copies, HeapGame, HeapPositions, MooreNim, heaps_of, one_heap_moves
from nimjos.games.heaps.quotient import Moves, QuotientBudget, QuotientBuilder


#: the game types whose positions are collections of heaps: played in misère on whole positions (sorted tuples)
HEAP_TYPES = (HeapGame, Copies, MooreNim, HeapPositions)


class MisereGame(GameInstance):
    """A game under misère play: the options of `base`, the values by the engine's misère rule (terminal: 1).

    A heap game's position is a sorted tuple of heaps (one heap: a tuple of one, or an integer), valued as a
    whole: its table is keyed by the multiset, not reduced to the heaps' values."""

    def __init__(self, base: GameInstance):
        heaps = isinstance(base, HEAP_TYPES)
        super().__init__(base.name, 0 if heaps else base.dim, ("heaps",) if heaps else base.coords, base.params,
                         f"misere({base.label})")
        self.base = base
        self.heaps = heaps
        self.play = MISERE
        self.ends = base.ends

    def normalise(self, position: Any) -> Any:
        if self.heaps:
            return heaps_of(self, position)
        return self.base.normalise(position)

    def options(self, position: Any) -> list:
        return self.base.options(position)


class MisereSum(MisereGame):
    """A one-heap game played on any number of heaps in misère play: a move is a move of the one-heap game in one
    heap; a position is a sorted tuple of heaps valued as a whole (the misère rule, no nim-sum).

    >>> from nimjos.games.declared import subtraction
    >>> total = misere_sum(subtraction(frozenset({1})))  # 5 tokens in (2, 3): the 5th, last, move loses
    >>> [total.grundy(h) for h in [(), (1,), (1, 1), (2, 3)]]
    [1, 0, 1, 0]
    """

    def __init__(self, one_heap: GameInstance):
        super().__init__(one_heap)
        self.heaps = True
        self.dim, self.coords = 0, ("heaps",)
        self.name, self.label = f"heaps({one_heap.name})", f"misere(heaps({one_heap.label}))"

    def options(self, position: Any) -> list:
        return one_heap_moves(position, lambda h: ((q,) for q in self.base.options(h)))


def misere_sum(game: Any) -> GameInstance:
    """A one-heap game (a game whose position is one integer) on any number of heaps, in misère play (shared
    instance per game): ``heaps(GAME)`` of a game in misère play, ``misere(heaps(GAME))``. The one-heap game's own
    play convention does not matter: only its moves are read.

    >>> from nimjos.games.declared import subtraction
    >>> misere_sum(subtraction(frozenset({1, 2}))).label, misere_sum(subtraction(frozenset({1, 2}))).grundy((1, 1))
    ('misere(heaps(subtraction({1, 2})))', 1)
    """
    inst = as_instance(game)
    if isinstance(inst, MisereGame) and not inst.heaps:
        inst = inst.base
    if inst.dim != 1:
        raise EvalError(f"heaps(game) needs a one-heap game (a position is one integer); {inst.label} is not one")
    key = ("misere sum", inst)
    found = SHARED.get(key)
    if found is None:
        found = SHARED[key] = MisereSum(inst)
    return found


#: the largest heap a misère quotient is grown to for the outcomes of a window or a sample; a position with a
#: larger heap is valued on its game graph
QUOTIENT_HEAPS = 1000
#: the most states one search of the quotient may hold when it answers a window or a sample (past it, the game
#: graph answers): misère Kayles to heap 1000 stays well under it, misère Nim stops near heap 64
QUOTIENT_BUDGET = 20_000

#: the words the scope gives the quotient as an engine of outcomes
QUOTIENT_ENGINE = ("misère quotient (Plambeck-Siegel) from the moves, verified for every sum of the heaps it covers")

_BUILDERS: dict[Any, QuotientBuilder] = {}


def one_heap_rule(game: GameInstance) -> Moves | None:
    """The one-heap moves of a misère heap game's rule (a take-and-break code, or a one-heap game played on
    any number of heaps), or None for a game whose positions are not sums of heaps (Moore's Nim).

    >>> from nimjos.games.heaps.game import heap_game, moore_nim
    >>> from nimjos.games.heaps.rules import octal_rules
    >>> sorted(one_heap_rule(misere(heap_game(octal_rules("0.77"))))(3)), one_heap_rule(misere(moore_nim(2)))
    ([(1,), (1, 1), (2,)], None)
    """
    if not isinstance(game, MisereGame) or not game.heaps:
        return None
    base = game.base
    if isinstance(base, (HeapGame, HeapPositions)):
        return base.rules.moves
    if isinstance(game, MisereSum):
        one_heap = base

        def moves(n: int) -> list[tuple[int, ...]]:
            return [(q,) if type(q) is int else tuple(q) for q in one_heap.options(n)]
        return moves
    return None


def shared_builder(key: Any, moves: Moves) -> QuotientBuilder:
    """The quotient builder of a rule (`key`: its HeapRules, or the game), shared by every method of the process:
    the heaps one method grew, or the heap where the budget stopped, serve the next.

    >>> from nimjos.games.heaps.rules import NIM
    >>> shared_builder(NIM, NIM.moves) is shared_builder(NIM, NIM.moves)
    True
    """
    builder = _BUILDERS.get(key)
    if builder is None:
        builder = _BUILDERS[key] = QuotientBuilder(moves, budget=QUOTIENT_BUDGET)
    return builder


def quotient_outcome(game: GameInstance, position: Any) -> bool | None:
    """Whether `position` of a misère heap game is a P-position, read from the game's misère quotient
    (:mod:`nimjos.games.heaps.quotient`, grown as far as the largest heap asked, verified for every sum of heaps
    up to it); None when the quotient does not answer: not a sum of heaps, a heap over :data:`QUOTIENT_HEAPS`, or
    no verified quotient within the budget (then the position is valued on its game graph).

    >>> from nimjos.games.heaps.game import heap_game
    >>> from nimjos.games.heaps.rules import octal_rules
    >>> kayles = misere(heap_game(octal_rules("0.77")))
    >>> [n for n in range(60) if quotient_outcome(kayles, (n,))], quotient_outcome(kayles, (2, 2, 20))
    ([1, 4, 9, 12, 20], False)
    """
    moves = one_heap_rule(game)
    if moves is None or not isinstance(game, MisereGame):
        return None
    heaps = game.normalise(position)
    heaps = heaps if isinstance(heaps, tuple) else (heaps,)
    top = max(heaps, default=0)
    if top > QUOTIENT_HEAPS:
        return None
    key = game.base.rules if isinstance(game.base, (HeapGame, HeapPositions)) else game
    builder = shared_builder(key, moves)
    if builder.stuck_at is not None and top >= builder.stuck_at:
        return None
    try:
        quotient = builder.grow(max(top, builder.bound))
    except (QuotientBudget, EvalError):
        return None
    return quotient.outcome(heaps) == "P"


def misere(game: Any) -> GameInstance:
    """`game` under misère play (the last player to move LOSES), one shared instance per game: a declared game
    (with its params), a built-in family (``subtraction(S)``, ``gcn(...)``) or a heap game (``octal(CODE)``,
    ``nim()``, ``heaps(GAME)``, ``moore_nim(k)``), whose sums are valued as whole positions. A game already in
    misère play is returned as it is.

    >>> from nimjos.games.declared import subtraction
    >>> g = misere(subtraction(frozenset({1, 2}))); [g.grundy(n) for n in range(7)], misere(g) is g
    ([1, 0, 2, 1, 0, 2, 1], True)
    """
    inst = as_instance(game)
    if inst.play == MISERE:
        return inst
    if isinstance(inst, Copies):
        return misere_sum(inst.base)
    key = ("misere", inst)
    found = SHARED.get(key)
    if found is None:
        found = SHARED[key] = MisereGame(inst)
    return found
