"""Misère outcomes proved for every heap: the ``prove`` method of a ``p_positions`` claim on a misère heap game.

The game's misère quotient is certified for every heap by the periodicity theorem for misère quotients
(:mod:`nimjos.games.heaps.quotient_period`: the quotient verified for every sum of heaps up to
N = 2 n0 + 2 p + k - 1, its pretending function Phi periodic across that range), so the true outcome of a position
of k heaps is a function of (Phi(h_1), ..., Phi(h_k)), periodic with period p in each heap beyond n0. The claim's
statement is then decided by a finite check, when the statement and the domain are written in a fragment whose
truth is shift-invariant in the same way (:func:`shape`): conditions on a heap against constants
(``n >= 21``, ``n in {1, 4, 9}``, ``h[0] == 3``), residues (``n % 6 == 1``), comparisons between two heaps
(``h[0] == h[1]``, ``h[0] < h[1]``), ``len(h) == 2``, ``all(x >= 0 for x in h)``, ``h in {(1, 1), (2, 3)}``, with
``and``, ``or``, ``not``. Let C exceed every constant and n0, and q be a multiple of p and of every modulus.

  If a counterexample has a heap larger than C + k q, the heaps above C (with C itself below them) leave a gap
  wider than q between two consecutive values; lowering every heap above that gap by q keeps each condition's
  truth (the lowered heaps stay above C and above every other heap, residues mod q are kept, and each lowered
  heap keeps its element Phi), and the position's true outcome too: a smaller counterexample. So the least
  counterexample, if there is one, has every heap at most C + k q.

Every position of the domain with heaps up to C + k q is therefore checked: the statement, evaluated by the
scalar language, against the certified outcome. The verdict is ``proved`` (for every position of the domain),
``refuted`` at the least failing position found, ``ill-defined`` where the statement's language cannot evaluate it,
or ``inconclusive`` when a limit of the machine (the language's step budget) left a position unevaluated (the check
is then not whole; the limit is no fact about the claim); the scope names the theorem, the range verified and the finite
check. Any other claim: None (another method's turn); a claim the method cannot decide: not applicable, with the
reason (a statement outside the fragment, a quotient not certified); a claim over a number of heaps that is not
fixed is left to the other methods (None).

>>> import pathlib
>>> from nimjos.spec.loader import load_spec
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "misere" / "kayles.toml")
>>> v = misere_prove(spec.claim("kayles-rows-every-n"), RunOptions()); v.verdict
'proved'
"""
from __future__ import annotations

import ast
import math
import time
from itertools import combinations_with_replacement
from typing import Any, Callable

from checkers.heaps.reduction import heap_window
from checkers.options import RunOptions
from nimjos.games.heaps.game import HeapGame, HeapPositions
from nimjos.games.heaps.misere import MisereGame, shared_builder
from nimjos.games.heaps.periodicity import heap_sequence, octal_proof
from nimjos.games.heaps.quotient_period import NotCertified, certified_quotient, observed_period
from nimjos.games.heaps.rules import octal_rules
from nimjos.lang.errors import EvalError, ResourceError
from nimjos.spec.loader import Claim
from nimjos.spec.plan import ClaimPlan, PPositionsPlan
from nimjos.verdict import Counterexample, Phrase, Verdict, clipped, phrases
from nimjos.words import PhraseKind

METHOD = "prove"
ENGINES = ("misère quotient", "periodicity")
#: the largest heap the quotient is grown to while a period is looked for
LIMIT = 1000
#: the heaps whose normal-play values are computed to find the period of G(octal(CODE), x) that Guy-Smith proves
GRUNDY_HEAPS = 3000
#: the most positions the finite check may evaluate (a count, not a time)
MAX_POINTS = 400_000

_CERTIFICATES: dict[Any, Any] = {}


class Outside(Exception):
    """The statement or the domain is outside the fragment the reduction knows: the message names the part."""


