"""One check per backend: each compares the backend's answer on generated text with the scalar language
(:mod:`tests.conformance.reference`) at points of the class the backend claims to cover, and raises
AssertionError, with the statement as a spec and the point, on a disagreement; a refusal (the backend's own
exception) is never a failure. Each returns a short word of what happened, for hypothesis' statistics.

* :func:`check_vector` -- nimjos/lang/vector.py as checkers/window/vectorised.py calls it, on arrays of points of both
  signs and near the int64 guard.
* :func:`check_z3` -- checkers/z3/translate.py's Builder, int world and bit-vector world: the prover says a
  statement holds when ``facts & hyps & (not goal or not obligations)`` is unsatisfiable (checkers/prove/attempt.py),
  so at a point p of the class, where the language gives E the value v, ``facts & (E == v or not obligations)``
  must be satisfiable (else the prover would prove ``E != v``, false at p), and where the language has no value,
  ``facts & not obligations`` must be (else it would prove ``E == E``, ill-defined at p).
* :func:`check_walnut` -- checkers/prove/walnut/: a batch of statements in one Walnut run; for each, the
  automaton of the translated formula accepts exactly the window's naturals where the language says True (when
  every obligation is TRUE), and the claim path (holds_job) proves neither ``for all: phi`` where the window has
  a point where phi is not True, nor ``for all: not phi`` (no point has phi) where it has one that has phi.
* :func:`check_fast` -- the fast Grundy engines (nimjos/games/fast/) against the reference engine on a window.
* :func:`check_resolve` -- the resolver (nimjos/lang/resolve.py): the resolved tree, printed back as text
  (definitions inlined as lambdas, bound names made unique), means what the text meant, at every point.

>>> check_vector({}, "x % 3 == y", [(-4, 2), (7, 1)])
'compared'
>>> check_z3({}, "x // (-2) == y", [{"x": -3, "y": 1}], "int")
'judged int'
"""
from __future__ import annotations

import itertools
import re
from fractions import Fraction
from typing import Any

import numpy as np
import z3

from checkers.z3.budget import Budget, check
from checkers.z3.terms import Untranslatable, is_term
from checkers.z3.translate import Builder
from checkers.prove.walnut.certificate import holds_job
from checkers.prove.walnut.logic import NotAutomatic, Unit, WrongNumeration, in_numeration, library, pad
from checkers.prove.walnut.numeration import BASE2, Numeration, numeration
from checkers.prove.walnut.run import accepts, run
from checkers.prove.walnut.translate import Translator
from checkers.window.vectorised import ARRAY_CALLS
from nimjos.games.declared import GameDecl
from nimjos.games.engine import ReferenceEngine
from nimjos.lang import build
from nimjos.lang.errors import NimjosError, ResourceError
from nimjos.lang.ir import Comprehension, DefCall, Lambda, Var, walk
from nimjos.lang.printer import to_text
from nimjos.lang.resolve import resolve
from nimjos.lang.vector import NotVectorisable, vectorise
from nimjos.spec.names import spec_namespace

from conformance.reference import SKIP, UNDEFINED, Reference, make, show


# ---------------------------------------------------------------------------------------------- resolver

def bound_names(tree: Any) -> list[str]:
    """Every name a resolved tree binds (lambdas' parameters, comprehensions' targets), definitions' bodies not
    entered (each is a tree of its own).

    >>> from nimjos.lang.compiler import Namespace
    >>> from nimjos.lang.resolve import resolve_text
    >>> bound_names(resolve_text("[y for y in range(x)] + [y for y in range(2)]", Namespace(), {"x"}))
    ['y', 'y_1']
    """
    out: list[str] = []
    for node in walk(tree):
        if isinstance(node, Lambda):
            out += node.params
        elif isinstance(node, Comprehension):
            out += [n for g in node.generators for n in g.target]
    return out


