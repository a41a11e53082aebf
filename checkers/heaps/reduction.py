"""Claims over any number of heaps: sampling beyond the window, and proofs by the Sprague-Grundy reduction.

A claim "for every n and all heaps h_1, ..., h_n" binds the number of heaps n and the position h, a sorted tuple,
with ``h in multisets(n, LO, HI)`` (:mod:`nimjos.games.heaps.positions`); its game is a heap game (``nim()``,
``octal(...)``, ``heaps(g)`` for a one-heap game g, ``moore_nim(k)``). The window enumerates every multiset once.

* **sample** (:func:`heap_sample`): positions drawn beyond the window, in the domain: more heaps than the window
  has (up to twice as many, and one more), heap sizes up to :data:`FAR_HEAP` -- zeros, small sizes, powers of
  two and their neighbours, uniform sizes. Ground truth from the engine: a sum of one-heap games is the nim-sum
  of the heaps' values; Moore's Nim, which is not a sum, is solved on its game graph, so its positions are
  drawn with at most :data:`MOORE_EDGES` moves below them (one large heap and small others). Seeded by the
  claim: the same draws in every run.
* **prove** (:func:`heap_prove`): for a sum of one-heap games, the Sprague-Grundy theorem gives
  G(h_1, ..., h_n) = g(h_1) xor ... xor g(h_n), g the one-heap game's values. A claim whose statement is
  ``nimsum(F for x in h)`` (grundy) or ``nimsum(F for x in h) == 0`` (p_positions), ``nimsum(h)`` for
  F = x, is then the claim about one heap "g(x) = F for every x >= 0", which the spec states as a `holds`
  claim ``G(GAME, x) == F`` named in ``prove = { using = [...] }``. The verdict is ``proved`` when that claim
  is proved and its domain is every x >= 0, and its scope says that the reduction was used; a one-heap claim
  proved on a smaller class (a window filter ``x % 2 == 0`` read into its domain, ``x >= 1``, ``x <= 5``)
  proves only the positions whose every heap lies in that class: ``proved-bounded``, naming it. Other games or
  statements: the method says it does not apply.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
>>> heap_window(spec.claim("bouton").plan()).count
'n'
>>> heap_prove(spec.claim("bouton"), RunOptions()).verdict
'proved'
"""
from __future__ import annotations

import ast
import copy
import random
import time
from dataclasses import dataclass, field
from typing import Any

from checkers.context import CheckContext
from checkers.options import RunOptions
from checkers.prove.method import prove_lemma
from checkers.sample.driver import db_key
from checkers.sample.method import MIN_BEYOND
from nimjos.games.declared import as_instance
from nimjos.games.heaps.game import Copies, HeapGame, MooreNim
from nimjos.games.heaps.misere import quotient_outcome
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, ResourceError, SpecError
from nimjos.lang.inline import substitute_call
from nimjos.lang.runtime import active_budget
from nimjos.lang.syntax import copy_tree
from nimjos.spec.loader import Claim
from nimjos.spec.plan import ClaimPlan, GrundyPlan, HoldsPlan, PPositionsPlan, WindowPlan
from nimjos.verdict import Counterexample, Phrase, ProvedClass, Verdict, clipped, phrases
from nimjos.words import PhraseKind

#: the largest heap size the sampler draws (a sum's one-heap values are computed up to it)
FAR_HEAP = 2 ** 14
#: the most moves among the positions below a drawn position of a game that is not a sum (solved on its game
#: graph): the positions below it times the moves of at most k heaps at once
MOORE_EDGES = 150_000
#: positions drawn unless the spec's sample.count says otherwise
SAMPLE_COUNT = 100


@dataclass
class HeapWindow:
    """How a claim's window binds a position of any number of heaps: ``coord in multisets(count, lo, hi)``."""

    count: str | None  # the name of the number of heaps (None: a fixed number, `fixed`)
    coord: str         # the name of the position (a sorted tuple)
    lo: str            # the heap sizes' bounds, as written
    hi: str
    fixed: int | None = None

    names: tuple = ()  # the window's names, in declared order
    lo_tree: ast.expr | None = field(default=None, repr=False)  # the smallest heap size's tree (set by heap_window)

    def binding(self, env: dict, heaps: tuple) -> dict:
        """`env` with the position `heaps` (and its number of heaps when the window binds it), in the window's
        order of names."""
        out = dict(env, **{self.coord: heaps})
        if self.count is not None:
            out[self.count] = len(heaps)
        return {**{n: out[n] for n in self.names if n in out}, **out}


