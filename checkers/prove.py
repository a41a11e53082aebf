"""Proving claims for every position with Z3: the verification method ``prove``.

* ``holds`` claims: the predicate, under the domain and the assumption, is valid (no counterexample).
* grundy / p_positions claims: the local certificate (checkers.certificate) holds at a symbolic position,
  together with two side conditions that make it a proof by induction: every move stays in the domain
  (closure) and decreases the sum of the coordinates (descent). Condition (b) needs a witness move: Z3
  searches for it (a quantifier), or the claim's ``strategy`` gives it, as the papers' proofs do.

The domain is the window with its constant upper edges dropped (the window is a sample of a statement
about every position), or ``prove = { for_all = "..." }``. Small parameters (h in 1..4, k in 2..10) are
proved one value at a time after a first attempt with the parameter symbolic. The verdict ``proved``
prints the class it covers: "all x, y >= 0 for h = 3", "all x, y < 2^32", "abstracting 2^n".

A model Z3 finds is re-evaluated exactly (holds) or by the engine (game claims) before it is reported;
an unconfirmed model, ``unknown`` or a timeout give ``inconclusive``. A proved claim is also checked on its
window; a refutation there is a bug and raises :class:`ProofDisagreement`.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
>>> v = prove_claim(spec.claims[0], RunOptions(timeout=20))
>>> v.verdict, v.scope.split(";")[0]
('proved', 'all x >= 0')
"""
from __future__ import annotations

import ast
import dataclasses
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import z3

from nimjos.lang.binders import Binder
from nimjos.lang.errors import EvalError, NimjosError, SpecError
from nimjos.lang.expr import parse, variables_of

from checkers.certificate import Certificate, TooManyOptions, game_kind
from checkers.induction import induction_step
from nimjos.spec.loader import ProveOptions
from nimjos.spec.plan import ClaimPlan
from checkers.rule_function import facts as rule_function_facts, warm_up
from checkers.options import PROVE_SECONDS, RunOptions
from nimjos.verdict import Counterexample, Verdict
from nimjos.lang.values import format_value
from checkers.z3expr import Builder, GameRef, Untranslatable, cases, choose_mode, fresh_context, is_term, model_value
from nimjos.lang.builtins import iter_items
import math
from checkers.exhaustive import check_exhaustive
from nimjos.lang.analysis import size_names, window_constants

METHOD = "prove"
#: a parameter with at most this many values is proved one value at a time
MAX_EACH = 16
#: a constant range of at most this many values is a stated case split (0 <= e <= 1), not a window edge
SMALL_RANGE = 8
#: default bit-vector width of the domain when bit operations need the bv world
WIDTH = 32


class ProofDisagreement(NimjosError, AssertionError):
    """A claim proved for a class of positions is refuted on its window inside that class: a bug."""


def not_applicable(claim: Any, reason: str, seconds: float = 0.0) -> Verdict:
    """The verdict for a claim this method cannot handle; the reason is in the scope.

    >>> not_applicable(type("C", (), {"id": "c"})(), "a printed table").verdict
    'inconclusive'
    """
    return Verdict(claim.id, "inconclusive", METHOD, f"not applicable: {reason}", seconds=seconds)


# ----------------------------------------------------------------------------- the domain

@dataclass
class ProofDomain:
    """Which names are proved one value at a time (enumerated) and which stay symbolic, with the
    conditions the symbolic names satisfy (as expression trees, possibly naming enumerated names)."""

    binder: Binder
    enumerated: list[str] = field(default_factory=list)
    symbolic: list[str] = field(default_factory=list)
    conditions: list[tuple[ast.expr, set]] = field(default_factory=list)  # (tree, names it uses)
    lower: dict = field(default_factory=dict)   # name -> text of its lower bound (for the scope)
    upper: dict = field(default_factory=dict)   # name -> text of a kept upper bound
    dropped: list[str] = field(default_factory=list)
    substituted: dict = field(default_factory=dict)  # name -> tree of its single value

    def instances(self, ns: Any, symbolic_too: bool = False) -> list[dict]:
        """Every assignment of the enumerated names (one proof each)."""
        levels = [l for l in self.binder.levels if l.name in self.enumerated]
        out: list[dict] = []

        def rec(i: int, env: dict) -> None:
            if i == len(levels):
                out.append(dict(env))
                return
            level = levels[i]
            if level.members is not None:
                vals = list(iter_items(level.members(env)))
            else:
                lo = max(_round(fn(env), strict, True) for fn, strict in level.lows)
                hi = min(_round(fn(env), strict, False) for fn, strict in level.highs)
                vals = list(range(lo, hi + 1))
            for v in vals:
                env[level.name] = v
                if all(_filter_ok(f, env) for f in level.filters):
                    rec(i + 1, env)
            env.pop(level.name, None)

        rec(0, {})
        return out


def _filter_ok(f: Callable, env: dict) -> bool:
    try:
        return bool(f(env))
    except (KeyError, SpecError):
        return True  # mentions a symbolic name: kept as a condition of the proof
    except EvalError:
        return False


def _round(v: Any, strict: bool, low: bool) -> int:
    if low:
        return math.floor(v) + 1 if strict else math.ceil(v)
    return math.ceil(v) - 1 if strict else math.floor(v)


def _constant(text: str, ns: Any) -> bool:
    try:
        return not variables_of(parse(text), ns)
    except SpecError:
        return False


