"""The certificate queries of a game claim at a symbolic position, which make the local certificate
(:mod:`checkers.certificate`) a proof by induction: every move stays in the domain (closure) and
decreases a measure (descent; declared, the coordinate sum, one coordinate, or found by a search of
:mod:`checkers.prove.measures`), (a) along each move family, values non-negative (grundy), and (b) by a Z3
search for the witness move or by the claim's strategy, case by case (with a query that the listed cases
cover every position). Each query is built in its own builder. In misère play (P-positions only) condition (b) is
asked of the positions that have a move, and (c) says that every claimed P-position has a move (a terminal position
is an N-position).

>>> import time
>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> from checkers.prove.attempt import Context
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]; plan = c.plan()
>>> ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 20)
>>> [(r.name, r.status) for r in (q() for q in GameQueries(ctx, "grundy").queries())]  # doctest: +NORMALIZE_WHITESPACE
[('every move decreases the coordinate sum', 'holds'), ('move 1 stays in the domain', 'holds'),
 ('(a) along move 1', 'holds'), ('values are non-negative', 'holds'), ('(b) some option has each lower value', 'holds')]
"""
from __future__ import annotations

import ast
from typing import Any, Callable

import z3

from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import copy_tree
from checkers.prove.measures import HINT, MAX_COORDS, MAX_QUERIES, candidates, measure_text
from checkers.prove.scope import show_values
from checkers.prove.attempt import Context, Query, QueryResult, QueryRole
from checkers.z3.solver import cases
from checkers.prove.strategy import read_strategy
from checkers.z3.terms import GameRef, Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.modes import Mode