#: why the methods of this module do not apply to a claim whose window binds no position of heaps
NOT_OVER_HEAPS = "not a claim over any number of heaps (its window binds no position by multisets(n, lo, hi))"


def over_heaps(plan: ClaimPlan) -> bool:
    """Is the planned claim one over any number of heaps (:func:`heap_window`), the claims this module's methods
    take (the dispatcher, checkers.run, asks before it routes a claim here)?

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "examples" / "heap_games.toml")
    >>> over_heaps(spec.claim("bouton").plan()), over_heaps(spec.claim("kayles-period-12").plan())
    (True, False)
    """
    return heap_window(plan) is not None


def heap_window(plan: ClaimPlan) -> HeapWindow | None:
    """The heap binding of a planned claim: its one position coordinate (for a holds claim, a name of the window)
    bound by ``multisets(n, lo, hi)``, n a name of the window or a number; None for any other claim."""
    if plan.window is None or len(plan.coords) > 1:
        return None
    levels = [lv for lv in plan.window.levels if lv.members is not None and lv.member_text
              and (not plan.coords or lv.name == plan.coords[0])
              and lv.member_text.replace(" ", "").startswith("multisets(")]
    if len(levels) != 1:
        return None
    level, coord = levels[0], levels[0].name
    tree = level.member_tree
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id == "multisets"
            and len(tree.args) == 3):
        return None
    count = tree.args[0]
    if isinstance(count, ast.Name) and count.id in plan.window.names:
        return HeapWindow(count.id, coord, ast.unparse(tree.args[1]), ast.unparse(tree.args[2]),
                          names=plan.window.names, lo_tree=tree.args[1])
    if isinstance(count, ast.Constant) and type(count.value) is int:
        return HeapWindow(None, coord, ast.unparse(tree.args[1]), ast.unparse(tree.args[2]), count.value,
                          plan.window.names, tree.args[1])
    return None


def _window_edges(plan: WindowPlan, hw: HeapWindow) -> tuple[int, int, int, dict]:
    """(largest n, smallest heap, largest heap, one binding of the other names) over the window."""
    top_n, lo, hi, params = 0, None, 0, None
    for env in plan.window.bindings({}):
        top_n = max(top_n, len(env[hw.coord]))
        for x in env[hw.coord]:
            lo = x if lo is None else min(lo, x)
            hi = max(hi, x)
        if params is None:
            params = {k: v for k, v in env.items() if k not in (hw.count, hw.coord)}
    return top_n, lo or 0, hi, params or {}


def _heap_size(rng: random.Random, lo: int, hi: int, far: int) -> int:
    """One heap size: zero-ish, small, a power of two or a neighbour, or uniform up to `far`."""
    kind = rng.randrange(4)
    if kind == 0:
        return lo
    if kind == 1:
        return rng.randint(lo, max(lo, hi))
    if kind == 2:
        e = rng.randint(1, far.bit_length() - 1)
        return max(lo, min(far, 2 ** e + rng.choice((-1, 0, 0, 1))))
    return rng.randint(lo, far)


def graph_moves(heaps: Any, k: int) -> int:
    """An upper bound on the moves among the positions below `heaps` in a game moving up to k heaps at once:
    (the positions below) times (the moves from the top), e_1 + ... + e_k of the sizes + 1 of the non-empty heaps.

    >>> graph_moves((0, 256), 2), graph_moves((1, 2, 3), 1)
    (66049, 216)
    """
    below = 1
    e = [1] + [0] * k  # elementary symmetric sums of (h + 1) over the non-empty heaps
    for h in heaps:
        below *= h + 1
        if h:
            for j in range(k, 0, -1):
                e[j] += e[j - 1] * (h + 1)
    return below * sum(e[1:])