def param_roles(texts: list[str], ns: Any) -> set[str]:
    """Names used as a divisor, a modulus, in a power, as a factor of another name, or as a game's
    argument: proving them one value at a time keeps the arithmetic linear.

    >>> from nimjos.lang.expr import Namespace
    >>> sorted(param_roles(["floor(x / k) + n * m + 2 ** e"], Namespace()))
    ['e', 'k', 'm', 'n']
    """
    out: set[str] = set()
    for text in texts:
        if not isinstance(text, str):
            continue
        try:
            tree = parse(text)
        except SpecError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.BinOp):
                if isinstance(node.op, (ast.FloorDiv, ast.Mod, ast.Div)):
                    out |= set(variables_of(node.right, ns))
                elif isinstance(node.op, ast.Pow):
                    out |= set(variables_of(node.left, ns)) | set(variables_of(node.right, ns))
                elif isinstance(node.op, ast.Mult):
                    left, right = set(variables_of(node.left, ns)), set(variables_of(node.right, ns))
                    if left and right:
                        out |= left | right
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ns.games:
                for a in node.args:
                    out |= set(variables_of(a, ns))
    return out


def proof_domain(claim: Any, plan: ClaimPlan, cfg: ProveOptions, ns: Any) -> ProofDomain:
    """Read the proof's domain from prove.for_all or the window (see the module docstring).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> dom = proof_domain(spec.claims[0], spec.claims[0].plan(), ProveOptions(), spec.namespace)
    >>> dom.symbolic, dom.dropped, dom.lower
    (['x'], ['x'], {'x': '0'})
    """
    explicit = cfg.for_all
    binder = Binder(parse(explicit), ns, set(), text=explicit) if explicit else plan.window
    coords = set(plan.coords)
    if cfg.each is not None:
        params = set(cfg.each)
    else:
        params = param_roles([claim.statement_text, claim.assume_text or "", binder.text, plan.game_text or ""], ns)
        params |= {n for n in binder.names if n not in coords} if plan.game_text else set()
        params -= coords
    dom = ProofDomain(binder)
    texts = [claim.statement_text, claim.assume_text or "", binder.text]
    sizes = size_names(texts, ns) | coords
    for level in binder.levels:
        name = level.name
        if level.members is not None:
            deps = set(variables_of(parse(level.member_text), ns)) if level.member_text else set()
            if deps & set(dom.symbolic):
                tree = parse(level.member_text)
                if isinstance(tree, ast.Set) and len(tree.elts) == 1:
                    dom.substituted[name] = tree.elts[0]
                    dom.symbolic.append(name)
                    continue
                raise Untranslatable(f"{name} ranges over a set that depends on symbolic names")
            dom.enumerated.append(name)
            continue
        low_const = all(_constant(t, ns) for t in level.low_text)
        high_const = all(_constant(t, ns) for t in level.high_text) and bool(level.high_text)
        if name in params and low_const and high_const:
            try:
                lo = max(_round(fn({}), s, True) for fn, s in level.lows)
                hi = min(_round(fn({}), s, False) for fn, s in level.highs)
            except (EvalError, SpecError, TypeError, ValueError):
                lo, hi = 0, -1
            if 0 <= hi - lo + 1 <= MAX_EACH:
                dom.enumerated.append(name)
                continue
        dom.symbolic.append(name)
        for t in level.low_text:
            dom.conditions.append((parse(f"{name} >= ({t})"), {name} | set(variables_of(parse(t), ns))))
        dom.lower[name] = level.low_text[0] if len(level.low_text) == 1 else f"max({', '.join(level.low_text)})"
        small = False
        if low_const and high_const:
            try:
                lo = max(_round(fn({}), st, True) for fn, st in level.lows)
                hi = min(_round(fn({}), st, False) for fn, st in level.highs)
                small = hi - lo + 1 <= SMALL_RANGE and name not in sizes
            except (EvalError, SpecError, TypeError, ValueError):
                small = False
        kept = [t for t in level.high_text if explicit or small or not _constant(t, ns)]
        if len(kept) < len(level.high_text):
            dom.dropped.append(name)
        for t in kept:
            dom.conditions.append((parse(f"{name} <= ({t})"), {name} | set(variables_of(parse(t), ns))))
        if kept:
            dom.upper[name] = kept[0] if len(kept) == 1 else f"min({', '.join(kept)})"
    for text in binder.filter_texts:
        tree = parse(text)
        dom.conditions.append((tree, set(variables_of(tree, ns))))
    return dom


# ----------------------------------------------------------------------------- queries

@dataclass
class QueryResult:
    """unsat (holds) / sat (a model: goal false, or an obligation broken) / unknown."""

    name: str
    status: str                      # "holds", "fails", "obligation", "unknown"
    values: dict = field(default_factory=dict)
    text: str = ""


