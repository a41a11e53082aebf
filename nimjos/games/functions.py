"""The game functions of the spec language: G (the Grundy value from the moves), options, the built-in game
families (subtraction, gcn) and the heap games (octal codes, Grundy's game, Lasker's Nim, Nim, Moore's Nim, any
one-heap game on any number of heaps, nimsum, the positions of n heaps).

>>> from nimjos.games.declared import subtraction
>>> G(subtraction(frozenset({1, 2})), 7), sorted(options(subtraction(frozenset({1, 2})), 3))
(1, [1, 2])
>>> G(octal("0.77"), 70), G(octal("0.77"), (3, 4, 5)), G(grundys_game(), 10 ** 4)
(6, 6, 39)
"""
from __future__ import annotations

from typing import Any

from nimjos.games.declared import GAME_FAMILIES, MISERE, as_instance, normal_play
from nimjos.games.engine import active_engine
from nimjos.games.heaps.game import HeapGame, copies, heap_game, moore_nim, nimsum, octal_game
from nimjos.games.heaps.misere import misere, misere_sum
from nimjos.games.heaps.positions import multisets
from nimjos.games.heaps.rules import GRUNDYS_GAME, LASKERS_NIM, NIM
from nimjos.lang.errors import EvalError
from nimjos.lang.runtime import active_budget


def G(game: Any, position: Any) -> int:
    """The Grundy value of `position` in `game`, computed from the game's moves: mex of the options' values.

    `game` is a game instance (a game name, or ``maxnim(3)`` for a game with params); `position` is a
    number for a 1-D game, a tuple otherwise; for a heap game (``octal("0.77")``) a heap or a tuple of heaps,
    whose value is the nim-sum of the heaps' values. A position outside the game (a negative coordinate, a
    wrong dimension) is ill-defined. A game in misère play has no normal-play value: a spec error
    (:func:`misere_grundy` names its misère Grundy value).
    """
    inst = normal_play(as_instance(game), "G(...)")
    active_engine().asked.add(inst)  # the claim's ground truth names the engines of the games it asked
    return inst.grundy(position)


def misere_grundy(game: Any, position: Any) -> int:
    """The misère Grundy value of `position` in `game` played in misère play, from the moves: 1 at a terminal
    position, the mex of the options' misère values elsewhere (Conway, On Numbers and Games, ch. 12); 0 exactly at
    the misère P-positions. A heap game's position of several heaps is valued as a whole (no nim-sum rule).

    >>> misere_grundy(nim(), (1, 1)), misere_grundy(nim(), (1, 1, 1)), misere_grundy(misere(nim()), 0)
    (1, 0, 1)
    """
    inst = misere(game)
    active_engine().asked.add(inst)
    return inst.grundy(position)


#: the options a game instance keeps, in all (of the latest positions asked: a window asks about the same position
#: for many values of its other names)
OPTIONS_KEPT = 1 << 17


def options(game: Any, position: Any) -> frozenset:
    """The set of positions reachable from `position` in one move; each option listed is a step of the
    evaluation's budget (nimjos.lang.runtime.active_budget).

    The instance keeps the options (at most :data:`OPTIONS_KEPT` in all) of the latest positions whose moves were
    computed without a step of the budget (moves that call no definition, built-in games): the same answer and the
    same steps counted, whether they were kept or computed again, so a claim's budget does not depend on what was
    asked before it.

    >>> from nimjos.games.declared import subtraction
    >>> sorted(options(subtraction((1, 2)), 5))
    [3, 4]
    """
    inst = as_instance(game)
    pos = inst.normalise(position)
    budget = active_budget()
    kept = inst.options_kept
    found = kept.get(pos)
    if found is None:
        before = budget.spent
        found = frozenset(inst.options(pos))
        if budget.spent == before and len(found) <= OPTIONS_KEPT:
            inst.options_kept_count += len(found)
            while inst.options_kept_count > OPTIONS_KEPT:
                inst.options_kept_count -= len(kept.pop(next(iter(kept))))   # the oldest first
            kept[pos] = found
    budget.spend(len(found))
    return found


