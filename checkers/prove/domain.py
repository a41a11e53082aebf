"""The domain of a proof: which names of a claim are proved one value at a time (enumerated) and which stay
symbolic, and the conditions the symbolic names satisfy.

The domain is the claim's ``for_all`` (what the paper states: :attr:`ProofDomain.domain_conditions`), read
through the window's binder with the window's constant upper edges and filters dropped, or ``prove = { for_all =
"..." }`` (a class of its own, kept as written, with the claim's domain added), so that a proof never ranges
outside the statement (a claim about p = 1 is not proved, nor refuted, at p = 0). Names in a parameter's role (a
divisor, a modulus, in a power, a factor of another name, a game's argument) with at most :data:`MAX_EACH` values
in the window are enumerated, which keeps the arithmetic linear (the proof then covers those values:
``proved-bounded`` when the domain has more).

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> c = spec.claims[0]
>>> dom = proof_domain(c.plan(), ProveOptions())
>>> dom.symbolic, dom.enumerated, dom.instances(spec.namespace)
(['x'], [], [{}])
"""
from __future__ import annotations

import ast
import copy
import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Callable

from nimjos.lang.binders import Binder, conjuncts
from nimjos.lang.builtins import iter_items
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import copy_tree
from nimjos.spec.loader import Claim, claim_of, ProveOptions
from nimjos.spec.plan import ClaimPlan
from checkers.z3.terms import Untranslatable
from checkers.z3.unknown import family_call

#: a parameter with at most this many values is proved one value at a time
MAX_EACH = 16


@dataclass
class ProofDomain:
    """Which names are proved one value at a time (enumerated) and which stay symbolic, with the
    conditions the symbolic names satisfy (as expression trees, possibly naming enumerated names)."""

    binder: Binder
    enumerated: list[str] = field(default_factory=list)
    symbolic: list[str] = field(default_factory=list)
    conditions: list[tuple[ast.expr, set]] = field(default_factory=list)  # (tree, names it uses)
    lower: dict = field(default_factory=dict)   # name -> tree of its lower bound (for the scope)
    upper: dict = field(default_factory=dict)   # name -> tree of a kept upper bound
    dropped: list[str] = field(default_factory=list)
    substituted: dict = field(default_factory=dict)  # name -> tree of its single value
    domain_conditions: list[tuple[ast.expr, set]] = field(default_factory=list)  # the claim's domain, conjunct by conjunct
    #: the claim's domain (``plan.domain.text``) when the proof ranges over it (the window with its edges dropped);
    #: empty when ``prove.for_all`` states a class of its own
    domain_text: str = ""
    #: names that range over a family of functions of symbolic size (f in nondecreasing(K, 1, V)): each an
    #: unknown function with the family's axioms (checkers.z3.unknown), name -> the family's tree
    functions: dict = field(default_factory=dict)
    #: the tree of that domain, as the plan compiled it (None when the proof does not range over it)
    domain_tree: ast.expr | None = None

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


def _constant(tree: ast.expr, ns: Any) -> bool:
    return not variables_of(tree, ns)


def _bounded(name: str, op: type, bound: ast.expr) -> ast.expr:
    """The condition ``name >= bound`` (or ``<=``) on a copy of a level's bound tree (the translators may keep
    the nodes they are given).

    >>> ast.unparse(_bounded("x", ast.GtE, ast.parse("k + 1", mode="eval").body))
    'x >= k + 1'
    """
    return ast.Compare(ast.Name(name, ast.Load()), [op()], [copy.deepcopy(bound)])


def _extreme(fold: str, bounds: list[ast.expr]) -> ast.expr:
    """One bound of several: the bound itself, else ``max(...)`` / ``min(...)`` of copies of them.

    >>> from nimjos.lang.syntax import parse
    >>> ast.unparse(_extreme("max", [parse("1")])), ast.unparse(_extreme("min", [parse("n"), parse("9")]))
    ('1', 'min(n, 9)')
    """
    if len(bounds) == 1:
        return copy.deepcopy(bounds[0])
    return ast.Call(ast.Name(fold, ast.Load()), [copy.deepcopy(b) for b in bounds], [])


def param_roles(trees: list[ast.expr], ns: Any) -> set[str]:
    """Names used as a divisor, a modulus, in a power, as a factor of another name, or as a game's
    argument in the expressions `trees`: proving them one value at a time keeps the arithmetic linear.

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.syntax import parse
    >>> sorted(param_roles([parse("floor(x / k) + n * m + 2 ** e")], Namespace()))
    ['e', 'k', 'm', 'n']
    """
    out: set[str] = set()
    for tree in trees:
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


