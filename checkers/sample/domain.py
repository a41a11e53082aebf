"""Where the sampler draws: inside the claim's domain (``plan.domain``, :mod:`nimjos.spec.domain`), beyond its
window. A name the domain leaves unbounded above goes up to a far bound (up to 10^18, as large as one
evaluation allows, see :mod:`checkers.sample.scale`); a name the domain bounds keeps the domain's bound (a
statement about ``n < 100`` is drawn up to 99, never at 124). A domain written in the spec (``domain = ...``)
also gives the lower bounds and the filters: the window's own filters and lower bounds never narrow the sample
(a window of even x with the domain ``x >= 0`` draws odd x too; the domain ``x >= -5`` draws negative x, and a
name it does not bound below is drawn down to minus the far bound); a domain read from ``for_all`` keeps them,
since they are its own. Every drawn instance satisfies ``domain.contains`` (others are rejected). Functions and sets bound by ``functions`` /
``nondecreasing`` / ``subsets`` are drawn from wider families only when the domain leaves them free.

Hypothesis draws the values (:func:`draw_env`): uniform integers, spread over every size and shrunk towards
the lower bounds, mixed with structured values (:func:`checkers.sample.sides.structured`). Each draw says
whether it lies beyond the window, whether it sits on the domain's edge (every name still inside the window
at its lowest value: a terminal position with only a parameter large) and the largest magnitude of its
integers (:class:`Drawn`). :func:`random_env` draws plainly near the far bound, to probe the cost of one
evaluation.

>>> from nimjos.spec.loader import load_spec
>>> import pathlib
>>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
>>> plan = spec.claims[0].plan()
>>> dom = build_domain(plan, plan.window, spec.namespace)
>>> dom.far = 1000
>>> dom.describe(), 750 <= random_env(dom, random.Random(1))["x"] <= 1000
('x up to 10^3', True)
>>> from hypothesis import given, settings, strategies as st
>>> drawn = []
>>> @settings(max_examples=5, database=None)
... @given(st.data())
... def draw(data):
...     drawn.append(draw_env(data, dom))
>>> draw(); all(0 <= d.env["x"] <= 1000 for d in drawn)
True
"""
from __future__ import annotations

import ast
import functools
import math
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st

from nimjos.lang.binders import Binder, conjuncts
from nimjos.lang.builtins import FiniteFunction, iter_items
from nimjos.lang.compiler import compile_tree
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import copy_tree
from nimjos.spec.domain import Domain as ClaimDomain
from nimjos.spec.plan import ClaimPlan
from checkers.sample.sides import Members, moduli, structured

#: the far bound tried first, and the ladder down from it when one evaluation costs too much
FAR = 10 ** 18
#: a range of at most this many values is drawn uniformly only (no structured values)
FEW = 16
_ERRORS = (EvalError, SpecError, TypeError, KeyError, ZeroDivisionError)


@dataclass
class NameDomain:
    """How one bound name is drawn: a range (lo, far or dependent hi) or members of a finite family."""

    name: str
    level: Any
    extended: bool = False          # the domain lets the name go beyond the window's edge
    window_hi: int | None = None    # the window's constant upper bound (None: not constant)
    window_lo: int | None = None    # as written: the window's constant lower bound (for the domain's edge)
    dom_highs: list = field(default_factory=list)  # the domain's upper bounds of a name it bounds: (fn, strict)
    #: a domain written in the spec: its lower bounds of the name, (fn, strict) ([]: unbounded below); None: the
    #: window's (a domain read from for_all keeps them)
    dom_lows: list | None = None
    #: the conditions checked as soon as the name is drawn: the window's filters, or those of a written domain
    filters: list = field(default_factory=list)
    family: tuple | None = None     # ("functions" | "nondecreasing" | "subsets", args) drawn from a wider family