class Context:
    """One proof attempt: the claim, the enumerated values, the world, and the time left."""

    def __init__(self, claim: Any, plan: ClaimPlan, dom: ProofDomain, params: dict, mode: str, width: int | None,
                 bits: int, deadline: float):
        self.claim = claim
        self.plan = plan
        self.dom = dom
        self.params = params
        self.mode = mode
        self.width = width
        self.bits = bits
        self.deadline = deadline
        self.ns = claim.spec.namespace
        self.abstractions: set[str] = set()

    def builder(self) -> tuple[Builder, dict, list]:
        """A fresh builder, the environment (enumerated values, symbolic names) and the domain's conditions."""
        b = Builder(self.ns, self.mode, self.bits)
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
        for tree, names in self.dom.conditions:
            if names & set(self.dom.symbolic):
                hyps.append(b.formula(tree, env))
            else:
                try:
                    ok = b.term(tree, env)
                except Untranslatable:
                    ok = True
                if not is_term(ok) and not ok:
                    hyps.append(z3.BoolVal(False))
        return b, env, hyps

    def remaining_ms(self) -> int:
        return max(1, int((self.deadline - time.perf_counter()) * 1000))

    def run(self, name: str, b: Builder, hyps: list, goal: Any, watch: dict, minimise: list | None = None) -> QueryResult:
        """Is `goal` true wherever `hyps` hold (and every obligation met)? `watch` names the terms whose
        values a model reports; `minimise` lists terms whose absolute sum a counterexample should make small."""
        if time.perf_counter() > self.deadline:
            return QueryResult(name, "unknown", text="out of time")
        goal_b = b.to_bool(goal) if is_term(goal) else z3.BoolVal(bool(goal))
        ob, texts = b.obligation()
        facts = b.assertions()
        facts += b.grundy_facts(facts + hyps + [goal_b, ob], lemma=rule_function_facts)
        self.abstractions |= b.abstractions
        s = z3.Solver()
        s.set("timeout", self.remaining_ms())
        s.add(*facts, *[h for h in hyps])
        s.add(z3.Or(z3.Not(goal_b), z3.Not(ob)))
        r = s.check()
        if r == z3.unsat:
            return QueryResult(name, "holds")
        if r == z3.unknown:
            return QueryResult(name, "unknown", text=s.reason_unknown())
        m = s.model()
        if z3.is_true(m.eval(goal_b, model_completion=True)):
            broken = [t for c, t in b.scopes[0].obligations if z3.is_false(m.eval(c, model_completion=True))]
            return QueryResult(name, "obligation", _read(m, watch), "; ".join(sorted(set(broken))) or "an obligation")
        if minimise:
            m = self._shrink(s, m, minimise)
        return QueryResult(name, "fails", _read(m, watch))

    def _shrink(self, s: z3.Solver, m: z3.ModelRef, terms: list) -> z3.ModelRef:
        """Make a counterexample small: binary search on the sum of the absolute values of `terms`."""
        size = z3.Sum([z3.If(t >= 0, t, -t) for t in terms]) if len(terms) > 1 else \
            z3.If(terms[0] >= 0, terms[0], -terms[0])
        lo = 0
        hi = model_value(m, size)
        for _ in range(64):
            if lo >= hi or time.perf_counter() > self.deadline:
                break
            mid = (lo + hi) // 2
            s.push()
            s.add(size <= (z3.BitVecVal(mid, size.size()) if z3.is_bv(size) else mid))
            s.set("timeout", min(3000, self.remaining_ms()))
            r = s.check()
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
            out[k] = model_value(m, t)
        except Untranslatable:
            continue
    return out


# ----------------------------------------------------------------------------- holds claims

def _prove_holds(ctx: Context) -> list[QueryResult]:
    claim = ctx.claim
    cfg = claim.prove
    b, env, hyps = ctx.builder()
    hyps += [used_axiom(ctx, b, uid) for uid in cfg.using or []]
    if cfg.induction:
        hyps, goal = induction_step(ctx, b, env, hyps, cfg.induction, cfg.invariant)
    else:
        if claim.assume_text:
            hyps.append(b.formula(parse(claim.assume_text), env))
        goal = b.formula(parse(claim.statement), env)
    watch = {n: env[n] for n in ctx.dom.symbolic}
    terms = [env[n] for n in ctx.dom.symbolic if is_term(env[n]) and not z3.is_bool(env[n])]
    res = ctx.run("the statement", b, hyps, goal, watch, terms)
    if res.status == "holds" and claim.prove.using and not window_witness(ctx):
        # with other claims assumed, unsatisfiable hypotheses may be their fault, not a vacuous statement
        res.status, res.text = "unknown", "no window point satisfies the assumption, and the used claims are assumed"
    elif res.status == "holds" and not window_witness(ctx):
        s = z3.Solver()
        s.set("timeout", min(5000, ctx.remaining_ms()))
        s.add(*b.assertions(), *hyps)
        if s.check() == z3.unsat:
            res.status = "vacuous"
    return [res]


def used_axiom(ctx: Context, b: Builder, uid: str) -> Any:
    """Another `holds` claim of the spec (``prove = { using = [...] }``) as a hypothesis: its statement for every
    point of the class the prover would prove it for (its window with the constant upper edges dropped, or its
    own prove.for_all), under its assumption, with the names this attempt fixes (k = 3) taken at their values.
    Unknown functions (G) are shared with the claim being proved, so Z3 can use the lemma at its terms.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "lemmas.toml")
    >>> c = spec.claim("chain"); plan = c.plan()
    >>> ctx = Context(c, plan, proof_domain(c, plan, ProveOptions(), spec.namespace), {}, "int", None, 0, time.perf_counter() + 5)
    >>> b, env, hyps = ctx.builder()
    >>> z3.is_quantifier(used_axiom(ctx, b, "shift"))
    True
    """
    if ctx.mode != "int":
        raise Untranslatable("prove.using needs the integer world (no bit-vector operations)")
    used = ctx.claim.spec.claim(uid)
    dom = _all_symbolic(used, used.plan(), ctx.ns)
    if dom is None:
        raise Untranslatable(f"the used claim {uid!r} has no Z3 model")
    names = [n for n in dom.symbolic if n not in dom.substituted]
    fixed = {n: ctx.params[n] for n in names if n in ctx.params}
    bound = [n for n in names if n not in fixed]
    env: dict = dict(fixed)

    def guard(vs: list) -> Any:
        env.update(zip(bound, vs))
        for n, tree in dom.substituted.items():
            env[n] = b.term(tree, env)
        conds = [b.formula(tree, env) for tree, _ in dom.conditions]
        if used.assume_text:
            conds.append(b.formula(parse(used.assume_text), env))
        conds = [c if is_term(c) else z3.BoolVal(bool(c)) for c in conds]
        return z3.And(*conds) if conds else z3.BoolVal(True)

    def body(vs: list) -> Any:
        return b.formula(parse(used.statement), env)
    if not bound:
        g = guard([])
        return z3.Implies(g, b.to_bool(body([])))
    return b.quantifier(False, bound, guard, body)