def _int_const(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _int_const(node.operand)
        return None if inner is None else -inner
    return None


def shape(node: ast.expr, heap_of: Callable[[ast.expr], bool]) -> tuple[int, int]:
    """(C, q) of a condition on heaps: its truth at a position is kept when heaps above C, with a gap wider than
    q below them, are lowered together by q (every constant it compares a heap with is below C, every modulus
    divides q). `heap_of(node)` says whether a node stands for one heap. Outside when a part is not in the fragment.

    >>> is_n = lambda node: isinstance(node, ast.Name) and node.id == "n"
    >>> shape(ast.parse("n in {1, 4, 9, 12, 20} or (n > 30 and n % 6 == 1)", mode="eval").body, is_n)
    (31, 6)
    >>> shape(ast.parse("n * n < 50", mode="eval").body, is_n)
    Traceback (most recent call last):
    ...
    checkers.heaps.misere_proof.Outside: n * n < 50
    """
    if isinstance(node, ast.Constant) and type(node.value) is bool:
        return 0, 1
    if isinstance(node, ast.BoolOp):
        parts = [shape(v, heap_of) for v in node.values]
        return max(c for c, _ in parts), math.lcm(*(q for _, q in parts))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return shape(node.operand, heap_of)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "all" \
            and len(node.args) == 1 and isinstance(node.args[0], ast.GeneratorExp) and not node.keywords:
        gen = node.args[0]
        if len(gen.generators) == 1 and not gen.generators[0].ifs and isinstance(gen.generators[0].target, ast.Name) \
                and _is_position(gen.generators[0].iter, heap_of):
            var = gen.generators[0].target.id
            return shape(gen.elt, lambda n: (isinstance(n, ast.Name) and n.id == var) or heap_of(n))
    if isinstance(node, ast.Compare):
        c, q = 0, 1
        operands = [node.left] + list(node.comparators)
        for left, op, right in zip(operands, node.ops, operands[1:]):
            c2, q2 = _atom(left, op, right, heap_of, node)
            c, q = max(c, c2), math.lcm(q, q2)
        return c, q
    raise Outside(ast.unparse(node))


def _is_position(node: ast.expr, heap_of: Callable[[ast.expr], bool]) -> bool:
    """Whether `node` is the position itself (the tuple of heaps), for ``all(... for x in h)`` and ``len(h)``."""
    return heap_of(ast.Subscript(value=node, slice=ast.Constant(0))) if isinstance(node, ast.Name) else False


def _atom(left: ast.expr, op: ast.cmpop, right: ast.expr, heap_of, whole: ast.expr) -> tuple[int, int]:
    """(C, q) of one comparison."""
    order = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)

    def kind(node: ast.expr) -> tuple[str, Any]:
        if heap_of(node):
            return "heap", 0
        value = _int_const(node)
        if value is not None:
            return "const", value
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod) and heap_of(node.left):
            m = _int_const(node.right)
            if m is not None and m > 0:
                return "mod", m
        proved = _grundy_period(node, heap_of)
        if proved is not None:
            return "grundy", proved
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len" \
                and len(node.args) == 1 and _is_position(node.args[0], heap_of):
            return "len", 0
        return "other", 0

    if isinstance(op, (ast.Eq, ast.NotEq)) and _boolean(left) and _boolean(right):   # (A) == (B): A iff B
        (c1, q1), (c2, q2) = shape(left, heap_of), shape(right, heap_of)
        return max(c1, c2), math.lcm(q1, q2)
    a, b = kind(left), kind(right)
    if isinstance(op, order) and "grundy" in (a[0], b[0]):
        (n0, p) = a[1] if a[0] == "grundy" else b[1]
        other = b if a[0] == "grundy" else a
        if other[0] == "grundy":
            (n1, p1) = other[1]
            return max(n0, n1), math.lcm(p, p1)
        if other[0] == "const":
            return max(n0, abs(other[1]) + 1), p
        raise Outside(ast.unparse(whole))
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (ast.Set, ast.Tuple, ast.List)):
        if a[0] in ("heap", "mod"):
            values = [_int_const(e) for e in right.elts]
            if all(v is not None for v in values):
                if a[0] == "mod":
                    return 0, a[1]
                return max([abs(v) + 1 for v in values if v is not None] + [0]), 1
        if _is_position(left, heap_of):   # h in {(1, 2), (3, 4)}: each heap against constants
            consts = [_int_const(x) for e in right.elts if isinstance(e, ast.Tuple) for x in e.elts]
            if all(isinstance(e, ast.Tuple) for e in right.elts) and all(v is not None for v in consts):
                return max([abs(v) + 1 for v in consts if v is not None] + [0]), 1
        raise Outside(ast.unparse(whole))
    if isinstance(op, order):
        pair = {a[0], b[0]}
        if pair == {"heap", "const"}:
            return abs(a[1] if a[0] == "const" else b[1]) + 1, 1
        if pair == {"heap"}:
            return 0, 1
        if pair == {"mod", "const"}:
            return 0, a[1] if a[0] == "mod" else b[1]
        if pair == {"len", "const"}:
            return 0, 1
    raise Outside(ast.unparse(whole))