def check_resolve(table: dict, text: str, points: list[dict]) -> str:
    """The resolved tree of `text` against the text: its bound names are distinct and none is a variable; each
    inlined body's names are distinct from its parameters' and from each other; and the tree printed back as text
    (nimjos/lang/printer.py), compiled in the same namespace, has the language's value (or none) at every point."""
    ref = make(table, text)
    if ref is None:
        return "refused by the language"
    names = set(ref.names)
    tree = resolve(ref.tree, ref.ns, names)
    for params, body in [((), tree)] + [(b.params, b.body) for b in definition_bodies(tree)]:
        bound = list(params) + bound_names(body)
        scope = set(params) if params or body is not tree else names
        assert len(bound) == len(set(bound)), f"a name bound twice in the resolved tree of {text!r}: {bound}"
        assert body is not tree or not names & set(bound), f"a variable rebound in {text!r}: {bound}"
        free = {n.name for n in walk(body) if isinstance(n, Var)} - set(bound)
        assert free <= scope, f"a free name {free - scope} in the resolved tree of {text!r}"
    printed = to_text(tree)
    try:
        again = Reference(table, printed, ref.names)
    except NimjosError as exc:
        raise AssertionError(f"the resolved tree of {text!r} prints as {printed!r}, which the language "
                             f"refuses: {exc}") from None
    for p in points:
        want, got = ref.at(p), again.at(p)
        if want is SKIP or got is SKIP:
            continue
        assert (want is got) or (want is not UNDEFINED and got is not UNDEFINED and want == got
                                 and type(want) is type(got)), \
            f"resolved {printed!r} gives {got!r}, the language {want!r}: {text!r} at {show(p)}\n{ref.spec()}"
    return "compared"


def definition_bodies(tree: Any) -> list[Any]:
    """The bodies of the definitions a resolved tree inlines, and of those their bodies inline, each once."""
    out: list[Any] = []
    stack = [tree]
    while stack:
        for n in walk(stack.pop()):
            if isinstance(n, DefCall) and n.body is not None and all(n.body is not b for b in out):
                out.append(n.body)
                stack.append(n.body.body)
    return out


# ---------------------------------------------------------------------------------------------- vectorised

def _vector(fn: Any, xs: list[int], ys: list[int]) -> Any:
    """The vectorised values at the points (a list), or None when it refuses."""
    try:
        out = fn({"x": np.array(xs, dtype=np.int64), "y": np.array(ys, dtype=np.int64)})
    except NotVectorisable:
        return None
    if isinstance(out, np.ndarray):
        return out.tolist()
    if isinstance(out, tuple):
        return out
    return [out.item() if isinstance(out, np.generic) else out] * len(xs)


def _same(scalar: Any, vector: Any) -> bool:
    """Equal values of the same kind: a truth value where the language gives one, a number where it gives one."""
    if isinstance(scalar, bool) != isinstance(vector, (bool, np.bool_)):
        return False
    return type(scalar) in (int, bool) and scalar == vector


def check_vector(table: dict, text: str, points: list[tuple[int, int]]) -> str:
    """The vectorised evaluation against the scalar one at `points` (all at once, then one at a time where the
    whole refuses): every value it returns is the language's, and it returns none where the language has none."""
    ref = make(table, text)
    if ref is None:
        return "refused by the language"
    fn = vectorise(ref.tree, ref.ns, ARRAY_CALLS)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    first = _vector(fn, xs, ys)
    batches = [(xs, ys, first)] if first is not None else \
        [([x], [y], _vector(fn, [x], [y])) for x, y in points[:8]]
    compared = 0
    for bx, by, got in batches:
        if got is None:
            continue
        assert not isinstance(got, tuple), f"vectorised: a tuple for {text!r}"
        for x, y, v in zip(bx, by, got):
            want = ref.at({"x": x, "y": y})
            if want is SKIP:
                continue
            where = f"{text!r} at {show({'x': x, 'y': y})} (in a batch of {len(bx)})\n{ref.spec()}"
            assert want is not UNDEFINED, f"vectorised gives {v!r} where the language has no value: {where}"
            assert _same(want, v), f"vectorised gives {v!r}, the language {want!r}: {where}"
            compared += 1
    return "compared" if compared else "refused"


# ---------------------------------------------------------------------------------------------- Z3

