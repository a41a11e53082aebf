"""One proof attempt of the prover: :class:`Context` (the claim, the enumerated values, the world, the time left)
builds each query in a fresh builder, asks Z3 whether the goal holds wherever the hypotheses do (and every
obligation is met), and reads a counterexample back, made small. Facts about G from the Maximum Nim rule-function
lemma and the mex facts of terminating games are passed to the translator here (:mod:`checkers.prove.rule_function`
and :mod:`checkers.prove.mex` are the fact providers), so the translator never imports them. Every term and
solver of an attempt is made in its own Z3 context (:class:`checkers.context.SolverContext`, made by the claim's
:class:`checkers.context.CheckContext`), so that answers do not depend on other claims.

>>> import time
>>> from nimjos.lang.syntax import parse
>>> from nimjos.spec.loader import load_spec, ProveOptions
>>> import pathlib
>>> from checkers.prove.domain import proof_domain
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]; plan = c.plan()
>>> ctx = Context(plan, proof_domain(plan, ProveOptions()), {}, "int", None, 0, time.perf_counter() + 5)
>>> b, env, hyps = ctx.builder()
>>> ctx.run("x + 1 > x", b, hyps, b.formula(parse("x + 1 > x"), env), {"x": env["x"]}).status
'holds'
>>> r = ctx.run("x < 3", b, hyps, b.formula(parse("x < 3"), env), {"x": env["x"]}, [env["x"]])
>>> r.status, r.values
('fails', {'x': 3})
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import z3

from nimjos.spec.loader import claim_of
from nimjos.lang.errors import EvalError, SpecError
from nimjos.spec.plan import ClaimPlan
from checkers.context import SolverContext
from checkers.z3.budget import Budget, check, unknown_reason
from checkers.prove.domain import ProofDomain
from checkers.prove.mex import combined, names_options, provider as mex_provider
from checkers.prove.rule_function import facts as rule_function_facts
from checkers.z3.solver import model_value
from checkers.z3.terms import Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.z3.unknown import UnknownFunction, table_of, unknown_function
from nimjos.words import Vocabulary
from checkers.z3.steady import SteadySolver

class QueryStatus(Vocabulary):
    """What Z3 answered to one query: it holds (unsat), it fails (a model), it fails only where an obligation of the
    translation is broken, unknown, or it holds because its hypotheses are never true (vacuous).

    >>> QueryStatus("holds") is QueryStatus.HOLDS
    True
    """

    HOLDS = "holds"
    FAILS = "fails"
    OBLIGATION = "obligation"
    UNKNOWN = "unknown"
    VACUOUS = "vacuous"


class QueryRole(Vocabulary):
    """What one query asks, as data (code that decides reads this, never the query's name, which is for people): a
    holds claim's statement; a game claim's side conditions (the moves decrease a measure, a move stays in the
    domain), the local certificate's conditions (a), (b), (c) and the values' sign, and (b) by the claim's strategy.

    >>> QueryRole("closure") is QueryRole.CLOSURE
    True
    """

    STATEMENT = "statement"
    DESCENT = "descent"
    CLOSURE = "closure"
    A = "a"
    B = "b"
    C = "c"
    NONNEGATIVE = "nonnegative"
    STRATEGY = "strategy"


#: the roles of the local certificate's own conditions: a failure of one is a failure of the certificate at the
#: model's position (not of a strategy's move, a side condition or an obligation)
CERTIFICATE_ROLES: tuple[QueryRole, ...] = (QueryRole.A, QueryRole.B, QueryRole.C, QueryRole.NONNEGATIVE)


@dataclass(frozen=True)
class Query:
    """The typed tag of a query: its role, and the move family it is along (0-based; None for a query about every
    move or none).

    >>> Query(QueryRole.CLOSURE, 1) == Query(QueryRole.CLOSURE, 1), Query(QueryRole.A, 0).along_a_move
    (True, False)
    """

    role: QueryRole
    move: int | None = None

    @property
    def along_a_move(self) -> bool:
        """Is this a side condition asked of one move family (its descent or its closure)?

        >>> Query(QueryRole.DESCENT, 2).along_a_move, Query(QueryRole.DESCENT).along_a_move
        (True, False)
        """
        return self.role in (QueryRole.DESCENT, QueryRole.CLOSURE) and self.move is not None


@dataclass
class QueryResult:
    """unsat (holds) / sat (a model: goal false, or an obligation broken) / unknown."""

    name: str
    status: QueryStatus | str        # made a QueryStatus at construction
    values: dict = field(default_factory=dict)
    text: str = ""
    #: the termination measure a search found and this (holding) query proved, as its expressions
    measure: tuple[str, ...] = ()
    #: what the query asks, as data (None: a query made without a tag)
    query: Query | None = None

    def __post_init__(self) -> None:
        self.status = QueryStatus(self.status)


class Context:
    """One proof attempt: the claim, the enumerated values, the world, and the resources left (a
    :class:`checkers.z3.budget.Budget`; a float is a wall-clock deadline, converted)."""

    def __init__(self, plan: ClaimPlan, dom: ProofDomain, params: dict, mode: str, width: int | None,
                 bits: int, budget: Budget | float, solver: SolverContext | None = None):
        claim = claim_of(plan)
        self.claim = claim
        self.plan = plan
        self.dom = dom
        self.params = params
        self.mode = mode
        self.width = width
        self.bits = bits
        self.budget = budget if isinstance(budget, Budget) else Budget.until(budget)
        self.solver = solver or SolverContext()   # the attempt's Z3 context: every term and solver is made in it
        self.ns = claim.spec.namespace
        self.abstractions: set[str] = set()
        self.skipped: set[int] = set()   # conjuncts of the claim's domain Z3 cannot state

    def builder(self) -> tuple[Builder, dict, list]:
        """A fresh builder, the environment (enumerated values, symbolic names) and the domain's conditions."""
        b = Builder(self.ns, self.mode, self.bits, self.solver.ctx)
        env: dict = dict(self.params)
        hyps: list = []
        for n in self.dom.symbolic:
            if n in self.dom.substituted:
                continue
            v = b.var(n)
            env[n] = v
            if self.mode == "bv" and self.width:
                hyps.append(z3.And(v >= -(1 << self.width), v < (1 << self.width)))
        for n, tree in self.dom.substituted.items():
            env[n] = b.term(tree, env)
        for n, tree in self.dom.functions.items():
            env[n], axioms = unknown_function(b, n, tree, env)
            hyps += axioms
        for tree, names in self.dom.conditions:
            self._condition(b, env, hyps, tree, names)
        for i, (tree, names) in enumerate(self.dom.domain_conditions):
            if i in self.skipped:
                continue
            try:
                self._condition(b, env, hyps, tree, names)
            except (Untranslatable, EvalError, SpecError, KeyError):
                self.skipped.add(i)   # the claim's domain, where Z3 cannot state it: left to the exact checks
        return b, env, hyps

    def conditions(self) -> list:
        """The proof's conditions and the claim's domain (those Z3 can state), as (tree, names)."""
        return self.dom.conditions + [c for i, c in enumerate(self.dom.domain_conditions) if i not in self.skipped]

    def _condition(self, b: Builder, env: dict, hyps: list, tree: Any, names: set) -> None:
        if names & set(self.dom.symbolic):
            hyps.append(b.formula(tree, env))
            return
        try:
            ok = b.term(tree, env)
        except Untranslatable:
            ok = True
        if not is_term(ok) and not ok:
            hyps.append(z3.BoolVal(False, b.ctx))

    def check(self, s: SteadySolver, cap_seconds: float | None = None) -> Any:
        """``s.check()`` within this attempt's budget (at most `cap_seconds` worth), charged to it."""
        return check(self.budget, s, cap_seconds)

    def run(self, name: str, b: Builder, hyps: list, goal: Any, watch: dict, minimise: list | None = None,
            query: Query | None = None) -> QueryResult:
        """Is `goal` true wherever `hyps` hold (and every obligation met)? `watch` names the terms whose
        values a model reports; `minimise` lists terms whose absolute sum a counterexample should make small;
        `query` is the query's tag, which its result carries (`name` is its words, for people)."""
        res = self._answer(name, b, hyps, goal, watch, minimise)
        res.query = query
        return res

    def _answer(self, name: str, b: Builder, hyps: list, goal: Any, watch: dict, minimise: list | None) -> QueryResult:
        """Z3's answer to the query of :meth:`run`."""
        if self.budget.out():
            return QueryResult(name, "unknown", text="out of resources" if not self.budget.stopped
                               else self.budget.backstop_note())
        goal_b = b.to_bool(goal) if is_term(goal) else z3.BoolVal(bool(goal), b.ctx)
        ob, texts = b.obligation()
        facts = b.assertions()
        known = self.solver.rule_functions
        providers = [lambda b_, fn, game: rule_function_facts(b_, fn, game, known=known, given=hyps)]
        if names_options(self.plan):
            # the mex facts quantify over the options: given only to a claim that speaks of options, where they
            # are the link between G at a position and at its options (elsewhere they cost Z3 its resources)
            providers.append(lambda b_, fn, game: mex_provider(b_, fn, game, known=known))
        facts += b.grundy_facts(facts + hyps + [goal_b, ob], lemma=combined(*providers))
        self.abstractions |= b.abstractions
        s = SteadySolver(b.ctx)
        if b._powers:
            # v2, the odd part or ilog2 as unknowns: Z3's incremental SMT core, which counts resources only. Left
            # to the logic's own tactics (sub-tactics under wall-clock timeouts), such a query of 002 spent 345 s
            # of CPU and 23 GB of memory, and its answer can depend on the machine's load
            s.set("combined_solver.ignore_solver1", True)
        s.add(*facts, *[h for h in hyps])
        s.add(z3.Or(z3.Not(goal_b), z3.Not(ob)))
        r = self.check(s)
        if r == z3.unsat:
            return QueryResult(name, "holds")
        if r == z3.unknown:
            why = unknown_reason(s)
            if self.budget.stopped:
                why = self.budget.backstop_note()
            elif why == "canceled" and self.budget.left() <= 0:
                why = "out of resources"
            return QueryResult(name, "unknown", text=why)
        m = s.model()
        if z3.is_true(m.eval(goal_b, model_completion=True)):
            # a point where only an obligation breaks (an overflow, a zero divisor) decides nothing; a point
            # where every obligation holds and the goal fails is a counterexample
            s.push()
            s.add(ob, z3.Not(goal_b))
            if self.check(s, cap_seconds=3) == z3.sat:
                real = s.model()
                s.pop()
                s.add(ob, z3.Not(goal_b))
                if minimise:
                    real = self._shrink(s, real, minimise)
                return QueryResult(name, "fails", _read(real, watch))
            s.pop()
            broken = [t for c, t in b.scopes[0].obligations if z3.is_false(m.eval(c, model_completion=True))]
            return QueryResult(name, "obligation", _read(m, watch), "; ".join(sorted(set(broken))) or "an obligation")
        if minimise:
            m = self._shrink(s, m, minimise)
        return QueryResult(name, "fails", _read(m, watch))

    def _shrink(self, s: SteadySolver, m: z3.ModelRef, terms: list) -> z3.ModelRef:
        """Make a counterexample small: binary search on the sum of the absolute values of `terms`."""
        size = z3.Sum([z3.If(t >= 0, t, -t) for t in terms]) if len(terms) > 1 else \
            z3.If(terms[0] >= 0, terms[0], -terms[0])
        lo = 0
        hi = model_value(m, size)
        for _ in range(64):
            if lo >= hi or self.budget.out():
                break
            mid = (lo + hi) // 2
            s.push()
            s.add(size <= (z3.BitVecVal(mid, size.size(), size.ctx) if z3.is_bv(size) else mid))
            r = self.check(s, cap_seconds=3)
            if r == z3.sat:
                m = s.model()
                hi = model_value(m, size)
            else:
                lo = mid + 1
            s.pop()
        return m


def _read(m: z3.ModelRef, watch: dict) -> dict:
    out = {}
    for k, t in watch.items():
        try:
            out[k] = table_of(m, t) if isinstance(t, UnknownFunction) else model_value(m, t)
        except Untranslatable:
            continue
    return out