def proof_domain(plan: ClaimPlan, cfg: ProveOptions) -> ProofDomain:
    """Read the proof's domain from prove.for_all or the window (see the module docstring).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> dom = proof_domain(spec.claims[0].plan(), ProveOptions())
    >>> dom.symbolic, dom.dropped, {n: ast.unparse(t) for n, t in dom.lower.items()}
    (['x'], ['x'], {'x': '0'})
    """
    ns = plan.namespace
    explicit = cfg.for_all
    binder: Binder | None
    if explicit:   # the class of prove.for_all, as the plan parsed it
        assert plan.prove_for_all is not None, "a plan whose prove.for_all is set has its tree"
        binder = Binder(copy_tree(plan.prove_for_all), ns, set(), text=explicit)
    else:
        binder = plan.window
    assert binder is not None, "a claim the prover reads has a window"
    domain = getattr(plan, "domain", None)
    # with a domain the spec states, the window is only the part of it the exhaustive method enumerates: its
    # constant upper edges and its filters (x % 2 == 0) are not the statement's, and a proof that kept them
    # would prove a smaller class than the domain (the domain's own conditions are added below)
    window_only = not explicit and domain is not None and bool(domain.text)
    coords = set(plan.coords)
    if cfg.each is not None:
        params = set(cfg.each)
    else:
        params = param_roles(plan.expression_trees() + ([plan.game.tree] if plan.game is not None else []) + [binder.tree], ns)
        params |= {n for n in binder.names if n not in coords} if plan.game_text else set()
        params -= coords
    dom = ProofDomain(binder)
    for level in binder.levels:
        name = level.name
        if level.members is not None:
            deps = set(variables_of(level.member_tree, ns)) if level.member_tree is not None else set()
            if deps & set(dom.symbolic):
                tree = copy.deepcopy(level.member_tree)
                if family_call(tree):
                    dom.functions[name] = tree
                    continue
                if isinstance(tree, ast.Set) and len(tree.elts) == 1:
                    dom.substituted[name] = tree.elts[0]
                    dom.symbolic.append(name)
                    continue
                raise Untranslatable(f"{name} ranges over a set that depends on symbolic names")
            dom.enumerated.append(name)
            continue
        assert len(level.low_trees) == len(level.low_text) and len(level.high_trees) == len(level.high_text), \
            f"the bounds of {name} as trees and as texts differ"
        low_const = all(_constant(t, ns) for t in level.low_trees)
        high_const = all(_constant(t, ns) for t in level.high_trees) and bool(level.high_trees)
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
        for t in level.low_trees:
            dom.conditions.append((_bounded(name, ast.GtE, t), {name} | set(variables_of(t, ns))))
        dom.lower[name] = _extreme("max", level.low_trees)
        kept = [t for t in level.high_trees if not _constant(t, ns) or not window_only]
        if len(kept) < len(level.high_trees):
            dom.dropped.append(name)
        for t in kept:
            dom.conditions.append((_bounded(name, ast.LtE, t), {name} | set(variables_of(t, ns))))
        if kept:
            dom.upper[name] = _extreme("min", kept)
    for part in binder.filter_trees:
        tree = copy.deepcopy(part)
        names = set(variables_of(tree, ns))
        if window_only and names & set(dom.symbolic):
            continue
        dom.conditions.append((tree, names))
    if domain is not None and domain.text:
        assert domain.tree is not None, "a domain with a text has its tree"
        for part in conjuncts(copy.deepcopy(domain.tree)):
            dom.domain_conditions.append((part, set(variables_of(part, ns))))
        if not explicit:
            dom.domain_text, dom.domain_tree = domain.text, domain.tree
    return dom


def all_symbolic(plan: ClaimPlan) -> ProofDomain | None:
    """The domain with the parameters symbolic too (their constant upper bounds dropped); None when it has
    no Z3 model.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "induction.toml")
    >>> c = spec.claim("maxnim-lemma-3.1-ii")
    >>> proof_domain(c.plan(), c.prove).enumerated, all_symbolic(c.plan()).enumerated
    (['k'], [])
    """
    claim = claim_of(plan)
    cfg = dataclasses.replace(claim.prove, each=())
    try:
        return proof_domain(plan, cfg)
    except Untranslatable:
        return None


def inside_domain(dom: ProofDomain, bindings: dict, claim: Claim) -> bool:
    """Do `bindings` lie in the domain (the binder of the proof's domain, with these values pinned)?

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> c = spec.claims[0]
    >>> from nimjos.lang.syntax import parse
    >>> plan = dataclasses.replace(c.plan(), prove_for_all=parse("0 <= x <= 5"))
    >>> dom = proof_domain(plan, ProveOptions(for_all="0 <= x <= 5"))
    >>> inside_domain(dom, {"x": 3}, c), inside_domain(dom, {"x": 6}, c)
    (True, False)
    """
    for _ in dom.binder.bindings({}, pins=dict(bindings)):
        return True
    return False