#: the Z3 resources of one point's query (the prover's seconds: Z3 resource units, not the wall clock)
Z3_SECONDS = 0.2


def _z3_value(b: Builder, v: Any) -> Any:
    """A translated value (a constant of the language or a Z3 term) as a Z3 term, or None for other values."""
    if is_term(v):
        return v
    if isinstance(v, bool):
        return z3.BoolVal(v)
    if isinstance(v, int):
        try:
            return b.const(v)
        except Untranslatable:
            return None
    if isinstance(v, Fraction) and b.mode == "int":
        return z3.RealVal(v)
    return None


def _fits(b: Builder, v: int) -> bool:
    return -2 ** (b.bits - 1) <= v < 2 ** (b.bits - 1)


def _equals(b: Builder, term: Any, want: Any) -> Any:
    """The Z3 condition "term has the language's value `want`" (a truth value is the number 0 or 1 too)."""
    if z3.is_bool(term):
        if isinstance(want, bool):
            return term == z3.BoolVal(want)
        if type(want) is int and b.mode == "int":
            return z3.If(term, z3.IntVal(1), z3.IntVal(0)) == want
        if type(want) is int and _fits(b, want):
            return z3.If(term, b.const(1), b.const(0)) == b.const(want)
        return z3.BoolVal(False)
    if isinstance(want, bool):
        want = int(want)
    if b.mode == "bv":
        if type(want) is not int or not _fits(b, want):
            return z3.BoolVal(False)   # a value the width cannot hold: only an obligation may stand for it
        return term == b.const(want)
    if z3.is_real(term) or isinstance(want, Fraction):
        return (z3.ToReal(term) if z3.is_int(term) else term) == z3.RealVal(want)
    return term == z3.IntVal(want)


#: the longest value a Z3 check states as a numeral (z3 writes numerals as decimal text)
MAX_NUMERAL_BITS = 10_000


def check_z3(table: dict, text: str, points: list[dict], mode: str, width: int = 32) -> str:
    """Translate `text` in one world (bit-vectors: names below 2**width in magnitude, width + 4 bits of
    computation, as checkers/z3/world.py) and check the module docstring's two conditions at `points`."""
    ref = make(table, text)
    if ref is None:
        return "refused by the language"
    b = Builder(ref.ns, mode, width + 4)
    names = {"x": b.var("x"), "y": b.var("y")}
    try:
        value = b.term(ref.tree, dict(names))
        facts = b.assertions()
        ob, _ = b.obligation()
    except (Untranslatable, NimjosError, z3.Z3Exception):
        return "refused"
    term = _z3_value(b, value)
    if term is None:
        return "refused (a value with no Z3 term)"
    judged = 0
    for p in points:
        if mode == "bv" and not all(-(1 << width) <= v < (1 << width) for v in p.values()):
            continue            # outside the class
        want = ref.at(p)
        if want is SKIP or (type(want) in (int, Fraction) and max(abs(Fraction(want).numerator).bit_length(),
                                                                   Fraction(want).denominator.bit_length())
                            > MAX_NUMERAL_BITS):
            continue            # too costly, or too long to write as a Z3 numeral (Python's 4,300 digits)
        sub = [(names[n], b.const(v)) for n, v in p.items()]
        cond = z3.Not(ob) if want is UNDEFINED else z3.Or(_equals(b, term, want), z3.Not(ob))
        s = z3.Solver()
        s.add(*[z3.substitute(f, *sub) for f in facts])
        s.add(z3.substitute(cond, *sub))
        r = check(Budget.seconds(Z3_SECONDS), s)
        what = "has no value" if want is UNDEFINED else f"gives {want!r}"
        world = f"bv world (width {width})" if mode == "bv" else "int world"
        assert r != z3.unsat, (f"Z3 {world}: {text!r} at {show(p)}: the language {what}, the translation excludes "
                               "it and no obligation fails there"
                               + (f" (abstractions {sorted(b.abstractions)})" if b.abstractions else "")
                               + f"\n{ref.spec()}")
        judged += r == z3.sat
    return f"judged {mode}" if judged else f"undecided {mode}"


