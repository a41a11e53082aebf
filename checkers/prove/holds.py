"""Proving a ``holds`` claim: the predicate, under the domain and the assumption, is valid (no
counterexample), optionally by strong induction (:mod:`checkers.prove.induction`) or assuming other claims
of the spec (``prove = { using = [...] }``). A statement that holds only because its hypotheses are
unsatisfiable is vacuous; a window point that satisfies them shows it is not, without asking Z3.

>>> import time
>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> from checkers.prove.attempt import Context
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
>>> c = spec.claim("half"); plan = c.plan()
>>> ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 5)
>>> [(r.name, r.status) for r in prove_holds(ctx)]
[('the statement', 'holds')]
"""
from __future__ import annotations

import ast
import time
from typing import Any

import z3

from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang import build
from nimjos.lang.syntax import copy_tree
from nimjos.spec.plan import GrundyPlan, HoldsPlan
from checkers.z3.budget import Budget, check
from checkers.prove.domain import all_symbolic, inside_domain
from checkers.prove.induction import induction_step
from checkers.z3.powers import own_instance
from checkers.prove.attempt import Context, Query, QueryResult, QueryRole, QueryStatus
from checkers.z3.terms import Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.z3.steady import SteadySolver

#: the resources (in seconds) of the question whether a statement's hypotheses are satisfiable at all
VACUITY_SECONDS = 5


def prove_holds(ctx: Context) -> list[QueryResult]:
    """The query of a holds claim (one result: holds, fails, obligation, unknown or vacuous); see the module
    docstring."""
    claim = ctx.claim
    cfg = claim.prove
    b, env, hyps = ctx.builder()
    hyps += [used_axiom(ctx, b, uid, at=env) for uid in cfg.using or []]
    if cfg.induction:
        hyps, goal = induction_step(ctx, b, env, hyps, cfg.induction, cfg.invariant)
    else:
        if ctx.plan.assume is not None:
            hyps.append(b.formula(copy_tree(ctx.plan.assume.tree), env))
        formula = getattr(ctx.plan, "formula", None)
        assert formula is not None, "a holds claim's plan has its statement"
        goal = b.formula(copy_tree(formula.tree), env)
    watch = {n: env[n] for n in [*ctx.dom.symbolic, *ctx.dom.functions]}
    terms = [env[n] for n in ctx.dom.symbolic if is_term(env[n]) and not z3.is_bool(env[n])]
    res = ctx.run("the statement", b, hyps, goal, watch, terms, query=Query(QueryRole.STATEMENT))
    if res.status == "holds" and claim.prove.using and not window_witness(ctx):
        # with other claims assumed, unsatisfiable hypotheses may be their fault, not a vacuous statement
        res.status, res.text = "unknown", "no window point satisfies the assumption, and the used claims are assumed"
    elif res.status == "holds" and not window_witness(ctx):
        s = SteadySolver(b.ctx)
        s.add(*b.assertions(), *hyps)
        # its own resources, so that whether a witness was found in time changes nothing else
        if check(Budget.seconds(VACUITY_SECONDS), s) == z3.unsat:
            res.status = QueryStatus.VACUOUS
    return [res]


def used_axiom(ctx: Context, b: Builder, uid: str, at: dict | None = None) -> Any:
    """Another `holds` claim of the spec (``prove = { using = [...] }``) as a hypothesis: its statement for every
    point of the class the prover would prove it for (its window with the constant upper edges dropped, or its
    own prove.for_all), under its assumption, with the names this attempt fixes (k = 3) taken at their values.
    Unknown functions (G) are shared with the claim being proved, so Z3 can use the lemma at its terms. With `at`
    (the claim's environment), the lemma is also stated at the claim's own point, when the claim has a symbolic
    value for each name the lemma binds (:func:`checkers.z3.powers.own_instance`). When the lemma has no Z3
    model with all its names bound (G(maxnim(k), x) for every k: one unknown G stands for one game), the names
    this attempt keeps symbolic under the same name (in `at`) are taken at their values instead: an instance of
    the lemma, which it implies.

    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "lemmas.toml")
    >>> c = spec.claim("chain"); plan = c.plan()
    >>> ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 5)
    >>> b, env, hyps = ctx.builder()
    >>> z3.is_quantifier(used_axiom(ctx, b, "shift"))
    True
    """
    if ctx.mode != "int":
        raise Untranslatable("prove.using needs the integer world (no bit-vector operations)")
    used = ctx.claim.spec.claim(uid)
    dom = all_symbolic(used.plan())
    if dom is None:
        raise Untranslatable(f"the used claim {uid!r} has no Z3 model")
    try:
        return _used_axiom(ctx, b, used, dom, {}, at)
    except Untranslatable:
        mine = {n: v for n, v in (at or {}).items() if n in dom.symbolic and n not in ctx.params and is_term(v)}
        if not mine:
            raise
        return _used_axiom(ctx, b, used, dom, mine, at)


