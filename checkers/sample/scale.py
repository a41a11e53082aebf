"""How far beyond the window the sampler goes: the largest bound of a ladder (10^18 down to 10^3) at which a
few evaluations are cheap (at most :data:`PROBE_STEPS` steps, :data:`PROBE_OPTIONS` options and a table of
:data:`PROBE_CELLS` positions each: counts,
the same on every machine; :data:`PROBE_SECONDS` is only a safety net for what they do not count: compiled kernels); 10^18 for a game claim whose certificate Z3 can search at one position; a few
times the window when ground truth comes from the engine's table (G, options, mex).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> from checkers.sample.domain import build_domain
>>> from checkers.sample.evaluate import GameEvaluator
>>> c = spec.claims[0]; plan = c.plan()
>>> dom = build_domain(plan, plan.window, spec.namespace)
>>> import z3
>>> ev = GameEvaluator(plan, "default", z3.Context())
>>> choose_far(plan, dom, ev, "grundy", ev, 1)
(1000000000000000000, '')
"""
from __future__ import annotations

import random
from typing import Any, Callable

from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.runtime import active_budget, step_limit
from nimjos.spec.plan import ClaimPlan
from checkers.certificate import count_options
from checkers.sample.point_solver import PointSolver
from checkers.z3.terms import Untranslatable
from checkers.z3.world import uses
from checkers.sample.domain import FAR, Domain, random_env
from checkers.sample.evaluate import Outcome, run_limited
from checkers.modes import Mode

LADDER = (10 ** 18, 10 ** 9, 10 ** 6, 10 ** 4, 10 ** 3)
#: names whose presence means ground truth comes from a table (the sample stays near the window)
TABLE_NAMES = {"G", "options", "mex"}
#: the largest value a drawn instance of such a claim may have (a count, like the engine's position guard): a far
#: bound stated by the spec can reach values whose options no table can list; such instances are skipped
TABLE_LIMIT = 10 ** 6
#: steps of the expression language (loop iterations, calls, options listed) one probed evaluation may take (a count: the same on every machine)
PROBE_STEPS = 200_000
#: options a probed position of a game claim may have (beyond them Z3 would search, and the ladder goes down)
PROBE_OPTIONS = 500
#: positions of the box below a probed position of a game claim (the product of its coordinates + 1) that the
#: engine's table may need: beyond it the ladder goes down (a count, the same on every machine)
PROBE_CELLS = 20_000
#: seconds one probed evaluation may take: a safety net, far above what the counts allow
PROBE_SECONDS = 10.0


def uses_table(plan: ClaimPlan) -> bool:
    """Whether a claim's ground truth comes from the engine's table: its statement, assumption or domain names G,
    options or mex.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> uses_table(spec.claims[0].plan())
    False
    """
    domain = plan.domain.tree if plan.domain is not None else None
    trees = plan.expression_trees() + ([domain] if domain is not None else [])
    return any(uses(t, plan.namespace, TABLE_NAMES) for t in trees)


def choose_far(plan: ClaimPlan, dom: Domain, evaluate: Callable, kind: Mode | None,
               evaluator: Any, seed: int) -> tuple[int | None, str]:
    """The far bound: the largest of LADDER at which a few evaluations are cheap, or a few times the
    window when ground truth comes from a table. None with the reason when nothing beyond the window works."""
    widened = dom.widened()
    if not widened:
        return FAR, ""
    top = dom.window_top() or 100
    near = max(2 * top, top + 8)   # the far bound of a claim whose ground truth is a table
    if uses_table(plan):   # a game claim whose formula asks G too
        return near, "ground truth from the engine's table, so values stay within 2x the window"
    if kind == Mode.P and evaluator.use_outcome_table(near):
        return near, ("ground truth from the table of the engine of P-positions (the game's moves), "
                                       "so values stay within 2x the window")
    ladder = list(LADDER)
    if kind is not None:
        if _symbolic_ok(evaluator, plan):
            return FAR, ""
        ladder = [10 ** 4, 1000, 300, 100]
    rng = random.Random(seed)
    for far in ladder:
        if far <= top:
            break
        dom.far = far
        if _probe(dom, evaluate, rng, kind, evaluator):
            return far, ""
    return None, "one evaluation beyond the window costs too much"


def _symbolic_ok(evaluator: Any, plan: ClaimPlan) -> bool:
    assert plan.window is not None, "a sampled claim has a window"
    try:
        env = next(iter(plan.window.bindings({})), None)
    except (EvalError, SpecError):
        env = None
    if env is None:
        return False
    try:
        params = {n: env[n] for n in plan.window.names if n not in plan.coords}
        cert = evaluator.certificate(params)
        PointSolver(cert, evaluator.ctx)
        return True
    except (Untranslatable, SpecError, EvalError) as exc:
        evaluator.why_not_symbolic = str(exc)
        return False


def _probe(dom: Domain, evaluate: Callable, rng: random.Random, kind: Mode | None, evaluator: Any) -> bool:
    """A few random instances near the far bound: all cheap enough?"""
    for _ in range(2):
        env = random_env(dom, rng)
        if env is None:
            continue
        if kind is not None:
            params = {n: env[n] for n in evaluator.names if n not in evaluator.coords}
            try:
                cert = evaluator.certificate(params)
                pos = tuple(env[c] for c in evaluator.coords) if len(evaluator.coords) > 1 else env[evaluator.coords[0]]
                if count_options(cert.inst, pos, PROBE_OPTIONS) > PROBE_OPTIONS:
                    return False
                cells = 1
                for c in (pos if isinstance(pos, tuple) else (pos,)):
                    cells *= abs(c) + 1 if type(c) is int else 1
                if cells > PROBE_CELLS:
                    return False
            except (EvalError, SpecError, KeyError):
                return False
        budget = active_budget()
        before = budget.spent
        with step_limit(PROBE_STEPS + 1):
            out, late = run_limited(lambda: evaluate(env), PROBE_SECONDS)
        steps = budget.spent - before
        if late or out.kind == Outcome.SKIP or steps > PROBE_STEPS:
            return False
    return True