@dataclass
class Domain:
    """The names of a window, in binding order, each with how it is drawn, and the claim's domain."""

    binder: Any
    names: list[NameDomain] = field(default_factory=list)
    far: int = FAR
    claim_domain: ClaimDomain | None = None
    window: Any = None              # env -> whether the instance lies in the window (None: unknown, never)
    mods: list[int] = field(default_factory=list)
    members: Members | None = None  # the inside of a set claim, found by Z3 (None: no sides)
    #: the bounds as written (``sample.for_all``): nothing widened, a name unbounded above goes up to the far bound
    as_written: bool = False
    keep: tuple = ()                # as written: the claim's names (a drawn binding is cut to them)
    alternatives: list = field(default_factory=list)   # as written: one Domain per condition, drawn in turn
    pre_filters: list = field(default_factory=list)    # conditions on no drawn name (checked first)

    def widened(self) -> list[NameDomain]:
        """The names drawn up to the far bound: widened beyond the window, or (as written) unbounded above."""
        if self.alternatives:
            return [d for a in self.alternatives for d in a.widened()]
        if self.as_written:
            return [d for d in self.names if d.level.members is None and not d.level.highs]
        return [d for d in self.names if d.extended]

    def window_top(self) -> int | None:
        """The largest constant upper edge of the window among the names drawn beyond it (None: none known)."""
        if self.alternatives:
            named = [d for a in self.alternatives for d in a.names]
        else:
            named = self.names if self.as_written else self.widened()
        return max((d.window_hi for d in named if d.window_hi is not None), default=None)

    def describe(self) -> str:
        if self.alternatives or self.as_written:
            n = len(self.alternatives) or 1
            where = "drawn from sample.for_all" + (f" ({n} alternatives)" if n > 1 else "")
            far = sorted({d.name for d in self.widened()})
            return where + (f"; {', '.join(far)} up to {_magnitude(self.far)}" if far else "")
        ext = [d.name for d in self.names if d.extended and not d.dom_highs]
        kept = [d.name for d in self.names if d.extended and d.dom_highs]
        fam = [d.name for d in self.names if d.family]
        parts = []
        if ext:
            parts.append(f"{', '.join(ext)} up to {_magnitude(self.far)}")
        if kept:
            parts.append(f"{', '.join(kept)} up to the domain's bound")
        if fam:
            parts.append(f"{', '.join(fam)} from wider families")
        return "; ".join(parts)

    def in_window(self, env: dict) -> bool:
        if self.window is None:
            return False
        try:
            return bool(self.window(env))
        except _ERRORS:
            return False

    def in_domain(self, env: dict) -> bool:
        return self.claim_domain is None or self.claim_domain.contains(env)


@dataclass
class Drawn:
    """One drawn instance: its values, whether it lies beyond the window and on the domain's edge, its size."""

    env: dict
    beyond: bool = False
    edge: bool = False
    largest: int = 0


def _magnitude(n: int) -> str:
    e = round(math.log10(n)) if n > 0 else 0
    return f"10^{e}" if 10 ** e == n else f"{n:,}"


def _is_constant(tree: ast.expr, ns: Any) -> bool:
    return not variables_of(tree, ns)


def _predicate(tree: ast.expr | None, ns: Any, names: tuple) -> Any:
    if tree is None:
        return None
    try:
        return compile_tree(tree, ns, set(names))
    except SpecError:
        return None


def _domain_levels(cd: ClaimDomain | None, ns: Any) -> dict[str, Any] | None:
    """The domain's levels by name (each name's bounds as the domain states them); None when the domain is not
    a condition a binder reads (a name with no bound on the bare name)."""
    binder = cd.binder(ns) if cd is not None else None
    return None if binder is None else {lv.name: lv for lv in binder.levels}


def _domain_filters(cd: ClaimDomain, ns: Any, order: list[str]) -> tuple[list, dict[str, list]]:
    """A written domain's conjuncts as filters: (those on no drawn name, {name: those checked once it and the names
    before it in `order` are drawn})."""
    pre: list = []
    by_name: dict[str, list] = {}
    position = {n: i for i, n in enumerate(order)}
    assert cd.tree is not None, "a written domain has its tree"
    for part in conjuncts(cd.tree):
        fn = compile_tree(part, ns, set(order))
        at = [position[n] for n in variables_of(part, ns) if n in position]
        if at:
            by_name.setdefault(order[max(at)], []).append(fn)
        else:
            pre.append(fn)
    return pre, by_name