class GameQueries:
    """The certificate at a symbolic position, as queries (each built in its own builder)."""

    def __init__(self, ctx: Context, kind: Mode):
        self.ctx = ctx
        self.kind = kind
        self.coords = ctx.plan.coords
        plan = ctx.plan
        assert plan.game is not None, "a claim about a game"
        self.game_tree = copy_tree(plan.game.tree)
        self.assume = copy_tree(plan.assume.tree) if plan.assume is not None else None
        formula, families = getattr(plan, "formula", None), getattr(plan, "families", None)
        self.formula = copy_tree(formula.tree) if formula is not None else None
        self.families = None if families is None else \
            [(copy_tree(f.binder.tree), copy_tree(f.point.tree)) for f in families]
        self.strategy = read_strategy(plan)
        #: the game is played in misère play: (b) only where a move exists, and the terminal condition (c)
        self.misere = bool(getattr(ctx.plan, "misere", False))
        if self.misere and kind != Mode.P:
            raise Untranslatable("in misère play the local certificate judges P-positions only")

    def setup(self) -> tuple[Builder, dict, list, GameRef, Any]:
        b, env, hyps = self.ctx.builder()
        game = b.term(self.game_tree, env)
        if not isinstance(game, GameRef):
            raise Untranslatable("the game has no declared moves to translate")
        pos = tuple(env[c] for c in self.coords) if len(self.coords) > 1 else env[self.coords[0]]
        if self.assume is not None:
            hyps.append(b.formula(self.assume, env))
        return b, env, hyps, game, pos

    def label(self, b: Builder, env: dict, q: Any) -> Any:
        """g(q) for grundy claims; the Boolean 'q is a claimed P-position' for p_positions claims."""
        e = dict(env)
        e.update(zip(self.coords, q if isinstance(q, tuple) else (q,)))
        if self.kind == Mode.GRUNDY or self.families is None:
            assert self.formula is not None, "a grundy claim, or a P-position claim without families, has a formula"
            return b.term(self.formula, e) if self.kind == Mode.GRUNDY else b.formula(self.formula, e)
        parts = []
        for where, point in self.families:
            names = [n for n in variables_of(where, self.ctx.ns) if n not in e] + \
                    [n for n in variables_of(point, self.ctx.ns) if n not in e]
            names = list(dict.fromkeys(names))
            parts.append(b.quantifier(True, names, lambda vs, where=where, names=names: b.formula(where, {**e, **dict(zip(names, vs))}),
                                      lambda vs, point=point, names=names: b.compare(ast.Eq, b.term(point, {**e, **dict(zip(names, vs))}), q)))
        return b._any(parts)

    def in_domain(self, b: Builder, env: dict, q: Any) -> Any:
        """The domain's conditions that mention coordinates, at q."""
        e = dict(env)
        e.update(zip(self.coords, q if isinstance(q, tuple) else (q,)))
        parts = []
        for tree, names in self.ctx.conditions():
            if names & set(self.coords):
                parts.append(b.formula(tree, e))
        if self.assume is not None and set(variables_of(self.assume, self.ctx.ns)) & set(self.coords):
            parts.append(b.formula(self.assume, e))
        if self.ctx.mode == "bv" and self.ctx.width:
            for c in (q if isinstance(q, tuple) else (q,)):
                parts.append(b.to_term(c) < (1 << self.ctx.width))
        return b._all(parts)

    def watch(self, env: dict, extra: dict | None = None) -> dict:
        w = {n: env[n] for n in self.ctx.dom.symbolic if n in env}
        w.update(extra or {})
        return w

    def coords_terms(self, env: dict) -> list:
        return [env[c] for c in self.coords if is_term(env[c])]

    def queries(self) -> list[Callable[[], QueryResult]]:
        """The list of queries, each a thunk (so that time runs out between them)."""
        out: list = []
        b0, env0, _, game0, _ = self.setup()
        out.append(self.q_descent_all)
        for i, fam in enumerate(game0.decl.moves):
            out.append(lambda i=i: self.q_closure(i))
            out.append(lambda i=i: self.q_a(i))
        if self.kind == Mode.GRUNDY:
            out.append(self.q_nonnegative)
        if self.misere:
            out.append(self.q_c_terminal)
        if self.strategy is None:
            out.append(self.q_b_search)
        else:
            for j in range(len(self.strategy.cases)):
                out.append(lambda j=j: self.q_b_strategy(j))
            if self.strategy.listed:
                out.append(self.q_b_cover)
        return out

    def _move(self, b: Builder, game: GameRef, pos: Any, i: int) -> tuple[Any, Any, dict]:
        fam = game.decl.moves[i]
        vs = [b.var(f"{n}!m{i}") for n in fam.binder.names]
        cond, q = b.move(game, pos, fam, vs)
        return cond, q, dict(zip(fam.binder.names, vs))

    def q_descent_all(self) -> QueryResult:
        """Every move keeps the coordinates >= 0 and decreases one measure: the game's own ``measure`` when it
        declares one (:meth:`q_measure`), else the coordinate sum, or else one coordinate (so every play ends and
        induction applies), or else a measure found by a search (:meth:`q_found_measure`)."""
        decl = self.setup()[3].decl
        if decl.measure:
            return self.q_measure(decl.measure, decl.measure_trees)
        measures = [None] + list(range(len(self.coords))) if len(self.coords) > 1 else [None]
        first: QueryResult | None = None
        refuted = True      # every measure tried was refuted by a Z3 model (no 'unknown', no broken obligation)
        n_moves = len(decl.moves)
        for m in measures:
            what = "the coordinate sum" if m is None else f"coordinate {self.coords[m]}"
            res = None
            for i in range(n_moves):
                res = self.q_descent(i, m, what)
                if res.status != "holds":
                    break
            if res is not None and res.status == "holds":
                return QueryResult(f"every move decreases {what}", "holds", query=Query(QueryRole.DESCENT))
            first = first or res
            refuted = refuted and res is not None and res.status == "fails"
            if res is not None and res.status == "unknown":
                break
        if first is None:   # no move family (a spec's game has at least one): every play ends at once
            return QueryResult("there is no move", "holds", query=Query(QueryRole.DESCENT))
        return self.q_found_measure(first) if refuted else first

    def q_descent(self, i: int, measure: int | None, what: str) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        qs = q if isinstance(q, tuple) else (q,)
        ps = pos if isinstance(pos, tuple) else (pos,)
        dec = b.compare(ast.Lt, _sum(b, qs), _sum(b, ps)) if measure is None else b.compare(ast.Lt, qs[measure], ps[measure])
        goal = b._all([b.compare(ast.GtE, c, 0) for c in qs] + [dec])
        return self.ctx.run(f"move {i + 1} decreases {what}", b, hyps + [b.to_bool(cond)], goal,
                            self.watch(env, bound), self.coords_terms(env), query=Query(QueryRole.DESCENT, i))

    def q_measure(self, texts: tuple[str, ...], declared: tuple[ast.expr, ...]) -> QueryResult:
        """The game's declared measure is a termination measure, proved before the induction relies on it: each
        of its expressions is an integer >= 0 at every position of the domain (under the assumption), and every
        move keeps the coordinates >= 0 and decreases the measure (lexicographically, for a list). With closure,
        every play from the domain stays in it and ends: the induction on the measure is well founded. `texts`
        are the measure as written, `declared` its trees as the game's declaration parsed them."""
        trees = tuple(copy_tree(t) for t in declared)
        res = self._measure_bounded(texts, trees)
        if res.status != "holds":
            return res
        for i in range(len(self.setup()[3].decl.moves)):
            res = self._measure_move(i, texts, trees)[0]
            if res.status != "holds":
                return res
        return QueryResult(f"every move decreases {measure_text(texts)}, bounded below by 0 on the domain", "holds",
                           query=Query(QueryRole.DESCENT))

    def _measure_bounded(self, texts: tuple[str, ...], trees: tuple) -> QueryResult:
        """Each expression of a measure is >= 0 at every position of the domain (under the assumption)."""
        b, env, hyps, game, pos = self.setup()
        bounded = b._all([b.compare(ast.GtE, m, 0) for m in self._measure_terms(b, game, pos, trees)])
        return self.ctx.run(f"{measure_text(texts)} is bounded below by 0 on the domain", b, hyps, bounded,
                            self.watch(env), self.coords_terms(env), query=Query(QueryRole.DESCENT))

    def _measure_move(self, i: int, texts: tuple[str, ...], trees: tuple,
                      small: bool = True) -> tuple[QueryResult, tuple | None]:
        """Move i keeps the coordinates >= 0 and decreases a measure (lexicographically, for a list); with a
        failure, the coordinates before and after the model's move (None when it has no model), and the model
        made small when `small` (the search does without: its models are read, not shown)."""
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        before, after = self._measure_terms(b, game, pos, trees), self._measure_terms(b, game, q, trees)
        # lexicographic: equal on the first j components and smaller on the next one, for some j
        dec = b._any([b._all([b.compare(ast.Eq, after[k], before[k]) for k in range(j)]
                             + [b.compare(ast.Lt, after[j], before[j])]) for j in range(len(trees))])
        qs = q if isinstance(q, tuple) else (q,)
        ps = pos if isinstance(pos, tuple) else (pos,)
        goal = b._all([b.compare(ast.GtE, c, 0) for c in qs] + [dec])
        watch = self.watch(env, bound)
        # the coordinates before and after the move, read from a model under keys no name can have
        coords = {("before", k): p for k, p in enumerate(ps)} | {("after", k): c for k, c in enumerate(qs)}
        res = self.ctx.run(f"move {i + 1} decreases {measure_text(texts)}", b, hyps + [b.to_bool(cond)], goal,
                           {**watch, **coords}, self.coords_terms(env) if small else None,
                           query=Query(QueryRole.DESCENT, i))
        read = {k: res.values.pop(k) for k in coords if k in res.values}
        if len(read) != len(coords) or not all(type(v) is int for v in read.values()):
            return res, None
        return res, (tuple(read[("before", k)] for k in range(len(ps))), tuple(read[("after", k)] for k in range(len(ps))))

    def q_found_measure(self, first: QueryResult) -> QueryResult:
        """A termination measure for a game that declares none, where the coordinate sum and each coordinate
        failed (`first` is the first failure): the candidates of :func:`checkers.prove.measures.candidates` in
        order, each skipped when a move already seen does not decrease it, else asked of Z3 move by move (the
        move that refuted the last candidate first) and, once every move decreases it, proved bounded below by 0
        on the domain, as a declared measure is (closure is asked separately). At most
        :data:`checkers.prove.measures.MAX_QUERIES` queries; when no measure is found, `first` is returned with
        why in its text and that a declared ``measure`` can give one."""
        decl = self.setup()[3].decl
        names = decl.position

        def give_up(why: str) -> QueryResult:
            return QueryResult(first.name, first.status, first.values, f"{why}; {HINT}", query=first.query)

        if len(names) == 1:
            return give_up("no termination measure searched (the game has one coordinate)")
        if self.ctx.mode != "int":
            return give_up("no termination measure searched with bit-vectors (a measure is checked over the "
                           "integers only)")
        if len(names) > MAX_COORDS:
            return give_up(f"no termination measure searched (the game has {len(names)} coordinates, more than "
                           f"{MAX_COORDS})")
        seen: list[tuple] = []
        order = list(range(len(decl.moves)))
        asked = 0
        for cand in candidates(names):
            if not all(cand.decreases(d) for d in seen):
                continue
            trees = cand.trees()
            failed: tuple | None = None
            for i in order:
                if asked >= MAX_QUERIES:
                    return give_up(f"no termination measure found in {_queries(asked)} (the search asks at "
                                   f"most {MAX_QUERIES})")
                asked += 1
                try:
                    res, change = self._measure_move(i, cand.texts, trees, small=False)
                except Untranslatable as exc:
                    return give_up(f"no termination measure searched ({exc})")
                if res.status != "holds":
                    failed = (i, res, change)
                    break
            if failed is None:
                res = self._measure_bounded(cand.texts, trees)
                if res.status != "holds":
                    return give_up(f"every move decreases {measure_text(cand.texts)}, found by a search, but "
                                   f"'{res.name}' {_failed_words(res)}")
                return QueryResult(f"every move decreases {measure_text(cand.texts)} (found by a search: the game "
                                   "declares no measure), bounded below by 0 on the domain", "holds",
                                   measure=cand.texts, query=Query(QueryRole.DESCENT))
            i, res, change = failed
            if res.status != "fails" or change is None:
                return give_up(f"the search for a termination measure stopped: '{res.name}' {_failed_words(res)}")
            before, after = change
            if any(c < 0 for c in after):
                return give_up(f"no termination measure helps: move {i + 1} gives a negative coordinate at "
                               f"{show_values(res.values)}")
            seen.append(tuple(a - p for p, a in zip(before, after)))
            order.remove(i)
            order.insert(0, i)
        return give_up("no termination measure found: no weighted sum of the coordinates with weights "
                       f"1..4 and no lexicographic order of them decreases on every move ({_queries(asked)}; "
                       "the counterexamples found rule out every other candidate)")

    def _measure_terms(self, b: Builder, game: GameRef, pos: Any, trees: tuple) -> list:
        """A measure's expressions at a position, as integer terms (a term of another sort, such as a
        quotient, is refused: only an integer measure bounded below is well founded)."""
        env = b.position_env(game, pos)
        out = []
        for tree in trees:
            term = b.term(tree, env)
            if isinstance(term, bool) or not (isinstance(term, int) or (z3.is_expr(term) and z3.is_int(term))):
                raise Untranslatable(f"the measure {ast.unparse(tree)} is not an integer term here: a measure is "
                                     "checked over the integers only")
            out.append(term)
        return out

    def q_closure(self, i: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        goal = self.in_domain(b, env, q)
        return self.ctx.run(f"move {i + 1} stays in the domain", b, hyps + [b.to_bool(cond)], goal,
                            self.watch(env, bound), self.coords_terms(env), query=Query(QueryRole.CLOSURE, i))

    def q_a(self, i: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        lp, lq = self.label(b, env, pos), self.label(b, env, q)
        name = f"(a) along move {i + 1}"
        tag = Query(QueryRole.A, i)
        if self.kind == Mode.GRUNDY:
            goal = b.compare(ast.NotEq, lq, lp)
            return self.ctx.run(name, b, hyps + [b.to_bool(cond)], goal, self.watch(env, bound), self.coords_terms(env),
                                query=tag)
        # a P-position and its option both in the set: split both memberships into their cases
        base = hyps + [b.to_bool(cond)]
        names = self.ctx.solver.names
        combos = [(cp, cq) for cp in cases(b.to_bool(lp), names) for cq in cases(b.to_bool(lq), names)]
        if len(combos) > 64:
            combos = [(b.to_bool(lp), b.to_bool(lq))]
        for k, (cp, cq) in enumerate(combos):
            extra = [cp, cq]
            res = self.ctx.run(name + (f" (case {k + 1} of {len(combos)})" if len(combos) > 1 else ""), b,
                               base + extra + b.ground_facts(base + extra), False, self.watch(env, bound),
                               self.coords_terms(env), query=tag)
            if res.status != "holds":
                return res
        return QueryResult(name, "holds", query=tag)

    def q_nonnegative(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        goal = b.compare(ast.GtE, self.label(b, env, pos), 0)
        return self.ctx.run("values are non-negative", b, hyps, goal, self.watch(env), self.coords_terms(env),
                            query=Query(QueryRole.NONNEGATIVE))

    def _target(self, b: Builder, env: dict, hyps: list, pos: Any, game: GameRef) -> tuple[Any, list]:
        """(v, extra hypotheses) of condition (b): a value below g(p), or 'p is not a claimed P-position' (and, in
        misère play, 'p has a move')."""
        if self.kind == Mode.GRUNDY:
            name = self.strategy.value if self.strategy is not None else "v"
            v = b.var(name)
            return v, [b.to_bool(b.compare(ast.GtE, v, 0)), b.to_bool(b.compare(ast.Lt, v, self.label(b, env, pos)))]
        extra = [z3.Not(b.to_bool(self.label(b, env, pos)))]
        if self.misere:
            extra.append(b.to_bool(self._has_move(b, game, pos)))
        return None, extra

    @staticmethod
    def _has_move(b: Builder, game: GameRef, pos: Any) -> Any:
        """'the position has an option' (one existential quantifier per move family)."""
        return b.over_options(game, pos, True, lambda q: True)

    def q_c_terminal(self) -> QueryResult:
        """(c) of misère play: every claimed P-position has a move (no terminal position is in the set)."""
        b, env, hyps, game, pos = self.setup()
        goal = self._has_move(b, game, pos)
        return self.ctx.run("(c) no claimed P-position is terminal (misère play)", b,
                            hyps + [b.to_bool(self.label(b, env, pos))], goal, self.watch(env), self.coords_terms(env),
                            query=Query(QueryRole.C))

    def _reaches(self, b: Builder, env: dict, q: Any, v: Any) -> Any:
        lq = self.label(b, env, q)
        return b.compare(ast.Eq, lq, v) if self.kind == Mode.GRUNDY else lq

    def q_b_search(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos, game)
        goal = b.over_options(game, pos, True, lambda q: self._reaches(b, env, q, v))
        watch = self.watch(env, {"v": v} if v is not None else {})
        return self.ctx.run("(b) some option has each lower value" if self.kind == Mode.GRUNDY else
                            "(b) every other position has an option in the set", b, hyps + extra, goal, watch,
                            self.coords_terms(env), query=Query(QueryRole.B))

    def _strategy_env(self, b: Builder, env: dict, v: Any) -> dict:
        assert self.strategy is not None, "the strategy's queries are asked of a claim with a strategy"
        e = dict(env)
        if v is not None:
            e[self.strategy.value] = v
        for name, tree in self.strategy.let:
            e[name] = b.term(tree, e)
        return e

    def q_b_strategy(self, j: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos, game)
        e = self._strategy_env(b, env, v)
        assert self.strategy is not None, "the strategy's queries are asked of a claim with a strategy"
        whens, move = self.strategy.cases[j]
        conds = [b.formula(w, e) if not isinstance(w, tuple) else z3.Not(b.formula(w[1], e)) for w in whens]
        q = b.term(move, e)
        goal = b._all([b.is_option(game, pos, q), self._reaches(b, env, q, v)])
        watch = self.watch(env, {"v": v} if v is not None else {})
        return self.ctx.run(f"(b) by the strategy, case {j + 1}", b, hyps + extra + [b.to_bool(c) for c in conds],
                            goal, watch, self.coords_terms(env), query=Query(QueryRole.STRATEGY))

    def q_b_cover(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos, game)
        e = self._strategy_env(b, env, v)
        assert self.strategy is not None, "the strategy's queries are asked of a claim with a strategy"
        goal = b._any([b.formula(w[0], e) for w, _ in self.strategy.cases if w])
        return self.ctx.run("(b) the strategy's cases cover every position", b, hyps + extra, goal, self.watch(env),
                            self.coords_terms(env), query=Query(QueryRole.STRATEGY))


def _failed_words(res: QueryResult) -> str:
    """How a query ended that did not hold, for a note: Z3's reason, or where it fails."""
    if res.status == "unknown":
        return f"was not decided by Z3 ({res.text})"
    return f"fails at {show_values(res.values)}" + (f" ({res.text})" if res.text else "")


def _queries(n: int) -> str:
    """ "1 Z3 query", "3 Z3 queries"."""
    return f"{n} Z3 quer{'y' if n == 1 else 'ies'}"


def _sum(b: Builder, xs: tuple) -> Any:
    out: Any = 0
    for x in xs:
        out = b.binop(ast.Add, out, x)
    return out
