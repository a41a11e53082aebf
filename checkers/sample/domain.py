"""Where the sampler draws: each name of a claim's window keeps its lower bound and every bound that depends on
other names; a constant upper bound (the window's edge) is replaced by a far bound (up to 10^18, as large
as one evaluation allows, see :mod:`checkers.sample.scale`). Functions and sets bound by ``functions`` /
``nondecreasing`` / ``subsets`` are drawn from wider families. Hypothesis draws the values
(:func:`draw_env`), spread over every size and shrunk towards the lower bounds; :func:`random_env` draws
plainly near the far bound, to probe the cost of one evaluation.

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
>>> draw(); all(0 <= env["x"] <= 1000 for env, beyond in drawn)
True
"""
from __future__ import annotations

import ast
import math
import random
from dataclasses import dataclass, field
from typing import Any

from hypothesis import reject
from hypothesis import strategies as st

from nimjos.lang.analysis import size_names
from nimjos.lang.builtins import FiniteFunction, iter_items
from nimjos.lang.errors import EvalError, SpecError
from nimjos.lang.expr import variables_of
from nimjos.lang.syntax import parse
from nimjos.spec.plan import ClaimPlan

#: the far bound tried first, and the ladder down from it when one evaluation costs too much
FAR = 10 ** 18
#: a constant range of at most this many values is a stated case split, kept as it is
SMALL_RANGE = 8


@dataclass
class NameDomain:
    """How one bound name is drawn: a range (lo, far or dependent hi) or members of a finite family."""

    name: str
    level: Any
    extended: bool = False          # the window's constant upper bound was replaced by the far bound
    window_hi: int | None = None
    family: tuple | None = None     # ("functions" | "nondecreasing" | "subsets", args) drawn from a wider family


@dataclass
class Domain:
    """The names of a window, in binding order, each with how it is drawn."""

    binder: Any
    names: list[NameDomain] = field(default_factory=list)
    far: int = FAR

    def describe(self) -> str:
        ext = [d.name for d in self.names if d.extended]
        fam = [d.name for d in self.names if d.family]
        parts = []
        if ext:
            parts.append(f"{', '.join(ext)} up to {_magnitude(self.far)}")
        if fam:
            parts.append(f"{', '.join(fam)} from wider families")
        return "; ".join(parts)


def _magnitude(n: int) -> str:
    e = round(math.log10(n)) if n > 0 else 0
    return f"10^{e}" if 10 ** e == n else f"{n:,}"


def _is_constant(text: str, ns: Any) -> bool:
    try:
        return not variables_of(parse(text), ns)
    except SpecError:
        return False


def build_domain(plan: ClaimPlan, binder: Any, ns: Any, widen_sets: bool = False) -> Domain:
    """Read how each name of `binder` is drawn (see the module docstring). Functions from ``functions`` /
    ``nondecreasing`` take values from a wider range (their domain 1..K stays, other bounds depend on it);
    sets from ``subsets`` are widened only with `widen_sets` (constants elsewhere in a claim are often
    tuned to the window's sets).

    >>> from nimjos.spec.loader import load_spec
    >>> import pathlib
    >>> spec = load_spec(pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "tiny.toml")
    >>> plan = spec.claims[0].plan()
    >>> [(d.name, d.extended, d.window_hi) for d in build_domain(plan, plan.window, spec.namespace).names]
    [('x', True, 20)]
    """
    dom = Domain(binder)
    sizes = size_names([plan.claim.statement_text, plan.claim.assume_text or "", binder.text], ns) | set(plan.coords)
    for level in binder.levels:
        nd = NameDomain(level.name, level)
        if level.members is not None:
            call = _family_call(level.member_text, ns)
            if call is not None and (call[0] != "subsets" or widen_sets):
                nd.family = call
        elif level.highs:
            const = [_is_constant(t, ns) for t in level.high_text] + [_is_constant(t, ns) for t in level.low_text]
            if all(const):
                try:
                    nd.window_hi = min(_round_high(fn({}), strict) for fn, strict in level.highs)
                    lo = max(_round_low(fn({}), strict) for fn, strict in level.lows) if level.lows else 0
                except (EvalError, SpecError, TypeError):
                    nd.window_hi, lo = None, 0
                # a range of a few values is a stated case split (0 <= e <= 1), not a window edge
                nd.extended = nd.window_hi is None or nd.window_hi - lo + 1 > SMALL_RANGE or level.name in sizes
        dom.names.append(nd)
    return dom


def _round_high(v: Any, strict: bool) -> int:
    return math.ceil(v) - 1 if strict else math.floor(v)


def _round_low(v: Any, strict: bool) -> int:
    return math.floor(v) + 1 if strict else math.ceil(v)


def _family_call(text: str | None, ns: Any) -> tuple | None:
    if not text:
        return None
    try:
        tree = parse(text)
    except SpecError:
        return None
    if isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name) and tree.func.id in ("functions", "nondecreasing", "subsets") \
            and all(isinstance(a, ast.Constant) and type(a.value) is int for a in tree.args):
        return (tree.func.id, tuple(a.value for a in tree.args))
    return None


def draw_int(data: Any, lo: int, hi: int, label: str) -> int:
    """An integer in [lo, hi]: hypothesis spreads its draws over every size and shrinks them towards lo."""
    return data.draw(st.integers(lo, hi), label=label)


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


def draw_env(data: Any, dom: Domain, base: dict | None = None) -> tuple[dict, bool]:
    """A binding of every name of the domain (rejecting draws that break a filter); also whether some
    extended name went beyond the window."""
    env = dict(base or {})
    for f in dom.binder.pre_filters:
        if not f(env):
            reject()
    beyond = False
    for nd in dom.names:
        level = nd.level
        if level.members is not None:
            env[nd.name] = draw_member(data, nd, env)
        else:
            lo = max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0
            if nd.extended or not level.highs:
                hi = max(lo, dom.far)
            else:
                hi = min(_round_high(fn(env), strict) for fn, strict in level.highs)
            if hi < lo:
                reject()
            v = draw_int(data, lo, hi, nd.name)
            env[nd.name] = v
            if nd.extended and nd.window_hi is not None and v > nd.window_hi:
                beyond = True
        for f in level.filters:
            if not f(env):
                reject()
    return env, beyond


def random_env(dom: Domain, rng: random.Random) -> dict | None:
    """A plain random binding near the far bound (for probing costs only)."""
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
            lo = max(_round_low(fn(env), strict) for fn, strict in level.lows) if level.lows else 0
            hi = dom.far if (nd.extended or not level.highs) else min(_round_high(fn(env), strict) for fn, strict in level.highs)
            if hi < lo:
                return None
            env[nd.name] = rng.randint(max(lo, hi - (hi - lo) // 4), hi)
    except (EvalError, SpecError):
        return None
    return env


def _family_sample(nd: NameDomain, rng: random.Random, env: dict) -> None:
    kind, args = nd.family
    if kind in ("functions", "nondecreasing"):
        K, lo, hi = args
        vals = [rng.randint(lo, hi) for _ in range(K)]
        env[nd.name] = FiniteFunction(tuple(sorted(vals) if kind == "nondecreasing" else vals))
    else:
        lo, hi = args
        env[nd.name] = frozenset(v for v in range(lo, hi + 1) if rng.random() < 0.5)
