"""Whether a proof covers its claim's whole domain: ``proved`` is for the whole domain, ``proved-bounded`` for
a stated class smaller than it (DESIGN.md, "Verdicts"): finitely many values of a name the domain leaves
unbounded or bounds wider ("for k = 3..10 only (domain k >= 2)"), or values below 2^w in the bit-vector
world ("for x, y < 2^32 only").

The question is asked of Z3: is there a point of the domain (under the claim's assumption) outside the proved
class, which is the union, over the proved values of the enumerated names, of the proof's conditions on the
symbolic names (below 2^w in bv)? ``unsat`` means the proof covers the domain; anything else (a point, an
answer Z3 could not give, a domain without a Z3 model) means it may not, and the verdict is bounded.

>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]; plan = c.plan(); dom = proof_domain(plan, ProveOptions())
>>> import z3
>>> bounded_class(plan, dom, "int", None, [{}], z3.Context()) is None
True
>>> bounded_class(plan, dom, "bv", 32, [{}], z3.Context())
'for x < 2^32 only (domain 0 <= x)'
"""
from __future__ import annotations

import itertools
import math
from typing import Any

import z3

from nimjos.spec.loader import claim_of
from nimjos.lang.builtins import iter_items
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.syntax import copy_tree
from nimjos.spec.plan import ClaimPlan
from checkers.z3.budget import Budget, check
from checkers.prove.domain import ProofDomain
from checkers.prove.scope import clean, instances_text
from checkers.z3.terms import Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.z3.unknown import unknown_function
from checkers.z3.steady import SteadySolver

#: the resources of the covering question (seconds, as resource units)
COVER_SECONDS = 2.0


def bounded_class(plan: ClaimPlan, dom: ProofDomain, mode: str, width: int | None,
                  instances: list[dict], ctx: z3.Context) -> str | None:
    """None when the proof covers the domain, else the proved class as a scope's words (module docstring); Z3's
    questions are asked in `ctx` (the proof attempt's context)."""
    domain = getattr(plan, "domain", None)
    if domain is None:
        return None
    if outside_point(plan, dom, instances) is None and covers(plan, dom, mode, width, instances, ctx):
        return None
    # every condition of the proved class the domain does not imply is printed (a bound, a filter the window
    # kept, the enumerated values, the width): a class that left one out would read as the whole domain
    parts = []
    if dom.enumerated and instances and instances != [{}]:
        parts.append(instances_text(dom.enumerated, instances))
    narrower = narrowing(plan, dom, ctx)
    if narrower:
        parts.append(", ".join(narrower))
    names = [n for n in dom.symbolic if n not in dom.substituted]
    if mode == "bv" and width and names:
        parts.append(f"{', '.join(names)} < 2^{width}")
    if not parts:
        parts.append("the proof's class")
    return "for " + " and ".join(parts) + f" only ({domain.describe()})"


def narrowing(plan: ClaimPlan, dom: ProofDomain, ctx: z3.Context) -> list[str]:
    """The conditions of the proof on its symbolic names that the claim's domain (with its assumption) does not
    imply, in clean form: what makes the proved class smaller than the domain. A condition Z3 cannot show to
    follow from the domain counts as narrowing.

    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> import dataclasses
    >>> from nimjos.lang.syntax import parse
    >>> own = "3 <= x <= 10**9 and x % 2 == 1"   # a class of the proof's own (prove.for_all)
    >>> c = spec.claims[0]; plan = dataclasses.replace(c.plan(), prove_for_all=parse(own))
    >>> narrowing(plan, proof_domain(plan, ProveOptions(for_all=own)), z3.Context())
    ['x >= 3', 'x <= 10 ** 9', 'x % 2 == 1']
    >>> narrowing(plan, proof_domain(plan, ProveOptions()), z3.Context())
    []
    """
    claim = claim_of(plan)
    domain = plan.domain
    assert plan.window is not None and domain is not None, "a claim the prover reads has a window and a domain"
    b = Builder(claim.spec.namespace, "int", 0, ctx)
    env: dict = {n: b.var(n) for n in plan.window.names}
    try:
        _substitute(b, dom, env)
        where = [_bool(b, b.formula(copy_tree(domain.tree), env))] if domain.tree is not None else []
    except (Untranslatable, EvalError, SpecError, z3.Z3Exception):
        where = []
    if plan.assume is not None:
        try:
            where.append(_bool(b, b.formula(copy_tree(plan.assume.tree), env)))
        except (Untranslatable, EvalError, SpecError, z3.Z3Exception):
            pass
    out: list[str] = []
    for tree, names in dom.conditions:
        if not names & set(dom.symbolic):
            continue
        text = clean(tree)
        if text in out:
            continue
        try:
            cond = _bool(b, b.formula(tree, env))
        except (Untranslatable, EvalError, SpecError, z3.Z3Exception):
            out.append(text)
            continue
        s = SteadySolver(ctx)
        s.add(*b.assertions(), *where, z3.Not(cond))
        if check(Budget.seconds(COVER_SECONDS / 4), s) != z3.unsat:
            out.append(text)
    return out