def _boolean(node: ast.expr) -> bool:
    """Whether `node` is a condition (a comparison, and/or/not, True/False)."""
    return isinstance(node, (ast.Compare, ast.BoolOp)) or (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)) \
        or (isinstance(node, ast.Constant) and type(node.value) is bool)


def _grundy_period(node: ast.expr, heap_of) -> tuple[int, int] | None:
    """(n0, p) when `node` is ``G(octal("CODE"), heap)``, the normal-play value of one heap of an octal game whose
    sequence is PROVED periodic with period p from n0 (the Guy-Smith theorem, :func:`octal_proof`); else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "G"
            and len(node.args) == 2 and not node.keywords and heap_of(node.args[1])):
        return None
    game = node.args[0]
    if not (isinstance(game, ast.Call) and isinstance(game.func, ast.Name) and game.func.id == "octal"
            and len(game.args) == 1 and isinstance(game.args[0], ast.Constant) and isinstance(game.args[0].value, str)):
        return None
    try:
        rules = octal_rules(game.args[0].value)
    except EvalError:
        return None
    key = ("grundy", rules)
    if key not in _CERTIFICATES:
        seq = heap_sequence(rules, GRUNDY_HEAPS) if rules.max_take is not None else []
        seen = observed_period(tuple(seq)) if seq else None
        _CERTIFICATES[key] = None
        if seen is not None:
            proof = octal_proof(rules, seen[1], seen[0], seq)
            if proof is not None and proof.holds:
                _CERTIFICATES[key] = seen
    return _CERTIFICATES[key]


def _lower_bound(node: ast.expr, heap_of, single: bool) -> int | None:
    """A lower bound c >= 0 that the domain's top-level conjunction puts on every heap: ``all(x >= 1 for x in h)``,
    or for a position of one heap (`single`) ``n >= 0``, ``0 <= n``; else None.

    >>> tree = ast.parse("len(h) == 2 and h[1] >= 3", mode="eval").body
    >>> _lower_bound(tree, lambda n: isinstance(n, ast.Subscript), False) is None   # h[0] may still be 0
    True
    """
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]
    for part in parts:
        if isinstance(part, ast.Call) and isinstance(part.func, ast.Name) and part.func.id == "all" \
                and isinstance(part.args[0], ast.GeneratorExp):
            gen = part.args[0]
            var = gen.generators[0].target
            if isinstance(var, ast.Name):
                inner = _lower_bound(gen.elt, lambda n: isinstance(n, ast.Name) and n.id == var.id, True)
                if inner is not None:
                    return inner
        if isinstance(part, ast.Compare) and single:
            operands = [part.left] + list(part.comparators)
            for left, op, right in zip(operands, part.ops, operands[1:]):
                if heap_of(left) and isinstance(op, ast.GtE) and (_int_const(right) or 0) >= 0 \
                        and _int_const(right) is not None:
                    return _int_const(right)
                if heap_of(right) and isinstance(op, ast.LtE) and _int_const(left) is not None \
                        and (_int_const(left) or 0) >= 0:
                    return _int_const(left)
    return None


def _certificate(rules: Any) -> Any:
    """The certificate of a rule's quotient (cached per rule), or the reason it is not certified (a str)."""
    found = _CERTIFICATES.get(rules)
    if found is None:
        try:
            found = certified_quotient(rules, shared_builder(rules, rules.moves), LIMIT)
        except NotCertified as exc:
            found = str(exc)
        _CERTIFICATES[rules] = found
    return found


