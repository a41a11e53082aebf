"""Maximum Nim's Grundy values, proved once for every rule function and then used as facts about G.

A game whose one move family is ``x -> x - t`` for ``1 <= t <= f(x)`` is Maximum Nim with the rule function f.
When f is a rule function (f(0) = 0 and 0 <= f(m) - f(m - 1) <= 1), its Grundy function satisfies

    G(0) = 0,   G(x) = f(x) when f(x) > f(x - 1),   G(x) = G(x - f(x) - 1) when f(x) = f(x - 1)   (x >= 1)

(000 Lemma 2.3, 001 Lemma 2.2). :func:`general_lemma` proves this with Z3 for an unknown f that satisfies
only those two axioms, by strong induction on x, carrying the invariant of the papers' proof: on the window
W(y) = [y - f(y), y] the values of G are 0, 1, ..., f(y), each once. It is proved once per process (about
0.1 s); if Z3 does not finish, no facts are given. :func:`facts` then states the lemma for one game, after
Z3 has shown that the game's own f is a rule function; the prover adds those facts wherever G of such a
game appears, so a claim about G(maxnim(k), x) is proved from the moves, not from the claim.

The induction step, with G, f, pos (the position of each value on the window) and opt (an option with each
lower value) as unknown functions, for a symbolic x >= 0:

* hypotheses: the axioms of f; for every 0 <= y < x, the invariant at y (with pos(y, v) its witness) and the
  lemma at y; the mex facts at x (no option has G(x); opt(v) is an option with G = v for each v < G(x));
  pos(x, v) defined as x for v = G(x), else pos(x - 1, v) (nothing else mentions pos(x, .)); three ground
  instances of these, which give E-matching the terms it needs;
* goals, one query each: the lemma at x, and the invariant at x (values in 0..f(x), pos(x, .) inverts G
  on W(x), pos(x, v) in W(x) for each v <= f(x)). Each goal after the first may use the first.

>>> ok, text = general_lemma()
>>> ok, text.split(";")[0]
(True, 'proved for every rule function f by strong induction on x (Z3, 6 queries)')
"""
from __future__ import annotations

import ast
import functools
from typing import Any

import z3

from nimjos.lang.errors import NimjosError
from nimjos.lang.syntax import copy_tree, parse
from checkers.z3.budget import Budget, check
from checkers.z3.terms import Untranslatable, constants_of, is_term
from checkers.z3.translate import Builder
from checkers.z3.steady import SteadySolver

#: seconds each query of the general lemma may take (in resource units: checkers.z3.budget)
LEMMA_SECONDS = 20
#: the part of the lemma's scope shown in a verdict
WHERE = "000 Lemma 2.3 (G of Maximum Nim for every rule function, proved by induction)"


# a pure cache: the lemma is one fixed statement proved in a Z3 context of its own with a count limit (rlimit),
# so its answer is the same whoever asks first; no claim's terms or state reach it
@functools.lru_cache(maxsize=1)
def general_lemma(seconds: float = LEMMA_SECONDS) -> tuple[bool, str]:
    """(proved, how): the induction step of the lemma in the module docstring, in its own Z3 context."""
    ctx = z3.Context()
    queries = _lemma_queries(ctx)
    for name, solver in queries:
        r = check(Budget.seconds(seconds), solver)   # resource units, not seconds: the same on a loaded machine
        if r != z3.unsat:
            return False, f"Z3 did not prove the step '{name}' ({r})"
    return True, (f"proved for every rule function f by strong induction on x (Z3, {len(queries)} queries)")


