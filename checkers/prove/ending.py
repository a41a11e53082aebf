"""Does every play of a declared game end, on a claim's domain? Proved by Z3 as the prover's certificate proves it:
every move family keeps the coordinates >= 0 and decreases one measure (descent: the game's own ``measure``, the
coordinate sum, one coordinate, or one found by a search) and stays in the domain (closure), at a symbolic position.

The sampler asks this when the local certificate fails at a position the engine cannot value: a failure of the
certificate shows a wrong label only in a game whose plays end (a move x -> x + 1 from every x >= 100 never does).
The answer is one of the prover's query texts, or None when Z3 does not prove it within the budget.

>>> import pathlib
>>> from nimjos.spec.loader import load_spec
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]
>>> plays_end(c.plan(), {})
'every move decreases the coordinate sum'
"""
from __future__ import annotations

from typing import Any

from nimjos.lang.errors import EvalError, SpecError
from nimjos.spec.loader import ProveOptions
from nimjos.spec.plan import ClaimPlan
from checkers.z3.budget import Budget
from checkers.prove.domain import proof_domain
from checkers.modes import Mode
from checkers.prove.queries import GameQueries
from checkers.prove.attempt import Context
from checkers.z3.terms import Untranslatable

#: the resource units of the whole question (descent and every family's closure), as seconds of Z3 work
SECONDS = 4.0


def plays_end(plan: ClaimPlan, params: dict) -> str | None:
    """Why every play from every position of the claim's domain ends and stays in it (the descent query's text),
    with the parameters `params` fixed ({} asks it for every value); None when Z3 does not prove it."""
    try:
        # the claim's own domain, where the sampler draws: never prove.for_all, a class the prover may narrow to
        dom = proof_domain(plan, ProveOptions())
        ctx = Context(plan, dom, params, "int", None, 0, Budget.seconds(SECONDS))
        queries = GameQueries(ctx, Mode.P)
        descent = queries.q_descent_all()
        if descent.status != "holds":
            return None
        families = len(queries.setup()[3].decl.moves)
        if any(queries.q_closure(i).status != "holds" for i in range(families)):
            return None
        return descent.name
    except (Untranslatable, EvalError, SpecError, KeyError, AttributeError, ValueError):
        return None