def _draw(rng: random.Random, n: int, lo: int, hi: int, far: int, k: int | None) -> tuple:
    """n heap sizes; for a game solved on its game graph (moving up to k heaps at once), small heaps and at most
    one large one, with at most MOORE_EDGES moves below them."""
    heaps = [_heap_size(rng, lo, hi, far) for _ in range(n)]
    if k is not None:
        big = rng.randrange(n)
        heaps = [h if i == big else min(h, max(lo, hi // 2)) for i, h in enumerate(heaps)]
        while graph_moves(heaps, k) > MOORE_EDGES:
            j = max(range(n), key=lambda i: heaps[i] if i != big else -1)
            if j == big or heaps[j] <= lo:
                heaps[big] = max(lo, heaps[big] // 2)
            else:
                heaps[j] -= 1
    return tuple(sorted(heaps))


def heap_sample(claim: Claim, opts: RunOptions) -> Verdict:
    """The ``sample`` method of a claim over any number of heaps (see the module docstring); not applicable to
    others (:func:`over_heaps`: the dispatcher, checkers.run, routes only those here, and reads the claim's
    ``sample.skip`` before it does)."""
    plan = claim.plan(opts.profile)
    hw = heap_window(plan)
    if hw is None:
        return Verdict.not_applicable(claim.id, "sample", NOT_OVER_HEAPS)
    started = time.perf_counter()
    if not isinstance(plan, (PPositionsPlan, GrundyPlan, HoldsPlan)) or (isinstance(plan, PPositionsPlan) and plan.families):
        return Verdict.not_applicable(claim.id, "sample",
                                      f"a {claim.kind} claim over any number of heaps is checked on its window")
    top_n, lo, hi, params = _window_edges(plan, hw)
    rng = random.Random(int.from_bytes(db_key(claim, opts.profile)[:4], "big"))  # the sampler's seed
    count = int(claim.sample.count or SAMPLE_COUNT)
    game = as_instance(plan.game(hw.binding(params, (lo,)))) if plan.game else None
    graph = game is not None and not isinstance(game, (HeapGame, Copies))
    k = (game.k if isinstance(game, MooreNim) else 2 * top_n + 1) if graph else None
    far = FAR_HEAP
    held = beyond = largest = skipped = 0
    failures: list[Counterexample] = []
    seen: set = set()
    for i in range(count * 6):
        if len(seen) >= count:
            break
        n = hw.fixed if hw.fixed is not None else \
            rng.choice([top_n, top_n + 1, 2 * top_n + 1, rng.randint(1, 2 * top_n + 1)])
        h = _draw(rng, n, lo, hi, far, k)
        env = hw.binding(params, h)
        if h in seen or (plan.domain is not None and not plan.domain.contains(env)):
            continue
        seen.add(h)
        in_window = n <= top_n and max(h, default=lo) <= hi
        try:
            judged = _judge(plan, env, hw)
            if judged is None:
                continue
            ok, lhs, rhs = judged
        except ResourceError:
            skipped += 1
            continue
        except EvalError as exc:
            failures.append(Counterexample.undefined_at(dict(env), exc))
            continue
        if ok:
            held += 1
            beyond += not in_window and any(x > lo for x in h)  # all heaps empty: the domain's edge
            largest = max(largest, n, max(h, default=0))
        else:
            failures.append(Counterexample(dict(env), lhs, rhs))
    seconds = time.perf_counter() - started
    most = max((len(h) for h in seen), default=0)
    what = (f"{held + len(failures):,} positions drawn (up to {most} heaps of up to {far:,} tokens: zeros, "
            f"small heaps, powers of two and their neighbours, uniform sizes"
            + (f"; for the game graph one large heap and small others, at most {MOORE_EDGES:,} moves below "
               "each" if graph else "") + ")")
    scope = phrases((PhraseKind.DRAWS, what),
                    (PhraseKind.DRAWS, f"{held:,} held, {beyond:,} beyond the window (not counting positions of empty "
                                       "heaps only)"),
                    (PhraseKind.DRAWS, f"largest heap or count {largest:,}"),
                    (PhraseKind.ENGINE, "misère play: each position valued as a whole (no Sprague-Grundy reduction), "
                                        "on its game graph or by the game's misère quotient where one is verified for "
                                        "its heaps" if plan.misere else ""),
                    (PhraseKind.CLASS, plan.domain.describe() if plan.domain is not None else ""))
    notes = [f"{skipped:,} drawn positions skipped: over the engine's limits"] if skipped else []
    if failures:
        failures.sort(key=lambda cx: (len(cx.bindings[hw.coord]), sum(cx.bindings[hw.coord]), cx.bindings[hw.coord]))
        cx = failures[0] if failures[0].reason else _shrink(plan, hw, failures[0])
        word = "ill-defined" if cx.reason else "refuted"
        return Verdict(claim.id, word, "sample", scope, instances=held + len(failures),
                       assumption_held=held + len(failures), counterexamples=[] if cx.reason else [cx],
                       undefined=[cx] if cx.reason else [], failures=len(failures), seconds=seconds, beyond=beyond,
                       largest=largest, notes=notes)
    word = "sampled" if beyond >= MIN_BEYOND else "inconclusive"
    if word != "sampled":
        notes.insert(0, f"only {beyond} held instances beyond the window (at least {MIN_BEYOND} needed)")
    return Verdict(claim.id, word, "sample", scope, instances=held, assumption_held=held, seconds=seconds,
                   beyond=beyond, largest=largest, notes=notes)


def _smaller(heaps: tuple) -> list[tuple]:
    """Positions a little smaller than `heaps`: one heap dropped, or one heap made 0, a power of two below it,
    half of it, or one less."""
    out = [heaps[:i] + heaps[i + 1:] for i in range(len(heaps))]
    for i, h in enumerate(heaps):
        for v in sorted({0, h // 2, h - 1, 1 << (h.bit_length() - 1) if h else 0}):
            if 0 <= v < h:
                out.append(tuple(sorted(heaps[:i] + (v,) + heaps[i + 1:])))
    return out


def _shrink(plan: PPositionsPlan | GrundyPlan | HoldsPlan, hw: HeapWindow, cx: Counterexample, steps: int = 300) -> Counterexample:
    """A failure made smaller, one step at a time while it still fails (each step re-evaluated exactly)."""
    env = dict(cx.bindings)
    improved = True
    while improved and steps > 0:
        improved = False
        for h in _smaller(env[hw.coord]):
            trial = hw.binding(env, h)
            if len(h) < 1 or (hw.fixed is not None and len(h) != hw.fixed) or \
                    (plan.domain is not None and not plan.domain.contains(trial)):
                continue
            steps -= 1
            try:
                judged = _judge(plan, trial, hw)
            except (EvalError, ResourceError):
                continue
            if judged is None:
                continue
            ok, lhs, rhs = judged
            if not ok:
                env, cx = trial, Counterexample(trial, lhs, rhs)
                improved = True
                break
            if steps <= 0:
                break
    return cx


def _judge(plan: PPositionsPlan | GrundyPlan | HoldsPlan, env: dict, hw: HeapWindow) -> tuple[bool, Any, Any] | None:
    """(holds?, lhs, rhs) of the claim at one binding, one evaluation (a fresh step budget); ground truth from
    the engine; None where the assumption is false."""
    active_budget().restart()
    if plan.assume is not None and not plan.assume(env):
        return None
    assert plan.formula is not None, "a claim sampled over heaps is stated by one expression"
    if isinstance(plan, HoldsPlan):
        ok = bool(plan.formula(env))
        if not ok and plan.sides is not None:
            return False, plan.sides[0](env), plan.sides[1](env)
        return ok, ok, True
    inst = as_instance(plan.game(env))
    is_p = quotient_outcome(inst, env[hw.coord]) if isinstance(plan, PPositionsPlan) else None
    actual = (0 if is_p else -1) if is_p is not None else inst.grundy(env[hw.coord])
    claimed = plan.formula(env)
    if isinstance(plan, PPositionsPlan):
        return bool(claimed) == (actual == 0), "P" if actual == 0 else "N", "P" if claimed else "N"
    return claimed == actual, actual, claimed


# ----------------------------------------------------------------------------- the Sprague-Grundy reduction

def _element(tree: ast.expr, coord: str) -> tuple[str, ast.expr] | None:
    """(x, F) when `tree` is nimsum(F for x in coord) / xor(...) or nimsum(coord) (x, x), else None."""
    if not (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("nimsum", "xor")
            and len(tree.args) == 1):
        return None
    arg = tree.args[0]
    if isinstance(arg, ast.Name) and arg.id == coord:
        return "x", ast.Name(id="x", ctx=ast.Load())
    if isinstance(arg, ast.GeneratorExp) and len(arg.generators) == 1:
        gen = arg.generators[0]
        if isinstance(gen.target, ast.Name) and isinstance(gen.iter, ast.Name) and gen.iter.id == coord \
                and not gen.ifs and not gen.is_async:
            return gen.target.id, arg.elt
    return None


def _one_heap(plan: GrundyPlan | PPositionsPlan, coord: str) -> tuple[str, ast.expr] | None:
    """The statement's one-heap formula (x, F): grundy nimsum(F for x in h), p_positions nimsum(...) == 0."""
    assert plan.formula is not None, "a claim whose statement is a formula"
    tree = plan.formula.tree
    if isinstance(plan, PPositionsPlan):
        if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)
                and isinstance(tree.comparators[0], ast.Constant) and tree.comparators[0].value == 0):
            return None
        tree = tree.left
    return _element(tree, coord)


class _Rename(ast.NodeTransformer):
    def __init__(self, old: str, new: str):
        self.old, self.new = old, new

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id=self.new, ctx=node.ctx) if node.id == self.old else node


def _renamed(tree: ast.expr, old: str, new: str) -> str:
    """A condition on one name written with another name (where it is free; a name bound inside the condition is
    renamed fresh by the one inliner, :func:`nimjos.lang.inline.substitute_call`, so `new` is never captured).

    >>> from nimjos.lang.syntax import parse
    >>> _renamed(parse("0 <= y and y % 2 == 0"), "y", "x")
    '0 <= x and x % 2 == 0'
    >>> _renamed(parse("all(y != x for x in range(y))"), "y", "x")
    'all((x != x_1 for x_1 in range(x)))'
    """
    return ast.unparse(substitute_call((old,), copy_tree(tree), [ast.Name(new, ast.Load())]))


def _same(a: ast.expr, a_var: str, b: ast.expr, b_var: str) -> bool:
    """Whether two one-heap formulas are the same text up to the name of the heap."""
    fresh = "_heap"
    return ast.dump(_Rename(a_var, fresh).visit(copy.deepcopy(a))) == \
        ast.dump(_Rename(b_var, fresh).visit(copy.deepcopy(b)))


def _lemma(claim: Claim, base_text: str, var: str, formula: ast.expr) -> tuple[Claim, str] | None:
    """The claim of prove.using that states g(x) = F for the one-heap game: ``G(BASE, y) == F`` over one name y,
    with no assumption (its domain may be smaller than every y >= 0: see :func:`every_heap_size`)."""
    for uid in claim.prove.using:
        used = claim.spec.claim(uid)
        plan = used.plan()
        if not isinstance(plan, HoldsPlan):
            continue
        tree = plan.formula.tree
        if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.Eq)):
            continue
        call, rhs = tree.left, tree.comparators[0]
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "G"
                and len(call.args) == 2 and isinstance(call.args[1], ast.Name)):
            continue
        y = call.args[1].id
        if ast.unparse(call.args[0]) != base_text or used.assume_text is not None:
            continue
        if plan.window.names != (y,) or plan.domain is None:
            continue
        if _same(rhs, y, formula, var):
            return used, y
    return None


