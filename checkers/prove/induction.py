"""Strong induction on one name, for `holds` claims about Grundy values: ``prove = { induction = "x" }``.

The prover treats G as an unknown function, so a statement such as "G(x) = x/k when k divides x" is out of
its reach: nothing ties the unknown function to the game. Induction does. For a symbolic x of the domain,
Z3 proves the step

    [for every y of the domain with y < x:  I(y) and P(y)]  and  the mex facts of G at x   ==>   I(x) and P(x)

where P(y) is the claim (its assumption implies its statement) and I is the optional invariant that the
spec states (``prove = { induction = "x", invariant = "..." }``): the stronger statement a paper's proof
carries along. The mex facts are true of the real Grundy function whatever the claim says: G(x) differs
from G at every option of x, and every value from 0 to G(x) - 1 is G at some option. Since the domain
bounds x below (checked first), the step proves I and P for every x of the domain. The other names keep
their values (k = 3) or stay symbolic and fixed across the step.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> from checkers.prove import prove_claim
>>> from checkers.options import RunOptions
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
>>> v = prove_claim(spec.claim("sub2-parity"), RunOptions(timeout=20))
>>> v.verdict, v.scope
('proved', 'all x >= 0; G as unknown functions, by strong induction on x (the mex facts of G at x)')
"""
from __future__ import annotations

import math
from typing import Any

import z3

from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import copy_tree
from nimjos.lang.syntax import parse  # noqa: F401  (the docstring examples)

from checkers.z3.terms import Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.z3.steady import SteadySolver


def induction_step(ctx: Any, b: Builder, env: dict, hyps: list, name: str, invariant: str | None) -> tuple[list, Any]:
    """(hypotheses, goal) of the induction step on `name` for the claim of `ctx` (see the module docstring).

    `hyps` are the domain's conditions at the symbolic point; the claim's assumption moves into the goal,
    since the invariant must hold where the assumption does not.
    """
    dom = ctx.dom
    if name not in dom.symbolic or name in dom.substituted:
        raise Untranslatable(f"induction on {name!r}: it is not a free name of the proof's domain")
    formula = getattr(ctx.plan, "formula", None)
    assert formula is not None, "a holds claim's plan has its statement"
    assume = copy_tree(ctx.plan.assume.tree) if ctx.plan.assume is not None else None
    if invariant:
        assert ctx.plan.invariant is not None, "a plan whose prove.invariant is set has its tree"
    inv = copy_tree(ctx.plan.invariant) if invariant else None
    statement = copy_tree(formula.tree)
    x = env[name]
    _check_bounded_below(ctx, b, hyps, x, name)

    def boolean(v: Any) -> Any:
        return b.to_bool(v) if is_term(v) else z3.BoolVal(bool(v), b.ctx)

    def at(e: dict) -> Any:
        """I and P at the point of environment e."""
        p = boolean(b.formula(statement, e))
        if assume is not None:
            p = z3.Implies(boolean(b.formula(assume, e)), p)
        return p if inv is None else z3.And(boolean(b.formula(inv, e)), p)

    goal = at(env)
    inner: dict = dict(env)

    def guard(vs: list) -> Any:
        inner[name] = vs[0]
        for n, tree in dom.substituted.items():
            inner[n] = b.term(tree, inner)
        conds = [boolean(b.formula(tree, inner)) for tree, names in ctx.conditions() if name in names or
                 names & set(dom.substituted)]
        return z3.And(vs[0] < x, *conds)

    hypothesis = b.quantifier(False, [name], guard, lambda vs: at(inner))
    facts = mex_facts(b, x)
    if not facts and "recursive sums" not in b.abstractions:
        raise Untranslatable("induction needs G of a one-coordinate game in the statement (the mex facts are "
                             "about G) or a sum over a symbolic range (checkers.z3.unknown)")
    b.abstractions.add(f"induction {name}")
    # the instance at x - 1 helps with recursive sums; proofs about G alone are left as they were
    before = predecessor(b, hypothesis, x) if "recursive sums" in b.abstractions else []
    return hyps + [b.to_bool(hypothesis), *before] + facts, goal