def build_domain(plan: ClaimPlan, binder: Any, ns: Any, widen_sets: bool = False,
                 members: Members | None = None, as_written: bool = False) -> Domain:
    """Read how each name of `binder` is drawn (see the module docstring). Functions from ``functions`` /
    ``nondecreasing`` take values from a wider range when the domain leaves them free (their domain 1..K
    stays); sets from ``subsets`` are widened only with `widen_sets` too. With `as_written` (a binder of
    ``sample.for_all``) nothing is widened: each name keeps the bounds written, a name unbounded above goes up to
    the far bound, and the window's edges (for "beyond") are read from the claim's window.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan()
    >>> [(d.name, d.extended, d.window_hi) for d in build_domain(plan, plan.window, spec.namespace).names]
    [('x', True, 20)]
    """
    cd = plan.domain
    names = tuple(binder.names)
    assert plan.window is not None, "a sampled claim has a window"
    dom = Domain(binder, claim_domain=cd, window=_predicate(plan.window.tree if plan.window.text else None, ns,
                                                                tuple(plan.window.names)),
                 mods=moduli(plan.expression_trees() + [binder.tree], ns), members=members,
                 pre_filters=list(binder.pre_filters))
    free = set(cd.unbounded) if cd is not None else set(names)
    dlevels = _domain_levels(cd, ns) or {}
    dhighs = {n: list(lv.highs) for n, lv in dlevels.items() if lv.members is None and lv.highs}
    # a domain written in the spec gives the filters and the lower bounds, not the window (which adds its own)
    written = cd is not None and bool(cd.text) and not as_written
    if written and cd is not None:
        dom.pre_filters, dom_filters = _domain_filters(cd, ns, [lv.name for lv in binder.levels])
    if as_written:
        dom.as_written, dom.keep, dom.members, free = True, tuple(plan.window.names), None, set()
        edges = {lv.name: lv for lv in plan.window.levels}
    for level in binder.levels:
        nd = NameDomain(level.name, level, filters=dom_filters.get(level.name, []) if written else list(level.filters))
        if written and level.members is None and dlevels:
            # the domain's lower bounds ([] when it does not bound the name: drawn down to minus the far bound); when
            # no binder reads the domain, or it gives the name a set, the window's stay (every draw is still checked
            # against the domain)
            found = dlevels.get(level.name)
            nd.dom_lows = [] if found is None else list(found.lows) if found.members is None else None
        if as_written:
            edge = edges.get(level.name)
            if edge is not None and edge.members is None:
                nd.window_hi = _constant_bound(edge, ns)
                nd.window_lo = _constant_bound(edge, ns, upper=False)
        elif level.members is not None:
            call = _family_call(level.member_tree)
            if call is not None and (call[0] != "subsets" or widen_sets) and level.name in free:
                nd.family = call
        else:
            nd.window_hi = _constant_bound(level, ns)
            if level.name in free or (nd.dom_lows is not None and _below(nd, level)):
                nd.extended = True
                nd.dom_highs = dhighs.get(level.name, [])
            elif nd.window_hi is not None and level.name in dhighs:
                nd.dom_highs = dhighs[level.name]
                nd.extended = _above(nd.dom_highs, nd.window_hi)
        dom.names.append(nd)
    return dom


def drawing_domain(plan: ClaimPlan, texts: tuple, ns: Any) -> Domain:
    """The domain of ``sample.for_all``: one or more conditions (alternatives, drawn in turn) binding the claim's
    names, possibly through helper names (a parametrisation of the set the assumption selects); each drawn
    binding is cut to the claim's names and checked against its domain and assumption like any other.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan()
    >>> import dataclasses
    >>> from nimjos.lang.syntax import parse
    >>> texts = ("0 <= j <= 30 and x in {2 * j}", "x >= 100")   # sample.for_all, parsed by the plan
    >>> plan = dataclasses.replace(plan, sample_for_all=tuple(parse(t) for t in texts))
    >>> dom = drawing_domain(plan, texts, spec.namespace)
    >>> dom.far = 1000
    >>> dom.describe()
    'drawn from sample.for_all (2 alternatives); x up to 10^3'
    """
    assert len(plan.sample_for_all) == len(texts), "the plan has the tree of each alternative of sample.for_all"
    alts = [build_domain(plan, Binder(copy_tree(tree), ns, set(), allow_unbounded=True, text=t), ns, as_written=True)
            for tree, t in zip(plan.sample_for_all, texts)]
    first = alts[0]
    return Domain(first.binder, claim_domain=first.claim_domain, window=first.window, mods=first.mods,
                  as_written=True, keep=first.keep, alternatives=alts)