def _misere_game(plan: ClaimPlan) -> MisereGame | None:
    """The misère heap game of a p_positions claim stated by a formula, or None (another claim, another game)."""
    if not (isinstance(plan, PPositionsPlan) and plan.misere and plan.formula is not None):
        return None
    try:
        game = plan.game_instance({})
    except (EvalError, KeyError, TypeError):
        return None
    return game if isinstance(game, MisereGame) and isinstance(game.base, (HeapGame, HeapPositions)) else None


def _layout(plan: PPositionsPlan) -> tuple[int, str, Callable[[ast.expr], bool]] | None:
    """The layout of a position: one heap named by the window, or a tuple of a fixed number of heaps, as (the
    number of heaps, the position's name, a test of a node that reads one heap); None for another layout (a number of heaps that is not
    fixed, or other names: not decided here, another method's)."""
    hw = heap_window(plan)
    if hw is not None:
        if plan.window.names != (hw.coord,) or hw.fixed is None:
            return None
        name = hw.coord

        def heap_of(node: ast.expr) -> bool:
            return (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == name
                    and _int_const(node.slice) is not None)
        return hw.fixed, name, heap_of
    if len(plan.window.names) == 1 and len(plan.coords) <= 1:
        one = plan.window.names[0]

        def heap_of_one(node: ast.expr) -> bool:
            return isinstance(node, ast.Name) and node.id == one
        return 1, one, heap_of_one
    return None


def misere_applies(plan: ClaimPlan) -> bool:
    """Does the misère finite check answer for the planned claim: a p_positions claim stated by a formula on a
    misère heap game, with an assumption (which it refuses, saying why) or a position of one heap or a fixed number
    of heaps (the dispatcher, checkers.run, asks before it routes a claim here)?

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "misere" / "kayles.toml")
    >>> misere_applies(spec.claim("kayles-rows-every-n").plan())
    True
    """
    if _misere_game(plan) is None:
        return False
    assert isinstance(plan, PPositionsPlan), "a misère game's claim read here is a p_positions claim"
    return plan.assume is not None or _layout(plan) is not None