def _lemma_queries(ctx: z3.Context) -> list[tuple[str, z3.Solver]]:
    I = z3.IntSort(ctx)
    x, y, z, v, m = (z3.Int(n, ctx) for n in ("x", "y", "z", "v", "m"))
    G = z3.Function("G", I, I)
    F = z3.Function("f", I, I)
    pos = z3.Function("pos", I, I, I)
    opt = z3.Function("opt", I, I)
    ForAll, Implies, And = z3.ForAll, z3.Implies, z3.And

    def lemma(q: Any) -> Any:
        return And(Implies(And(q >= 1, F(q) > F(q - 1)), G(q) == F(q)),
                   Implies(And(q >= 1, F(q) == F(q - 1)), G(q) == G(q - F(q) - 1)))

    def in_window(q: Any, a: Any) -> Any:
        return And(q - F(q) <= a, a <= q)

    def invariant(q: Any) -> list:
        return [ForAll([z], Implies(in_window(q, z), And(0 <= G(z), G(z) <= F(q), pos(q, G(z)) == z)),
                       patterns=[G(z)]),
                ForAll([v], Implies(And(0 <= v, v <= F(q)), And(in_window(q, pos(q, v)), G(pos(q, v)) == v)),
                       patterns=[pos(q, v)])]

    def option(a: Any) -> Any:
        return And(x - F(x) <= a, a <= x - 1)

    def below(y_: Any) -> Any:
        return And(0 <= y_, y_ < x)

    prev, back = x - 1, x - 1 - F(x)
    hyps = [x >= 0,
            F(0) == 0,
            ForAll([m], Implies(m >= 1, And(F(m - 1) <= F(m), F(m) <= F(m - 1) + 1)), patterns=[F(m)]),
            ForAll([m], Implies(m >= 0, F(m) >= 0), patterns=[F(m)]),
            ForAll([y], Implies(below(y), And(*invariant(y))), patterns=[F(y)]),
            ForAll([y], Implies(below(y), lemma(y)), patterns=[z3.MultiPattern(F(y), G(y))]),
            G(x) >= 0,
            ForAll([z], Implies(option(z), G(z) != G(x)), patterns=[G(z)]),
            ForAll([v], Implies(And(0 <= v, v < G(x)), And(option(opt(v)), G(opt(v)) == v)), patterns=[opt(v)]),
            ForAll([v], pos(x, v) == z3.If(v == G(x), x, pos(x - 1, v)), patterns=[pos(x, v)]),
            # three instances of the lines above (the invariant at x - 1 with v = G(x); the option with value
            # v = G(x - 1 - f(x)) and v = f(x)), as ground terms E-matching needs
            Implies(And(x >= 1, 0 <= G(x), G(x) <= F(prev)),
                    And(in_window(prev, pos(prev, G(x))), G(pos(prev, G(x))) == G(x))),
            *[Implies(And(0 <= w_, w_ < G(x)), And(option(opt(w_)), G(opt(w_)) == w_)) for w_ in (G(back), F(x))]]
    gx = G(x) == z3.If(And(x >= 1, F(x) == F(x - 1)), G(back), F(x))
    goals = [("G(x)", gx),
             ("values on W(x) in 0..f(x)", ForAll([z], Implies(in_window(x, z), And(0 <= G(z), G(z) <= F(x))))),
             ("pos(x, .) inverts G on W(x)", ForAll([z], Implies(in_window(x, z), pos(x, G(z)) == z))),
             ("each value 0..f(x) on W(x)", ForAll([v], Implies(And(0 <= v, v <= F(x)),
                                                                And(in_window(x, pos(x, v)), G(pos(x, v)) == v)))),
             ("the lemma at x", lemma(x)),
             ("G(0) = 0", Implies(x == 0, G(x) == 0))]
    out = []
    for i, (name, goal) in enumerate(goals):
        # z3.SolverFor makes the logic's name in z3's default context: the same solver, all of it in ctx
        s = z3.Solver(z3.Z3_mk_solver_for_logic(ctx.ref(), z3.to_symbol("UFLIA", ctx)), ctx)
        s.set("smt.mbqi", False)
        s.add(*hyps)
        if i:
            s.add(gx)  # the first goal, proved by its own query from the same hypotheses
        s.add(z3.Not(goal))
        out.append((name, s))
    return out