def window_witness(ctx: Context, limit: int = 20_000, seconds: float = 0.5) -> dict | None:
    """A point of the claim's window, with this attempt's enumerated values, that lies in the proof's domain
    and satisfies the assumption: evaluated exactly, it shows the proved statement is not vacuous without
    asking Z3 (whose satisfiability check of the hypotheses can take its whole time limit). None when the
    first `limit` window points (or `seconds`) show none.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; plan = c.plan()
    >>> ctx = Context(c, plan, proof_domain(c, plan, ProveOptions(), spec.namespace), {}, "int", None, 0, time.perf_counter() + 5)
    >>> window_witness(ctx)
    {'x': 0}
    """
    plan, claim, dom = ctx.plan, ctx.claim, ctx.dom
    explicit = bool(claim.prove.for_all)
    stop = time.perf_counter() + seconds
    try:
        for i, env in enumerate(plan.window.bindings({}, pins=dict(ctx.params))):
            if i >= limit or time.perf_counter() > stop:
                return None
            if any(env.get(n) != v for n, v in ctx.params.items()):
                continue
            if plan.assume is not None and not plan.assume(dict(env)):
                continue
            point = {n: env[n] for n in plan.window.names if n in env}
            if explicit and not (all(n in point for n in dom.binder.names) and _inside(dom, point, claim)):
                continue
            return point
    except (EvalError, SpecError):
        return None
    return None


# ----------------------------------------------------------------------------- game claims