def misere_prove(claim: Claim, opts: RunOptions) -> Verdict:
    """The ``prove`` method of a p_positions claim on a misère heap game (see the module docstring); not applicable
    to any other claim (:func:`misere_applies`: the dispatcher routes only those here)."""
    plan = claim.plan(opts.profile)
    game = _misere_game(plan)
    started = time.perf_counter()

    def not_applicable(why: str) -> Verdict:
        return Verdict.not_applicable(claim.id, METHOD, why, seconds=time.perf_counter() - started)

    if game is None:
        return not_applicable("not a p_positions claim, stated by a formula, on a misère heap game")
    assert isinstance(plan, PPositionsPlan) and plan.formula is not None, "a p_positions claim stated by a formula"
    assert isinstance(game.base, (HeapGame, HeapPositions)), "a misère heap game"
    rules = game.base.rules
    if plan.assume is not None:
        return not_applicable("the claim has an assumption: the finite check decides a statement on its domain only")
    layout = _layout(plan)
    if layout is None:
        return not_applicable("a position is neither one heap nor a fixed number of heaps named alone by the window")
    count, name, heap_of = layout
    hw = heap_window(plan)
    domain = plan.domain
    trees = [("the statement", plan.formula.tree)]
    if domain is not None and domain.tree is not None:
        trees.append(("the domain", domain.tree))
    c, q = 0, 1
    for what, tree in trees:
        try:
            c2, q2 = shape(tree, heap_of)
        except Outside as exc:
            return not_applicable(f"{what} is outside the fragment the misère reduction decides (conditions on "
                                  f"heaps against constants, residues, comparisons of two heaps): {exc}")
        c, q = max(c, c2), math.lcm(q, q2)
    low = _lower_bound(trees[-1][1], heap_of, hw is None) if len(trees) > 1 else None
    if low is None:
        return not_applicable("the domain puts no lower bound >= 0 on the heaps at its top level")
    cert = _certificate(rules)
    if isinstance(cert, str):
        return not_applicable(f"the misère quotient of {plan.game_text} is not certified for every heap: {cert}")
    c, q = max(c, cert.preperiod), math.lcm(q, cert.period)
    top = c + count * q
    points = math.comb(top - low + count, count)
    if points > MAX_POINTS:
        return not_applicable(f"the finite check would evaluate {points:,} positions (heaps up to {top}), more "
                              f"than {MAX_POINTS:,}")
    held = checked = 0
    failures: list[Counterexample] = []
    undefined: list[Counterexample] = []
    over: list[Counterexample] = []     # left unevaluated by a limit of the machine only: the check is not whole
    for heaps in combinations_with_replacement(range(low, top + 1), count):
        env = {name: heaps[0] if hw is None else heaps}
        if hw is not None and hw.count is not None:
            env[hw.count] = count
        if domain is not None and not domain.contains(env):
            continue
        checked += 1
        truth = cert.outcome(heaps) == "P"
        try:
            said = bool(plan.formula(env))
        except ResourceError as exc:
            over.append(Counterexample.undefined_at(dict(env), exc))
            continue
        except EvalError as exc:
            undefined.append(Counterexample.undefined_at(dict(env), exc))
            continue
        if said == truth:
            held += 1
        else:
            failures.append(Counterexample(dict(env), "P" if truth else "N", "P" if said else "N"))
    seconds = time.perf_counter() - started
    finite = (f"the statement and the domain keep their truth when heaps above {c} are lowered by {q} across a gap "
              f"(constants < {c}, moduli and the period divide {q}), so a least counterexample has every heap <= "
              f"{c} + {count} * {q} = {top}: {checked:,} positions of the domain checked against the certified "
              f"outcomes")
    where = domain.describe() if domain is not None else "every position"
    if failures or undefined:
        failures.sort(key=Counterexample.key)
        verdict = "refuted" if failures else "ill-defined"
        return Verdict(claim.id, verdict, METHOD,
                       clipped(phrases((PhraseKind.CLASS, where),
                                       Phrase(PhraseKind.FINDING, f"{len(failures)} failures among {checked:,} positions "
                                                                  f"with heaps <= {top}, outcomes from the "
                                                                  f"{cert.describe()}", ": ")), 900),
                       instances=checked, assumption_held=checked, counterexamples=failures[:opts.max_counterexamples],
                       failures=len(failures), undefined=undefined[:opts.max_counterexamples], seconds=seconds,
                       engines=ENGINES)
    if over:
        # a limit of the machine is no fact about the claim: the finite check is not whole, so nothing is proved
        first = min(over, key=Counterexample.key)
        return Verdict(claim.id, "inconclusive", METHOD,
                       clipped(phrases((PhraseKind.CLASS, where),
                                       Phrase(PhraseKind.STOP, f"the finite check (heaps <= {top}, outcomes from the "
                                                               f"{cert.describe()}) left {len(over):,} of {checked:,} "
                                                               f"positions unevaluated, over a limit (first at "
                                                               f"{first.position_text()}: {first.reason})", ": "),
                                       (PhraseKind.FINDING, f"the claim held at the other {held:,}")), 900),
                       instances=checked, assumption_held=held, seconds=seconds, engines=ENGINES)
    return Verdict(claim.id, "proved", METHOD,
                   clipped(phrases((PhraseKind.CLASS, f"{where}, every position, in misère play"),
                                   Phrase(PhraseKind.ENGINE, f"by the {cert.describe()}", ": "),
                                   (PhraseKind.ENGINE, finite)), 1200),
                   instances=checked, assumption_held=checked, seconds=seconds, engines=ENGINES)
