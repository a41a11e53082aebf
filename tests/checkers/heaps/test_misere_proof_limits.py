"""The misère finite check (checkers.heaps.misere_proof) when a limit of the machine stops the evaluation of the statement
at a position: the check is not whole, so the verdict is inconclusive, never ill-defined (the limit is no fact about
the claim) and never proved; a position the language itself cannot evaluate is still ill-defined."""
from __future__ import annotations

import pathlib

from checkers.heaps.misere_proof import misere_prove
from checkers.options import RunOptions
from nimjos.lang.errors import EvalError, StepLimitError
from nimjos.spec.loader import load_spec
from nimjos.spec.plan import Compiled

KAYLES = load_spec(pathlib.Path(__file__).resolve().parents[3] / "examples" / "misere" / "kayles.toml")


def failing_at(monkeypatch, n: int, error: Exception) -> None:
    """The statement's evaluation raises `error` at the position of n tokens (every other position as before)."""
    plain = Compiled.__call__

    def call(self, env):
        if env.get("n") == n and self.text == "n in {1, 4, 9, 12, 20}":
            raise error
        return plain(self, env)
    monkeypatch.setattr(Compiled, "__call__", call)


def test_without_a_limit_the_claim_is_proved():
    assert misere_prove(KAYLES.claim("kayles-rows-every-n"), RunOptions()).verdict == "proved"


def test_a_position_over_a_limit_makes_the_check_inconclusive(monkeypatch):
    failing_at(monkeypatch, 7, StepLimitError("more than 10 steps"))
    v = misere_prove(KAYLES.claim("kayles-rows-every-n"), RunOptions())
    assert v.verdict == "inconclusive" and not v.undefined, (v.verdict, v.scope)
    assert "1 of" in v.scope and "unevaluated, over a limit" in v.scope and "(first at 7: more than 10 steps)" in v.scope


def test_a_position_the_language_cannot_evaluate_is_ill_defined(monkeypatch):
    failing_at(monkeypatch, 7, EvalError("no value"))
    v = misere_prove(KAYLES.claim("kayles-rows-every-n"), RunOptions())
    assert v.verdict == "ill-defined" and v.undefined[0].bindings == {"n": 7}