# ---------------------------------------------------------------------------------------------- Walnut

#: the window of naturals each Walnut answer is compared with (x, y < WALNUT_SIDE)
WALNUT_SIDE = 16
#: the limits of one batch's run: the largest automaton, the states built in all, a wall-clock backstop
WALNUT_STATES, WALNUT_TOTAL, WALNUT_SECONDS = 20_000, 3_000_000, 300.0
_EVAL = re.compile(r'^eval (\w+) ')


def _walnut_items(k: int, ref: Any) -> tuple[list[str], dict, Numeration] | None:
    """The commands of statement k: its formula with free x, y (``t<k>``) and that translation's obligations
    (``o<k>_<j>``), and the claim path's queries for ``phi`` and ``not phi`` (``a<k>``, ``e<k>`` with their
    obligations), in the numeration the prover would choose (msd_2, else the one a term asks for); None when
    Walnut's translation refuses the formula."""
    num = BASE2
    for _ in range(2):
        try:
            tr = Translator(ref.ns, num=num)
            unit = Unit(["x", "y"])
            f = tr.formula(ref.tree, {"x": "x", "y": "y"}, unit)
            break
        except WrongNumeration as exc:
            if num is not BASE2:
                return None
            num = numeration(exc.wanted)
        except NotAutomatic:
            return None
    cmds = [f'eval t{k} "{pad(["x", "y"], f)}";']
    cmds += [f'eval o{k}_{j} "{ob}";' for j, (ob, _) in enumerate(unit.obligations)]
    roles = {f"t{k}": "formula", **{f"o{k}_{j}": "obligation" for j in range(len(unit.obligations))}}
    for tag, stmt in (("a", ref.tree), ("e", build.negation(ref.tree))):
        try:
            job = holds_job(ref.ns, stmt, ["x", "y"], {}, None, None, num=num)
        except NotAutomatic:
            continue
        for c in job.commands:
            m = _EVAL.match(c)
            if m is None or m.group(1) == "cex":
                continue
            role = job.queries.get(m.group(1), "obligation")
            name = f"{tag}{k}" if role == "holds" else f"{tag}{k}_{m.group(1)}"
            cmds.append(_EVAL.sub(f"eval {name} ", c))
            roles[name] = tag if role == "holds" else f"{tag}-obligation"
    return [in_numeration(c, num) for c in cmds], roles, num


def check_walnut(statements: list[tuple[dict, str]]) -> list[str]:
    """Decide a batch of statements with one Walnut run and compare each answer with the language on the window
    x, y < :data:`WALNUT_SIDE` (Walnut's class: the naturals); see the module docstring. The statements of
    each numeration (msd_2, Fibonacci...) go to one run of their own."""
    return _check_walnut_batch([(table, text, None) for table, text in statements])


def check_walnut_terms(terms: list[tuple[dict, str]], far: list[int]) -> list[str]:
    """Integer terms of x (Beatty terms: ``isqrt(c * t * t)``, ``floor_phi(t)``...), each translated as the statement
    ``TERM == y`` and judged as :func:`check_walnut` judges statements, and further, when every obligation of the
    translation holds: at each x of `far` (far beyond the window: :func:`checkers.prove.walnut.run.accepts` reads
    any natural) the automaton accepts (x, v), v the language's value there, and neither (x, v - 1) nor (x, v + 1)
    (no y where v is negative); and Walnut proves that it accepts at most one y for each x, and does not prove that
    every x has one where some v is negative."""
    items = []
    for table, term in terms:
        ref = make(table, term, ("x",))
        items.append((table, f"({term}) == y", (ref, far) if ref is not None else None))
    return _check_walnut_batch(items)