def _constant_bound(level: Any, ns: Any, upper: bool = True) -> int | None:
    """A level's upper (or lower) bound when it is a constant (the window's edge), else None."""
    bounds, trees = (level.highs, level.high_trees) if upper else (level.lows, level.low_trees)
    if not bounds or len(trees) != len(bounds) or not all(_is_constant(t, ns) for t in trees):
        return None
    try:
        if upper:
            return min(_round_high(fn({}), strict) for fn, strict in bounds)
        return max(_round_low(fn({}), strict) for fn, strict in bounds)
    except (EvalError, SpecError, TypeError):
        return None


def _below(nd: NameDomain, level: Any) -> bool:
    """Whether a written domain's lower bounds of a name may lie below the window's (a bound depending on names
    may, and so does no bound at all)."""
    try:
        window_lo = max(_round_low(fn({}), strict) for fn, strict in level.lows)
        return not nd.dom_lows or max(_round_low(fn({}), strict) for fn, strict in nd.dom_lows) < window_lo
    except _ERRORS:
        return True


def _above(highs: list, window_hi: int) -> bool:
    """Whether the domain's bounds may exceed the window's constant one (a bound depending on names may)."""
    try:
        return min(_round_high(fn({}), strict) for fn, strict in highs) > window_hi
    except _ERRORS:
        return True


def _round_high(v: Any, strict: bool) -> int:
    return math.ceil(v) - 1 if strict else math.floor(v)


def _round_low(v: Any, strict: bool) -> int:
    return math.floor(v) + 1 if strict else math.ceil(v)


def _family_call(tree: ast.expr | None) -> tuple | None:
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("functions", "nondecreasing", "subsets") \
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in tree.args):
        return (tree.func.id, tuple(a.value for a in tree.args if isinstance(a, ast.Constant)))
    return None


def value_range(nd: NameDomain, dom: Domain, env: dict) -> tuple[int, int]:
    """The range a name is drawn from, given the names drawn before it."""
    level = nd.level
    lo = _low(nd, dom, env)
    if nd.extended:
        hi = max(lo, dom.far)
        for fn, strict in nd.dom_highs:
            try:
                hi = min(hi, _round_high(fn(env), strict))
            except _ERRORS:
                continue
    elif not level.highs:
        hi = max(lo, dom.far)
    else:
        hi = min(_round_high(fn(env), strict) for fn, strict in level.highs)
        if dom.as_written:
            hi = min(hi, max(lo, dom.far))
    return lo, hi


def _low(nd: NameDomain, dom: Domain, env: dict) -> int:
    """The least value a name is drawn at: the written domain's lower bound (those it can evaluate with the names
    drawn before it; minus the far bound when it states none), else the window's."""
    if nd.dom_lows is not None:
        if not nd.dom_lows:
            return -dom.far
        lows = []
        for fn, strict in nd.dom_lows:
            try:
                lows.append(_round_low(fn(env), strict))
            except _ERRORS:
                continue   # names drawn later: the domain's check of the whole draw keeps it
        if lows:
            return max(lows)
    level = nd.level
    return max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0


@functools.lru_cache(maxsize=4096)
def special_values(lo: int, hi: int, mods: tuple[int, ...], window_hi: int | None) -> tuple[int, ...]:
    """The structured values of :func:`checkers.sample.sides.structured`, as a tuple, computed once per set of
    arguments (a name whose range does not depend on the names drawn before it has the same ones at every draw).

    >>> special_values(0, 40, (3,), 20) == tuple(structured(0, 40, [3], 20))
    True
    """
    return tuple(structured(lo, hi, list(mods), window_hi))