def predecessor(b: Builder, hypothesis: Any, x: Any) -> list:
    """The induction hypothesis at x - 1, as a ground instance of the quantified one (E-matching does not find
    y = x - 1 through the arithmetic of a recursive sum's arguments); none when the hypothesis quantifies over
    helper variables too.

    >>> import z3
    >>> x, y = z3.Ints("x y")
    >>> predecessor(None, z3.ForAll([y], z3.Implies(y < x, y >= 0)), x)
    [Implies(x - 1 < x, x - 1 >= 0)]
    """
    if not (z3.is_quantifier(hypothesis) and hypothesis.is_forall() and hypothesis.num_vars() == 1):
        return []
    return [z3.substitute_vars(hypothesis.body(), x - 1)]


def mex_facts(b: Builder, x: Any) -> list:
    """The two facts that define G at the position x, for every one-coordinate game whose G the builder has
    met: G is non-negative, no option of x has G(x), and each value below G(x) is G at some option.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
    >>> b = Builder(spec.namespace, "int", 0)
    >>> x = b.var("x")
    >>> _ = b.term(parse("G(sub2, x)"), {"x": x})
    >>> len(mex_facts(b, x))
    3
    """
    out = []
    for fn, game in list(b.grundy.values()):
        if len(game.decl.position) != 1:
            continue
        gx = fn(x)
        y = z3.Int(f"{fn.name()}!arg", b.ctx)
        out.append(z3.ForAll([y], fn(y) >= 0, patterns=[fn(y)]))
        listed = listed_options(b, game, x)

        def differs(q: Any, fn: Any = fn, gx: Any = gx) -> Any:
            return gx != fn(b.to_term(q))

        def reached(vs: list, fn: Any = fn, game: Any = game, listed: Any = listed) -> Any:
            if listed is not None:
                return z3.Or(*[z3.And(cond, fn(q) == vs[0]) for cond, q in listed])
            return b.over_options(game, x, True, lambda q: fn(b.to_term(q)) == vs[0])
        if listed is not None:
            out.append(z3.And(*[z3.Implies(cond, differs(q)) for cond, q in listed]))
        else:
            out.append(b.to_bool(b.over_options(game, x, False, differs)))
        out.append(b.to_bool(b.quantifier(False, ["v"], lambda vs, gx=gx: z3.And(vs[0] >= 0, vs[0] < gx), reached)))
    return out


def listed_options(b: Builder, game: Any, x: Any, most: int = 16) -> list | None:
    """[(condition, option)] of a position when every move family binds one name to a range with constant
    bounds of at most `most` values (remove 1 or 2 stones): the options without a quantifier, so that Z3
    meets G at each of them. None otherwise.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from checkers.z3.terms import GameRef
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
    >>> b = Builder(spec.namespace, "int", 0)
    >>> x = b.var("x")
    >>> [q for _, q in listed_options(b, GameRef(spec.namespace.games["sub2"], {}), x)]
    [x - 1, x - 2]
    >>> listed_options(b, GameRef(spec.namespace.games["maxnim"], {"k": 3}), x) is None
    True
    """
    out = []
    for fam in b.families(game):
        levels = fam.binder.levels
        if len(levels) != 1 or levels[0].members is not None:
            return None
        level = levels[0]
        lows = _constants(level.lows, dict(game.params), round_up=True)
        highs = _constants(level.highs, dict(game.params), round_up=False)
        if not lows or not highs or min(highs) - max(lows) + 1 > most:
            return None
        for t in range(max(lows), min(highs) + 1):
            cond, q = b.move(game, x, fam, [t])
            out.append((b.to_bool(cond) if is_term(cond) else z3.BoolVal(bool(cond), b.ctx), b.to_term(q)))
    return out


def _constants(bounds: list, env: dict, round_up: bool) -> list[int]:
    """The bounds of a level that need no position coordinate, as integers (strict ones moved inward)."""
    out = []
    for fn, strict in bounds:
        try:
            v = fn(env)
        except (KeyError, NimjosError):
            continue
        v = math.ceil(v) if round_up else math.floor(v)
        out.append(v + (1 if strict else 0) if round_up else v - (1 if strict else 0))
    return out


def _check_bounded_below(ctx: Any, b: Builder, hyps: list, x: Any, name: str) -> None:
    """Induction over the domain is well-founded only when the domain bounds the name below (by 0)."""
    s = SteadySolver(b.ctx)
    s.add(*b.assertions(), *hyps, x < 0)
    if ctx.check(s, cap_seconds=5) != z3.unsat:
        raise Untranslatable(f"induction on {name!r} needs a domain with {name} >= 0")