def octal(code: Any) -> HeapGame:
    """The take-and-break game of an octal code in Winning Ways notation, a string: ``octal("0.77")`` is
    Kayles, ``"0.07"`` Dawson's Kayles, ``"0.137"`` Dawson's chess; digit d_k of taking k tokens: 1 = take
    the whole heap, 2 = leave one heap, 4 = leave two; digits above 7 (hexadecimal games) add 8 = leave
    three. A position is a heap or a tuple of heaps."""
    return octal_game(code)


def hexadecimal(code: Any) -> HeapGame:
    """The take-and-break game of a hexadecimal code (digits 0-9, a-f; 8 = leave three heaps), a string:
    ``hexadecimal("0.f")``. The same as :func:`octal` with more digits."""
    return octal_game(code)


def grundys_game() -> HeapGame:
    """Grundy's game: split one heap into two unequal non-empty heaps."""
    return heap_game(GRUNDYS_GAME)


def laskers_nim() -> HeapGame:
    """Lasker's Nim: take any number of tokens from one heap, or split one heap into two non-empty heaps."""
    return heap_game(LASKERS_NIM)


def nim() -> HeapGame:
    """Nim on any number of heaps: take any number of tokens (at least one) from one heap.

    >>> G(nim(), (3, 5, 6)), G(nim(), 9)
    (0, 9)
    """
    return heap_game(NIM)


def heaps(game: Any) -> Any:
    """A one-heap game (a game whose position is one integer: a declared 1-D game, ``subtraction(S)``) played on
    any number of heaps, a move in one heap; a position is a tuple of heaps, its value the nim-sum of the heaps'
    values (Sprague-Grundy). A heap game (``octal(...)``, ``nim()``) is returned as it is. A game in misère play
    gives the misère play of the sum (``misere(heaps(GAME))``), valued on whole positions (no nim-sum).

    >>> from nimjos.games.declared import subtraction
    >>> G(heaps(subtraction(frozenset({1, 2}))), (4, 5, 2))
    1
    """
    inst = as_instance(game)
    if inst.play == MISERE:
        return misere_sum(inst)
    return copies(inst)


def heaps_value(game: Any, heaps: Any) -> int:
    """The value of a position of a heap game: the nim-sum of its heaps' values (the same as G)."""
    inst = normal_play(as_instance(game), "heaps_value(...)")
    if not isinstance(inst, HeapGame):
        raise EvalError(f"{inst.label} is not a heap game")
    return inst.grundy(heaps)


def misere_play(game: Any) -> Any:
    """GAME in misère play (the player who makes the last move loses), as a spec writes it: ``misere(GAME)``. A game
    already in misère play is refused: misère play applied twice is still misère play, never normal play, and the
    text would hide which game is meant (the loader refuses what it can see; this refuses what a definition hid).

    >>> misere_play(nim()).label
    'misere(nim)'
    >>> misere_play(misere_play(nim()))
    Traceback (most recent call last):
    ...
    nimjos.lang.errors.EvalError: misere(misere(nim)): misere(nim) is already in misère play (write it once: misère play applied twice is still misère play, never normal play)
    """
    inst = as_instance(game)
    if inst.play == MISERE:
        raise EvalError(f"misere({inst.label}): {inst.label} is already in misère play (write it once: misère play "
                        "applied twice is still misère play, never normal play)")
    return misere(inst)


#: the heap games' families as names of the expression language
HEAP_FAMILIES = {"octal": octal, "hexadecimal": hexadecimal, "grundys_game": grundys_game,
                 "laskers_nim": laskers_nim, "nim": nim, "moore_nim": moore_nim, "heaps": heaps,
                 "misere": misere_play}

#: every built-in game family (a claim's `game` may call one: nimjos.spec.plan checks against this table)
FAMILIES = {**GAME_FAMILIES, **HEAP_FAMILIES}

#: the game functions and built-in game families as names of the expression language
GAME_FUNCTIONS = {"G": G, "options": options, **FAMILIES, "heaps_value": heaps_value, "nimsum": nimsum,
                  "misere_grundy": misere_grundy,
                  "multisets": multisets}