@functools.lru_cache(maxsize=4096)
def int_strategy(lo: int, hi: int, special: tuple[int, ...] = (), above: int | None = None) -> Any:
    """The strategy :func:`draw_int` draws from. Built once per set of arguments: a strategy is immutable, and one
    made anew at every draw cost hypothesis its validation and labels again (a third of a sampled claim's CPU time
    for cheap claims); the same arguments draw the same values from the same choices either way.

    >>> int_strategy(0, 10, (0, 1, 10), 5) is int_strategy(0, 10, (0, 1, 10), 5)
    True
    """
    parts = [st.integers(lo, hi)]
    if above is not None and lo <= above < hi:
        parts.append(st.integers(above + 1, hi))
    if special:
        parts.append(st.sampled_from(special))
    return st.one_of(*parts) if len(parts) > 1 else parts[0]


def draw_int(data: Any, lo: int, hi: int, label: str, special: list[int] | tuple[int, ...] | None = None,
             above: int | None = None) -> int:
    """An integer in [lo, hi]: hypothesis spreads its draws over every size and shrinks them towards lo; with
    `special`, some draws come from those structured values; with `above` (the window's edge, below hi), some come
    from (above, hi], beyond the window.

    >>> from hypothesis import given, settings, strategies as st
    >>> seen = []
    >>> @settings(max_examples=20, database=None)
    ... @given(st.data())
    ... def draw(data):
    ...     seen.append(draw_int(data, 3, 10 ** 9, "x", [3, 4, 1024], 100))
    >>> draw(); all(3 <= x <= 10 ** 9 for x in seen)
    True
    """
    return data.draw(int_strategy(lo, hi, tuple(special or ()), above), label=label)


def draw_member(data: Any, nd: NameDomain, env: dict) -> Any:
    """A member of a name's finite family: from a wider family when it is a functions/subsets call."""
    if nd.family is not None:
        kind, args = nd.family
        if kind in ("functions", "nondecreasing"):
            K, lo, hi = args
            hi2 = hi + 3 * max(1, hi - lo + 1)
            vals = data.draw(st.lists(st.integers(lo, hi2), min_size=K, max_size=K), label=nd.name)
            if kind == "nondecreasing":
                vals = sorted(vals)
            return FiniteFunction(tuple(vals))
        lo, hi = args
        hi2 = 2 * hi - lo + 1
        return frozenset(data.draw(st.sets(st.integers(lo, hi2), max_size=hi2 - lo + 1), label=nd.name))
    members = list(iter_items(nd.level.members(env)))
    if not members:
        reject()
    try:
        members = sorted(members)
    except TypeError:
        members = sorted(members, key=repr)
    return data.draw(st.sampled_from(members), label=nd.name)


def _ints(v: Any) -> list[int]:
    if isinstance(v, bool):
        return []
    if isinstance(v, int):
        return [v]
    if isinstance(v, (tuple, list)):
        return [i for x in v for i in _ints(x)]
    return []


def describe_draw(dom: Domain, env: dict, lows: dict[str, int]) -> Drawn:
    """Whether an instance lies beyond the window, on the domain's edge (every integer name that stayed within
    the window at its lowest value, while some name went beyond), and the largest magnitude it reached.

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan()
    >>> d = describe_draw(build_domain(plan, plan.window, spec.namespace), {"x": 10 ** 6}, {"x": 0})
    >>> d.beyond, d.edge, d.largest
    (True, False, 1000000)
    """
    beyond = not dom.in_window(env)
    inside = []
    for nd in dom.names:
        v = env.get(nd.name)
        if nd.name not in lows or isinstance(v, bool) or not isinstance(v, int):
            continue
        if not ((nd.extended or dom.as_written) and nd.window_hi is not None and v > nd.window_hi):
            inside.append(v == lows[nd.name])
    edge = beyond and bool(inside) and all(inside)
    largest = max((abs(i) for v in env.values() for i in _ints(v)), default=0)
    return Drawn(env, beyond, edge, largest)