def _check_walnut_batch(items: list[tuple[dict, str, Any]]) -> list[str]:
    """The events of statements (table, text, far: a term's reference and its far points, or None), one Walnut run
    per numeration."""
    groups: dict = {}
    events: dict = {}
    for k, (table, text, far) in enumerate(items):
        ref = make(table, text)
        if ref is None:
            events[k] = "refused by the language"
            continue
        cmds = _walnut_items(k, ref)
        if cmds is None:
            events[k] = "refused"
            continue
        if far is not None:         # the formula again as a def, and the queries that it is a function of x
            f = next(c for c in cmds[0] if c.startswith(f"eval t{k} "))
            cmds[0].append(f.replace(f"eval t{k} ", f"def d{k} ", 1))
            cmds[0].append(f'eval f{k}_total "{cmds[2].prefix}Ax Ey $d{k}(x,y)";')
            cmds[0].append(f'eval f{k}_unique "{cmds[2].prefix}Ax,y,z ($d{k}(x,y) & $d{k}(x,z)) => y = z";')
            cmds[1].update({f"f{k}_total": "function", f"f{k}_unique": "function"})
        groups.setdefault(cmds[2].name, []).append((k, ref, cmds, far))
    for name, members in groups.items():
        events.update(_check_walnut_run(numeration(name), members))
    return [events[k] for k in sorted(events)]


def _check_far(num: Numeration, auto: str, term: Any, points: list[int], answers: dict, spec: str) -> None:
    """A term's automaton (``TERM == y`` over the naturals, exact by its obligations) at far points: (x, v) accepted
    for the language's value v, (x, v +- 1) not; where v is negative, no y at all (the statement's comparison is
    exact in the integers: ``(isqrt(5 * x * x) - 3 * x) // 2 == y`` has no natural y from x = 1 on), so (x, 0) is
    not accepted and Walnut does not prove every x a value; Walnut's proof that at most one y is accepted."""
    negative = False
    for x in points:
        want = term.at({"x": x})
        if want is SKIP:
            continue
        assert want is not UNDEFINED and type(want) is int, (
            f"Walnut ({num.walnut}): the translation of {term.text!r} is exact by its obligations, but the language "
            f"gives {want!r} at x={x}\n{spec}")
        if want < 0:
            negative = True
            assert not accepts(auto, (x, 0), num), (
                f"Walnut ({num.walnut}): {term.text!r} at x={x}: the language says {want}, the automaton accepts 0\n{spec}")
            continue
        got = [accepts(auto, (x, v), num) for v in (want - 1, want, want + 1)]
        assert got == [False, True, False] or (want == 0 and got[1:] == [True, False]), (
            f"Walnut ({num.walnut}): {term.text!r} at x={x}: the language says {want}, the automaton accepts "
            f"{[v for v, a in zip((want - 1, want, want + 1), got) if a]} among {want - 1}..{want + 1}\n{spec}")
    assert answers.get("unique") is True and not (negative and answers.get("total") is not False), (
        f"Walnut ({num.walnut}): {term.text!r} is exact by its obligations but Walnut does not prove it a function of "
        f"x (every x has a natural value: {answers.get('total')}, only one: {answers.get('unique')}; a value is "
        f"negative at a far point: {negative})\n{spec}")


