"""A proved formula standing for G: a ``holds`` claim that names a ``grundy`` or ``p_positions`` claim in
``prove.using`` is rewritten with the formula in place of G, and the rewritten statement is proved.

The grundy claim ``G(g, (x, y)) = F(x, y)`` on its domain D(x, y) lets every call ``G(g, (a, b))`` of the
statement become ``F(a, b)``; the P-position claim ``G(g, (x, y)) = 0 iff P(x, y)`` lets every comparison
``G(g, (a, b)) == 0`` (or ``!= 0``) become ``P(a, b)`` (or its negation). Definitions that name G are inlined
first (``GJ(n, m)`` for ``G(josephus_nim, (n, m))``). A call is replaced only when its position uses the
claim's own names and nothing that may fail (a position inside a comprehension, or ``v2(0)``, stays as it is).

The substitution is right only where the position lies in the lemma's domain, so the rewritten claim states
that too, for every point of the claim's domain whether or not its assumption holds:

    D(a, b) and (not A' or S')

where A' and S' are the assumption and the statement rewritten (no assumption is left). Where D holds, A' and
S' say what A and S say, so a proof of this is a proof of the claim, given the lemmas; the lemmas themselves are
proved first (:func:`checkers.prove.method.prove_used`, which refuses cycles), and the verdict is ``proved``
only when each of them is (:func:`checkers.prove.method.from_lemmas`). Only a lemma whose domain names nothing
but its position's coordinates is used this way.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
>>> stand_in_text(spec.claim("nim2-from-grundy"))
'(0 <= x and 0 <= y) and (0 <= y and 0 <= x) and ((xor(x, y) + xor(y, x)) % 2 == 0)'
"""
from __future__ import annotations

import ast
from typing import Any

from nimjos.lang.errors import NimjosError, SpecError
from nimjos.lang.inline import may_fail, names_in, substitute_call
from nimjos.lang import build
from nimjos.lang.syntax import copy_tree
from nimjos.spec.loader import Claim, restate_claim
from nimjos.spec.plan import GrundyPlan, HoldsPlan, PPositionsPlan, WindowPlan
from checkers.window.exhaustive import check_exhaustive
from checkers.window.rerun import pinned_place

#: the deepest nesting of definitions inlined to reach G
MAX_INLINE = 20
#: the probes of a proof by stand-ins: at most this many points evaluated, stopping at PROBES_HELD where the
#: assumption held
PROBES_EVALUATED = 300
PROBES_HELD = 20


def _lemma(used: Claim) -> tuple | None:
    """(game tree dump, coords, formula tree, is_grundy, domain tree) of a grundy or P-position claim with a
    formula, normal play, whose domain names only its coordinates; None otherwise."""
    if not issubclass(used.plan_type, (GrundyPlan, PPositionsPlan)):
        return None
    plan = used.plan()
    formula = getattr(plan, "formula", None)
    if formula is None or plan.misere or plan.game_text is None or not isinstance(plan, WindowPlan):
        return None
    coords = tuple(plan.coords)
    domain = copy_tree(plan.domain.tree) if plan.domain.tree is not None else build.constant(True)
    if set(plan.window.names) != set(coords) or not set(_free(domain)) <= set(coords):
        return None
    assert plan.game is not None, "a claim with a game text has its tree"
    return (ast.dump(plan.game.tree), coords, formula.tree, isinstance(plan, GrundyPlan), domain)