def _used_axiom(ctx: Context, b: Builder, used: Any, dom: Any, instance: dict, at: dict | None) -> Any:
    """The lemma of :func:`used_axiom`, with the names of `instance` taken at its values (an instance of it), and
    also stated at the claim's own point `at` (:func:`checkers.z3.powers.own_instance`)."""
    used_plan = used.plan()
    names = [n for n in dom.symbolic if n not in dom.substituted]
    fixed = {n: ctx.params[n] for n in names if n in ctx.params}
    fixed.update({n: v for n, v in instance.items() if n in names})
    bound = [n for n in names if n not in fixed]
    env: dict = dict(fixed)

    def guard(vs: list) -> Any:
        env.update(zip(bound, vs))
        for n, tree in dom.substituted.items():
            env[n] = b.term(tree, env)
        conds = [b.formula(tree, env) for tree, _ in dom.conditions + dom.domain_conditions]
        if used_plan.assume is not None:
            conds.append(b.formula(copy_tree(used_plan.assume.tree), env))
        conds = [c if is_term(c) else z3.BoolVal(bool(c), b.ctx) for c in conds]
        return z3.And(*conds) if conds else z3.BoolVal(True, b.ctx)

    statement = used_statement(used)

    def body(vs: list) -> Any:
        return b.formula(statement, env)
    if not bound:
        g = guard([])
        return z3.Implies(g, b.to_bool(body([])))
    axiom = b.quantifier(False, bound, guard, body)
    return own_instance(b, axiom, bound, guard, body, at)


def used_statement(used: Any) -> Any:
    """The statement a used claim lends a proof, as a tree: a `holds` claim's own; a `grundy` claim's formula F as
    ``G(game, position) == F``; a `p_positions` claim's predicate F as ``(G(game, position) == 0) == (not not F)``
    (a set given by families of points lends nothing: Untranslatable).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> import ast; ast.unparse(used_statement(spec.claim("nim2-grundy")))
    'G(nim2, (x, y)) == xor(x, y)'
    """
    plan = used.plan()
    if isinstance(plan, HoldsPlan):
        return copy_tree(plan.formula.tree)
    formula = getattr(plan, "formula", None)
    if formula is None or plan.misere:
        raise Untranslatable(f"the used claim {used.id!r} gives its set by families of points (or in misère play): "
                             "no statement about G to assume")
    assert plan.game is not None, "a grundy or P-position claim has a game"
    g = build.call("G", plan.game.tree, build.position(plan.coords))
    if isinstance(plan, GrundyPlan):
        return build.compare(g, ast.Eq, formula.tree)
    return build.compare(build.compare(g, ast.Eq, build.constant(0)), ast.Eq,
                         build.negation(build.negation(formula.tree)))


def window_witness(ctx: Context, limit: int = 20_000, seconds: float = 0.5) -> dict | None:
    """A point of the claim's window, with this attempt's enumerated values, that lies in the proof's domain
    and satisfies the assumption: evaluated exactly, it shows the proved statement is not vacuous without
    asking Z3 (whose satisfiability check of the hypotheses can take its whole time limit). None when the
    first `limit` window points (or `seconds`) show none. Its answer may depend on the machine's load, the
    verdict does not: without a witness, Z3 decides vacuity with resources of its own (not the proof's).

    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; plan = c.plan()
    >>> ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 5)
    >>> window_witness(ctx)
    {'x': 0}
    """
    plan, claim, dom = ctx.plan, ctx.claim, ctx.dom
    explicit = bool(claim.prove.for_all)
    stop = time.perf_counter() + seconds
    assert plan.window is not None, "a holds plan has a window"
    try:
        for i, env in enumerate(plan.window.bindings({}, pins=dict(ctx.params))):
            if i >= limit or time.perf_counter() > stop:
                return None
            if any(env.get(n) != v for n, v in ctx.params.items()):
                continue
            if plan.assume is not None and not plan.assume(dict(env)):
                continue
            point = {n: env[n] for n in plan.window.names if n in env}
            if explicit and not (all(n in point for n in dom.binder.names) and inside_domain(dom, point, claim)):
                continue
            return point
    except (EvalError, SpecError):
        return None
    return None