def every_heap_size(domain: Any, y: str, ns: Any) -> bool:
    """Whether a one-heap claim's domain contains every heap size y >= 0: it is a conjunction of lower bounds on y
    by constants <= 0 and nothing else (a filter such as ``y % 2 == 0``, an upper bound or a set is a smaller class).

    >>> from nimjos.spec.names import spec_namespace
    >>> from nimjos.spec.domain import claim_domain
    >>> ns = spec_namespace()
    >>> every_heap_size(claim_domain("0 <= x", ns, ("x",), window="x <= 100"), "x", ns)
    True
    >>> every_heap_size(claim_domain("0 <= x and x % 2 == 0", ns, ("x",), window="x <= 100"), "x", ns)
    False
    >>> every_heap_size(claim_domain("x >= 1", ns, ("x",), window="x <= 100"), "x", ns)
    False
    """
    if domain is None or not domain.text:
        return True
    binder = domain.binder(ns)
    if binder is None:
        return False
    if binder.pre_filters or binder.filter_texts or [lv.name for lv in binder.levels] != [y]:
        return False
    level = binder.levels[0]
    # lower bounds only (constants: no other name is bound), so it contains every y >= 0 when it contains 0
    return level.members is None and not level.highs and not level.filters and domain.contains({y: 0})


