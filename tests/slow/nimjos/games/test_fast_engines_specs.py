"""The fast engines against the reference engine on every game of specs/ (a loop over the spec folder, from
tests/nimjos/games/test_fast_engines.py), slow by its folder."""
from __future__ import annotations

import itertools

import pytest

from nimjos.spec.loader import load_spec
from engine_agreement import agree, candidates, reference, spec_games, window


@pytest.mark.parametrize("path,name", list(spec_games()))
def test_every_spec_game_agrees_with_the_reference(path, name):
    spec = load_spec(path)
    decl = spec.games[name]
    if len(decl.position) > 2:
        pytest.skip("the fast engines handle one or two coordinates")
    side = 160 if len(decl.position) == 1 else 24
    for params in itertools.product(candidates(spec), repeat=len(decl.params)):
        probe = reference(decl.instance(params), window(len(decl.position), 3))
        if isinstance(probe, Exception):
            continue   # these param values do not suit the game
        agree(decl, params, side)
        return
    pytest.skip("no candidate param values suit this game")