class GameQueries:
    """The certificate at a symbolic position, as queries (each built in its own builder)."""

    def __init__(self, ctx: Context, kind: str):
        self.ctx = ctx
        self.kind = kind
        claim = ctx.claim
        self.coords = ctx.plan.coords
        self.game_tree = parse(ctx.plan.game_text)
        self.assume = parse(claim.assume_text) if claim.assume_text else None
        raw = claim.statement
        self.formula = parse(raw) if isinstance(raw, str) else None
        self.families = None if isinstance(raw, str) else [(parse(f.get("where", "True")), parse(f["point"])) for f in raw]
        self.strategy = read_strategy(claim)

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
        if self.kind == "grundy":
            return b.term(self.formula, e)
        if self.families is None:
            return b.formula(self.formula, e)
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
        for tree, names in self.ctx.dom.conditions:
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
        if self.kind == "grundy":
            out.append(self.q_nonnegative)
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
        """Every move keeps the coordinates >= 0 and decreases one measure: the coordinate sum, or else one
        coordinate (so every play ends and induction applies)."""
        measures = [None] + list(range(len(self.coords))) if len(self.coords) > 1 else [None]
        first = None
        n_moves = len(self.setup()[3].decl.moves)
        for m in measures:
            what = "the coordinate sum" if m is None else f"coordinate {self.coords[m]}"
            res = None
            for i in range(n_moves):
                res = self.q_descent(i, m, what)
                if res.status != "holds":
                    break
            if res is not None and res.status == "holds":
                return QueryResult(f"every move decreases {what}", "holds")
            first = first or res
            if res is not None and res.status == "unknown":
                break
        return first

    def q_descent(self, i: int, measure: int | None, what: str) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        qs = q if isinstance(q, tuple) else (q,)
        ps = pos if isinstance(pos, tuple) else (pos,)
        dec = b.compare(ast.Lt, _sum(b, qs), _sum(b, ps)) if measure is None else b.compare(ast.Lt, qs[measure], ps[measure])
        goal = b._all([b.compare(ast.GtE, c, 0) for c in qs] + [dec])
        return self.ctx.run(f"move {i + 1} decreases {what}", b, hyps + [b.to_bool(cond)], goal,
                            self.watch(env, bound), self.coords_terms(env))

    def q_closure(self, i: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        goal = self.in_domain(b, env, q)
        return self.ctx.run(f"move {i + 1} stays in the domain", b, hyps + [b.to_bool(cond)], goal,
                            self.watch(env, bound), self.coords_terms(env))

    def q_a(self, i: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        cond, q, bound = self._move(b, game, pos, i)
        lp, lq = self.label(b, env, pos), self.label(b, env, q)
        name = f"(a) along move {i + 1}"
        if self.kind == "grundy":
            goal = b.compare(ast.NotEq, lq, lp)
            return self.ctx.run(name, b, hyps + [b.to_bool(cond)], goal, self.watch(env, bound), self.coords_terms(env))
        # a P-position and its option both in the set: split both memberships into their cases
        base = hyps + [b.to_bool(cond)]
        combos = [(cp, cq) for cp in cases(b.to_bool(lp)) for cq in cases(b.to_bool(lq))]
        if len(combos) > 64:
            combos = [(b.to_bool(lp), b.to_bool(lq))]
        for k, (cp, cq) in enumerate(combos):
            extra = [cp, cq]
            res = self.ctx.run(name + (f" (case {k + 1} of {len(combos)})" if len(combos) > 1 else ""), b,
                               base + extra + b.ground_facts(base + extra), False, self.watch(env, bound),
                               self.coords_terms(env))
            if res.status != "holds":
                return res
        return QueryResult(name, "holds")

    def q_nonnegative(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        goal = b.compare(ast.GtE, self.label(b, env, pos), 0)
        return self.ctx.run("values are non-negative", b, hyps, goal, self.watch(env), self.coords_terms(env))

    def _target(self, b: Builder, env: dict, hyps: list, pos: Any) -> tuple[Any, list]:
        """(v, extra hypotheses) of condition (b): a value below g(p), or 'p is not a claimed P-position'."""
        if self.kind == "grundy":
            name = self.strategy.value if self.strategy is not None else "v"
            v = b.var(name)
            return v, [b.to_bool(b.compare(ast.GtE, v, 0)), b.to_bool(b.compare(ast.Lt, v, self.label(b, env, pos)))]
        return None, [z3.Not(b.to_bool(self.label(b, env, pos)))]

    def _reaches(self, b: Builder, env: dict, q: Any, v: Any) -> Any:
        lq = self.label(b, env, q)
        return b.compare(ast.Eq, lq, v) if self.kind == "grundy" else lq

    def q_b_search(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos)
        goal = b.over_options(game, pos, True, lambda q: self._reaches(b, env, q, v))
        watch = self.watch(env, {"v": v} if v is not None else {})
        return self.ctx.run("(b) some option has each lower value" if self.kind == "grundy" else
                            "(b) every other position has an option in the set", b, hyps + extra, goal, watch,
                            self.coords_terms(env))

    def _strategy_env(self, b: Builder, env: dict, v: Any) -> dict:
        e = dict(env)
        if v is not None:
            e[self.strategy.value] = v
        for name, tree in self.strategy.let:
            e[name] = b.term(tree, e)
        return e

    def q_b_strategy(self, j: int) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos)
        e = self._strategy_env(b, env, v)
        whens, move = self.strategy.cases[j]
        conds = [b.formula(w, e) if not isinstance(w, tuple) else z3.Not(b.formula(w[1], e)) for w in whens]
        q = b.term(move, e)
        goal = b._all([b.is_option(game, pos, q), self._reaches(b, env, q, v)])
        watch = self.watch(env, {"v": v} if v is not None else {})
        return self.ctx.run(f"(b) by the strategy, case {j + 1}", b, hyps + extra + [b.to_bool(c) for c in conds],
                            goal, watch, self.coords_terms(env))

    def q_b_cover(self) -> QueryResult:
        b, env, hyps, game, pos = self.setup()
        v, extra = self._target(b, env, hyps, pos)
        e = self._strategy_env(b, env, v)
        goal = b._any([b.formula(w[0], e) for w, _ in self.strategy.cases if w])
        return self.ctx.run("(b) the strategy's cases cover every position", b, hyps + extra, goal, self.watch(env),
                            self.coords_terms(env))


def _sum(b: Builder, xs: tuple) -> Any:
    out: Any = 0
    for x in xs:
        out = b.binop(ast.Add, out, x)
    return out


@dataclass
class Strategy:
    """The winning move of condition (b): cases (conditions, move expression), the name of the target
    value (grundy claims) and helper definitions (`let`)."""

    cases: list
    value: str = "v"
    let: list = field(default_factory=list)
    listed: bool = False


def read_strategy(claim: Any) -> Strategy | None:
    """The claim's ``strategy``: an expression (an if-else chain is split into cases) or a table
    ``{ move = "...", value = "v", let = { n = "..." }, cases = [ { when = "...", move = "..." } ] }``.

    >>> c = type("C", (), {"strategy": "(x - 1, y) if x > y else (x, y - 1)"})()
    >>> [len(w) for w, _ in read_strategy(c).cases]
    [1, 1]
    """
    raw = claim.strategy
    if raw is None:
        return None
    try:
        if isinstance(raw, str):
            return Strategy(_split(parse(raw)))
        if not isinstance(raw, dict):
            raise claim.error("strategy must be an expression or a table", "strategy")
        for k in raw:
            if k not in ("move", "value", "let", "cases"):
                raise claim.error(f"unknown field {k!r} in strategy", "strategy")
        let = [(k, parse(v)) for k, v in (raw.get("let") or {}).items()]
        value = raw.get("value", "v")
        if "cases" in raw:
            cases = []
            for c in raw["cases"]:
                whens = [parse(c["when"])] if c.get("when") else []
                cases.extend((whens + w, m) for w, m in _split(parse(c["move"])))
            return Strategy(cases, value, let, listed=True)
        return Strategy(_split(parse(raw["move"])), value, let)
    except SpecError as exc:
        raise exc.located(file=str(claim.spec.path), item=claim.label, field="strategy") from None


def _split(tree: ast.expr) -> list:
    """An if-else chain as exclusive cases: [([conditions], move)], a negated condition as ('not', tree)."""
    cases = []
    negs: list = []
    while isinstance(tree, ast.IfExp):
        cases.append((negs + [tree.test], tree.body))
        negs = negs + [("not", tree.test)]
        tree = tree.orelse
    cases.append((negs, tree))
    return cases


# ----------------------------------------------------------------------------- one instance and the claim

@dataclass
class Attempt:
    """The outcome of proving one instance (one assignment of the enumerated names)."""

    params: dict
    status: str                 # "proved", "refuted", "inconclusive", "vacuous"
    results: list = field(default_factory=list)
    counterexample: Counterexample | None = None
    note: str = ""
    abstractions: set = field(default_factory=set)


def prove_instance(claim: Any, plan: ClaimPlan, dom: ProofDomain, params: dict, mode: str, width: int | None,
                   bits: int, deadline: float) -> Attempt:
    """Prove one instance (one assignment of the enumerated names) before `deadline`.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[1] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]; plan = c.plan()
    >>> prove_instance(c, plan, proof_domain(c, plan, ProveOptions(), spec.namespace), {}, "int", None, 0, time.perf_counter() + 20).status
    'proved'
    """
    ctx = Context(claim, plan, dom, params, mode, width, bits, deadline)
    kind = game_kind(claim, plan)
    try:
        if kind is None:
            results = _prove_holds(ctx)
        else:
            gq = GameQueries(ctx, kind)
            results = []
            for q in gq.queries():
                r = q()
                results.append(r)
                if r.status in ("fails", "obligation"):
                    break
    except Untranslatable as exc:
        return Attempt(params, "inconclusive", note=f"no Z3 model: {exc}")
    att = Attempt(params, "proved", results, abstractions=set(ctx.abstractions))
    for r in results:
        if r.status == "vacuous":
            att.status = "vacuous"
        elif r.status == "unknown":
            att.status = "inconclusive"
            att.note = f"Z3 could not decide '{r.name}' ({r.text})"
            return att
        elif r.status == "obligation":
            att.status = "inconclusive"
            att.note = f"'{r.name}' fails only where {r.text} (at {_show(r.values)})"
            return att
        elif r.status == "fails":
            return _confirm(claim, plan, kind, params, r, att)
    return att


def _confirm(claim: Any, plan: ClaimPlan, kind: str | None, params: dict, r: QueryResult, att: Attempt) -> Attempt:
    """Re-evaluate a Z3 model exactly (holds) or by the engine (game claims)."""
    values = dict(params)
    values.update(r.values)
    names = plan.window.names
    if kind is None:
        env = {n: values[n] for n in values}
        bindings = {n: values[n] for n in names if n in values}
        try:
            if plan.assume is not None and not plan.assume(env):
                att.status, att.note = "inconclusive", f"Z3's model {_show(bindings)} breaks the assumption when evaluated exactly"
                return att
            ok = plan.formula(env)
        except (EvalError, SpecError) as exc:
            att.status, att.note = "inconclusive", f"Z3's model {_show(bindings)} cannot be evaluated exactly ({exc})"
            return att
        if ok:
            att.status, att.note = "inconclusive", f"Z3's model {_show(bindings)} is not a counterexample when evaluated exactly (an abstraction)"
            return att
        lhs, rhs = False, True
        if plan.sides is not None:
            try:
                lhs, rhs = plan.sides[0](env), plan.sides[1](env)
            except EvalError:
                pass
        att.status = "refuted"
        att.counterexample = Counterexample(bindings, lhs, rhs, detail={"found by": "Z3, re-evaluated exactly"})
        return att
    coords = plan.coords
    pos = tuple(values.get(c) for c in coords) if len(coords) > 1 else values.get(coords[0])
    if r.name.startswith("move") or any(v is None for v in (pos if isinstance(pos, tuple) else (pos,))):
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {_show(r.values)}"
        return att
    game_params = {n: values[n] for n in names if n not in coords and n in values}
    try:
        cert = Certificate(claim, plan, game_params, kind)
        found = cert.reevaluate(pos, max_positions=500_000)
    except (EvalError, SpecError, TooManyOptions) as exc:
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {_show(r.values)}; the engine could not re-evaluate it ({exc})"
        return att
    if found is None:
        what = "the strategy's move does not work there" if "strategy" in r.name else "not confirmed by the engine (an abstraction, or too large)"
        att.status, att.note = "inconclusive", f"'{r.name}' fails at {_show(r.values)}: {what}"
        return att
    q, actual, label = found
    b = dict(game_params)
    b.update(zip(coords, q if isinstance(q, tuple) else (q,)))
    b = {n: b[n] for n in names if n in b}
    shown = {"grundy": label, "p": "P" if label == 0 else "N"}.get(kind, label)
    truth = {"grundy": actual, "p": "P" if actual == 0 else "N"}.get(kind, actual)
    att.status = "refuted"
    att.counterexample = Counterexample(b, truth, shown, detail={"grundy": actual, "found by": f"Z3 ({r.name}), re-evaluated by the engine"})
    return att


def _show(values: dict) -> str:
    return ", ".join(f"{k}={format_value(v)}" for k, v in values.items()) or "-"


def prove_claim(claim: Any, opts: RunOptions) -> Verdict:
    """Prove one claim for every position of its domain (see the module docstring)."""
    warm_up(claim.spec.namespace)
    start = time.perf_counter()
    cfg = claim.prove   # fields and types checked by the loader (nimjos.spec.loader.PROVE_FIELDS)
    if cfg.skip:
        return not_applicable(claim, str(cfg.skip))
    if claim.kind == "values":
        return not_applicable(claim, "a printed table is finite: the window check covers all of it")
    if claim.kind == "level_set":
        return not_applicable(claim, "level-set claims are sampled, not proved (their certificate needs the level's "
                                     "quantifier over s)")
    plan = claim.plan(opts.profile)
    ns = claim.spec.namespace
    if not plan.window.names:
        return not_applicable(claim, "a closed statement: the window check evaluates it exactly")
    budget = float(cfg.timeout or opts.timeout or PROVE_SECONDS.get(opts.profile, PROVE_SECONDS["deep"]))
    # the used claims are proved first (each in its own Z3 context), with half of the time between them
    lemmas = prove_used(claim, opts, budget / 2) if cfg.using else []
    fresh_context()
    fixed = [] if cfg.for_all else window_constants(plan.window)
    if fixed:
        return not_applicable(claim, f"{', '.join(fixed)} ties the statement to the window's sizes (state the domain "
                                     "with prove = { for_all = \"...\" })")
    try:
        dom = proof_domain(claim, plan, cfg, ns)
        mode, width, bits = _world(claim, plan, cfg, ns)
        instances = dom.instances(ns)
    except Untranslatable as exc:
        return not_applicable(claim, str(exc), time.perf_counter() - start)
    exact = choose_mode(_world_trees(claim, plan), ns, exact=True)
    # a nim-sum is first proved by its laws for every size; if that does not finish in half the time, with
    # bit-vectors of WIDTH bits (a smaller class, which Z3 decides by bit-blasting)
    both = mode == "int" and exact == "bv" and not cfg.width
    v = _prove_in_world(claim, plan, opts, dom, instances, mode, width, bits, start, start + (budget / 2 if both else budget))
    if both and isinstance(v, Verdict) and v.verdict == "inconclusive" and not v.scope.startswith("not applicable"):
        fresh_context()
        dom = proof_domain(claim, plan, cfg, ns)
        bv = _prove_in_world(claim, plan, opts, dom, dom.instances(ns), "bv", WIDTH, WIDTH + 4, start, start + budget)
        if isinstance(bv, ProofDisagreement):
            v = bv
        elif bv.verdict in ("proved", "refuted", "vacuous"):
            bv.notes.append(f"with xor by its laws (every size): inconclusive ({v.scope})")
            v = bv
        else:
            v.notes.append(f"with {WIDTH}-bit vectors: {bv.scope}")
            v.seconds = bv.seconds
    if isinstance(v, ProofDisagreement):
        if not lemmas:
            raise v
        # a proof from claims that are false somewhere proves nothing: the window has the last word
        return Verdict(claim.id, "inconclusive", METHOD, f"follows (Z3) from {', '.join(u for u, _ in lemmas)}, "
                       f"but the window refutes it, so one of them is false: {v}"[:400],
                       seconds=time.perf_counter() - start)
    return from_lemmas(v, lemmas) if lemmas else v


def _prove_in_world(claim: Any, plan: ClaimPlan, opts: RunOptions, dom: ProofDomain, instances: list[dict], mode: str,
                    width: int | None, bits: int, start: float, deadline: float) -> Any:
    """Prove every instance in one world (int or bit-vectors) before `deadline`: the verdict, or the
    ProofDisagreement its soundness check raised (the caller decides whether that is a bug)."""
    ns = claim.spec.namespace
    attempts: list[Attempt] = []
    symbolic_first = None
    # parameters symbolic first (k >= 2 instead of k = 2..10), for holds claims: a game with a symbolic
    # parameter makes the moves nonlinear, which Z3 does not finish
    if dom.enumerated and game_kind(claim, plan) is None and \
            all(l.members is None for l in dom.binder.levels if l.name in dom.enumerated):
        sym = _all_symbolic(claim, plan, ns)
        if sym is not None:
            now = time.perf_counter()
            symbolic_first = prove_instance(claim, plan, sym, {}, mode, width, bits, now + (deadline - now) / 3)
            if symbolic_first.status in ("proved", "refuted"):
                attempts = [symbolic_first]
                dom = sym
                instances = [{}]
    if len(instances) > 4 * MAX_EACH:
        return not_applicable(claim, f"{len(instances):,} values of {', '.join(dom.enumerated)} (finite families are "
                                     "the window's job)", time.perf_counter() - start)
    if not attempts:
        for params in instances:
            if time.perf_counter() > deadline:
                attempts.append(Attempt(params, "inconclusive", note="out of time"))
                break
            att = prove_instance(claim, plan, dom, params, mode, width, bits, deadline)
            if not attempts and att.note.startswith("no Z3 model"):
                return not_applicable(claim, att.note[len("no Z3 model: "):], time.perf_counter() - start)
            attempts.append(att)
            if att.status == "refuted":
                break
    try:
        return _verdict(claim, plan, opts, dom, mode, width, attempts, instances, symbolic_first, start)
    except ProofDisagreement as exc:
        return exc


def prove_used(claim: Any, opts: RunOptions, seconds: float) -> list[tuple[str, Verdict]]:
    """Try to prove each claim named in prove.using (their verdicts decide what a proof from them is worth)."""
    using = claim.prove.using
    sub = replace(opts, timeout=seconds / len(using), extra={k: v for k, v in opts.extra.items() if k != "verdicts"})
    out = []
    for uid in using:
        used = claim.spec.claim(uid)
        if used.prove.using:
            out.append((uid, not_applicable(used, "it uses other claims itself (one level of prove.using only)")))
        else:
            out.append((uid, prove_claim(used, sub)))
    return out


def from_lemmas(v: Verdict, lemmas: list[tuple[str, Verdict]]) -> Verdict:
    """A proof that assumed other claims is a proof only when each of them is proved; otherwise it is reported
    as the reduction it is (inconclusive, with what it follows from and how far those claims are known).

    >>> ok = Verdict("c", "proved", "prove", "all n >= 0")
    >>> from_lemmas(ok, [("l", Verdict("l", "inconclusive", "prove", "all x >= 0; Z3 could not decide"))]).verdict
    'inconclusive'
    >>> from_lemmas(ok, [("l", Verdict("l", "proved", "prove", "all x >= 0"))]).scope
    'all n >= 0; from l (proved: all x >= 0)'
    """
    v = replace(v, notes=list(v.notes), evidence=dict(v.evidence))
    if v.verdict != "proved":
        v.notes.append("assuming " + ", ".join(uid for uid, _ in lemmas))
        return v
    if all(lv.verdict == "proved" for _, lv in lemmas):
        v.scope += "; from " + ", ".join(f"{uid} (proved: {lv.scope.split(';')[0]})" for uid, lv in lemmas)
        return v
    open_ = [uid for uid, lv in lemmas if lv.verdict != "proved"]
    v.verdict = "inconclusive"
    v.scope += ("; follows (Z3) from " + ", ".join(uid for uid, _ in lemmas) + ", each assumed for every point of"
                " the class it would be proved for; not proved: " + ", ".join(open_) + " (see their own verdicts)")
    v.evidence["follows_from"] = [uid for uid, _ in lemmas]
    return v


def _all_symbolic(claim: Any, plan: ClaimPlan, ns: Any) -> ProofDomain | None:
    """The domain with the parameters symbolic too (their constant upper bounds dropped)."""
    cfg = dataclasses.replace(claim.prove, each=())
    try:
        return proof_domain(claim, plan, cfg, ns)
    except Untranslatable:
        return None


def _world(claim: Any, plan: ClaimPlan, cfg: ProveOptions, ns: Any) -> tuple[str, int | None, int]:
    mode = "bv" if cfg.width else choose_mode(_world_trees(claim, plan), ns)
    width = int(cfg.width or WIDTH) if mode == "bv" else None
    bits = int(cfg.bits or ((width or 0) + 4))
    return mode, width, bits


def _world_trees(claim: Any, plan: ClaimPlan) -> list:
    """Every expression of the claim, its game and its window (what decides the world of a proof)."""
    trees = []
    for v in (claim.statement, claim.assume_text, claim.strategy):
        if isinstance(v, str):
            trees.append(parse(v))
        elif isinstance(v, list):
            trees += [parse(f.get("point", "0")) for f in v if isinstance(f, dict)]
            trees += [parse(f.get("where", "True")) for f in v if isinstance(f, dict)]
        elif isinstance(v, dict):
            trees += [parse(t) for t in _strings(v)]
    if plan.game_text:
        trees.append(parse(plan.game_text))
    trees.append(plan.window.tree)
    return trees


def _strings(d: Any) -> list[str]:
    if isinstance(d, str):
        return [d]
    if isinstance(d, dict):
        return [s for v in d.values() for s in _strings(v)]
    if isinstance(d, list):
        return [s for v in d for s in _strings(v)]
    return []


def _class_text(dom: ProofDomain, mode: str, width: int | None, instances: list[dict], abstractions: set) -> str:
    parts = []
    names = [n for n in dom.symbolic if n not in dom.substituted]
    if names:
        bounds = []
        for n in names:
            lo, hi = dom.lower.get(n), dom.upper.get(n)
            if lo is not None and hi is not None and lo == hi:
                bounds.append(f"{n} = {lo}")
            elif lo is not None and hi is not None:
                bounds.append(f"{lo} <= {n} <= {hi}")
            elif lo is not None:
                bounds.append(f"{n} >= {lo}")
            else:
                bounds.append(n)
        text = "all " + ", ".join(bounds)
        if mode == "bv" and width:
            text += f", every value below 2^{width}"
        parts.append(text)
    if dom.enumerated and instances and instances != [{}]:
        parts.append("for " + _instances_text(dom.enumerated, instances))
    words = []
    if "2^e" in abstractions:
        words.append("abstracting 2^n")
    if "xor" in abstractions:
        words.append("xor by its laws")
    unknown = sorted(a.split(" ", 1)[1] for a in abstractions if a.startswith("unknown "))
    if unknown:
        words.append(", ".join(unknown) + " as unknown functions")
    words += sorted("using " + a.split(" ", 1)[1] for a in abstractions if a.startswith("lemma "))
    for a in sorted(a for a in abstractions if a.startswith("induction ")):
        name = a.split(" ", 1)[1]
        words.append(f"by strong induction on {name} (the mex facts of G at {name})")
    if words:
        parts.append(", ".join(words))
    return "; ".join(parts)


def _instances_text(names: list[str], instances: list[dict]) -> str:
    if len(names) == 1:
        vals = [i[names[0]] for i in instances]
        if all(type(v) is int for v in vals) and vals == list(range(vals[0], vals[0] + len(vals))) and len(vals) > 2:
            return f"{names[0]} = {vals[0]}..{vals[-1]}"
        return f"{names[0]} = " + ", ".join(format_value(v) for v in vals)
    return f"{len(instances)} values of ({', '.join(names)})"


def _verdict(claim: Any, plan: ClaimPlan, opts: RunOptions, dom: ProofDomain, mode: str, width: int | None,
             attempts: list[Attempt], instances: list[dict], symbolic_first: Attempt | None, start: float) -> Verdict:
    seconds = time.perf_counter() - start
    abstractions = set().union(*(a.abstractions for a in attempts)) if attempts else set()
    cls = _class_text(dom, mode, width, instances, abstractions)
    kind = game_kind(claim, plan)
    what = "" if kind is None else ("certificate (a), (b)" + (" by the strategy" if claim.strategy else "")
                                     + ", moves stay in the domain and decrease")
    notes = []
    if symbolic_first is not None and symbolic_first not in attempts:
        notes.append(f"with the parameters symbolic: {symbolic_first.status}"
                     + (f" ({symbolic_first.note})" if symbolic_first.note else ""))
    refuted = [a for a in attempts if a.status == "refuted"]
    if refuted:
        a = refuted[0]
        v = Verdict(claim.id, "refuted", METHOD, cls, instances=len(attempts), counterexamples=[a.counterexample],
                    failures=1, seconds=seconds, notes=notes)
        return v
    done = [a for a in attempts if a.status in ("proved", "vacuous")]
    if len(done) == len(instances) and attempts:
        if all(a.status == "vacuous" for a in done):
            return Verdict(claim.id, "vacuous", METHOD, cls + "; the assumption holds nowhere (Z3)", seconds=seconds,
                           notes=notes)
        scope = cls + (f"; {what}" if what else "")
        if dom.dropped:
            notes.append(f"the window's upper edge dropped for {', '.join(dom.dropped)}")
        v = Verdict(claim.id, "proved", METHOD, scope, instances=len(done), assumption_held=len(done),
                    seconds=seconds, notes=notes)
        soundness_check(claim, opts, v, dom)
        return v
    first = next((a for a in attempts if a.status == "inconclusive"), None)
    why = first.note if first is not None else "out of time"
    proved = len([a for a in attempts if a.status in ("proved", "vacuous")])
    if len(instances) > 1:
        notes.append(f"proved for {proved} of {len(instances)} values of {', '.join(dom.enumerated)}")
    return Verdict(claim.id, "inconclusive", METHOD, f"{cls}; {why}" if cls else why, seconds=seconds, notes=notes)


def soundness_check(claim: Any, opts: RunOptions, proved: Verdict, dom: ProofDomain) -> None:
    """A proof must agree with the window: a window refutation inside the proved class is a bug
    (:class:`ProofDisagreement`). The window's verdict comes from ``opts.extra["verdicts"]["exhaustive"]``
    when the runner passes it, else the window is checked here.

    >>> ok = Verdict("c", "checked", "exhaustive", "")
    >>> soundness_check(None, RunOptions(extra={"verdicts": {"exhaustive": ok}}), None, None) is None
    True
    """
    window = (opts.extra.get("verdicts") or {}).get("exhaustive")
    if window is None:
        window = check_exhaustive(claim, opts.profile, 1, None)
    if window.verdict != "refuted":
        return
    cx = window.counterexamples[0]
    if claim.prove.for_all:
        try:
            inside = _inside(dom, cx.bindings, claim)
        except (EvalError, SpecError):
            inside = True
        if not inside:
            return
    raise ProofDisagreement(f"claim {claim.id!r}: proved ({proved.scope}) but refuted on its window at "
                            f"{cx.position_text()}: a bug in the prover or the engine")


def _inside(dom: ProofDomain, bindings: dict, claim: Any) -> bool:
    for _ in dom.binder.bindings({}, pins=dict(bindings)):
        return True
    return False

