"""options(game, position) keeps the options of the positions it computed without a step of the evaluation's budget
(nimjos.games.functions.OPTIONS_KEPT): asked again, the same options and the same steps counted, so a claim's budget
does not depend on what was asked before it."""
from __future__ import annotations

from nimjos.games import functions
from nimjos.games.declared import PythonGame
from nimjos.lang.runtime import EvaluationBudget, active_budget, using_budget


def _counting_game(spends: int) -> tuple[PythonGame, list]:
    """A game of one heap (take 1 or 2) that records each computation of its options, spending `spends` steps."""
    asked: list = []

    def moves(n: int) -> list:
        asked.append(n)
        active_budget().spend(spends)
        return [m for m in (n - 1, n - 2) if m >= 0]
    return PythonGame("take12", 1, {}, "take12", moves), asked


def _twice(game: PythonGame, position: int) -> tuple[list, list]:
    found, spent = [], []
    for _ in range(2):
        budget = EvaluationBudget()
        with using_budget(budget):
            found.append(functions.options(game, position))
        spent.append(budget.spent)
    return found, spent


def test_options_computed_without_steps_are_kept_and_cost_the_same_steps():
    game, asked = _counting_game(spends=0)
    found, spent = _twice(game, 5)
    assert found == [frozenset({3, 4})] * 2
    assert spent == [2, 2]          # each option listed is a step, kept or not
    assert asked == [5]             # computed once


def test_options_whose_computation_takes_steps_are_computed_each_time():
    game, asked = _counting_game(spends=3)
    found, spent = _twice(game, 5)
    assert found == [frozenset({3, 4})] * 2 and spent == [5, 5]
    assert asked == [5, 5]


def test_the_kept_options_are_the_latest_positions_asked(monkeypatch):
    monkeypatch.setattr(functions, "OPTIONS_KEPT", 4)   # options in all: two positions of two options each
    game, asked = _counting_game(spends=0)
    for n in (3, 4, 5, 3):
        functions.options(game, n)
    assert asked == [3, 4, 5, 3] and list(game.options_kept) == [5, 3] and game.options_kept_count == 4
