"""The mex facts of G at a symbolic position, for every game whose moves terminate: a fact provider.

The prover treats ``G(game, p)`` as an unknown function. Whatever the game, its Grundy function satisfies at
every position p where it is defined

    (a) no option q of p has G(q) = G(p);        (b) each value v with 0 <= v < G(p) is G(q) of some option q

(the mex, Definition 2.1 of 000 and 1.9 of 004), and in particular G(p) = 0 exactly when no option has G = 0
(004 Theorem 1.13, 000 Theorem 2.2). :func:`provider` gives these facts at each position the query names
(each ground term G(game, t)), so that statements such as "G = 0 iff no option has G = 0" are proved for every
position of every such game. They are quantified over the options, which costs Z3 much on other queries (the
proofs about Maximum Nim from Lemma 3.1 ran out of resources with them): the prover gives them only to a claim
whose statement or assumption names the options of a game (:func:`names_options`).

They are true only where G is defined: on a game whose play from p may not end, the facts at a few positions
can contradict one another and prove anything. So a game gets them only after Z3 has proved, in the attempt's
context, that from every position with coordinates >= 0 every move keeps the coordinates >= 0 and lowers
their sum (then G is defined there by well-founded recursion, and the engine's values are that function); the
facts are stated under the guard "every coordinate of p >= 0". A game in misère play gets none (its values are
not the mex of its options' values). A verdict that used them says so in its scope.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> from nimjos.lang.syntax import parse
>>> from checkers.z3.translate import Builder
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
>>> b = Builder(spec.namespace, "int", 0)
>>> x, y = b.var("x"), b.var("y")
>>> _ = b.term(parse("G(nim2, (x, y))"), {"x": x, "y": y})
>>> (fn, game), = b.grundy.values()
>>> at, words = provider(b, fn, game)
>>> len(at(x, y)), words == WHERE
(3, True)
>>> b2 = Builder(spec.namespace, "int", 0)
>>> _ = b2.term(parse("G(up_and_down, x)"), {"x": x})
>>> (fn2, game2), = b2.grundy.values()
>>> provider(b2, fn2, game2)
(None, '')
"""
from __future__ import annotations

import ast
from typing import Any, Callable

import z3

from nimjos.games.declared import NORMAL
from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import parse  # noqa: F401  (the docstring examples)
from checkers.z3.budget import Budget, check
from checkers.z3.terms import Untranslatable
from checkers.z3.translate import Builder
from checkers.z3.steady import SteadySolver

#: the words a verdict's scope gives for these facts
WHERE = "the mex facts of G (every game whose moves provably terminate: coordinates stay >= 0, their sum falls)"
#: seconds (in resource units) of the check that a game's moves terminate
DESCENT_SECONDS = 5.0


def mex_facts_at(b: Builder, fn: Any, game: Any, pos: Any, listed: list | None = None) -> list:
    """(a) and (b) of the module docstring at the position `pos` (a term, or a tuple of terms for a game of
    several coordinates): no option has G(pos), and each value below G(pos) is G of some option, its value 0
    stated as a ground instance as well. `listed` gives the options as [(condition, option)] without a
    quantifier (:func:`checkers.prove.induction.listed_options`), else one quantifier per move family.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from nimjos.lang.syntax import parse
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> b = Builder(spec.namespace, "int", 0)
    >>> x = b.var("x")
    >>> _ = b.term(parse("G(nim1, x)"), {"x": x})
    >>> (fn, game), = b.grundy.values()
    >>> len(mex_facts_at(b, fn, game, x))
    3
    """
    def g(q: Any) -> Any:
        return fn(*[b.to_term(c) for c in q]) if isinstance(q, tuple) else fn(b.to_term(q))
    gp = g(pos)

    def reached(value: Any) -> Any:
        if listed is not None:
            return z3.Or(*[z3.And(cond, g(q) == value) for cond, q in listed])
        return b.to_bool(b.over_options(game, pos, True, lambda q: g(q) == value))

    if listed is not None:
        differs = z3.And(*[z3.Implies(cond, gp != g(q)) for cond, q in listed])
    else:
        differs = b.to_bool(b.over_options(game, pos, False, lambda q: gp != g(q)))
    zero = b.const(0)
    every = b.to_bool(b.quantifier(False, ["v"], lambda vs: z3.And(vs[0] >= zero, vs[0] < gp),
                                   lambda vs: reached(vs[0])))
    return [differs, every, z3.Implies(gp > zero, reached(zero))]