#: points of the claim's domain :func:`outside_point` looks at, at most, before Z3 is asked
WITNESS_POINTS = 2_000
#: values of each name it tries, at most: the least the domain allows (for an enumerated name, the least that no
#: proved instance has)
WITNESS_VALUES = 8


def outside_point(plan: ClaimPlan, dom: ProofDomain, instances: list[dict]) -> dict | None:
    """A point of the claim's domain, under its assumption (both evaluated exactly), where an enumerated name takes a
    value no proved instance has: the proved class leaves it out, so the proof does not cover the domain, which
    Z3 need not be asked (:func:`covers`: a question it often spends its whole resources on, when the domain's
    bounds are powers, and answers ``unknown``: not covered either). None when none is among the first
    :data:`WITNESS_POINTS` points of the domain tried (then Z3 is asked), or when the domain is not one a binder
    reads, names a value Z3 has no sort for, or leaves a name of the window out.

    >>> from nimjos.spec.loader import load_spec, ProveOptions
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; plan = c.plan(); dom = proof_domain(plan, ProveOptions())
    >>> outside_point(plan, dom, [{}]) is None    # nothing enumerated: every point is in the class
    True
    >>> from dataclasses import replace
    >>> outside_point(plan, replace(dom, enumerated=["x"]), [{"x": 0}, {"x": 1}])
    {'x': 2}
    """
    claim = claim_of(plan)
    domain = getattr(plan, "domain", None)
    enumerated = [n for n in dom.enumerated if instances and all(type(i.get(n)) is int for i in instances)]
    if domain is None or not enumerated or len(enumerated) != len(dom.enumerated):
        return None
    binder = domain.binder(claim.spec.namespace)
    assume = getattr(plan, "assume", None)
    if binder is None or plan.window is None or (claim.assume_text and assume is None) or \
            set(plan.window.names) - {level.name for level in binder.levels}:
        return None
    proved = {n: {i[n] for i in instances} for n in enumerated}
    tuples = {tuple(i[n] for n in enumerated) for i in instances}
    levels, names = binder.levels, plan.window.names
    tried = 0

    def values(level: Any, env: dict) -> list[int]:
        """The least values the domain allows the level's name, those no proved instance has first."""
        if level.members is not None:
            vals = list(itertools.islice((v for v in iter_items(level.members(env)) if type(v) is int),
                                         WITNESS_POINTS))
        else:
            lo = max(_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0
            hi = min(_high(fn(env), strict) for fn, strict in level.highs) if level.highs else None
            vals = list(range(lo, lo + WITNESS_POINTS if hi is None else min(hi + 1, lo + WITNESS_POINTS)))
        seen = proved.get(level.name, set())
        return ([v for v in vals if v not in seen] + [v for v in vals if v in seen])[:WITNESS_VALUES]

    def search(i: int, env: dict) -> dict | None:
        nonlocal tried
        if i == len(levels):
            tried += 1
            point = {n: env[n] for n in names}
            try:
                if tuple(point[n] for n in enumerated) not in tuples and domain.contains(point) and \
                        (assume is None or assume(dict(point))):
                    return point
            except (EvalError, SpecError, KeyError, TypeError, ZeroDivisionError):
                pass
            return None
        level = levels[i]
        try:
            vals = values(level, env)
        except (EvalError, SpecError, KeyError, TypeError, ZeroDivisionError):
            return None
        for v in vals:
            if tried >= WITNESS_POINTS:
                return None
            env[level.name] = v
            found = search(i + 1, env)
            if found is not None:
                return found
        env.pop(level.name, None)
        return None

    return search(0, {})


def _low(v: Any, strict: bool) -> int:
    return math.floor(v) + 1 if strict else math.ceil(v)


def _high(v: Any, strict: bool) -> int:
    return math.ceil(v) - 1 if strict else math.floor(v)


def _bool(b: Builder, v: Any) -> Any:
    return b.to_bool(v) if is_term(v) else z3.BoolVal(bool(v), b.ctx)


def covers(plan: ClaimPlan, dom: ProofDomain, mode: str, width: int | None,
           instances: list[dict], ctx: z3.Context) -> bool:
    """Does the proved class contain every point of the domain that satisfies the assumption? (Z3, in `ctx`;
    False when it cannot tell.)"""
    claim = claim_of(plan)
    domain = plan.domain
    assert plan.window is not None and domain is not None, "a claim the prover reads has a window and a domain"
    ns = claim.spec.namespace
    names = list(plan.window.names)
    # names enumerated over values Z3 has no sort for (functions, tuples) are fixed, one question per value
    opaque = [n for n in dom.enumerated if any(type(i.get(n)) is not int for i in instances)]
    groups: dict = {}
    for inst in instances or [{}]:
        groups.setdefault(tuple(repr(inst.get(n)) for n in opaque), []).append(inst)
    for group in groups.values():
        b = Builder(ns, "int", 0, ctx)
        env: dict = {n: b.var(n) for n in names if n not in opaque}
        env.update({n: group[0][n] for n in opaque if n in group[0]})
        try:
            _substitute(b, dom, env)
            for n, tree in dom.functions.items():   # the same unknown function in the domain and the class
                env[n] = unknown_function(b, n, tree, env)[0]
            where = [_bool(b, b.formula(copy_tree(domain.tree), env))] if domain.tree is not None else []
            if plan.assume is not None:
                try:
                    where.append(_bool(b, b.formula(copy_tree(plan.assume.tree), env)))
                except (Untranslatable, EvalError, SpecError):
                    pass   # without the assumption the question is only harder: never a wrong "covers"
            cases = [_case(b, dom, mode, width, inst, env) for inst in group]
        except (Untranslatable, EvalError, SpecError, z3.Z3Exception):
            return False
        s = SteadySolver(ctx)
        s.add(*b.assertions(), *where, z3.Not(z3.Or(*cases)) if cases else z3.BoolVal(True, ctx))
        if check(Budget.seconds(COVER_SECONDS), s) != z3.unsat:
            return False
    return True


def _substitute(b: Builder, dom: ProofDomain, env: dict) -> None:
    """Give each name the domain fixes by a one-member set (``p in {Pt(n, c, i)}``) its member's value, as the
    proof does (:meth:`checkers.prove.attempt.Context.builder`): a tuple-valued name is never a bare integer
    variable, which would make ``p in {(a, b)}`` false and the domain empty.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from checkers.prove.domain import proof_domain
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "specs" / "003_turn_nim_and_weighted_nim.toml")
    >>> c = spec.claim("lemma-3.1"); plan = c.plan(); dom = proof_domain(plan, c.prove)
    >>> b = Builder(spec.namespace, "int", 0, z3.Context()); env = {n: b.var(n) for n in plan.window.names}
    >>> _substitute(b, dom, env); type(env["p"]).__name__
    'tuple'
    """
    for n, tree in dom.substituted.items():
        if n in env:
            env[n] = b.term(copy_tree(tree), env)


def _case(b: Builder, dom: ProofDomain, mode: str, width: int | None, inst: dict, env: dict) -> Any:
    """The proved class for one assignment of the enumerated names."""
    e = dict(env)
    parts = []
    for n, v in inst.items():
        if type(v) is int and n in env and is_term(env[n]):
            parts.append(env[n] == v)
        e[n] = v
    for n, tree in dom.substituted.items():
        if n in env and is_term(env[n]):
            parts.append(b.to_term(env[n]) == b.to_term(b.term(tree, e)))
        e[n] = b.term(tree, e)
    for tree, _ in dom.conditions + dom.domain_conditions:
        parts.append(_bool(b, b.formula(tree, e)))
    if mode == "bv" and width:
        for n in dom.symbolic:
            if n in env and is_term(env[n]) and n not in dom.substituted:
                parts += [env[n] >= -(1 << width), env[n] < (1 << width)]
    return z3.And(*parts) if parts else z3.BoolVal(True, b.ctx)