def _check_walnut_run(num: Numeration, members: list) -> dict:
    """One Walnut run in numeration `num` for the statements (k, reference, commands, far) given; each one's
    event."""
    refs, cmds, roles, events, fars = {}, [], {}, {}, {}
    for k, ref, items, far in members:
        refs[k] = ref
        cmds += items[0]
        roles.update(items[1])
        fars[k] = far
    res = run(library(cmds, num) + cmds, timeout=WALNUT_SECONDS, max_states=WALNUT_STATES, max_total=WALNUT_TOTAL)
    if res.state_limit or res.work_limit or res.timed_out:
        return {k: "a limit stopped the run" for k in refs}
    window = list(itertools.product(range(WALNUT_SIDE), repeat=2))
    for k, ref in refs.items():
        mine = {n: r for n, r in roles.items() if re.fullmatch(rf"[toae]{k}(_\w+)?", n)}
        answers = {n: res.verdicts.get(n) for n, r in mine.items() if r != "formula"}
        function = {n.split("_")[-1]: res.verdicts.get(n) for n, r in roles.items()
                    if r == "function" and n.startswith(f"f{k}_")}
        values = {p: ref.at({"x": p[0], "y": p[1]}) for p in window}
        spec = ref.spec(extra='domain = "x >= 0 and y >= 0"')
        judged = False
        # the formula's automaton, exact (by its obligations) on the naturals
        obs = [answers[n] for n, r in mine.items() if r == "obligation"]
        auto = res.automata.get(f"t{k}")
        if auto is not None and all(v is True for v in obs):
            for p, want in values.items():
                if want is SKIP:
                    continue
                assert want is not UNDEFINED, (f"Walnut: {ref.text!r} at {show({'x': p[0], 'y': p[1]})}: the language "
                                               f"has no value, the translation's obligations all hold\n{spec}")
                assert accepts(auto, p, num) == bool(want), (
                    f"Walnut ({num.walnut}): {ref.text!r} at {show({'x': p[0], 'y': p[1]})}: the language says "
                    f"{want!r}, the automaton {'accepts' if accepts(auto, p, num) else 'rejects'} it\n{spec}")
            if fars[k] is not None:
                _check_far(num, auto, fars[k][0], fars[k][1], function, spec)
            judged = True
        # the claim path: a proof of "for all: phi" or "for all: not phi" (no point has phi)
        for tag in ("a", "e"):
            proved = answers.get(f"{tag}{k}") is True and all(
                answers[n] is True for n, r in mine.items() if r == f"{tag}-obligation")
            if not proved:
                continue
            bad = [p for p, v in values.items() if v is not SKIP and (v is UNDEFINED or bool(v) != (tag == "a"))]
            assert not bad, (f"Walnut proves {'for all x, y >= 0: phi' if tag == 'a' else 'no x, y >= 0 has phi'} for "
                             f"phi = {ref.text!r}, but the language gives {values[bad[0]]!r} at "
                             f"{show({'x': bad[0][0], 'y': bad[0][1]})}\n{spec}")
            judged = True
        events[k] = "judged" if judged else "undecided"
    return events


# ---------------------------------------------------------------------------------------------- fast engines

#: both engines refuse to explore more (a generated game may be wide)
ENGINE_POSITIONS, ENGINE_EDGES = 50_000, 400_000


def _solve(decl: GameDecl, values: tuple, positions: list, fast: bool) -> tuple[Any, str]:
    """The Grundy values at `positions` of a fresh instance, by the reference engine alone or with the fast
    engines forced on (any window size), or the error raised; and the engine that answered."""
    twin = GameDecl(decl.name, decl.title, decl.params, decl.position, decl.moves)
    game = twin.instance(values)
    engine = ReferenceEngine(max_positions=ENGINE_POSITIONS, max_edges=ENGINE_EDGES)
    engine.use_fast = fast
    engine.fast_min_positions = 0
    try:
        engine.solve(game, positions)
        return {p: game.lookup(p) for p in positions}, engine.describe_last()
    except NimjosError as exc:
        return exc, ""


def check_fast(table: dict, values: tuple, side: int) -> str:
    """The fast engines' Grundy table of a declared game against the reference engine's, on the window of
    coordinates below `side` (the reference engine's error, if any, must be the fast path's too)."""
    try:
        decl = GameDecl.declare("g", table, spec_namespace())
    except NimjosError:
        return "refused by the language"
    dim = len(table["position"])
    positions = list(range(side)) if dim == 1 else list(itertools.product(range(side), repeat=2))
    want, _ = _solve(decl, values, positions, fast=False)
    got, name = _solve(decl, values, positions, fast=True)
    if isinstance(want, ResourceError):
        return "too large for the reference engine"
    game = f"[game.g] {table} with params {dict(zip(table['params'], values))}"
    if isinstance(want, Exception):
        assert isinstance(got, Exception), f"the reference engine raises {want}, the fast path ({name}) does not: {game}"
        return "both raise"
    assert not isinstance(got, Exception), f"the fast path raises {got}, the reference engine does not: {game}"
    diff = [p for p in positions if got[p] != want[p]]
    assert not diff, (f"{name}: G{diff[0]} = {got[diff[0]]}, the reference engine {want[diff[0]]} "
                      f"({len(diff)} positions differ): {game}")
    return name if "fast" in name else "left to the reference engine"