def terminates(b: Builder, game: Any, known: dict | None = None, seconds: float = DESCENT_SECONDS) -> bool:
    """Has Z3 proved that from every position with coordinates >= 0 every move of `game` keeps them >= 0 and
    lowers their sum (so that G is defined there)? One check per game and params in `known` (the attempt's
    cache, :class:`checkers.context.SolverContext`).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from checkers.z3.terms import GameRef
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> b = Builder(spec.namespace, "int", 0)
    >>> terminates(b, GameRef(spec.namespace.games["nim2"], {})), terminates(b, GameRef(spec.namespace.games["up_and_down"], {}))
    (True, False)
    """
    decl = game.decl
    key = ("mex", decl.name, id(decl), repr(sorted((k, str(v)) for k, v in game.params.items())))
    known = {} if known is None else known
    if key in known:
        return known[key]
    ok = False
    # symbolic params stay free: the check is then for every value of them
    if b.mode == "int" and getattr(decl, "play", None) == NORMAL and hasattr(decl, "moves"):
        scratch = Builder(b.ns, "int", b.bits, b.ctx)
        coords = [scratch.var(f"{c}!mex") for c in decl.position]
        pos: Any = tuple(coords) if len(coords) > 1 else coords[0]
        total = z3.Sum(coords) if len(coords) > 1 else coords[0]

        def descends(q: Any) -> Any:
            qs = [scratch.to_term(c) for c in (q if isinstance(q, tuple) else (q,))]
            return z3.And(*[c >= 0 for c in qs], (z3.Sum(qs) if len(qs) > 1 else qs[0]) < total)
        try:
            goal = scratch.to_bool(scratch.over_options(game, pos, False, descends))
            ob, _ = scratch.obligation()
            s = SteadySolver(b.ctx)
            s.add(*scratch.assertions(), *[c >= 0 for c in coords], z3.Not(z3.And(goal, ob)))
            ok = check(Budget.seconds(seconds), s) == z3.unsat   # abstractions only add models
        except (Untranslatable, NimjosError):
            ok = False
    known[key] = ok
    return ok


def provider(b: Builder, fn: Any, game: Any, known: dict | None = None) -> tuple[Callable | None, str]:
    """(args -> [the mex facts at the position args, guarded by "every coordinate >= 0"], words for the scope),
    or (None, "") when the game's moves are not shown to terminate (module docstring)."""
    if not terminates(b, game, known):
        return None, ""

    def at(*args: Any) -> list:
        pos = tuple(args) if len(args) > 1 else args[0]
        guard = z3.And(*[a >= 0 for a in args])
        return [z3.Implies(guard, f) for f in mex_facts_at(b, fn, game, pos)]
    return at, WHERE


def names_options(plan: Any) -> bool:
    """Does the claim's statement or assumption name the options of a game (``options(g, p)``)? Only such a claim
    is given the mex facts (:class:`checkers.prove.attempt.Context`).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> names_options(spec.claim("p-iff-no-p-option").plan()), names_options(spec.claim("nim2-from-grundy").plan())
    (True, False)
    """
    for tree in plan.expression_trees():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "options":
                return True
    return False


def combined(*providers: Callable[[Any, Any, Any], tuple[Any, str]]) -> Callable[[Any, Any, Any], tuple[Any, str]]:
    """One fact provider from several (:meth:`checkers.z3.translate.Builder.grundy_facts`): the facts of each
    that applies, the words of each joined.

    >>> p = combined(lambda b, fn, g: (lambda *a: ["f"], "one"), lambda b, fn, g: (None, ""))
    >>> at, words = p(None, None, None); at(1), words
    (['f'], 'one')
    """
    def provide(b: Any, fn: Any, game: Any) -> tuple[Any, str]:
        found = [(at, words) for at, words in (p(b, fn, game) for p in providers) if at is not None]
        if not found:
            return None, ""

        def at(*args: Any) -> list:
            return [f for a, _ in found for f in a(*args)]
        return at, "; ".join(w for _, w in found)
    return provide