def heap_prove(claim: Claim, opts: RunOptions, context: CheckContext | None = None) -> Verdict:
    """The ``prove`` method of a claim over any number of heaps (the Sprague-Grundy reduction, see the module
    docstring); not applicable to other claims (:func:`over_heaps`: the dispatcher, checkers.run, routes only those
    here, and reads the claim's ``prove.skip`` before it does)."""
    plan = claim.plan(opts.profile)
    hw = heap_window(plan)
    if hw is None:
        return Verdict.not_applicable(claim.id, "prove", NOT_OVER_HEAPS)
    started = time.perf_counter()

    def not_applicable(why: str) -> Verdict:
        return Verdict.not_applicable(claim.id, "prove", why, seconds=time.perf_counter() - started)

    if plan.misere:
        return not_applicable(f"{plan.game_text} is played in misère play, where a sum is not valued by the nim-sum "
                              "of its heaps (no Sprague-Grundy reduction): sums are checked as whole positions")
    gtree = plan.game.tree if plan.game is not None else None
    if gtree is None or not isinstance(plan, (GrundyPlan, PPositionsPlan)) or not isinstance(claim.statement, str):
        return not_applicable("only grundy and p_positions claims about a sum of one-heap games reduce to one heap")
    if not (isinstance(gtree, ast.Call) and isinstance(gtree.func, ast.Name) and gtree.func.id == "heaps"
            and len(gtree.args) == 1):
        return not_applicable(f"{plan.game_text} is not written heaps(GAME), a sum of one-heap games (the "
                              "Sprague-Grundy reduction needs the one-heap game by name)")
    try:
        assert hw.lo_tree is not None, "heap_window sets the tree"
        lowest = compile_tree(hw.lo_tree, claim.spec.namespace, set())({})
    except (EvalError, SpecError):
        lowest = None
    if type(lowest) is not int or lowest < 0:
        return not_applicable(f"the window's heap sizes start at {hw.lo}, not at a constant >= 0: the reduction "
                              "speaks of positions of heaps of 0 tokens or more")
    one = _one_heap(plan, hw.coord)
    if one is None:
        return not_applicable("the statement is not nimsum(F for x in h) (grundy) or nimsum(F for x in h) == 0 "
                              "(p_positions), the form the Sprague-Grundy theorem reduces to one heap")
    var, formula = one
    base_text = ast.unparse(gtree.args[0])
    found = _lemma(claim, base_text, var, formula)
    step = (f"the Sprague-Grundy theorem: G(h_1, ..., h_n) = g(h_1) xor ... xor g(h_n) for {plan.game_text}, so the "
            f"claim holds for every n and all heaps when g(x) = {ast.unparse(formula)} for every heap size x >= 0")
    if found is None:
        return not_applicable(f"{step}; no claim of prove.using states G({base_text}, {var}) == "
                              f"{ast.unparse(formula)} for every {var} >= 0")
    used, y = found
    # the lemma's proof is held to the lemma's own window (the runner's window verdict is this claim's), and a
    # lemma that would rest on this claim is a cycle
    lemma = prove_lemma(used, opts, (claim.id,), context)
    seconds = time.perf_counter() - started
    engines = tuple(dict.fromkeys(("Sprague-Grundy",) + lemma.engines))
    used_domain = used.plan().domain
    assert used_domain is not None, "a lemma of the reduction states its domain (see _lemma)"
    if lemma.verdict == "proved" and every_heap_size(used_domain, y, claim.spec.namespace):
        return Verdict(claim.id, "proved", "prove",
                       phrases((PhraseKind.CLASS, "every n and all heaps"), Phrase(PhraseKind.ENGINE, f"by {step}", ", "),
                               (PhraseKind.LEMMA, f"that one-heap claim is {used.id}, proved ({lemma.scope})")),
                       instances=1, assumption_held=1, seconds=seconds, engines=engines)
    if lemma.verdict == "proved":
        # the lemma speaks of the heap sizes of its domain only: the reduction proves the positions of those heaps
        assert used_domain.tree is not None, "a lemma of the reduction states its domain (see _lemma)"
        where = used_domain.tree
        v = Verdict(claim.id, "proved-bounded", "prove", clipped(phrases(
                    (PhraseKind.CLASS, f"for positions whose every heap {var} satisfies {_renamed(where, y, var)} only "
                                       f"(the domain of {used.id}; "
                                       f"{plan.domain.describe() if plan.domain is not None else 'the claim: every heap'})"),
                    Phrase(PhraseKind.ENGINE, f"by {step}", ", "),
                    (PhraseKind.LEMMA, f"that one-heap claim is {used.id}, proved ({lemma.scope})")), 900),
                    instances=1, assumption_held=1, seconds=seconds, engines=engines,
                    proved_class=ProvedClass(heaps=_renamed(where, y, var), lemma=used.id))
        return v
    return Verdict(claim.id, "inconclusive", "prove",
                   clipped(phrases((PhraseKind.REASON, f"reduced by {step} (claim {used.id}), which is "
                                                       f"{lemma.verdict}: {lemma.scope}")), 600),
                   seconds=seconds)
