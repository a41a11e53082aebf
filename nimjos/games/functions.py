"""The game functions of the spec language: G (the Grundy value from the moves), options, and the built-in
game families (subtraction, gcn).

>>> from nimjos.games.declared import subtraction
>>> G(subtraction(frozenset({1, 2})), 7), sorted(options(subtraction(frozenset({1, 2})), 3))
(1, [1, 2])
"""
from __future__ import annotations

from typing import Any

from nimjos.games.declared import GAME_FAMILIES, as_instance


def G(game: Any, position: Any) -> int:
    """The Grundy value of `position` in `game`, computed from the game's moves: mex of the options' values.

    `game` is a game instance (a game name, or ``maxnim(3)`` for a game with params); `position` is a
    number for a 1-D game, a tuple otherwise. A position outside the game (a negative coordinate, a
    wrong dimension) is ill-defined.
    """
    return as_instance(game).grundy(position)


def options(game: Any, position: Any) -> frozenset:
    """The set of positions reachable from `position` in one move."""
    inst = as_instance(game)
    return frozenset(inst.options(inst.normalise(position)))


#: the game functions and built-in game families as names of the expression language
GAME_FUNCTIONS = {"G": G, "options": options, **GAME_FAMILIES}