def warm_up(ns: Any) -> None:
    """Prove the general lemma now when a game of the namespace has Maximum Nim's moves, so that its one-time
    cost is not taken from the time of the claim that first needs it.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> warm_up(load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml").namespace)
    >>> general_lemma.cache_info().currsize
    1
    """
    if any(rule_function_of(decl) is not None for decl in ns.games.values()):
        general_lemma()


def rule_function_of(decl: Any) -> ast.expr | None:
    """The tree of f when the game's moves are x -> x - t for 1 <= t <= f(x) (one family, one coordinate),
    else None.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
    >>> ast.unparse(rule_function_of(spec.namespace.games["maxnim"]))
    'floor(x / k)'
    >>> rule_function_of(spec.namespace.games["sub2"]) is None
    True
    """
    if len(decl.position) != 1 or len(decl.moves) != 1:
        return None
    fam = decl.moves[0]
    (coord,) = decl.position
    levels = fam.binder.levels
    if len(levels) != 1 or levels[0].members is not None or levels[0].filters or fam.binder.pre_filters:
        return None
    level = levels[0]
    t = level.name
    to = fam.to_tree
    if not (isinstance(to, ast.BinOp) and isinstance(to.op, ast.Sub) and _is_name(to.left, coord) and _is_name(to.right, t)):
        return None
    if level.low_text != ["1"] or len(level.high_text) != 1 or any(s for _, s in level.lows + level.highs):
        return None
    return copy_tree(level.high_trees[0])


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _pure_function(b: Any, f_tree: ast.expr, coord: str, params: dict) -> Any:
    """The scratch builder in which q -> f(q) translates with no abstraction (integer world), or None. With
    constant params f is a plain term; with k symbolic floor(q / k) is a fresh quotient with its defining
    inequalities, and f needs k != 0 (an obligation): the caller proves both hold."""
    if b.mode != "int":
        return None
    scratch = Builder(b.ns, "int", b.bits, b.ctx)
    probe = z3.Int("q!probe", b.ctx)
    try:
        scratch.to_term(scratch.term(f_tree, {**params, coord: probe}))
    except (Untranslatable, NimjosError):  # a construct the translator refuses: no facts
        return None
    top = scratch.scopes[0]
    if scratch.abstractions or (not any(is_term(v) for v in params.values()) and (top.defs or top.fresh or
                                                                                   top.obligations)):
        return None
    return scratch


def _side_conditions(given: list, params: dict) -> list:
    """The hypotheses of a query that speak of the game's symbolic params alone (k >= 2): the facts about G of
    maxnim(k) hold for every k they allow (each query assumes them too).

    >>> k, x = z3.Ints("k x")
    >>> h = z3.Function("h", z3.IntSort(), z3.IntSort())
    >>> _side_conditions([k >= 2, x >= 0, k * x > 3, h(k) > 0, z3.ForAll([x], z3.Implies(x < k, x < 2 * k))], {"k": k})
    [k >= 2]
    """
    mine = {c.get_id() for v in params.values() if is_term(v) for c in constants_of(v)}
    if not mine:
        return []
    out: dict = {}
    flat: list = []
    todo = list(given)
    while todo:   # conjunctions split, so that each condition on k is read (and printed) alone
        h = todo.pop(0)
        if is_term(h) and z3.is_and(h):
            todo[:0] = list(h.children())
        else:
            flat.append(h)
    for h in flat:
        if is_term(h) and z3.is_bool(h) and _arithmetic(h) and constants_of(h) and \
                all(c.get_id() in mine for c in constants_of(h)):
            out.setdefault(str(h), h)
    return list(out.values())


def _arithmetic(e: Any) -> bool:
    """Is a Z3 term quantifier-free arithmetic on constants (no unknown function)?"""
    if z3.is_quantifier(e) or not z3.is_app(e):
        return False
    if e.decl().kind() == z3.Z3_OP_UNINTERPRETED and e.num_args():
        return False
    return all(_arithmetic(c) for c in e.children())