def draw_env(data: Any, dom: Domain, base: dict | None = None) -> Drawn:
    """A binding of every name of the domain (rejecting draws that break a filter or lie outside the claim's
    domain); for a set claim, half the draws are moved into a set the claim names (its inside). A domain of
    ``sample.for_all`` draws from one of its alternatives, rejects values beyond the far bound and keeps the claim's
    names only."""
    if dom.alternatives:
        return draw_env(data, _alternative(dom, data.draw(st.integers(0, len(dom.alternatives) - 1),
                                                          label="alternative") if len(dom.alternatives) > 1 else 0), base)
    env = dict(base or {})
    for f in dom.pre_filters:
        if not _holds(f, env):
            reject()
    lows: dict[str, int] = {}
    for nd in dom.names:
        level = nd.level
        if level.members is not None:
            env[nd.name] = draw_member(data, nd, env)
        else:
            try:
                lo, hi = value_range(nd, dom, env)
            except _ERRORS:
                reject()   # a bound that cannot be evaluated at these values: no such instance
            if hi < lo:
                reject()
            special = special_values(lo, hi, tuple(dom.mods), nd.window_hi) if hi - lo > FEW else None
            env[nd.name] = draw_int(data, lo, hi, nd.name, special, nd.window_hi if nd.extended or dom.as_written else None)
            lows[nd.name] = lo
        for f in nd.filters:
            if not _holds(f, env):
                reject()
    if dom.as_written:
        if any(abs(i) > dom.far for v in env.values() for i in _ints(v)):
            reject()
        env = {n: v for n, v in env.items() if n in dom.keep}
        lows = {nd.name: nd.window_lo for nd in dom.names if nd.window_lo is not None}
    if dom.members is not None and dom.members.ok and data.draw(st.booleans(), label="inside"):
        levels = dom.members.levels(env)
        level = data.draw(st.sampled_from(levels), label="level") if levels else None
        moved = dom.members.near(env, level)
        if moved is None:
            reject()
        env = moved
        if not fits(dom, env):
            reject()
    if not dom.in_domain(env):
        reject()
    return describe_draw(dom, env, lows)


def _holds(f: Any, env: dict) -> bool:
    """A filter at a drawn binding; one that cannot be evaluated there rejects it (the domain's check would)."""
    try:
        return bool(f(env))
    except _ERRORS:
        return False


def _alternative(dom: Domain, i: int) -> Domain:
    """The i-th alternative of a domain of ``sample.for_all``, drawing up to the domain's far bound."""
    sub = dom.alternatives[i]
    sub.far = dom.far
    return sub


def fits(dom: Domain, env: dict) -> bool:
    """Whether a binding (moved by the member search) still lies in every drawing range and filter."""
    try:
        for nd in dom.names:
            if nd.level.members is None:
                lo, hi = value_range(nd, dom, env)
                if not lo <= env[nd.name] <= hi:
                    return False
            if not all(f(env) for f in nd.filters):
                return False
    except _ERRORS:
        return False
    return True


def random_env(dom: Domain, rng: random.Random) -> dict | None:
    """A plain random binding near the far bound (for probing costs only)."""
    if dom.alternatives:
        return random_env(_alternative(dom, rng.randrange(len(dom.alternatives))), rng)
    env: dict = {}
    try:
        for nd in dom.names:
            level = nd.level
            if level.members is not None:
                if nd.family is not None:
                    _family_sample(nd, rng, env)
                    continue
                items = list(iter_items(level.members(env)))
                if not items:
                    return None
                env[nd.name] = items[rng.randrange(len(items))]
                continue
            lo, hi = value_range(nd, dom, env)
            if hi < lo:
                return None
            env[nd.name] = rng.randint(max(lo, hi - (hi - lo) // 4), hi)
    except (EvalError, SpecError):
        return None
    return {n: v for n, v in env.items() if n in dom.keep} if dom.as_written else env


def _family_sample(nd: NameDomain, rng: random.Random, env: dict) -> None:
    assert nd.family is not None, "drawn from a family only when the name has one"
    kind, args = nd.family
    if kind in ("functions", "nondecreasing"):
        K, lo, hi = args
        vals = [rng.randint(lo, hi) for _ in range(K)]
        env[nd.name] = FiniteFunction(tuple(sorted(vals) if kind == "nondecreasing" else vals))
    else:
        lo, hi = args
        env[nd.name] = frozenset(v for v in range(lo, hi + 1) if rng.random() < 0.5)