def _free(tree: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _is_g(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "G" and len(node.args) == 2


class _Rewrite(ast.NodeTransformer):
    """Inline definitions that reach G, then put the lemmas' formulas in place of G; records the positions."""

    def __init__(self, claim: Claim, lemmas: list[tuple], names: set[str]):
        self.ns = claim.spec.namespace
        self.lemmas = lemmas
        self.names = names          # the claim's own names: a position must use only these
        self.domains: list[ast.expr] = []
        self.depth = 0

    def _reaches_g(self, tree: ast.AST, seen: frozenset = frozenset()) -> bool:
        for n in ast.walk(tree):
            if _is_g(n):
                return True
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in self.ns.definitions \
                    and n.func.id not in seen:
                d = self.ns.definitions[n.func.id]
                if getattr(d, "tree", None) is not None and self._reaches_g(d.tree, seen | {n.func.id}):
                    return True
        return False

    def _position(self, node: ast.expr, coords: tuple) -> list[ast.expr] | None:
        parts = list(node.elts) if isinstance(node, ast.Tuple) else [node]
        if len(parts) != len(coords):
            return None
        for p in parts:
            if may_fail(p) or not set(_free(p)) <= self.names:
                return None
        return parts

    def _formula(self, call: ast.Call) -> tuple[ast.expr, bool] | None:
        game = ast.dump(call.args[0])
        for dump, coords, formula, grundy, domain in self.lemmas:
            if dump != game:
                continue
            parts = self._position(call.args[1], coords)
            if parts is None:
                continue
            self.domains.append(substitute_call(coords, domain, parts))
            return substitute_call(coords, formula, parts), grundy
        return None

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Name) and node.func.id in self.ns.definitions and self.depth < MAX_INLINE:
            d = self.ns.definitions[node.func.id]
            if getattr(d, "tree", None) is not None and not getattr(d, "recursive", False) \
                    and len(d.params) == len(node.args) and self._reaches_g(d.tree):
                body = substitute_call(d.params, d.tree, node.args, taken=names_in([node]))
                self.depth += 1
                try:
                    return self.visit(body)
                finally:
                    self.depth -= 1
        out = self.generic_visit(node)
        if isinstance(out, ast.Call) and _is_g(out):
            found = self._formula(out)
            if found is not None and found[1]:
                return found[0]
        return out

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        out = self.generic_visit(node)
        if not isinstance(out, ast.Compare):
            return out
        node = out
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
            left, right = node.left, node.comparators[0]
            g = left if _is_g(left) and _is_zero(right) else right if _is_g(right) and _is_zero(left) else None
            if isinstance(g, ast.Call):
                found = self._formula(g)
                if found is not None and not found[1]:
                    return found[0] if isinstance(node.ops[0], ast.Eq) else ast.UnaryOp(ast.Not(), found[0])
        return node


def _is_zero(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == 0


def stand_in_text(claim: Claim) -> str | None:
    """The claim's statement with the formulas of its used grundy / P-position claims in place of G (module
    docstring), or None when no call of G was replaced."""
    if not issubclass(claim.plan_type, HoldsPlan) or not isinstance(claim.statement, str):
        return None
    lemmas = [lm for lm in (_lemma(claim.spec.claim(uid)) for uid in claim.prove.using) if lm is not None]
    if not lemmas:
        return None
    plan = claim.plan()
    assert isinstance(plan, HoldsPlan), "a holds claim has its statement"
    rw = _Rewrite(claim, lemmas, set(plan.window.names))
    try:
        statement = rw.visit(copy_tree(plan.formula.tree))
        assume = rw.visit(copy_tree(plan.assume.tree)) if plan.assume is not None else None
    except (SpecError, RecursionError):
        return None
    if not rw.domains or any(_is_g(n) for t in (statement, assume) if t is not None for n in ast.walk(t)):
        return None   # nothing replaced, or G left over: the Z3 path with the lemmas as axioms is the way
    seen: dict[str, ast.expr] = {}
    for d in rw.domains:
        seen.setdefault(ast.unparse(d), d)
    body = statement if assume is None else build.disjunction([build.negation(assume), statement])
    # the rewritten statement is built as a tree; its text is what the stand-in claim states
    return ast.unparse(build.conjunction([*seen.values(), body]))


def stand_in_claim(claim: Claim) -> Claim | None:
    """A copy of `claim` whose statement is :func:`stand_in_text` and which has no assumption (for the backends
    that read the claim's plan: Walnut), compiled from that statement (plans of its own: the original claim's
    plans state the original statement), or None (no stand-in, or a statement that does not compile).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> proxy = stand_in_claim(spec.claim("nim2-from-grundy"))
    >>> proxy.plan().formula.text == proxy.statement == stand_in_text(spec.claim("nim2-from-grundy"))
    True
    """
    text = stand_in_text(claim)
    if text is None:
        return None
    try:
        return restate_claim(claim, text)
    except SpecError:
        return None


def probe_beyond(claim: Claim, profile: str = "default") -> tuple[int, int, Any]:
    """Evaluate the claim exactly (ground truth from the moves, the path of ``--at``) at points of its domain
    beyond its window, before a proof by stand-ins prints: the window translated past its upper edge, along every
    name at once and along one name at a time (a sparse assumption, such as "a P-position", is met there as often
    as in the window, where random far points would miss it). Returns (points evaluated, points where the assumption held, the first
    counterexample or None).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> n, held, cx = probe_beyond(spec.claim("nim2-p-from-p-positions")); held > 0, cx is None
    (True, True)
    """
    plan = claim.plan(profile)
    assert isinstance(plan, WindowPlan), "a holds claim has a window"
    names = list(plan.window.names)
    points = []
    for i, env in enumerate(plan.window.bindings({})):
        if i >= 20_000:
            break
        points.append({n: env[n] for n in names})
    ints = {n: [p[n] for p in points if type(p[n]) is int] for n in names}
    shifts = {n: max(v) - min(v) + 1 for n, v in ints.items() if v}
    evaluated = held = 0
    # every name moved by the same amount first (a diagonal set stays a diagonal set), then one name at a time
    width = max(shifts.values(), default=0)
    moves = [{n: width for n in shifts}] + [{n: shift} for n, shift in shifts.items()] if shifts else []
    stride = max(1, len(points) * len(moves) // PROBES_EVALUATED)
    k = 0
    for move in moves:
        for p in points:
            k += 1
            if k % stride or evaluated >= PROBES_EVALUATED or held >= PROBES_HELD:
                continue
            env = dict(p, **{n: p[n] + d for n, d in move.items()})
            try:
                if not plan.domain.contains(env) or pinned_place(plan, env) != "domain":
                    continue
                v = check_exhaustive(claim, profile, 1, pins=env, window_limits=False)
            except (NimjosError, ArithmeticError, RecursionError, MemoryError):
                continue
            evaluated += 1
            held += v.assumption_held or 0
            if v.counterexamples or v.undefined:
                return evaluated, held, (v.counterexamples or v.undefined)[0]
    return evaluated, held, None


def stand_in_words(claim: Claim) -> str:
    """The scope's words for a proof of the rewritten statement: the used claims whose formulas stood for G.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "mex.toml")
    >>> stand_in_words(spec.claim("nim2-from-grundy"))
    'the formula of nim2-grundy standing for G (at positions of its domain)'
    """
    ids = [uid for uid in claim.prove.using if _lemma(claim.spec.claim(uid)) is not None]
    return f"the formula{'s' if len(ids) > 1 else ''} of {', '.join(ids)} standing for G (at positions of its domain)"