def facts(b: Any, fn: Any, game: Any, seconds: float = 5.0, known: dict | None = None,
          given: list | None = None) -> tuple[Any, str]:
    """(q -> [the lemma's facts about G(q)], words for the scope), or (None, "") when the game is not Maximum
    Nim with a rule function, its f is not shown to be one, or the general lemma is not proved. `known` holds
    the answers of the checks that f is a rule function made in b's Z3 context (the proof attempt's
    :class:`checkers.context.SolverContext`), so each is made once per attempt, never shared with another.
    A game with symbolic params (maxnim(k), k symbolic) gets the facts when its f is shown to be a rule function
    for every value of the params that the query's hypotheses on them alone allow (`given`: k >= 2), f defined
    there (k != 0); the words then say so.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> from checkers.z3.terms import GameRef
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
    >>> b = Builder(spec.namespace, "int", 0)
    >>> x = b.var("x")
    >>> _ = b.term(parse("G(maxnim(3), x)"), {"x": x})
    >>> (fn, game), = b.grundy.values()
    >>> at, words = facts(b, fn, game)
    >>> len(at(x)), words == WHERE
    (3, True)
    >>> facts(b, fn, GameRef(spec.namespace.games["shifted"], {"k": 3}))
    (None, '')
    """
    f_tree = rule_function_of(game.decl)
    if f_tree is None:
        return None, ""
    (coord,) = game.decl.position
    scratch = _pure_function(b, f_tree, coord, dict(game.params))
    if scratch is None:
        return None, ""
    side = _side_conditions(list(given or []), dict(game.params))
    # one Z3 check per f, parameters and side conditions, not one per query (keyed by f's text: two games of one
    # name may differ)
    key = (ast.unparse(f_tree), coord, repr(sorted((n, str(v)) for n, v in game.params.items())),
           repr(sorted(str(h) for h in side)))
    known = {} if known is None else known
    if key not in known:
        # the negation of "f(0) = 0 and 0 <= f(m) - f(m - 1) <= 1 for every m >= 1, f defined there", with m a
        # constant: its quotients are then plain constants with their definitions
        m = z3.Int(f"{fn.name()}!m", b.ctx)
        f0, fm, fm1 = (scratch.to_term(scratch.term(f_tree, {**game.params, coord: q}))
                       for q in (z3.IntVal(0, b.ctx), m, m - 1))
        defined, _ = scratch.obligation()
        s = SteadySolver(b.ctx)
        s.add(*side, *scratch.assertions())
        s.add(z3.Not(z3.And(defined, f0 == 0, z3.Implies(m >= 1, z3.And(fm1 <= fm, fm <= fm1 + 1)))))
        known[key] = check(Budget.seconds(seconds), s) == z3.unsat
    if not known[key]:
        return None, ""

    def f(q: Any) -> Any:
        """f(q) in the query's own builder (a quotient of k symbolic is shared with the statement's)."""
        return b.to_term(b.term(f_tree, {**game.params, coord: q}))
    ok, _ = general_lemma()
    if not ok:
        return None, ""

    def at(q: Any) -> list:
        fq, fq1 = f(q), f(q - 1)
        return [z3.Implies(q == 0, fn(q) == 0),
                z3.Implies(z3.And(q >= 1, fq > fq1), fn(q) == fq),
                z3.Implies(z3.And(q >= 1, fq == fq1), fn(q) == fn(q - fq - 1))]
    symbolic = sorted(n for n, v in game.params.items() if is_term(v))
    if not symbolic:
        return at, WHERE
    return at, (f"{WHERE}, {', '.join(symbolic)} symbolic: f(x) = {ast.unparse(f_tree)} shown a rule function for "
                f"every {' and '.join(str(h) for h in side) or ', '.join(symbolic)} (Z3)")
